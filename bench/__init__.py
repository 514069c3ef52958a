"""Benchmarks: run each as a script, e.g. ``python bench/engine.py``."""

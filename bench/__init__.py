"""Benchmarks: run each as a module from the repository, e.g. ``python -m bench.engine``."""

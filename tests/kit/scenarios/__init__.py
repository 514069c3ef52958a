"""Reliability scenarios: each exposes ``async def run(quick: bool = False) -> dict[str, object]``.

``quick`` is the small size the tests run (``tests/e2e/test_chaos_*.py``, ``test_instances.py``;
``CHAOS_SIZE=large`` runs them at full size); ``bench/chaos.py`` prints their figures.
"""

"""Scenarios of bench/chaos.py: each exposes ``async def run(quick: bool = False) -> dict[str, object]``."""

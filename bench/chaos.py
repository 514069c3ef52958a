"""Proof under fire: the reliability bench.  Drives the real bot process (``python -m bot``)
through the fake Bot API server of ``fake_telegram`` and prints, for each scenario,
what was tried and what was lost.

Run from the repository root::

    .venv/bin/python -m bench.chaos                                  # every scenario
    .venv/bin/python -m bench.chaos --scenario crash --scenario faults
    .venv/bin/python -m bench.chaos --quick                          # the small sizes the tests use

Scenarios live in ``tests/kit/scenarios/<name>.py`` (``load`` is ``bench/load.py``); each has
``async def run(quick: bool = False) -> dict[str, object]`` that prints its own report and
returns its figures.  Whether the figures are good enough is the tests' business
(``tests/e2e/test_chaos_*.py`` with ``CHAOS_SIZE=large`` assert the same scenarios at these
sizes); this only prints them.  A scenario that raises is reported in the table and the others
still run; the exit status is 1 only if one could not run to its end.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import time
import traceback
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]

# Where a scenario lives when it is not tests/kit/scenarios/<name>.py: load measures, it has no aims.
MODULES = {"load": "bench.load"}
SCENARIOS = ("crash", "faults", "hostile", "concurrency", "secrecy", "load", "instances")

# What each scenario's figures call "tried" and "lost" (the first key found is shown).
TRIED = {
    "crash": ("kills", "games"),
    "faults": ("faults", "games"),
    "hostile": ("forged updates", "updates", "tried"),
    "concurrency": ("taps", "tried"),
    "secrecy": ("games", "messages checked", "tried"),
    "load": ("games", "tried"),
    "instances": ("games", "skipped"),
}
LOST = {
    "crash": ("moves lost", "moves applied twice", "not resumed", "integrity failures", "log errors"),
    "faults": ("not finished", "moves lost", "moves applied twice", "visible duplicates", "log errors", "violations"),
    "hostile": ("crashes", "state changes", "unanswered", "lost"),
    "concurrency": ("moves applied", "extra moves", "lost"),
    "secrecy": ("leaks", "lost"),
    "load": ("errors", "lost"),
    "instances": ("not finished", "moves lost", "moves applied twice", "log errors"),
}


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--scenario",
        action="append",
        metavar="NAME",
        help=f"run this scenario (repeatable; default all: {', '.join(SCENARIOS)})",
    )
    parser.add_argument("--quick", action="store_true", help="small sizes (as the tests run them)")
    return parser.parse_args(argv)


def load(name: str) -> Callable[..., Coroutine[Any, Any, dict[str, object]]]:
    module = importlib.import_module(MODULES.get(name, f"tests.kit.scenarios.{name}"))
    return cast(Callable[..., Coroutine[Any, Any, dict[str, object]]], module.run)


def pick(figures: dict[str, object], keys: tuple[str, ...]) -> str:
    shown = [f"{key} {figures[key]}" for key in keys if key in figures]
    return ", ".join(shown) if shown else "-"


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    names = args.scenario or list(SCENARIOS)
    rows: list[tuple[str, str, str, str]] = []
    status = 0
    for name in names:
        print(f"== {name} ==", flush=True)
        began = time.monotonic()
        try:
            run = load(name)
        except ModuleNotFoundError as error:
            if error.name != MODULES.get(name, f"tests.kit.scenarios.{name}"):
                raise
            rows.append((name, "missing", "-", "-"))
            status = 1
            print(f"no scenario {name}\n", flush=True)
            continue
        try:
            figures = asyncio.run(run(quick=args.quick))
        except Exception:
            traceback.print_exc()
            rows.append((name, f"FAILED after {time.monotonic() - began:.0f} s", "-", "-"))
            status = 1
            continue
        seconds = figures.get("seconds", round(time.monotonic() - began, 1))
        rows.append((name, f"{seconds} s", pick(figures, TRIED.get(name, ())), pick(figures, LOST.get(name, ()))))
        print(flush=True)
    print(table(rows))
    return status


def table(rows: list[tuple[str, str, str, str]]) -> str:
    head = ("scenario", "time", "tried", "lost")
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(4)]
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(cell.ljust(w) for cell, w in zip(head, widths, strict=True)).rstrip(), line]
    out += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return "\n".join(out)


if __name__ == "__main__":
    raise SystemExit(main())

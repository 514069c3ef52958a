"""How long a 🎬 replay takes to draw and encode, and how big it is (aims: the longest match of any
preset within 10 s, at most 10 MB); how long a 📈 review of seat 0 takes (aim: a whole
150-point ``fives`` match within 5 s); and how much memory the bot's replay worker takes for the
longest of them (aim: idle, back to what the bot used before its first replay).

Run from the repository root::

    .venv/bin/python -m bench.replay              # about a minute and a half
    .venv/bin/python -m bench.replay --games 5
    .venv/bin/python -m bench.replay --all-frames # memory as before issue 31: every frame kept, then encoded

For every preset and seat count, ``--games`` matches are played by medium players (seeded); the
shortest and the longest (by steps: deals, plays, round ends) are drawn with
:func:`renderer.replay.steps` and encoded with :func:`renderer.replay.encode_animation`, as the
bot's replay worker does, one at a time in this process; seat 0's moves are then reviewed
(:func:`engine.review.review`), as the same worker does.

Then the memory (resident set sizes, read from ``/proc``, so on Linux): the bot's worker pool for
replays (:class:`bot.display.pictures.WorkerPool` as :class:`bot.display.replays.ReplayMaker` makes
it, ending its worker when idle) draws a short replay, then the longest match's replay and its
review; the worker's size after each, its peak, and this process with its children (what the bot
and its workers would be) before the first replay and once the idle worker is gone.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.display.pictures import WorkerPool
from bot.display.replays import draw_replay
from bot.display.reviews import draw_review
from engine import PRESETS, Match, write_record
from engine.review import review
from renderer.replay import encode_animation, steps
from tests.kit.launcher import processes
from tests.kit.positions import played_out

NAMES = ["Ann", "Bob", "Cat", "Dan"]
IDLE = 2.0  # seconds the worker is kept idle here (the bot: bot.display.replays.RETIRE_AFTER)
SAMPLE = 0.02  # seconds between looks at the worker's size
GONE_WITHIN = 10.0  # seconds an ended worker may take to exit on a busy machine


def step_count(game: Match) -> int:
    return sum(2 + len(state.plays()) for state in game.rounds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=12, help="matches played per preset and seat count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--all-frames", action="store_true", help="measure memory with every frame in memory before encoding"
    )
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    played = {
        (preset, seats): sorted((played_out(rules, seats, rng) for _ in range(args.games)), key=step_count)
        for preset, rules in PRESETS.items()
        for seats in range(rules.min_seats, rules.max_seats + 1)
    }
    (preset, seats), games = max(played.items(), key=lambda item: step_count(item[1][-1]))
    # First, while this process has drawn nothing: it stands for the bot before its first replay.
    asyncio.run(memory(games[-1], f"{preset} {seats} seats longest", all_frames=args.all_frames))
    worst = (0.0, "")
    slowest_review = (0.0, "")
    print(f"\n{'game':<22} {'steps':>5} {'length':>7} {'draw':>6} {'encode':>7} {'size':>9} {'review':>7}  format")
    for (preset, seats), games in played.items():
        for label, game in (("shortest", games[0]), ("longest", games[-1])):
            started = time.perf_counter()
            frames = steps(write_record(game), NAMES[:seats])
            drawn = time.perf_counter()
            animation = encode_animation(frames)
            done = time.perf_counter()
            review(write_record(game), 0)
            reviewed = time.perf_counter() - done
            name = f"{preset} {seats} seats {label}"
            print(
                f"{name:<22} {len(frames):>5} {animation.seconds:>6.0f}s {drawn - started:>5.2f}s"
                f" {done - drawn:>6.2f}s {len(animation.data) / 1024:>7.0f} KB {reviewed:>6.2f}s"
                f"  {animation.format} {animation.width}x{animation.height}"
            )
            worst = max(worst, (done - started, name))
            slowest_review = max(slowest_review, (reviewed, name))
    print(f"slowest replay: {worst[1]}, {worst[0]:.2f} s to draw and encode")
    print(f"slowest review: {slowest_review[1]}, {slowest_review[0]:.2f} s")
    return 0


# --- memory -------------------------------------------------------------------------------------


def draw_keeping_frames(record: dict[str, Any], names: list[str], language: str) -> int:
    """In a worker: a replay drawn as before issue 31, every frame made before the first is encoded."""
    return len(encode_animation(list(steps(record, names))).data)


def draw_streaming(record: dict[str, Any], names: list[str], language: str) -> int:
    """In a worker: a replay drawn as the bot draws it (:func:`bot.display.replays.draw_replay`)."""
    return len(draw_replay(record, names, language).data)


def megabytes(pid: int, field: str = "VmRSS") -> float | None:
    """``field`` of ``/proc/<pid>/status`` (VmRSS: resident now; VmHWM: the most it ever was), in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def children() -> list[int]:
    """This process's children (the pool's worker, multiprocessing's resource tracker)."""
    return [pid for pid, parent in processes() if parent == os.getpid()]


def worker() -> int | None:
    """The pool's worker process: a spawned child that is not multiprocessing's resource tracker."""
    for pid in children():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"multiprocessing" in command and b"resource_tracker" not in command:
            return pid
    return None


def total() -> float:
    """This process and its children, as the bot and its workers would be."""
    return sum(megabytes(pid) or 0.0 for pid in [os.getpid(), *children()])


class Peak:
    """The most the worker and the whole were resident while a job ran, looked at every SAMPLE s."""

    def __init__(self) -> None:
        self.worker = 0.0
        self.total = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Peak:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._stop.wait(SAMPLE):
            pid = worker()
            self.worker = max(self.worker, (megabytes(pid) or 0.0) if pid else 0.0)
            self.total = max(self.total, total())


def shown(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f} MB"


async def memory(game: Match, name: str, *, all_frames: bool) -> None:
    if megabytes(os.getpid()) is None:
        print("memory: not measured (no /proc here)")
        return
    seats = game.seats
    record = write_record(game)
    short = write_record(played_out(PRESETS["duel"], 2, random.Random(3)))
    draw: Callable[..., int] = draw_keeping_frames if all_frames else draw_streaming
    how = "every frame kept, then encoded (before issue 31)" if all_frames else "one frame at a time into the encoder"
    print(f"memory of the replay worker, {how}; the longest: {name}")
    pool = WorkerPool(1, retire_after=IDLE)
    pool.start()
    try:
        before = total()
        print(f"  before the first replay: no worker; this process and its children {before:.0f} MB")
        await pool.run(draw, short, NAMES[:2], "en")
        print(f"  after a short replay (duel): worker {shown(megabytes(worker() or 0))}")
        with Peak() as peak:
            started = time.perf_counter()
            await pool.run(draw, record, NAMES[:seats], "en")
            took = time.perf_counter() - started
        pid = worker() or 0
        print(
            f"  the longest replay ({took:.1f} s): worker peak {shown(megabytes(pid, 'VmHWM'))},"
            f" right after {shown(megabytes(pid))}; everything at its peak {peak.total:.0f} MB"
        )
        with Peak() as peak:
            await pool.run(draw_review, record, 0, NAMES[:seats], "en")
        print(
            f"  its review: worker peak {peak.worker:.0f} MB, right after {shown(megabytes(worker() or 0))};"
            f" everything at its peak {peak.total:.0f} MB"
        )
        idle = time.perf_counter()
        while worker() is not None and time.perf_counter() - idle < IDLE + GONE_WITHIN:
            await asyncio.sleep(SAMPLE)
        left = worker()
        kept = f"worker {shown(megabytes(left))}" if left else "no worker"
        print(
            f"  idle, {time.perf_counter() - idle:.1f} s later: {kept};"
            f" this process and its children {total():.0f} MB (before the first replay: {before:.0f} MB)"
        )
    finally:
        pool.close()


if __name__ == "__main__":
    sys.exit(main())

"""Load: many concurrent group games for a few minutes; latency, memory per active game, database per finished game.

Run from the repository root::

    .venv/bin/python -m bench.load            # 200 games, 180 s (about 4 minutes in all)
    .venv/bin/python -m bench.load --quick    # 20 games, 30 s, think 1 s
    .venv/bin/python -m bench.load --games 100 --seconds 60 --think 2

The machinery is ``bench/bot.py``'s (imported, not copied): the real bot (``python -m bot``, started
by ``tests/kit/launcher.py``) against the fake Bot API server in this process, a fresh SQLite file,
Telegram's group budget (20 messages a minute) and no per-chat or overall budget, and simulated
people (``tests/kit/people/crowd.py``) who think ``--think`` seconds on average (default 3) before each
tap. Here every table is a group of two people playing ``classic`` (one round, so games finish
and new ones start, ``/new`` again, all through the run); the games begin spread over the first
sixth of the run. Measured:

- latency from an update's delivery to the bot's first request in answer (``tests/kit/monitor.py``):
  p50, p95, p99, max, over the whole run;
- memory: the bot process's resident set (``VmRSS`` in ``/proc/<pid>/status``) once it polls and
  before any game (the baseline), then every second with the number of games being played
  (``status = 'playing'`` in the database); memory per active game is the median, over the
  second half of the run, of (RSS - baseline) / active games. The picture workers (child
  processes) are reported apart: their memory does not grow with the games;
- database: the SQLite file after a ``wal_checkpoint(TRUNCATE)`` (so the WAL is empty and folded
  in) at the start and after the bot has stopped; the growth over the number of finished games
  (and over all games, since games still being played when the run stops take room too).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.bot import START_TIMEOUT, STOP_TIMEOUT, cpu_seconds, machine_busy, settle, watch
from fake_telegram import FakeTelegram
from tests.kit.launcher import BotLauncher, bot_env
from tests.kit.monitor import Monitor, percentile
from tests.kit.people.crowd import GroupTable

ROOT = Path(__file__).resolve().parents[1]

PRESET = "classic"
SAMPLE_EVERY = 1.0


class ClassicGroup(GroupTable):
    """tests/kit/people/crowd.py's group of two, playing one-round ``classic`` games one after another."""

    preset = PRESET


def rss_kb(pid: int) -> int:
    """Resident set of a process in kB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def checkpointed_size(database: Path) -> int:
    """The database's bytes once its WAL has been folded into it (database file + what is left of the WAL)."""
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    wal = database.with_name(database.name + "-wal")
    return database.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def game_counts(database: Path) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)) as connection:
        rows = connection.execute("SELECT status, COUNT(*) FROM games GROUP BY status").fetchall()
        moves = connection.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    found = {str(status): int(count) for status, count in rows}
    found["moves"] = int(moves)
    return found


@dataclass
class Samples:
    at: list[float] = field(default_factory=list)  # seconds since the people began
    rss: list[int] = field(default_factory=list)  # kB, the bot process
    workers: list[int] = field(default_factory=list)  # kB, its child processes together
    playing: list[int] = field(default_factory=list)


async def sample(bot: BotLauncher, database: Path, samples: Samples, stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    began = loop.time()
    while not stop.is_set():
        try:
            playing = game_counts(database).get("playing", 0)
        except sqlite3.Error:
            playing = samples.playing[-1] if samples.playing else 0
        samples.at.append(loop.time() - began)
        samples.rss.append(rss_kb(bot.pid))
        samples.workers.append(sum(rss_kb(pid) for pid in bot.children()))
        samples.playing.append(playing)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), SAMPLE_EVERY)


async def measure(games: int, seconds: float, think: float, seed: int, workdir: Path) -> dict[str, object]:
    database = workdir / "load.sqlite3"
    fake = FakeTelegram()
    await fake.start()
    monitor = Monitor(fake)
    env = bot_env(fake, database, log_level="WARNING", extra={"GROUP_MESSAGES_PER_MINUTE": "20"})
    bot = BotLauncher(fake, workdir / "bot.log", env, new_session=True)
    stop = asyncio.Event()
    samples = Samples()
    helpers: list[asyncio.Task[None]] = []
    tables: list[GroupTable] = []
    cpu: dict[str, float] = {}
    try:
        await bot.start(timeout=START_TIMEOUT)
        await asyncio.sleep(2.0)  # the picture workers finish warming up
        size_before = checkpointed_size(database)
        rss_before = rss_kb(bot.pid)
        workers_before = sum(rss_kb(pid) for pid in bot.children())
        tables = [ClassicGroup(fake, monitor, index, seed, think) for index in range(games)]
        helpers = [
            asyncio.create_task(monitor.follow(stop), name="monitor"),
            asyncio.create_task(sample(bot, database, samples, stop), name="memory"),
        ]
        loop = asyncio.get_running_loop()
        monitor.drain()
        monitor.window = (monitor.now(), float("inf"))
        monitor.calls.clear()
        deadline = loop.time() + seconds
        ramp = seconds / 6 / games
        cpu_before, busy_before = cpu_seconds(bot.pid), machine_busy()
        children_before = {pid: cpu_seconds(pid) for pid in bot.children()}
        await asyncio.gather(watch(bot, deadline), *(table.run(deadline, i * ramp) for i, table in enumerate(tables)))
        busy_after = machine_busy()
        cpu = {
            "bot": (cpu_seconds(bot.pid) - cpu_before) / seconds,
            "picture workers": sum(cpu_seconds(pid) - children_before.get(pid, 0.0) for pid in bot.children())
            / seconds,
            "machine busy": (busy_after[0] - busy_before[0]) / max(1, busy_after[1] - busy_before[1]),
        }
        monitor.drain()
        monitor.window = (monitor.window[0], monitor.now())
        await settle(monitor)
    finally:
        monitor.stop(stop)
        for task in helpers:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if bot.process is not None:
            await bot.stop(STOP_TIMEOUT)
        await fake.stop()
    if bot.returncode not in (0, -signal.SIGTERM):
        print(f"warning: the bot exited with status {bot.returncode}", file=sys.stderr)
    counts = game_counts(database)
    size_after = checkpointed_size(database)
    return figures(
        games,
        seconds,
        think,
        monitor,
        samples,
        tables,
        rss_before=rss_before,
        workers_before=workers_before,
        size_before=size_before,
        size_after=size_after,
        counts=counts,
        violations=len(fake.violations),
        cpu=cpu,
    )


def figures(
    games: int,
    seconds: float,
    think: float,
    monitor: Monitor,
    samples: Samples,
    tables: list[GroupTable],
    *,
    rss_before: int,
    workers_before: int,
    size_before: int,
    size_after: int,
    counts: dict[str, int],
    violations: int,
    cpu: dict[str, float],
) -> dict[str, object]:
    latency: dict[str, object] = {}
    for row in monitor.latencies():
        ms = [v * 1000 for v in row.values]
        latency[row.kind] = {
            "count": len(ms),
            "p50": round(percentile(ms, 50), 1),
            "p95": round(percentile(ms, 95), 1),
            "p99": round(percentile(ms, 99), 1),
            "max": round(ms[-1], 1) if ms else None,
            "no answer": row.missing,
        }
    half = [
        (rss - rss_before) / playing
        for at, rss, playing in zip(samples.at, samples.rss, samples.playing, strict=True)
        if at >= seconds / 2 and playing > 0
    ]
    finished = counts.get("finished", 0)
    stored = sum(v for k, v in counts.items() if k != "moves")
    growth = size_after - size_before
    taps = sum(t.counts.get("tile taps", 0) + t.counts.get("end taps", 0) for t in tables)
    stuck = sum(t.counts.get("stuck", 0) for t in tables)
    return {
        "games": games,
        "seconds": seconds,
        "think": think,
        "preset": PRESET,
        "latency ms": latency,
        "p95 ms": latency["all updates"]["p95"],  # type: ignore[index]
        "taps by people": taps,
        "people stuck (5 s without news)": stuck,
        "moves": counts.get("moves", 0),
        "bot RSS MB at start": round(rss_before / 1024, 1),
        "bot RSS MB peak": round(max(samples.rss, default=0) / 1024, 1),
        "active games (median, second half)": statistics.median(
            [p for at, p in zip(samples.at, samples.playing, strict=True) if at >= seconds / 2] or [0]
        ),
        "KB per active game": round(statistics.median(half), 1) if half else None,
        "picture workers RSS MB (start / peak)": (
            round(workers_before / 1024, 1),
            round(max(samples.workers, default=0) / 1024, 1),
        ),
        "games finished": finished,
        "games stored": stored,
        "database KB (start / end)": (round(size_before / 1024, 1), round(size_after / 1024, 1)),
        "database KB per finished game": round(growth / 1024 / finished, 2) if finished else None,
        "database KB per stored game": round(growth / 1024 / stored, 2) if stored else None,
        "Bot API calls": sum(monitor.calls.values()),
        "failed calls": sum(monitor.errors.values()),
        "fake violations": violations,
        "CPU (share of one core; machine: of all CPUs, whoever used them)": {k: f"{v:.0%}" for k, v in cpu.items()},
    }


def report(found: dict[str, object]) -> str:
    lines = [
        f"== load: {found['games']} concurrent group games of {found['preset']}, {found['seconds']:g} s, "
        f"think {found['think']:g} s, {os.cpu_count()} CPUs =="
    ]
    latency = found["latency ms"]
    assert isinstance(latency, dict)
    lines.append(f"  {'latency (ms)':<14} {'count':>7} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>8} {'no answer':>10}")
    for kind, row in latency.items():
        lines.append(
            f"  {kind:<14} {row['count']:>7} {row['p50']:>7} {row['p95']:>7} {row['p99']:>7} "
            f"{row['max'] if row['max'] is not None else '-':>8} {row['no answer']:>10}"
        )
    for name, value in found.items():
        if name not in ("latency ms", "games", "seconds", "think", "preset"):
            lines.append(f"  {name}: {value}")
    return "\n".join(lines)


async def run(
    quick: bool = False,
    *,
    games: int | None = None,
    seconds: float | None = None,
    think: float | None = None,
    seed: int = 1,
    keep: bool = False,
) -> dict[str, object]:
    games = games or (20 if quick else 200)
    seconds = seconds or (30.0 if quick else 180.0)
    think = think or (1.0 if quick else 3.0)  # quick: people think less, so that games finish within 30 s
    workdir = Path(tempfile.mkdtemp(prefix="bench-load-"))
    began = time.monotonic()
    try:
        found = await measure(games, seconds, think, seed, workdir)
    except Exception:
        log = workdir / "bot.log"
        if log.exists():
            print("--- bot log (last lines) ---", *log.read_text(errors="replace").splitlines()[-30:], sep="\n")
        raise
    finally:
        if keep:
            print(f"kept {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    found["wall seconds"] = round(time.monotonic() - began, 1)
    print(report(found), flush=True)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 games for 30 s")
    parser.add_argument("--games", type=int, help="concurrent games (default 200; 20 with --quick)")
    parser.add_argument("--seconds", type=float, help="how long the people play (default 180; 30 with --quick)")
    parser.add_argument("--think", type=float, help="mean seconds before each tap (default 3; 1 with --quick)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (database, bot log)")
    args = parser.parse_args(argv)
    asyncio.run(
        run(args.quick, games=args.games, seconds=args.seconds, think=args.think, seed=args.seed, keep=args.keep)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Load benchmark of the whole bot: many concurrent games through the fake Telegram Bot API.

Run from the repository root::

    .venv/bin/python bench/bot.py                          # 100 group games of block, 60 s
    .venv/bin/python bench/bot.py --mode private --games 50 --seconds 20
    .venv/bin/python bench/bot.py --think 5                # people wait ~5 s before each tap
    .venv/bin/python bench/bot.py --profile py-spy         # where the bot's CPU goes (pip install py-spy)

The bot runs unmodified as ``python -m bot`` against the fake server of ``tests/e2e/fake_telegram``
(in this process), with a fresh SQLite file in a temporary directory, ``COMPUTER_DELAY=0`` and
``PRIVATE_COMPUTER_DELAY=0``. Simulated people (``bench/bot_people.py``) play ``block``: two people
per group (``--mode group``), one person against the computer in private (``--mode private``), or
half of each (``--mode mixed``). The games begin spread over ``--ramp`` seconds; people tap a
playable tile as soon as their hand shows one (or after ``--think`` seconds on average) and start
a new match when one ends, until ``--seconds`` have passed. Then the bot is stopped (SIGTERM, then
SIGKILL) and the temporary directory removed. Every wait is bounded.

Printed:

- latency from an update's delivery to the bot (when getUpdates handed it out) to the start of the
  bot's first request in answer (``bench/bot_monitor.py`` says how requests are matched): p50, p95,
  p99, max per kind of update; measured in the fake, so it includes the fake's own queueing. With
  ``--think 0`` the load is closed-loop (every game always has a tap waiting), so the latency is
  mostly queueing: about the number of games over the moves per second;
- moves per second: moves in the bot's ``moves`` table (people's taps that were applied, computer
  moves and forced leads) committed inside the window, over the window's wall time;
- Bot API calls per move, by method (calls that started inside the window);
- CPU used by the bot process and by this process (the fake server and the people), and by other
  processes, since all share the machine; the bot's CPU per thread in ms per move, and the
  ceilings that cost implies (``bench/bot_profile.py``; ``--profile`` adds py-spy or cProfile).

Aims (from the issue): p95 latency at most 50 ms with 100 concurrent games, and at least 200 moves
per second on a 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bot_monitor import Monitor, percentile  # noqa: E402
from bench.bot_people import Table, tables  # noqa: E402
from bench.bot_profile import Profiler, thread_cpu  # noqa: E402
from tests.e2e.fake_telegram import FakeTelegram  # noqa: E402

AIM_P95_MS = 50.0
AIM_MOVES_PER_SECOND = 200.0
START_TIMEOUT = 30.0
SETTLE_QUIET = 0.5
SETTLE_MAX = 5.0
STOP_TIMEOUT = 10.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--mode", choices=("group", "private", "mixed"), default="group")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the people play (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the people's choices")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a person waits before each tap (default 0: at once)"
    )
    parser.add_argument(
        "--ramp", type=float, default=2.0, help="the games begin spread over this many seconds (default 2)"
    )
    parser.add_argument(
        "--profile",
        choices=("py-spy", "cprofile"),
        help="profile the bot process: py-spy (all threads; needs .venv/bin/pip install py-spy) or cProfile "
        "(the event loop thread only)",
    )
    parser.add_argument("--profile-out", type=Path, help="also keep the raw profile here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (database, bot log)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0 or args.think < 0 or args.ramp < 0:
        parser.error("--games and --seconds must be positive, --think and --ramp not negative")
    return args


# ---------------------------------------------------------------------------------- the bot process


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, all its threads, in seconds (from /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime and stime, fields 14 and 15


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs together, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


async def stop_process(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)  # aiogram stops polling; the bot closes its database
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STOP_TIMEOUT
    while process.poll() is None and loop.time() < deadline:
        await asyncio.sleep(0.05)
    if process.poll() is None:
        process.kill()
        process.wait(5)


async def wait_started(fake: FakeTelegram, monitor: Monitor, process: subprocess.Popen[bytes]) -> None:
    """Until the bot has set its commands (it polls next); updates sent earlier just wait in the queue."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_TIMEOUT
    while monitor.calls["setMyCommands"] < 2:
        if process.poll() is not None:
            raise RuntimeError(f"the bot exited with status {process.returncode} before it started")
        if loop.time() > deadline:
            raise RuntimeError(f"the bot did not start within {START_TIMEOUT:.0f} s")
        monitor.drain()
        await asyncio.sleep(0.05)


async def watch(process: subprocess.Popen[bytes], deadline: float) -> None:
    """Stop the run if the bot dies (the people would only wait for it until the deadline)."""
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the bot exited with status {process.returncode} during the run")
        await asyncio.sleep(min(0.5, max(0.0, deadline - loop.time())))


async def loop_lag(samples: list[float], stop: asyncio.Event, every: float = 0.01) -> None:
    """How late this process's event loop wakes up: the fake and the people share it."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        before = loop.time()
        await asyncio.sleep(every)
        samples.append(loop.time() - before - every)


async def settle(monitor: Monitor) -> None:
    """After the people stop: until no request but getUpdates came for a moment (bounded)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SETTLE_MAX
    while loop.time() < deadline:
        monitor.drain()
        if monitor.now() - monitor.last_request >= SETTLE_QUIET:
            return
        await asyncio.sleep(0.05)


def count_moves(database: Path, start: float, end: float) -> tuple[int, int]:
    """(people's moves, computer moves) committed between two wall-clock times."""
    if not database.exists():
        return 0, 0
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as connection:
        rows = connection.execute(
            "SELECT by_computer, COUNT(*) FROM moves WHERE at BETWEEN ? AND ? GROUP BY by_computer", (start, end)
        ).fetchall()
    found = {bool(by_computer): count for by_computer, count in rows}
    return found.get(False, 0), found.get(True, 0)


# ---------------------------------------------------------------------------------- the run


class Run:
    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.args = args
        self.workdir = workdir
        self.database = workdir / "bench.sqlite3"
        self.log = workdir / "bot.log"
        self.tables: list[Table] = []
        self.lag: list[float] = []
        self.wall = (0.0, 0.0)
        self.window = 0.0
        self.bot_cpu = 0.0
        self.own_cpu = 0.0
        self.machine = 0.0  # share of all CPUs busy, whoever used them
        self.moves = (0, 0)
        self.violations: list[str] = []
        self.threads: dict[int, float] = {}  # CPU seconds per thread of the bot inside the window
        self.pid = 0
        self.profiler: Profiler | None = None

    def environment(self, fake: FakeTelegram) -> dict[str, str]:
        env = dict(os.environ)
        env.update(fake.env())
        env.update(
            DATABASE_URL=f"sqlite:///{self.database}",
            COMPUTER_DELAY="0",
            PRIVATE_COMPUTER_DELAY="0",
            POLLING_TIMEOUT="1",
            LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
        )
        return env

    async def go(self) -> Monitor:
        args = self.args
        fake = FakeTelegram()
        await fake.start()
        monitor = Monitor(fake)
        profiler = self.profiler = Profiler(args.profile, self.workdir, args.profile_out)
        process: subprocess.Popen[bytes] | None = None
        stop = asyncio.Event()
        helpers: list[asyncio.Task[None]] = []
        try:
            with self.log.open("wb") as log:
                process = subprocess.Popen(
                    profiler.command(sys.executable),
                    cwd=ROOT,
                    env=profiler.environment(self.environment(fake)),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            await wait_started(fake, monitor, process)
            helpers = [
                asyncio.create_task(monitor.follow(stop), name="monitor"),
                asyncio.create_task(loop_lag(self.lag, stop), name="lag"),
            ]
            profiler.attach(process.pid, args.seconds)
            self.tables = tables(fake, monitor, args.mode, args.games, args.seed, args.think)
            loop = asyncio.get_running_loop()
            self.pid = process.pid
            threads_before = thread_cpu(process.pid)
            started_wall, started_cpu, started_own = time.time(), cpu_seconds(process.pid), time.process_time()
            busy_before = machine_busy()
            monitor.window = (monitor.now(), float("inf"))
            monitor.calls.clear()  # start-up calls (getMe, setMyCommands) are not the load
            deadline = loop.time() + args.seconds
            ramp = min(args.ramp, args.seconds / 2) / len(self.tables)
            await asyncio.gather(
                watch(process, deadline), *(table.run(deadline, i * ramp) for i, table in enumerate(self.tables))
            )
            ended = monitor.now()
            self.wall = (started_wall, time.time())
            self.window = self.wall[1] - self.wall[0]
            self.bot_cpu = cpu_seconds(process.pid) - started_cpu
            self.threads = {
                tid: seconds - threads_before.get(tid, 0.0) for tid, seconds in thread_cpu(process.pid).items()
            }
            self.own_cpu = time.process_time() - started_own
            busy_after = machine_busy()
            self.machine = (busy_after[0] - busy_before[0]) / max(1, busy_after[1] - busy_before[1])
            monitor.drain()
            monitor.window = (monitor.window[0], ended)
            await settle(monitor)
        finally:
            stop.set()
            for task in helpers:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if process is not None:
                await profiler.finish()
                await stop_process(process)
            await fake.stop()
        if process.returncode not in (0, -signal.SIGTERM):
            print(f"warning: the bot exited with status {process.returncode}", file=sys.stderr)
        self.moves = count_moves(self.database, *self.wall)
        self.violations = [str(v) for v in fake.violations]
        return monitor


# ---------------------------------------------------------------------------------- the report


def report(run: Run, monitor: Monitor) -> str:
    args = run.args
    people, computers = run.moves
    moves = people + computers
    window = run.window or float("nan")
    counts: dict[str, int] = {}
    for table in run.tables:
        for key, value in table.counts.items():
            counts[key] = counts.get(key, 0) + value
    lines = [
        f"bot benchmark: {args.games} concurrent {args.mode} games of block, {args.seconds:g} s, seed {args.seed}, "
        f"think {args.think:g} s, ramp {args.ramp:g} s, {os.cpu_count()} CPUs",
        "  bot: COMPUTER_DELAY=0 PRIVATE_COMPUTER_DELAY=0 POLLING_TIMEOUT=1 LOG_LEVEL=WARNING, SQLite in a temp dir"
        + (f", profiled with {args.profile}" if args.profile else ""),
        "",
        "latency, update delivered -> bot's first request in answer (ms)",
        f"  {'update':<12} {'count':>7} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8} {'no answer':>10}",
    ]
    p95_all = float("nan")
    for row in monitor.latencies():
        ms = [v * 1000 for v in row.values]
        p50, p95, p99 = (percentile(ms, q) for q in (50, 95, 99))
        top = ms[-1] if ms else float("nan")
        lines.append(f"  {row.kind:<12} {len(ms):>7} {p50:>8.1f} {p95:>8.1f} {p99:>8.1f} {top:>8.1f} {row.missing:>10}")
        if row.kind == "all updates":
            p95_all = p95
    verdict = "met" if p95_all <= AIM_P95_MS else "MISSED"
    lines.append(f"  aim: p95 <= {AIM_P95_MS:.0f} ms: {verdict}")
    rate = moves / window
    lines += [
        "",
        f"moves in {window:.1f} s: {moves} ({rate:.1f}/s) = {people} by people ({people / window:.1f}/s) "
        f"+ {computers} by the computer ({computers / window:.1f}/s)",
        f"  aim: >= {AIM_MOVES_PER_SECOND:.0f} moves/s: {'met' if rate >= AIM_MOVES_PER_SECOND else 'MISSED'}",
        "  people: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
        "",
        "Bot API calls per move",
        f"  {'method':<24} {'calls':>8} {'per move':>9}",
    ]
    total = 0
    for method, calls in monitor.calls.most_common():
        total += calls
        lines.append(f"  {method:<24} {calls:>8} {calls / max(moves, 1):>9.2f}")
    lines.append(f"  {'all':<24} {total:>8} {total / max(moves, 1):>9.2f}")
    if monitor.errors:
        lines.append("  failed calls: " + "; ".join(f"{m} {d!r} x{n}" for (m, d), n in monitor.errors.most_common(5)))
    lag_ms = sorted(v * 1000 for v in run.lag)
    cpus = os.cpu_count() or 1
    others = run.machine * cpus - (run.bot_cpu + run.own_cpu) / window
    lines += [
        "",
        f"CPU over the window (share of one core): bot {run.bot_cpu / window:.0%}, this process (fake server + "
        f"people) {run.own_cpu / window:.0%}, other processes {max(0.0, others):.0%}; "
        f"all {cpus} CPUs {run.machine:.0%} busy",
        f"  this process's event loop lag: p50 {percentile(lag_ms, 50):.1f} ms, p95 {percentile(lag_ms, 95):.1f} ms, "
        f"max {lag_ms[-1] if lag_ms else float('nan'):.1f} ms (it delays the fake's timestamps too)",
        f"  fake: {monitor.entries_seen} transcript entries, {len(run.violations)} violations",
    ]
    lines += [f"    {v}" for v in run.violations[:5]]
    if run.profiler is not None:
        lines += ["", run.profiler.report(run.pid, run.threads, moves)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    workdir = Path(tempfile.mkdtemp(prefix="bench-bot-"))
    run = Run(args, workdir)
    try:
        monitor = asyncio.run(run.go())
        print(report(run, monitor))
    except Exception:
        if run.log.exists():
            tail = run.log.read_text(errors="replace").splitlines()[-30:]
            print("--- bot log (last lines) ---", *tail, sep="\n", file=sys.stderr)
        raise
    finally:
        if args.keep:
            print(f"kept {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

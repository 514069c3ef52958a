"""Load benchmark of the whole bot: many concurrent games through the fake Telegram Bot API.

Run from the repository root::

    .venv/bin/python -m bench.bot                          # both phases, about 1.5 minutes
    .venv/bin/python -m bench.bot --phase throughput       # only the saturated phase (moves per second)
    .venv/bin/python -m bench.bot --phase latency --think 5  # only the phase with people thinking
    .venv/bin/python -m bench.bot --mode private --games 50 --seconds 20  # each phase 20 s
    .venv/bin/python -m bench.bot --profile py-spy         # where the bot's CPU goes (in the throughput phase)

The two aims (from the issue) need two different loads, so the default run has two phases, each
with a fresh fake, bot and database:

1. **throughput** (aim: at least 200 moves per second on a 2-core machine): people tap as soon
   as their hand shows a playable tile (think 0). The load is closed-loop, every game always has a
   tap waiting, so the bot is saturated and moves per second is what it can do. Latency here is
   mostly queueing (about the number of games over the moves per second) and is not the aim.
2. **latency** (aim: p95 at most 50 ms with 100 concurrent games): people wait ``--think``
   seconds on average (default 3) before each tap, as people do, so the bot is not saturated and
   the latency is what one person feels.

The bot runs unmodified as ``python -m bot`` (started and stopped by ``tests/kit/launcher.py``,
as in the end-to-end tests) against the fake server of ``fake_telegram`` (in this
process), with a fresh SQLite file in a temporary directory, ``COMPUTER_DELAY=0`` and
``PRIVATE_COMPUTER_DELAY=0``. The group budget is Telegram's 20 messages a minute, so a group's
board shows the newest table at most that often, as in production; the per-chat (1 a second) and
overall (30 a second) budgets are off: people who tap the instant their turn comes would hit them
at once, real people do not, and a bot that really serves 200 moves a second needs Telegram's
raised limits anyway. Simulated people (``tests/kit/people/crowd.py``) play ``block``: two people
per group (``--mode group``), one person against the computer in private (``--mode private``), or
half of each (``--mode mixed``). The games begin spread over ``--ramp`` seconds (2 in the
throughput phase, 10 in the latency phase: people arrive one after another); people tap a playable
tile (after their think time) and start a new match when one ends, until the phase's time is up.
Then the bot is stopped (SIGTERM, then SIGKILL) and the temporary directory removed. Every wait
is bounded.

Printed for each phase:

- latency from an update's delivery to the bot (when getUpdates handed it out) to the start of the
  bot's first request in answer (``tests/kit/monitor.py`` says how requests are matched): p50, p95,
  p99, max per kind of update; measured in the fake, so it includes the fake's own queueing;
- moves per second: moves in the bot's ``moves`` table (people's taps that were applied, computer
  moves and forced leads) committed inside the window, over the window's wall time;
- Bot API calls per move, by method (calls that started inside the window);
- CPU used by the bot process, its own child processes (picture workers), this process (the fake
  server and the people) and anything else on the machine, since all share it; the bot's CPU per
  thread in ms per move, and the ceilings that cost implies (``bench/bot_profile.py``;
  ``--profile`` adds py-spy or cProfile).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from bench.bot_profile import Profiler, thread_cpu
from fake_telegram import FakeTelegram
from tests.kit.launcher import BotLauncher, bot_env
from tests.kit.monitor import Monitor, percentile
from tests.kit.people.crowd import Table, tables
from tests.kit.scenarios.instances import Cluster

ROOT = Path(__file__).resolve().parents[1]

AIM_P95_MS = 50.0
AIM_MOVES_PER_SECOND = 200.0
START_TIMEOUT = 30.0
SETTLE_QUIET = 0.5
SETTLE_MAX = 5.0
STOP_TIMEOUT = 10.0
LAG_EVERY = 0.02  # how often this process's event loop lag is sampled (each sample costs a wake-up)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Phase:
    name: str  # "throughput" or "latency"
    think: float  # mean seconds before each tap
    seconds: float
    ramp: float  # the games begin spread over this many seconds
    aim: str
    instances: int = 0  # 0: one process polling, on SQLite; N: N instances by webhook, on PostgreSQL and Redis

    @property
    def title(self) -> str:
        load = "saturated: people tap at once" if self.think == 0 else f"people think {self.think:g} s between taps"
        where = ""
        if self.instances:
            where = f", {self.instances} instance{'s' if self.instances > 1 else ''} by webhook"
        return f"{self.name} phase ({load}{where}), aim: {self.aim}"


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--phase",
        choices=("both", "throughput", "latency"),
        default="both",
        help="both (default): a saturated phase for moves/s, then one with people thinking for latency",
    )
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--mode", choices=("group", "private", "mixed"), default="group")
    parser.add_argument(
        "--seconds",
        type=float,
        help="how long the people play in each phase (default 30 for throughput, 45 for latency)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the people's choices")
    parser.add_argument(
        "--think",
        type=float,
        default=3.0,
        help="mean seconds a person waits before each tap in the latency phase (default 3; the throughput "
        "phase always has 0)",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        help="the games begin spread over this many seconds (default 2 for throughput; 10 for latency: "
        "people arrive one after another)",
    )
    parser.add_argument(
        "--profile",
        choices=("py-spy", "cprofile"),
        help="profile the bot process in the throughput phase (or the only phase run): py-spy (all threads) "
        "or cProfile (the event loop thread only)",
    )
    parser.add_argument("--profile-out", type=Path, help="also keep the raw profile here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (database, bot log)")
    parser.add_argument(
        "--instances",
        type=int,
        nargs="+",
        metavar="N",
        help="run each phase with N bot instances in webhook mode behind a round-robin balancer, on PostgreSQL "
        "and Redis, once per N given (e.g. --instances 1 2: the same games on one and on two instances); "
        "default: one process, long polling, SQLite",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or (args.seconds is not None and args.seconds <= 0) or args.think <= 0 or (args.ramp or 0) < 0:
        parser.error("--games, --seconds and --think must be positive, --ramp not negative")
    if args.instances and (min(args.instances) < 1 or args.profile):
        parser.error("--instances takes numbers from 1, and no --profile")
    return args


def phases(args: argparse.Namespace) -> list[Phase]:
    """The phases to run: each with every number of ``--instances`` in turn (the same games and seed)."""
    return [replace(phase, instances=n) for phase in base_phases(args) for n in (args.instances or [0])]


def base_phases(args: argparse.Namespace) -> list[Phase]:
    found = []
    if args.phase in ("both", "throughput"):
        seconds, ramp = args.seconds or 30.0, 2.0 if args.ramp is None else args.ramp
        found.append(Phase("throughput", 0.0, seconds, ramp, f">= {AIM_MOVES_PER_SECOND:.0f} moves/s"))
    if args.phase in ("both", "latency"):
        seconds, ramp = args.seconds or 45.0, 10.0 if args.ramp is None else args.ramp
        aim = f"p95 <= {AIM_P95_MS:.0f} ms with {args.games} games"
        found.append(Phase("latency", args.think, seconds, ramp, aim))
    return found


# ---------------------------------------------------------------------------------- processes


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, all its threads, in seconds (from /proc); 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime and stime, fields 14 and 15


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs together, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


async def watch(bot: BotLauncher, deadline: float) -> None:
    """Stop the run if the bot dies (the people would only wait for it until the deadline)."""
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        if bot.returncode is not None:
            raise RuntimeError(f"the bot exited with status {bot.returncode} during the run")
        await asyncio.sleep(min(0.5, max(0.0, deadline - loop.time())))


async def loop_lag(samples: list[float], stop: asyncio.Event, every: float = LAG_EVERY) -> None:
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


# ---------------------------------------------------------------------------------- a phase


class Run:
    """One phase: a fake, a bot with a fresh database, the people, and what was measured."""

    def __init__(self, args: argparse.Namespace, phase: Phase, workdir: Path, *, profile: str | None) -> None:
        self.args = args
        self.phase = phase
        self.workdir = workdir
        self.profile = profile
        self.database = workdir / "bench.sqlite3"
        self.log = workdir / "bot.log"
        self.tables: list[Table] = []
        self.lag: list[float] = []
        self.wall = (0.0, 0.0)
        self.window = 0.0
        self.bot_cpu = 0.0
        self.children_cpu = 0.0  # the bot's own child processes (picture workers)
        self.own_cpu = 0.0
        self.machine = 0.0  # share of all CPUs busy, whoever used them
        self.moves = (0, 0)
        self.violations: list[str] = []
        self.threads: dict[int, float] = {}  # CPU seconds per thread of the bot inside the window
        self.pid = 0
        self.profiler: Profiler | None = None
        self.monitor: Monitor | None = None
        self.cluster: Cluster | None = None  # with --instances: the instances, their balancer and databases

    async def go(self) -> Monitor:
        args, phase = self.args, self.phase
        fake = FakeTelegram()
        await fake.start()
        monitor = self.monitor = Monitor(fake)
        profiler = self.profiler = Profiler(self.profile, self.workdir, args.profile_out)
        # The group budget stays Telegram's (the board shows the newest table within it); the per-chat
        # and overall budgets would cap people who never think, not real ones (see the docstring).
        limits = {"GROUP_MESSAGES_PER_MINUTE": "20"}
        if phase.instances:
            cluster = self.cluster = Cluster(
                fake, self.workdir, phase.instances, extra={"LOG_LEVEL": "WARNING", **limits}
            )
            bots = cluster.instances
        else:
            env = profiler.environment(bot_env(fake, self.database, log_level="WARNING", extra=limits))
            bots = [BotLauncher(fake, self.log, env, command=profiler.command(sys.executable), new_session=True)]
        bot = bots[0]
        stop = asyncio.Event()
        helpers: list[asyncio.Task[None]] = []
        try:
            if self.cluster is not None:
                await self.cluster.start()  # every instance serves its webhook, which is set
            else:
                await bot.start(timeout=START_TIMEOUT)  # until it polls: start-up is over
            helpers = [
                asyncio.create_task(monitor.follow(stop), name="monitor"),
                asyncio.create_task(loop_lag(self.lag, stop), name="lag"),
            ]
            profiler.attach(bot.pid, phase.seconds)
            self.tables = tables(fake, monitor, args.mode, args.games, args.seed, phase.think)
            loop = asyncio.get_running_loop()
            self.pid = bot.pid
            threads_before = thread_cpu(bot.pid)
            children_before = {pid: cpu_seconds(pid) for b in bots for pid in b.children()}
            started_wall, started_own = time.time(), time.process_time()
            started_cpu = sum(cpu_seconds(b.pid) for b in bots)
            busy_before = machine_busy()
            monitor.drain()
            monitor.window = (monitor.now(), float("inf"))
            monitor.calls.clear()  # start-up calls (getMe, setMyCommands) are not the load
            deadline = loop.time() + phase.seconds
            ramp = min(phase.ramp, phase.seconds / 2) / len(self.tables)
            await asyncio.gather(
                *(watch(b, deadline) for b in bots),
                *(table.run(deadline, i * ramp) for i, table in enumerate(self.tables)),
            )
            ended = monitor.now()
            self.wall = (started_wall, time.time())
            self.window = self.wall[1] - self.wall[0]
            self.bot_cpu = sum(cpu_seconds(b.pid) for b in bots) - started_cpu
            children_after = {pid for b in bots for pid in b.children()}
            self.children_cpu = sum(
                cpu_seconds(pid) - children_before.get(pid, 0.0) for pid in {*children_before, *children_after}
            )
            self.threads = {tid: seconds - threads_before.get(tid, 0.0) for tid, seconds in thread_cpu(bot.pid).items()}
            self.own_cpu = time.process_time() - started_own
            busy_after = machine_busy()
            self.machine = (busy_after[0] - busy_before[0]) / max(1, busy_after[1] - busy_before[1])
            monitor.drain()
            monitor.window = (monitor.window[0], ended)
            await settle(monitor)
        finally:
            monitor.stop(stop)
            for task in helpers:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if bot.process is not None:
                await profiler.finish()
            for b in bots:
                if b.process is not None:
                    await b.stop(STOP_TIMEOUT)
            if self.cluster is not None:
                await self.cluster.balancer.stop()
            await fake.stop()
        for b in bots:
            if b.returncode not in (0, -signal.SIGTERM):
                print(f"warning: a bot exited with status {b.returncode}", file=sys.stderr)
        if self.cluster is not None:
            try:
                self.moves = await self.cluster.count_moves(*self.wall)
            finally:
                await self.cluster.drop()
        else:
            self.moves = count_moves(self.database, *self.wall)
        self.violations = [str(v) for v in fake.violations]
        return monitor


# ---------------------------------------------------------------------------------- the report


@dataclass
class Outcome:
    phase: Phase
    moves_per_second: float
    calls_per_move: float
    p95_ms: float
    fake_ms_per_move: float  # this process's CPU (fake server + people) per move
    p50_ms: float = float("nan")
    p99_ms: float = float("nan")


def report(run: Run, monitor: Monitor) -> tuple[str, Outcome]:
    args, phase = run.args, run.phase
    people, computers = run.moves
    moves = people + computers
    window = run.window or float("nan")
    counts: dict[str, int] = {}
    for table in run.tables:
        for key, value in table.counts.items():
            counts[key] = counts.get(key, 0) + value
    lines = [
        f"== {phase.title} ==",
        f"  {args.games} concurrent {args.mode} games of block, {phase.seconds:g} s, seed {args.seed}, "
        f"think {phase.think:g} s, ramp {phase.ramp:g} s, {os.cpu_count()} CPUs",
        "  bot: COMPUTER_DELAY=0 PRIVATE_COMPUTER_DELAY=0 LOG_LEVEL=WARNING, "
        + (
            f"{phase.instances} instance(s) by webhook behind a round-robin balancer, PostgreSQL and Redis, "
            "RENDER_WORKERS=1 each,"
            if phase.instances
            else "POLLING_TIMEOUT=1, SQLite in a temp dir,"
        )
        + " GROUP_MESSAGES_PER_MINUTE=20, no per-chat or overall budget"
        + (f", profiled with {run.profile}" if run.profile else ""),
        "",
        "latency, update delivered -> bot's first request in answer (ms)"
        + (" [closed loop: mostly queueing, not the latency aim]" if phase.think == 0 else ""),
        f"  {'update':<12} {'count':>7} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8} {'no answer':>10}",
    ]
    p50_all = p95_all = p99_all = float("nan")
    for row in monitor.latencies():
        ms = [v * 1000 for v in row.values]
        p50, p95, p99 = (percentile(ms, q) for q in (50, 95, 99))
        top = ms[-1] if ms else float("nan")
        lines.append(f"  {row.kind:<12} {len(ms):>7} {p50:>8.1f} {p95:>8.1f} {p99:>8.1f} {top:>8.1f} {row.missing:>10}")
        if row.kind == "all updates":
            p50_all, p95_all, p99_all = p50, p95, p99
    if phase.name == "latency":
        verdict = "met" if p95_all <= AIM_P95_MS else "MISSED"
        lines.append(f"  aim: p95 <= {AIM_P95_MS:.0f} ms with {args.games} games: {verdict}")
    rate = moves / window
    lines += [
        "",
        f"moves in {window:.1f} s: {moves} ({rate:.1f}/s) = {people} by people ({people / window:.1f}/s) "
        f"+ {computers} by the computer ({computers / window:.1f}/s)",
    ]
    if phase.name == "throughput":
        verdict = "met" if rate >= AIM_MOVES_PER_SECOND else "MISSED"
        lines.append(f"  aim: >= {AIM_MOVES_PER_SECOND:.0f} moves/s: {verdict}")
    lines += [
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
    others = run.machine * cpus - (run.bot_cpu + run.children_cpu + run.own_cpu) / window
    fake_ms = run.own_cpu * 1000 / max(moves, 1)
    lines += [
        "",
        f"CPU over the window (share of one core): bot {run.bot_cpu / window:.0%}, its child processes (picture "
        f"workers) {run.children_cpu / window:.0%}, this process (fake server + people) {run.own_cpu / window:.0%}, "
        f"other processes {max(0.0, others):.0%}; all {cpus} CPUs {run.machine:.0%} busy",
        f"  this process (fake server + people): {fake_ms:.2f} ms CPU per move, "
        f"{run.own_cpu * 1e6 / max(total, 1):.0f} us per Bot API call",
        f"  this process's event loop lag: p50 {percentile(lag_ms, 50):.1f} ms, p95 {percentile(lag_ms, 95):.1f} ms, "
        f"max {lag_ms[-1] if lag_ms else float('nan'):.1f} ms (it delays the fake's timestamps too)",
        f"  fake: {monitor.entries_seen} transcript entries, {len(run.violations)} violations",
    ]
    lines += [f"    {v}" for v in run.violations[:5]]
    if run.profiler is not None:
        lines += ["", run.profiler.report(run.pid, run.threads, moves)]
    outcome = Outcome(phase, rate, total / max(moves, 1), p95_all, fake_ms, p50_all, p99_all)
    return "\n".join(lines), outcome


def summary(outcomes: list[Outcome]) -> str:
    lines = ["== summary =="]
    for o in outcomes:
        where = f" on {o.phase.instances} instance(s) by webhook" if o.phase.instances else ""
        spread = f"p50 {o.p50_ms:.1f} ms, p95 {o.p95_ms:.1f} ms, p99 {o.p99_ms:.1f} ms"
        if o.phase.name == "throughput":
            verdict = "met" if o.moves_per_second >= AIM_MOVES_PER_SECOND else "MISSED"
            lines.append(
                f"  throughput (think 0){where}: {o.moves_per_second:.1f} moves/s, aim {o.phase.aim}: {verdict}; "
                f"{spread}; {o.calls_per_move:.2f} Bot API calls per move; "
                f"fake + people {o.fake_ms_per_move:.2f} ms CPU/move"
            )
        else:
            verdict = "met" if o.p95_ms <= AIM_P95_MS else "MISSED"
            lines.append(
                f"  latency (think {o.phase.think:g} s){where}: {spread} over all updates, aim {o.phase.aim}: "
                f"{verdict}; {o.moves_per_second:.1f} moves/s"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    planned = phases(args)
    outcomes: list[Outcome] = []
    for index, phase in enumerate(planned):
        workdir = Path(tempfile.mkdtemp(prefix=f"bench-bot-{phase.name}-"))
        profile = args.profile if index == 0 else None  # the throughput phase when both run
        run = Run(args, phase, workdir, profile=profile)
        try:
            monitor = asyncio.run(run.go())
            text, outcome = report(run, monitor)
            print(text + "\n", flush=True)
            outcomes.append(outcome)
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
    print(summary(outcomes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

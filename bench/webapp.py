"""The Mini App table under load: many two-person games played through the table pages' WebSockets.

Run from the repository root::

    .venv/bin/python -m bench.webapp --think 1              # 100 games at a person's pace: latency
    .venv/bin/python -m bench.webapp                        # 100 games, think 0: moves a second at saturation
    .venv/bin/python -m bench.webapp --games 20 --seconds 10 --profile py-spy

The real bot (``python -m bot`` through ``tests/kit/launcher.py``, RENDER_WORKERS=2 as in
production) runs against the fake Telegram in this process with ``WEBAPP_URL`` set; every game is
a ``block`` match of two people in a group, opened, joined and started through the chat (the
groups over ``STAGGER`` seconds, as groups begin at different moments), after which both people
open the table page (a WebSocket with initData signed as Telegram signs it) and play only there.
With ``--think S`` a person moves 0.5 S to 1.5 S after their page shows their turn; with think 0
at once (a closed loop: the bot is saturated, and the latency is queueing). The group's budget
(20 messages a minute) stays on, so the board in each group follows as it does in life; the
per-chat budgets are off (every person is at the page). Nothing is measured in the first
``WARM_UP`` seconds.

Printed: moves a second over the run; latency from a move sent by one page to the *other*
person's page showing it (the frame with the new turn): p50, p95, p99, max; the bot process's CPU
seconds per move (user + system, from ``/proc/<pid>/stat``, picture workers apart) and this
process's (the fake and the pages).

``--profile py-spy|cprofile`` also prints the bot's CPU by thread and where it goes
(``bench/bot_profile.py``, as for ``bench/bot.py``); ``--log FILE`` keeps the bot's log.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp

from bench.bot_profile import Profiler, thread_cpu
from fake_telegram import FakeTelegram
from fake_telegram.webapp import init_data
from tests.kit.launcher import BotLauncher, bot_env, free_port
from tests.kit.people.players import join, open_lobby, set_seats, start_game

TICKS = os.sysconf("SC_CLK_TCK")
WARM_UP = 3.0  # seconds of play before anything is measured
STAGGER = 4.0  # seconds over which the games are set up: a group's budget refills a board every 3.5 s


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def children_cpu(pid: int) -> float:
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    total += cpu_seconds(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    return total


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


class Table:
    """One game's two pages: each takes its frames; the one whose turn it is moves at once."""

    def __init__(self, game: int, sockets: list[aiohttp.ClientWebSocketResponse], think: float = 0.0) -> None:
        self.game = game
        self.think = think
        self.rng = random.Random(game)
        self.thinking: set[int] = set()  # versions a page is thinking over (not moved yet)
        self.tasks: set[asyncio.Task[None]] = set()
        self.sockets = sockets
        self.frames: list[dict[str, Any] | None] = [None, None]
        self.sent: dict[int, tuple[float, int]] = {}  # version moved from -> (when, by page)
        self.latencies: list[float] = []
        self.since = 0.0  # moves sent before this are warming up, not measured
        self.moves = 0
        self.refused: dict[str, int] = {}

    async def read(self, index: int, stop: asyncio.Event) -> None:
        socket = self.sockets[index]
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(socket.receive(), 1.0)
            except TimeoutError:
                continue
            if message.type is not aiohttp.WSMsgType.TEXT:
                return
            frame = json.loads(message.data)
            if frame["type"] == "refused":
                self.refused[frame["reason"]] = self.refused.get(frame["reason"], 0) + 1
                self.sent = {v: sent for v, sent in self.sent.items() if sent[1] != index}
                await asyncio.sleep(0.1)  # then try again, as a person would
                await self.maybe_move(index)
            if frame["type"] != "table":
                continue
            now = time.perf_counter()
            for version, (when, by) in list(self.sent.items()):
                if by != index and frame["version"] > version:
                    if when >= self.since:
                        self.latencies.append(now - when)
                    del self.sent[version]
            self.frames[index] = frame
            if os.environ.get("BENCH_TRACE"):
                print(f"{now:.3f} page {index} v{frame['version']} turn {frame['turn']} you {frame['you']}", flush=True)
            if self.think:  # a person thinks while their page goes on showing what comes
                self.tasks.add(task := asyncio.create_task(self.maybe_move(index)))
                task.add_done_callback(self.tasks.discard)
            else:
                await self.maybe_move(index)

    async def maybe_move(self, index: int) -> None:
        frame = self.frames[index]
        if frame is None or frame["turn"] != frame["you"] or frame["status"] != "playing":
            return
        playable = next((entry for entry in frame["hand"] if entry["ends"]), None)
        if playable is None or frame["version"] in self.sent:
            return
        if self.think:
            if frame["version"] in self.thinking:
                return
            self.thinking.add(frame["version"])
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        end = None if playable["ends"] == ["lead"] else playable["ends"][0]
        self.sent[frame["version"]] = (time.perf_counter(), index)
        self.moves += 1
        if os.environ.get("BENCH_TRACE"):
            print(f"{time.perf_counter():.3f} page {index} moves at v{frame['version']}", flush=True)
        move = {"type": "move", "version": frame["version"], "tile": playable["tile"], "end": end}
        await self.sockets[index].send_str(json.dumps(move))


async def run(
    games: int, seconds: float, think: float, profile: str | None = None, keep_log: Path | None = None
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}/webapp"
    with tempfile.TemporaryDirectory(prefix="bench-webapp-") as folder:
        profiler = Profiler(profile, Path(folder), None)
        async with FakeTelegram() as fake:
            env = bot_env(fake, Path(folder) / "bot.sqlite3", log_level="WARNING")
            env.update(
                WEBAPP_URL=base,
                WEBAPP_PORT=str(port),
                WEBAPP_HOST="127.0.0.1",
                RENDER_WORKERS="2",
                GROUP_MESSAGES_PER_MINUTE=os.environ.get("BENCH_GROUP_MESSAGES_PER_MINUTE", "20"),
                CHAT_MESSAGES_PER_SECOND="0",
                MESSAGES_PER_SECOND="0",
            )
            env = profiler.environment(env)
            bot = BotLauncher(fake, Path(folder) / "bot.log", env, command=profiler.command(sys.executable))
            await bot.start()
            assert bot.process is not None
            try:
                print(f"setting up {games} games through the chat ...", flush=True)
                tables = await asyncio.gather(*(open_table(fake, base, number, think) for number in range(games)))
                stop = asyncio.Event()
                readers = [asyncio.create_task(t.read(i, stop)) for t in tables for i in (0, 1)]
                if not think:  # the closed loop starts here; a thinking person starts from their first frame
                    for table in tables:
                        for index in (0, 1):
                            await table.maybe_move(index)
                await asyncio.sleep(WARM_UP)  # every game under way, its first frames and boards out
                for table in tables:
                    table.latencies.clear()
                    table.moves, table.since = 0, time.perf_counter()
                profiler.attach(bot.process.pid, seconds)
                threads_before = thread_cpu(bot.process.pid)
                cpu_before = cpu_seconds(bot.process.pid)
                own_before = time.process_time()
                workers_before = children_cpu(bot.process.pid)
                begun = time.perf_counter()
                await asyncio.sleep(seconds)
                elapsed = time.perf_counter() - begun
                moves = sum(t.moves for t in tables)
                cpu = cpu_seconds(bot.process.pid) - cpu_before
                own = time.process_time() - own_before
                workers = children_cpu(bot.process.pid) - workers_before
                threads = {
                    tid: spent - threads_before.get(tid, 0.0) for tid, spent in thread_cpu(bot.process.pid).items()
                }
                stop.set()
                for table in tables:
                    for task in table.tasks:
                        task.cancel()
                await asyncio.gather(*readers, return_exceptions=True)
                latencies = [value * 1000 for t in tables for value in t.latencies]
                refused: dict[str, int] = {}
                for table in tables:
                    for reason, count in table.refused.items():
                        refused[reason] = refused.get(reason, 0) + count
                print(
                    f"{games} games, think {think:g} s, {elapsed:.1f} s: {moves} moves, {moves / elapsed:.1f} moves/s; "
                    f"move -> other page p50 {statistics.median(latencies):.1f} ms, "
                    f"p95 {percentile(latencies, 0.95):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, "
                    f"max {max(latencies):.1f} ms ({len(latencies)} measured); refused: {refused or 'none'}"
                )
                print(
                    f"bot CPU {cpu:.1f} s = {cpu / max(moves, 1) * 1000:.2f} ms a move "
                    f"(picture workers {workers:.1f} s more); this process (the fake and the pages) {own:.1f} s"
                )
                for table in tables:
                    for socket in table.sockets:
                        await socket.close()
                await profiler.finish()
            finally:
                await bot.stop()
            if profile is not None:
                print(profiler.report(bot.process.pid, threads, moves))
            if keep_log is not None:
                shutil.copyfile(Path(folder) / "bot.log", keep_log)


_session: aiohttp.ClientSession | None = None


async def open_table(fake: FakeTelegram, base: str, number: int, think: float) -> Table:
    global _session
    if _session is None:
        _session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))  # 2 sockets a game
    # Groups begin their games at different moments, as in life: each group's message budget
    # (20 a minute) then refills on a phase of its own, and boards are not all due at one instant.
    await asyncio.sleep(random.Random(number).uniform(0, STAGGER))
    ann, bob = fake.add_user(f"Ann{number}"), fake.add_user(f"Bob{number}")
    group = fake.add_group(f"Table {number}", members=[ann, bob])
    fake.start_bot(ann)
    fake.start_bot(bob)
    lobby = await open_lobby(fake, ann, group, "block")
    await set_seats(fake, lobby, ann, 2)  # two people, no computers: every move is a page's
    await join(fake, lobby, bob)
    await start_game(fake, lobby, ann)
    sockets = []
    for person in (ann, bob):
        signed = quote(init_data(fake.token, person, auth_date=int(time.time())), safe="")
        sockets.append(await _session.ws_connect(f"{base}/ws?game={lobby.game_id}&init_data={signed}"))
    return Table(lobby.game_id, sockets, think)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds a person thinks (0.5x to 1.5x of it; 0: move at once)"
    )
    parser.add_argument("--log", type=Path, help="keep the bot's log here")
    parser.add_argument("--profile", choices=("py-spy", "cprofile"), help="where the bot's CPU goes")
    args = parser.parse_args()

    async def everything() -> None:
        try:
            await run(args.games, args.seconds, args.think, args.profile, args.log)
        finally:
            if _session is not None:
                await _session.close()

    asyncio.run(everything())


if __name__ == "__main__":
    main()

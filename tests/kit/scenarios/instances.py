"""Several instances: two bots in webhook mode behind a round-robin balancer, one PostgreSQL
database and one Redis, playing games at once while one instance is SIGKILLed mid-game.

The fake Bot API server (``fake_telegram``) posts every update to one webhook URL, a
round-robin proxy (``tests/kit/balancer.py``) hands them to the instances in turn, so consecutive
taps of one game land on different processes, and the fake retries an update whose delivery
failed (the killed instance's, which the balancer then gives to the other). Group games of two
people and a computer run with the turn clock on (``TURN_CLOCK_SCALE``: 60 s last 3 s); one person
at each table sometimes lets their clock run out. After a few seconds instance 1 is killed;
later it is started again, and it must take its share again.

Afterwards, from the database and the transcript (``chaos_games.audit`` plus):

* every game finished; no acknowledged move lost, no move applied twice or without a tap; each
  game's move log agrees with its engine record;
* every turn a person let run out was played exactly once by the clock, and the person was told
  exactly once (no clock fired twice, none was lost with the killed instance);
* the taps of each game were served by both instances;
* nothing unhandled in either instance's log.

Needs PostgreSQL (``TEST_POSTGRES_URL``, default ``postgresql://postgres@127.0.0.1:5432/postgres``)
and Redis (``TEST_INSTANCES_REDIS_URL``, default ``redis://127.0.0.1:6379/14``, flushed at the
start); without them it reports why and runs nothing. Each run works in a schema of its own,
dropped afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import secrets
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fake_telegram import FakeTelegram, Message, User
from tests.kit.balancer import Balancer
from tests.kit.launcher import BotLauncher, free_port, webhook_env
from tests.kit.people.players import StoredGame, TileButton
from tests.kit.scenarios.chaos_games import (
    ERROR_LINE,
    ChaosTable,
    GameSpec,
    audit,
    set_up,
)

ROOT = Path(__file__).resolve().parents[3]

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("TEST_INSTANCES_REDIS_URL", "redis://127.0.0.1:6379/14")
CLOCK_SCALE = 0.05  # a group's default 60-second clock lasts 3 s
RAN_OUT = "⏱ Your time ran out"  # bot.words.texts.timeout_private, both forms
SPECS = (
    GameSpec("group", "classic", 2, 3),
    GameSpec("group", "draw", 2, 3),
    GameSpec("group", "duel", 2, 2),
)


async def unavailable() -> str | None:
    """Why the scenario cannot run here (no PostgreSQL or no Redis), or None."""
    import asyncpg
    from redis.asyncio import Redis

    try:
        connection = await asyncpg.connect(POSTGRES_URL, timeout=3)
        await connection.close()
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        return f"no PostgreSQL at {POSTGRES_URL}: {error}"
    redis = Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    try:
        await redis.ping()
    except Exception as error:
        return f"no Redis at {REDIS_URL}: {error}"
    finally:
        await redis.aclose()
    return None


@dataclass
class DozingTable(ChaosTable):
    """A table where one person lets their clock run out on about ``doze_share`` of their turns."""

    dozer: User | None = None
    doze_share: float = 0.0
    dozed: dict[int, bool] = field(default_factory=dict)  # the dozer's turn (button version) -> let it run out

    def _turn(self) -> tuple[User, Message, list[TileButton]] | None:
        turn = super()._turn()
        if turn is None or turn[0] is not self.dozer:
            return turn
        version = turn[2][0].version
        if version not in self.dozed:
            self.dozed[version] = self.rng.random() < self.doze_share
        return None if self.dozed[version] else turn


class Cluster:
    """The fake, the balancer and ``size`` bot instances on one PostgreSQL schema and one Redis."""

    def __init__(self, fake: FakeTelegram, workdir: Path, size: int, extra: dict[str, str] | None = None) -> None:
        self.fake = fake
        self.workdir = workdir
        self.schema = f"instances_{secrets.token_hex(4)}"
        self.database_url = f"{POSTGRES_URL}{'&' if '?' in POSTGRES_URL else '?'}search_path={self.schema}"
        self.ports = [free_port() for _ in range(size)]
        self.balancer_port = free_port()
        self.balancer = Balancer([f"http://127.0.0.1:{port}" for port in self.ports])
        self.instances: list[BotLauncher] = []
        for number, port in enumerate(self.ports, start=1):
            env = webhook_env(
                fake,
                self.database_url,
                url=f"http://127.0.0.1:{self.balancer_port}/telegram",
                port=port,
                redis_url=REDIS_URL,
                wake_grace_seconds=3,
                extra={"RENDER_WORKERS": "1", "WAKE_SWEEP_SECONDS": "0.5", **(extra or {})},
            )
            self.instances.append(BotLauncher(fake, workdir / f"bot-{number}.log", env, new_session=True))

    async def start(self) -> None:
        import asyncpg
        from redis.asyncio import Redis

        connection = await asyncpg.connect(POSTGRES_URL)
        try:
            await connection.execute(f'CREATE SCHEMA "{self.schema}"')
        finally:
            await connection.close()
        redis = Redis.from_url(REDIS_URL)
        try:
            await redis.flushdb()
        finally:
            await redis.aclose()
        await self.balancer.start(port=self.balancer_port)
        # One after the other: the first creates the schema's tables, the second finds them.
        for instance in self.instances:
            await instance.start(ready="webhook", timeout=60.0)
        await self.fake.wait_for(lambda: bool(self.fake.webhook.url), 30.0, what="the webhook to be set")

    async def count_moves(self, start: float, end: float) -> tuple[int, int]:
        """(people's moves, computer moves) committed between two wall-clock times."""
        import asyncpg

        connection = await asyncpg.connect(self.database_url)
        try:
            rows = await connection.fetch(
                "SELECT by_computer, COUNT(*) FROM moves WHERE at BETWEEN $1 AND $2 GROUP BY by_computer", start, end
            )
        finally:
            await connection.close()
        found = {bool(row[0]): int(row[1]) for row in rows}
        return found.get(False, 0), found.get(True, 0)

    async def wait_paid(self, timeout: float) -> None:
        """Until no game owes a clock notice (bot/table/manners.py pay_owed), or ``timeout`` seconds."""
        import json

        import asyncpg

        deadline = time.monotonic() + timeout
        connection = await asyncpg.connect(self.database_url)
        try:
            while time.monotonic() < deadline:
                rows = await connection.fetch("SELECT data FROM games")
                if not any(json.loads(row["data"]).get("owed") for row in rows):
                    return
                await asyncio.sleep(0.5)
        finally:
            await connection.close()

    async def stop(self) -> None:
        for instance in self.instances:
            if instance.running:
                await instance.stop()
        await self.balancer.stop()

    async def drop(self) -> None:
        import asyncpg

        connection = await asyncpg.connect(POSTGRES_URL)
        try:
            await connection.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
        finally:
            await connection.close()

    def log_problems(self) -> list[str]:
        return [
            f"bot-{number}: {line}"
            for number, instance in enumerate(self.instances, start=1)
            for line in instance.log().splitlines()
            if ERROR_LINE.search(line)
        ]

    async def games(self) -> dict[int, StoredGame]:
        import json

        import asyncpg

        connection = await asyncpg.connect(self.database_url)
        try:
            rows = await connection.fetch("SELECT id, status, preset, version, data FROM games ORDER BY id")
            moves = await connection.fetch(
                "SELECT game_id, round, seat, tile, side, by_computer FROM moves ORDER BY game_id, seq"
            )
        finally:
            await connection.close()
        logs: dict[int, list[tuple[int, int, str, str | None, int]]] = {}
        for move in moves:
            logs.setdefault(move["game_id"], []).append(
                (move["round"], move["seat"], move["tile"], move["side"], move["by_computer"])
            )
        return {
            row["id"]: StoredGame(
                row["id"],
                row["status"],
                row["preset"],
                row["version"],
                json.loads(row["data"]),
                logs.get(row["id"], []),
            )
            for row in rows
        }


def clock_audit(tables: list[DozingTable], stored: dict[int, StoredGame], fake: FakeTelegram) -> dict[str, Any]:
    """Each turn a dozer let run out was played by the clock, and every turn of theirs the clock
    played (those let run out, and those whose tap came too late: a loaded machine) was told once."""
    let_run_out = played_by_clock = late = told = 0
    problems: list[str] = []
    for table in tables:
        game = stored.get(table.game_id)
        if table.dozer is None or game is None:
            continue
        seat = game.seat_of(table.dozer)
        by_version = {k + r + 1: (s, by_computer) for k, (r, s, _t, _side, by_computer) in enumerate(game.moves)}
        # A run-out whose move ends the game is not told (the result says it all).
        last = len(game.moves) + len(game.record["rounds"]) - 1  # the version of the final move
        # The dozer's turns (each one they were shown buttons for) that the clock played: a seat
        # a computer took after two run-outs in a row shows no buttons, so its moves are not here.
        shown = {v for v in table.dozed if v in by_version and v != last}
        dozed = {v for v in shown if table.dozed[v]}
        by_clock = {v for v in shown if by_version[v] == (seat, 1)}
        let_run_out += len(dozed)
        played_by_clock += len(by_clock)
        late += len(by_clock - dozed)
        notices = sum(
            1
            for m in fake.messages(table.dozer, include_deleted=True, from_bot=True)
            if m.text is not None and m.text.text.startswith(RAN_OUT)
        )
        # Only the notices of this table: every dozer sits at one table.
        told += notices
        if not dozed <= by_clock or notices != len(by_clock):
            problems.append(
                f"game {table.game_id}: {len(dozed)} turns let run out, {len(dozed & by_clock)} of them played by "
                f"the clock, {len(by_clock)} of the dozer's turns played by the clock in all, {notices} notices"
            )
    return {
        "let run out": let_run_out,
        "played by the clock": played_by_clock,
        "taps too late": late,
        "told": told,
        "problems": problems,
    }


def spread(tables: list[ChaosTable], balancer: Balancer) -> dict[str, Any]:
    """Where each game's taps went: games served by both instances, and consecutive taps that changed instance."""
    games_on_both = switches = pairs = 0
    for table in tables:
        served = [balancer.served_by(tap.query.update_id) for tap in table.taps]
        last = [s[-1] for s in served if s]
        if len(set(last)) > 1:
            games_on_both += 1
        pairs += max(0, len(last) - 1)
        switches += sum(1 for a, b in itertools.pairwise(last) if a != b)
    return {"games served by both": games_on_both, "consecutive taps": pairs, "taps changing instance": switches}


async def run(quick: bool = False, *, games: int | None = None, seed: int = 21) -> dict[str, Any]:
    reason = await unavailable()
    if reason is not None:
        print(f"instances: skipped ({reason})")
        return {"skipped": reason}
    count = games if games is not None else (4 if quick else 12)
    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="instances-"))
    began = time.monotonic()
    fake = FakeTelegram(seed=seed, webhook_retry_delay=0.2)
    await fake.start()
    # Quick (the tests): pictures in each instance's own process, no worker processes to spawn.
    workers = "0" if quick else "1"
    cluster = Cluster(
        fake,
        workdir,
        2,
        extra={"TURN_CLOCK_SCALE": str(CLOCK_SCALE), "REQUEST_TIMEOUT": "5", "RENDER_WORKERS": workers},
    )
    tables: list[DozingTable] = []
    kill_at = restart_at = 0.0
    try:
        await cluster.start()
        for index in range(count):
            base = await set_up(fake, SPECS[index % len(SPECS)], index, seed)
            table = DozingTable(**{name: getattr(base, name) for name in base.__dataclass_fields__})
            table.dozer, table.doze_share = table.people[-1], 0.3
            tables.append(table)

        async def kill_then_restart() -> None:
            nonlocal kill_at, restart_at
            await asyncio.sleep(rng.uniform(2.0, 4.0))
            await cluster.instances[0].kill()
            kill_at = time.monotonic() - began
            await asyncio.sleep(rng.uniform(6.0, 9.0))  # the survivor alone, past the wake-up grace
            await cluster.instances[0].start(ready="webhook", timeout=60.0)
            restart_at = time.monotonic() - began

        killing = asyncio.create_task(kill_then_restart())
        await asyncio.gather(*(table.play() for table in tables))
        with contextlib.suppress(asyncio.CancelledError):
            await killing
        # The last notices and results: the ones the killed instance claimed come once its claims
        # lapse (three wake-up graces), then until nothing more is sent (the audit judges what was).
        await cluster.wait_paid(timeout=60.0)
        with contextlib.suppress(TimeoutError):
            await fake.wait_idle(quiet=1.0, timeout=60.0)
    finally:
        await cluster.stop()
        await fake.stop()
    try:
        stored = await cluster.games()
    finally:
        await cluster.drop()
    found = audit(list(tables), stored, [])
    clocks = clock_audit(tables, stored, fake)
    spreading = spread(list(tables), cluster.balancer)
    errors = cluster.log_problems()
    after_restart = sum(
        1 for record in cluster.balancer.log if record.upstream == cluster.balancer.upstreams[0] and record.at > 0
    )
    figures: dict[str, Any] = {
        "games": found.games,
        "finished": found.finished,
        "not finished": found.not_resumed,
        "people moves": found.human_moves,
        "computer moves": found.computer_moves,
        "taps": found.taps,
        "moves lost": found.lost,
        "moves applied twice": found.twice,
        "log/record mismatches": found.record_mismatch,
        **{f"clock: {k}": v for k, v in clocks.items() if k != "problems"},
        **spreading,
        "updates per instance": dict(Counter(r.upstream or "none (502)" for r in cluster.balancer.log)),
        "killed at s": round(kill_at, 1),
        "restarted at s": round(restart_at, 1),
        "updates served by instance 1 in all": after_restart,
        "log errors": len(errors),
        "seconds": round(time.monotonic() - began, 1),
        "problems": found.problems[:20] + clocks["problems"][:10] + errors[:10],
    }
    print(report(figures))
    if figures["problems"]:
        print(f"(logs kept in {workdir})")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return figures


def report(figures: dict[str, Any]) -> str:
    if "skipped" in figures:
        return f"instances: skipped ({figures['skipped']})"
    lines = [
        f"instances: 2 bots by webhook behind a balancer, PostgreSQL and Redis; {figures['games']} games, "
        f"instance 1 SIGKILLed at {figures['killed at s']} s and started again at {figures['restarted at s']} s; "
        f"{figures['seconds']} s",
        f"  games finished {figures['finished']}, not finished {figures['not finished']}",
        f"  moves: {figures['people moves']} by people, {figures['computer moves']} by computers and clocks; "
        f"lost {figures['moves lost']}, applied twice {figures['moves applied twice']}, "
        f"log/record mismatches {figures['log/record mismatches']}",
        f"  turn clocks: {figures['clock: let run out']} turns let run out; the clock played "
        f"{figures['clock: played by the clock']} of the dozers' turns ({figures['clock: taps too late']} whose tap "
        f"came too late), {figures['clock: told']} notices",
        f"  taps {figures['taps']}: {figures['games served by both']} of {figures['games']} games served by both "
        f"instances; {figures['taps changing instance']} of {figures['consecutive taps']} consecutive taps changed "
        f"instance; updates per instance {figures['updates per instance']}",
        f"  errors in the instances' logs: {figures['log errors']}",
    ]
    lines += [f"  ! {p}" for p in figures["problems"]]
    return "\n".join(lines)


if __name__ == "__main__":
    asyncio.run(run(quick="--quick" in sys.argv))

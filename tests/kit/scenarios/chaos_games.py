"""What the crash and faults scenarios share: the bot against the fake, games set up, players
who keep going when the bot does not answer, and the audit of every game's stored moves.

Players here are :class:`tests.kit.people.players.Table`'s people made stubborn: a tap that gets no
answer (the bot was killed, or Telegram lost the answer) is not an error, they look at their
screen again and tap what it shows, as people do.  Every tap is kept, with its callback query,
so the audit can tell, per game:

* **lost**: a move the bot acknowledged ("✅ You played …") or had committed to its database
  before a kill, missing from the final move log;
* **applied twice / without a tap**: a person's move in the log that no tap of theirs asked for
  (a replayed update applied again would be one), or log rows the engine record does not have;
* the log and the engine record agree and replay to a finished game (``check_stored_game``).

A tile button's ``version`` is the game's turn number (``bot.model.game.turn_number``): before the
move at index ``k`` of the log (all rounds, forced leads included), in round ``r`` (from 0), it
is ``k + r + 1``; that is how a logged move is matched to the tap that asked for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from fake_telegram import CallbackQuery, Chat, FakeTelegram, Message, User
from tests.kit.launcher import BotLauncher, bot_env
from tests.kit.people.players import (
    StoredGame,
    TileButton,
    final_result,
    hand_message,
    join,
    open_lobby,
    open_private_game,
    read_games,
    set_seats,
    start_game,
    tile_buttons,
    tile_key,
)

TAP_WAIT = 4.0  # seconds a player waits for the bot to act on a tap before looking again
STALL = 90.0  # seconds without any progress before a game counts as not resumed
PLAYED = re.compile(r"^✅ ")  # the toast of a tap that was played (bot.words.texts.you_played)
ERROR_LINE = re.compile(r" (ERROR|CRITICAL) |^Traceback ")
POLLING_ERROR = "Failed to fetch updates"  # aiogram's polling loop: logged at ERROR, then it backs off and retries


@dataclass(frozen=True)
class GameSpec:
    kind: str  # "group" or "private"
    preset: str
    people: int  # group: people seated (the rest are computers); private: always 1
    seats: int  # group: seats; private: 1 + computer opponents


# A mix with rounds changing (matches), computers and people in groups, and private games.
MIX = (
    GameSpec("group", "draw", 2, 3),
    GameSpec("private", "block", 1, 2),
    GameSpec("group", "classic", 2, 4),
    GameSpec("private", "draw", 1, 4),
    GameSpec("group", "block", 2, 2),
    GameSpec("private", "hundred", 1, 2),
)
# Single rounds mostly (and one match): games that end sooner, for the slower runs under faults.
SHORT_MIX = (
    GameSpec("group", "classic", 2, 3),
    GameSpec("private", "classic", 1, 3),
    GameSpec("group", "duel", 2, 2),
    GameSpec("private", "quickblock", 1, 2),
    GameSpec("group", "draw", 2, 3),
    GameSpec("private", "classic", 1, 2),
)


@dataclass
class Tap:
    user_id: int
    version: int
    tile: str  # "64"
    end: str
    query: CallbackQuery


@dataclass
class ChaosTable:
    """One game's people; they play it to the end, however often the bot goes away."""

    fake: FakeTelegram
    spec: GameSpec
    game_id: int
    people: list[User]
    results: Chat | User
    rng: random.Random
    version: int = -1
    taps: list[Tap] = field(default_factory=list)
    outcome: str = "playing"  # "finished", or "stuck" (did not resume)
    started: float = field(default_factory=time.monotonic)
    ended: float = 0.0

    def _turn(self) -> tuple[User, Message, list[TileButton]] | None:
        """A person's turn newer than the last play: their playable tiles, or a choice of ends."""
        for user in self.people:
            message = hand_message(self.fake, user)
            if message is None:
                continue
            buttons = [b for b in tile_buttons(message.inline_keyboard) if b.version > self.version]
            ends = [b for b in buttons if b.is_end_choice]
            playable = ends or [b for b in buttons if b.playable]
            if playable:
                return user, message, playable
        return None

    def _moved(self, button: TileButton) -> bool:
        if final_result(self.fake, self.results) is not None:
            return True
        for person in self.people:
            hand = hand_message(self.fake, person)
            if hand is not None and any(b.version > button.version for b in tile_buttons(hand.inline_keyboard)):
                return True
        return False

    async def play(self) -> str:
        loop = asyncio.get_running_loop()
        progress = loop.time()
        while True:
            if final_result(self.fake, self.results) is not None:
                self.outcome = "finished"
                break
            if loop.time() - progress > STALL:
                self.outcome = "stuck"
                break
            turn = self._turn()
            if turn is None:
                with contextlib.suppress(TimeoutError):
                    await self.fake.wait_for(lambda: self._turn() or final_result(self.fake, self.results), 1.0)
                continue
            user, message, playable = turn
            button = self.rng.choice(playable)
            query = self.fake.tap(user, message, data=button.data)
            self.taps.append(Tap(user.id, button.version, button.tile, button.end, query))

            def acted(b: TileButton = button, q: CallbackQuery = query, m: Message = message) -> bool:
                if self._moved(b):
                    return True
                if q.answered and not b.is_end_choice:  # a choice of ends, or a refusal: look again
                    live = self.fake.world.message(m.chat_id, m.message_id)
                    shown = tile_buttons(live.inline_keyboard) if live is not None else []
                    return any(x.is_end_choice and x.tile == b.tile for x in shown) or bool(q.answer)
                return False

            with contextlib.suppress(TimeoutError):
                await self.fake.wait_for(acted, TAP_WAIT, what="the bot to act on a tap")
            if self._moved(button):
                self.version = button.version
                progress = loop.time()
        self.ended = time.monotonic()
        return self.outcome


# ------------------------------------------------------------------------------------------ setting up


async def set_up(fake: FakeTelegram, spec: GameSpec, index: int, seed: int) -> ChaosTable:
    """Open one game as people do (no faults or kills meanwhile); returns its table, dealt."""
    rng = random.Random(f"{seed}:{index}")
    people = [fake.add_user(f"P{index}x{i}") for i in range(spec.people)]
    if spec.kind == "private":
        (user,) = people
        message = await open_private_game(fake, user, spec.preset, spec.seats - 1, level="easy")
        game_id = tile_buttons(message.inline_keyboard)[0].game
        return ChaosTable(fake, spec, game_id, people, user, rng)
    group = fake.add_group(f"Chaos {index}", members=people)
    for user in people:
        fake.start_bot(user)
    await fake.wait_for(
        lambda: all(fake.messages(user, from_bot=True) for user in people), 20.0, what="the welcome messages"
    )
    lobby = await open_lobby(fake, people[0], group, spec.preset)
    await set_seats(fake, lobby, people[0], spec.seats)
    for user in people[1:]:
        await join(fake, lobby, user)
    await start_game(fake, lobby, people[0])
    return ChaosTable(fake, spec, lobby.game_id, people, group, rng)


# ------------------------------------------------------------------------------------------ the bot


class Harness:
    """A fake, the bot on a SQLite file in ``workdir``, and its kills and restarts."""

    def __init__(self, fake: FakeTelegram, workdir: Path, extra: dict[str, str] | None = None) -> None:
        self.fake = fake
        self.workdir = workdir
        self.database = workdir / "chaos.sqlite3"
        env = bot_env(fake, self.database, log_level="INFO", extra={"RENDER_WORKERS": "1", **(extra or {})})
        self.bot = BotLauncher(fake, workdir / "bot.log", env, new_session=True)
        self.kills = 0
        self.kill_times: list[float] = []
        self.integrity: list[str] = []  # PRAGMA integrity_check after each kill: "ok" each time
        self.restart_seconds: list[float] = []
        self.leftover_children = 0

    async def start(self) -> None:
        await self.bot.start(timeout=60.0)

    async def kill_and_restart(self, after_kill: Callable[[], object] | None = None) -> None:
        children = await self.bot.kill()
        self.kills += 1
        self.kill_times.append(time.monotonic())
        self.integrity.append(integrity(self.database))
        if after_kill is not None:
            after_kill()
        began = time.monotonic()
        deadline = began + 10.0
        while time.monotonic() < deadline and any(alive(pid) for pid in children):
            await asyncio.sleep(0.05)
        self.leftover_children += sum(1 for pid in children if alive(pid))
        await self.bot.start(timeout=60.0)
        self.restart_seconds.append(time.monotonic() - began)

    async def stop(self) -> None:
        if self.bot.running:
            await self.bot.stop()

    def log_problems(self) -> tuple[list[str], int]:
        """(unhandled errors: ERROR lines and tracebacks, aiogram's polling retries logged at ERROR)."""
        lines = [line for line in self.bot.log().splitlines() if ERROR_LINE.search(line)]
        polling = [line for line in lines if POLLING_ERROR in line]
        return [line for line in lines if POLLING_ERROR not in line], len(polling)

    def games(self) -> dict[int, StoredGame]:
        return {game.id: game for game in read_games(self.database)}


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def integrity(database: Path) -> str:
    """``PRAGMA integrity_check`` of the bot's SQLite file (the bot is not running)."""
    if not database.exists():
        return "missing"
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as connection:
        rows = connection.execute("PRAGMA integrity_check").fetchall()
    return "; ".join(str(row[0]) for row in rows)


# ------------------------------------------------------------------------------------------ the audit


@dataclass
class Audit:
    games: int = 0
    finished: int = 0
    not_resumed: int = 0
    human_moves: int = 0
    computer_moves: int = 0
    taps: int = 0
    acknowledged: int = 0
    unanswered_taps: int = 0
    lost: int = 0
    twice: int = 0
    record_mismatch: int = 0
    problems: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)


def audit(
    tables: list[ChaosTable], stored: dict[int, StoredGame], snapshots: list[dict[int, list[tuple[object, ...]]]]
) -> Audit:
    """Compare every game's move log with its taps, its engine record and the logs seen at each kill."""
    from engine import read_record, replay

    found = Audit()
    for table in tables:
        found.games += 1
        found.kinds[f"{table.spec.kind} {table.spec.preset}"] += 1
        game = stored.get(table.game_id)
        name = f"game {table.game_id} ({table.spec.kind} {table.spec.preset})"
        if game is None or table.outcome != "finished" or game.status != "finished":
            found.not_resumed += 1
            found.problems.append(f"{name}: {table.outcome}, stored {game.status if game else 'missing'}")
            if game is None:
                continue
        else:
            found.finished += 1
        logged = [(r, seat, tile, side) for r, seat, tile, side, _ in game.moves]
        if logged != game.record_plays():
            found.record_mismatch += 1
            found.twice += max(0, len(logged) - len(game.record_plays()))
            found.problems.append(f"{name}: the moves table and the engine record disagree")
        if game.status == "finished" and not replay(read_record(game.record)).is_over:
            found.problems.append(f"{name}: the record does not replay to a finished game")
        seats = {game.seat_of(user): user.id for user in table.people}
        versions: dict[tuple[int, int, str], int] = {}  # (user, version, tile) -> logged human moves
        for k, (r, seat, tile, _side, by_computer) in enumerate(game.moves):
            if by_computer or seat not in seats:
                found.computer_moves += 1
                continue
            found.human_moves += 1
            key = (seats[seat], k + r + 1, tile_key(*str(tile).split("-")))
            versions[key] = versions.get(key, 0) + 1
        tapped = {(t.user_id, t.version, t.tile) for t in table.taps}
        for key, count in versions.items():
            if key not in tapped:
                found.twice += count
                found.problems.append(f"{name}: {key} was played without a tap asking for it")
            elif count > 1:
                found.twice += count - 1
                found.problems.append(f"{name}: {key} applied {count} times")
        for tap in table.taps:
            found.taps += 1
            if not tap.query.answered:
                found.unanswered_taps += 1
            if PLAYED.match(str((tap.query.answer or {}).get("text") or "")):
                found.acknowledged += 1
                if (tap.user_id, tap.version, tap.tile) not in versions:
                    found.lost += 1
                    found.problems.append(f"{name}: tap {tap.tile} at turn {tap.version} was acknowledged, then lost")
        for index, snapshot in enumerate(snapshots):
            before = snapshot.get(table.game_id, [])
            now = [tuple(move) for move in game.moves]
            kept = sum(1 for a, b in zip(before, now, strict=False) if a == b)
            if kept < len(before):
                found.lost += len(before) - kept
                found.problems.append(f"{name}: {len(before) - kept} moves committed before kill {index + 1} are gone")
    return found


def snapshot(database: Path) -> dict[int, list[tuple[object, ...]]]:
    """Every game's move log as the database holds it now (after a kill, before the restart)."""
    return {game.id: [tuple(move) for move in game.moves] for game in read_games(database)}

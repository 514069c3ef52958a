"""What the hostile and concurrency scenarios share: the real bot against the fake Telegram,
games in every state to aim at, and a snapshot of what only the rules may change.

* :func:`bot_running` starts ``python -m bot`` (``tests/kit/launcher.py``) with a fresh SQLite file;
* :func:`snapshot` reads every game's rules state from that file: status, kind, chat, creator,
  preset, seats, record, room code, rematch, … and its move log, but not where its messages
  are (a redrawn hand, a re-sent board are not changes of the game); :func:`compare` lists the
  differences between two snapshots;
* :func:`turn_of` is the turn a running game waits for: its version (the ``t:`` buttons'),
  the seat and person to move, every seat's hand and the moves the rules allow;
* :func:`log_problems` are the Tracebacks and ERROR lines of the bot's log.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.display.keyboards import END_CODES
from bot.model.game import turn_number
from engine import read_record, replay
from fake_telegram import FakeTelegram
from tests.kit.launcher import BotLauncher, bot_env

ROOT = Path(__file__).resolve().parents[3]

ERROR_LINE = re.compile(r" (ERROR|CRITICAL) |^Traceback ")
# Where a game's messages are and when its clock runs out: presentation, not the game.
PRESENTATION = frozenset(
    {"lobby_message", "board_message", "board_round", "hands", "results_posted", "deadline", "deadline_turn"}
)


@dataclass
class RunningBot:
    launcher: BotLauncher
    database: Path
    log_offset: int = 0

    def mark(self) -> None:
        """Errors are counted from here on."""
        self.log_offset = len(self.launcher.log())

    def problems(self) -> list[str]:
        return log_problems(self.launcher.log()[self.log_offset :])

    @property
    def alive(self) -> bool:
        return self.launcher.running


@contextlib.asynccontextmanager
async def bot_running(fake: FakeTelegram, workdir: Path | None = None) -> AsyncIterator[RunningBot]:
    """The real bot against ``fake`` with an empty database; stopped afterwards."""
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="dominoes-arena-")))
        database = workdir / "bot.sqlite3"
        env = bot_env(fake, database, heartbeat=workdir / "heartbeat")
        launcher = BotLauncher(fake, workdir / "bot.log", env)
        await launcher.start()
        try:
            yield RunningBot(launcher, database)
        finally:
            await launcher.stop()


def log_problems(text: str) -> list[str]:
    """ERROR lines, and each Traceback as its last line (the exception and its message)."""
    found = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("Traceback "):
            end = index + 1
            while end < len(lines) and (lines[end].startswith((" ", "Traceback ")) or not lines[end].strip()):
                end += 1
            found.append("Traceback: " + (lines[end] if end < len(lines) else "?"))
        elif ERROR_LINE.search(line):
            found.append(line)
    return found


# --------------------------------------------------------------------------- snapshots


@dataclass(frozen=True)
class GameSnap:
    id: int
    chat_id: int
    kind: str
    status: str
    creator_id: int
    preset: str
    version: int
    doc: dict[str, Any]
    moves: tuple[tuple[Any, ...], ...]  # (round, seat, tile, side, by_computer) in order

    def rules_state(self) -> dict[str, Any]:
        """What only the rules may change (a tap, a command, a computer's move)."""
        doc = {key: value for key, value in self.doc.items() if key not in PRESENTATION}
        return {
            "chat_id": self.chat_id,
            "kind": self.kind,
            "status": self.status,
            "creator_id": self.creator_id,
            "preset": self.preset,
            "doc": doc,
            "moves": self.moves,
        }

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.doc.get("seats") or []):
            if seat and seat.get("user_id") == user_id:
                return index
        return None

    def people(self) -> set[int]:
        return {seat["user_id"] for seat in self.doc.get("seats") or [] if seat and seat.get("user_id")}


def snapshot(database: Path) -> dict[int, GameSnap]:
    """Every game in the bot's SQLite file (read-only; WAL lets the bot write meanwhile)."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        rows = connection.execute(
            "SELECT id, chat_id, kind, status, creator_id, preset, version, data FROM games ORDER BY id"
        ).fetchall()
        moves: dict[int, list[tuple[Any, ...]]] = {}
        for game_id, *move in connection.execute(
            "SELECT game_id, round, seat, tile, side, by_computer FROM moves ORDER BY seq"
        ):
            moves.setdefault(game_id, []).append(tuple(move))
    finally:
        connection.close()
    return {
        row[0]: GameSnap(
            row[0], row[1], row[2], row[3], row[4], row[5], row[6], json.loads(row[7]), tuple(moves.get(row[0], ()))
        )
        for row in rows
    }


def compare(before: dict[int, GameSnap], after: dict[int, GameSnap]) -> list[str]:
    """The changes between two snapshots, one line each (empty: nothing the rules guard changed)."""
    problems = [
        f"game {game_id} appeared ({after[game_id].kind}, {after[game_id].status})"
        for game_id in after.keys() - before.keys()
    ]
    problems += [f"game {game_id} disappeared" for game_id in before.keys() - after.keys()]
    for game_id in sorted(before.keys() & after.keys()):
        old, new = before[game_id].rules_state(), after[game_id].rules_state()
        if old == new:
            continue
        keys = sorted(key for key in old if old[key] != new[key])
        keys += sorted(
            f"doc.{key}" for key in old["doc"].keys() | new["doc"].keys() if old["doc"].get(key) != new["doc"].get(key)
        )
        problems.append(f"game {game_id} ({before[game_id].kind}, {before[game_id].status}) changed: {', '.join(keys)}")
    return problems


# --------------------------------------------------------------------------- turns


def tile_code(high: int, low: int) -> str:
    return f"{max(high, low)}{min(high, low)}"


@dataclass(frozen=True)
class Turn:
    game: int
    version: int
    seat: int
    user_id: int | None  # None: a computer's turn
    hands: dict[int, frozenset[str]]  # seat -> tile codes ("64")
    legal: tuple[tuple[str, str], ...]  # (tile code, end code or "") the rules allow now
    users: dict[int, int]  # seat -> user id, people only


def turn_of(game: GameSnap) -> Turn | None:
    """The turn a running game waits for (None: not running, or between rounds)."""
    record = game.doc.get("record")
    if game.status != "playing" or record is None:
        return None
    match = replay(read_record(record))
    if match.is_over or match.round.is_over:
        return None
    state = match.round
    seats = game.doc.get("seats") or []
    users = {index: seat["user_id"] for index, seat in enumerate(seats) if seat and seat.get("user_id")}
    hands = {index: frozenset(tile_code(t.high, t.low) for t in hand) for index, hand in enumerate(state.hands)}
    legal = tuple(
        (tile_code(move.tile.high, move.tile.low), END_CODES.get(move.end, "") if move.end is not None else "")
        for move in state.legal_moves()
    )
    return Turn(game.id, turn_number(match), state.turn, users.get(state.turn), hands, legal, users)

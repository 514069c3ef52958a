"""Games: one row per game (a JSON document and a version) and the append-only log of its moves."""

from __future__ import annotations

import enum
import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import aiosqlite

from storage.database import ChatBusyError, StaleVersionError

if TYPE_CHECKING:
    from storage.database import Database


class GameStatus(enum.StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    # Closed by the idle sweep (bot/idle.py) after days without a change; kept, never deleted.
    CLOSED = "closed"


ACTIVE = (GameStatus.LOBBY.value, GameStatus.PLAYING.value)


@dataclass(frozen=True)
class MoveLog:
    """One played tile, as the log keeps it."""

    round: int
    seat: int
    tile: str
    side: str | None
    by_computer: bool = False


@dataclass(frozen=True)
class GameRow:
    id: int
    chat_id: int
    kind: str
    status: GameStatus
    preset: str
    creator_id: int
    version: int
    data: dict[str, Any]
    created_at: float
    updated_at: float

    @staticmethod
    def from_row(row: aiosqlite.Row) -> GameRow:
        return GameRow(
            id=row["id"],
            chat_id=row["chat_id"],
            kind=row["kind"],
            status=GameStatus(row["status"]),
            preset=row["preset"],
            creator_id=row["creator_id"],
            version=row["version"],
            data=json.loads(row["data"]),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )


class GameRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    async def create(
        self, *, chat_id: int, kind: str, status: GameStatus, preset: str, creator_id: int, data: dict[str, Any]
    ) -> GameRow:
        """A new game; :class:`ChatBusyError` if it would be the chat's second open one."""
        now = time.time()
        try:
            async with self._db.transaction() as connection:
                cursor = await connection.execute(
                    "INSERT INTO games (chat_id, kind, status, preset, creator_id, version, data, created_at,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
                    (chat_id, kind, status.value, preset, creator_id, json.dumps(data), now, now),
                )
                game_id = cursor.lastrowid
        except sqlite3.IntegrityError as error:
            raise ChatBusyError(f"chat {chat_id} already has an open game") from error
        assert game_id is not None
        return GameRow(game_id, chat_id, kind, status, preset, creator_id, 0, data, now, now)

    async def get(self, game_id: int) -> GameRow | None:
        row = await self._db.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
        return GameRow.from_row(row) if row else None

    async def active_in_chat(self, chat_id: int) -> GameRow | None:
        async with self._db.connection.execute(
            "SELECT * FROM games WHERE chat_id = ? AND status IN (?, ?) ORDER BY id DESC LIMIT 1",
            (chat_id, *ACTIVE),
        ) as cursor:
            row = await cursor.fetchone()
        return GameRow.from_row(row) if row else None

    async def newest_in_chat(self, chat_id: int, limit: int = 5) -> list[GameRow]:
        """The chat's newest games, whatever their status, newest first."""
        async with self._db.connection.execute(
            "SELECT * FROM games WHERE chat_id = ? ORDER BY id DESC LIMIT ?", (chat_id, limit)
        ) as cursor:
            rows = await cursor.fetchall()
        return [GameRow.from_row(row) for row in rows]

    async def status_of(self, game_id: int) -> GameStatus | None:
        """A game's status alone (no document to parse): checked on every tap."""
        async with self._db.connection.execute("SELECT status FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return GameStatus(row[0]) if row else None

    async def idle_since(self, before: float) -> list[GameRow]:
        """Lobbies and running games whose last change was before ``before`` (a time.time())."""
        async with self._db.connection.execute(
            "SELECT * FROM games WHERE status IN (?, ?) AND updated_at < ? ORDER BY id", (*ACTIVE, before)
        ) as cursor:
            rows = await cursor.fetchall()
        return [GameRow.from_row(row) for row in rows]

    async def with_status(self, status: GameStatus) -> list[GameRow]:
        async with self._db.connection.execute(
            "SELECT * FROM games WHERE status = ? ORDER BY id", (status.value,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [GameRow.from_row(row) for row in rows]

    async def save(
        self,
        game: GameRow,
        *,
        status: GameStatus | None = None,
        data: dict[str, Any] | None = None,
        moves: Sequence[MoveLog] = (),
    ) -> GameRow:
        """Write a new version of ``game`` (and its new moves) if nobody wrote one since it was read.

        Raises :class:`StaleVersionError` otherwise, and then nothing is written.
        """
        new = replace(
            game,
            status=status or game.status,
            data=game.data if data is None else data,
            version=game.version + 1,
            updated_at=time.time(),
        )
        update = (
            "UPDATE games SET status = ?, data = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?",
            (new.status.value, json.dumps(new.data), new.version, new.updated_at, game.id, game.version),
        )
        if not moves:
            # One statement is a transaction by itself: one trip to the database thread.
            if await self._db.write(*update) != 1:
                raise StaleVersionError(f"game {game.id} changed since version {game.version}")
            return new
        inserts = [
            (game.id, m.round, m.seat, m.tile, m.side, int(m.by_computer), new.updated_at, game.id) for m in moves
        ]

        def write(connection: sqlite3.Connection) -> None:
            if connection.execute(*update).rowcount != 1:
                raise StaleVersionError(f"game {game.id} changed since version {game.version}")
            connection.executemany(
                "INSERT INTO moves (game_id, seq, round, seat, tile, side, by_computer, at)"
                " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM moves WHERE game_id = ?",
                inserts,
            )

        await self._db.atomically(write)
        return new

    async def moves(self, game_id: int) -> list[MoveLog]:
        async with self._db.connection.execute(
            "SELECT round, seat, tile, side, by_computer FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [MoveLog(row[0], row[1], row[2], row[3], bool(row[4])) for row in rows]

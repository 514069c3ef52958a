"""Games: one row per game (a JSON document and a version) and the append-only log of its moves,
and the stored wake-ups that let any instance take over a running game nobody looks after."""

from __future__ import annotations

import enum
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, Literal

import storage.handled as handled
from storage.backend import POSTGRESQL, Row, Write
from storage.errors import ChatBusyError, IntegrityError

if TYPE_CHECKING:
    from storage.backend import Backend


class GameStatus(enum.StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    # Closed by the idle sweep (bot/background/idle_close.py) after days without a change; kept, never deleted.
    CLOSED = "closed"


ACTIVE = (GameStatus.LOBBY.value, GameStatus.PLAYING.value)


class _Unset(enum.Enum):
    """The default of ``save(wake_at=...)``: not passed, which is not the same as None (never)."""

    UNSET = enum.auto()


UNSET: Final = _Unset.UNSET
Unset = Literal[_Unset.UNSET]  # the type of UNSET, for callers that pass a wake-up on


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
    # When (time.time()) some instance should look at this running game if nobody else has;
    # None: never (not running, or waiting for a person who has no clock).
    wake_at: float | None = None

    @staticmethod
    def from_row(row: Row) -> GameRow:
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
            wake_at=row["wake_at"],
        )


_UPDATE = "UPDATE games SET status = ?, data = ?, version = ?, updated_at = ?, wake_at = ? WHERE id = ? AND version = ?"
# The next seq of the game's log is read in the same statement; the UPDATE above, in the same
# transaction, holds the game's row, so no other save of the game can come between.
_INSERT_MOVE = (
    "INSERT INTO moves (game_id, seq, round, seat, tile, side, by_computer, at)"
    " VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?), ?, ?, ?, ?, ?, ?)"
)
_CLAIM = (
    "UPDATE games SET wake_at = ? WHERE id IN ("
    "SELECT id FROM games WHERE status IN ('playing', 'finished') AND wake_at <= ? ORDER BY wake_at LIMIT ?{lock}"
    ") RETURNING id"
)
# PostgreSQL: rows another instance is claiming right now are skipped, not waited for (and never
# taken twice); SQLite has one writer at a time, so there is nobody to skip.
_CLAIM_SQL: Final = {POSTGRESQL: _CLAIM.format(lock=" FOR UPDATE SKIP LOCKED")}
_CLAIM_SQLITE: Final = _CLAIM.format(lock="")


class GameRepository:
    """The games table.

    On a database no other process writes (``backend.shared`` is False: SQLite, one bot a file),
    the newest row of each game is kept in memory: every change goes through here, so what was
    written last is what is stored, and a move reads its game without a trip to the database.
    """

    CACHED_GAMES: Final = 4096

    def __init__(self, backend: Backend, *, wake_grace: float) -> None:
        self._backend = backend
        self._wake_grace = wake_grace
        self._rows: dict[int, GameRow] | None = None if backend.shared else {}
        # Writes begun since start: a read or a wake-up that another write overtook on its way is
        # not kept, so the cache never goes back to an older row.
        self._writes = 0

    def _keep(self, row: GameRow) -> None:
        """``row`` was just written: the newest there is."""
        self._changed(row.id)
        if self._rows is not None:
            if len(self._rows) >= self.CACHED_GAMES and row.id not in self._rows:
                self._rows.clear()
            self._rows[row.id] = row

    def _changed(self, game_id: int) -> None:
        self._writes += 1
        if self._rows is not None:
            self._rows.pop(game_id, None)

    def forget(self) -> None:
        """Rows were changed behind this repository's back (a chat's games moved): read them again."""
        self._writes += 1
        if self._rows is not None:
            self._rows.clear()

    def _wake_at(self, status: GameStatus, at: float) -> float | None:
        """The wake-up a running game gets when nobody says another: ``wake_grace`` after ``at``."""
        return at + self._wake_grace if status is GameStatus.PLAYING else None

    async def create(
        self, *, chat_id: int, kind: str, status: GameStatus, preset: str, creator_id: int, data: dict[str, Any]
    ) -> GameRow:
        """A new game; :class:`ChatBusyError` if it would be the chat's second open one.

        A game made running gets the default wake-up, as :meth:`save` gives one.
        """
        now = time.time()
        wake_at = self._wake_at(status, now)
        insert = (
            "INSERT INTO games (chat_id, kind, status, preset, creator_id, version, data, created_at,"
            " updated_at, wake_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)"
        )
        params = (chat_id, kind, status.value, preset, creator_id, json.dumps(data), now, now, wake_at)
        mark = handled.pending()
        try:
            if mark is None:
                game_id = await self._backend.insert(insert, params)
            else:
                # The update this game is made for, in the same transaction (storage/handled.py).
                async with self._backend.transaction() as transaction:
                    await mark.write_in(transaction)
                    game_id = await transaction.insert(insert, params)
                mark.written()
        except IntegrityError as error:
            raise ChatBusyError(f"chat {chat_id} already has an open game") from error
        created = GameRow(game_id, chat_id, kind, status, preset, creator_id, 0, data, now, now, wake_at)
        self._keep(created)
        return created

    async def get(self, game_id: int) -> GameRow | None:
        if self._rows is not None and (kept := self._rows.get(game_id)) is not None:
            return kept
        writes = self._writes
        found = await self._backend.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
        row = GameRow.from_row(found) if found else None
        if row is not None and self._rows is not None and writes == self._writes:
            self._rows[game_id] = row
        return row

    async def active_in_chat(self, chat_id: int) -> GameRow | None:
        row = await self._backend.fetch_one(
            "SELECT * FROM games WHERE chat_id = ? AND status IN (?, ?) ORDER BY id DESC LIMIT 1",
            (chat_id, *ACTIVE),
        )
        return GameRow.from_row(row) if row else None

    async def newest_in_chat(self, chat_id: int, limit: int = 5) -> list[GameRow]:
        """The chat's newest games, whatever their status, newest first."""
        rows = await self._backend.fetch_all(
            "SELECT * FROM games WHERE chat_id = ? ORDER BY id DESC LIMIT ?", (chat_id, limit)
        )
        return [GameRow.from_row(row) for row in rows]

    async def status_of(self, game_id: int) -> GameStatus | None:
        """A game's status alone (no document to parse): checked on every tap."""
        row = await self._backend.fetch_one("SELECT status FROM games WHERE id = ?", (game_id,))
        return GameStatus(row[0]) if row else None

    async def idle_since(self, before: float) -> list[GameRow]:
        """Lobbies and running games whose last change was before ``before`` (a time.time())."""
        rows = await self._backend.fetch_all(
            "SELECT * FROM games WHERE status IN (?, ?) AND updated_at < ? ORDER BY id", (*ACTIVE, before)
        )
        return [GameRow.from_row(row) for row in rows]

    async def with_status(self, status: GameStatus) -> list[GameRow]:
        rows = await self._backend.fetch_all("SELECT * FROM games WHERE status = ? ORDER BY id", (status.value,))
        return [GameRow.from_row(row) for row in rows]

    async def save(
        self,
        game: GameRow,
        *,
        status: GameStatus | None = None,
        data: dict[str, Any] | None = None,
        moves: Sequence[MoveLog] = (),
        wake_at: float | Literal[_Unset.UNSET] | None = UNSET,
    ) -> GameRow:
        """Write a new version of ``game`` (and its new moves) if nobody wrote one since it was read.

        Raises :class:`StaleVersionError` otherwise, and then nothing is written.

        Every save sets the game's wake-up (in the same statement): for a running game ``wake_at``
        if given (None: never), else ``wake_grace`` seconds from now, so that should this instance
        die before it looks at the game again, another one takes it over; for a finished one
        ``wake_at`` if given (what it still owes: its result, notices), else none; for any other
        status, none.
        """
        now = time.time()
        new_status = status or game.status
        if new_status not in (GameStatus.PLAYING, GameStatus.FINISHED):
            wake = None
        elif wake_at is UNSET:
            wake = self._wake_at(new_status, now)
        else:
            wake = wake_at
        new = replace(
            game,
            status=new_status,
            data=game.data if data is None else data,
            version=game.version + 1,
            updated_at=now,
            wake_at=wake,
        )
        update = Write(
            _UPDATE,
            (new.status.value, json.dumps(new.data), new.version, now, wake, game.id, game.version),
            expect=1,
            stale=f"game {game.id} changed since version {game.version}",
        )
        # The Telegram update this change belongs to, if it changed nothing yet (storage/handled.py):
        # written first, so that a repeat of it fails before anything else is tried.
        mark = handled.pending()
        writes = [update] if mark is None else [mark.write(), update]
        if moves:
            inserts = [(game.id, game.id, m.round, m.seat, m.tile, m.side, int(m.by_computer), now) for m in moves]
            writes.append(Write(_INSERT_MOVE, rows=inserts))
        # One transaction; one statement alone is one by itself (one trip to the database), and on
        # SQLite several are one trip to its thread.
        try:
            await self._backend.batch(writes)
        except BaseException:
            self._changed(game.id)  # whatever happened, read it again
            raise
        self._keep(new)
        if mark is not None:
            mark.written()
        return new

    async def set_wake(self, game_id: int, version: int, at: float | None) -> bool:
        """Store when the running (or finished) game ``game_id`` (still at ``version``) should next be
        looked at (None: never); False if it changed meanwhile or is not running. The version stays."""
        kept = self._rows.get(game_id) if self._rows is not None else None
        self._changed(game_id)
        writes = self._writes
        changed = await self._backend.execute(
            "UPDATE games SET wake_at = ? WHERE id = ? AND version = ? AND status IN ('playing', 'finished')",
            (at, game_id, version),
        )
        if (
            changed
            and kept is not None
            and kept.version == version
            and writes == self._writes
            and self._rows is not None
        ):
            self._rows[game_id] = replace(kept, wake_at=at)
        return changed > 0

    async def claim_due(self, now: float, lease: float, limit: int = 20) -> list[int]:
        """Take up to ``limit`` running (or finished) games whose wake-up is due at ``now`` (those due longest
        first) and push their wake-ups to ``now + lease``; their ids, in ascending order.

        Atomic: two instances claiming at once never get the same game, and a game claimed comes
        due again only if its new wake-up passes too (the instance that took it died as well).
        """
        backend = self._backend
        parameters = (now + lease, now, limit)
        if backend.returning:
            rows = await backend.execute_returning(_CLAIM_SQL.get(backend.dialect, _CLAIM_SQLITE), parameters)
            for row in rows:
                self._changed(row[0])  # its wake-up moved
            return sorted(row[0] for row in rows)
        # An old SQLite without UPDATE ... RETURNING: the same in one write transaction.
        async with backend.transaction() as transaction:
            rows = await transaction.fetch_all(
                "SELECT id FROM games WHERE status IN ('playing', 'finished') AND wake_at <= ?"
                " ORDER BY wake_at LIMIT ?",
                (now, limit),
            )
            ids = sorted(row[0] for row in rows)
            if ids:
                marks = ", ".join("?" for _ in ids)
                await transaction.execute(f"UPDATE games SET wake_at = ? WHERE id IN ({marks})", (now + lease, *ids))
        for game_id in ids:
            self._changed(game_id)
        return ids

    async def moves(self, game_id: int) -> list[MoveLog]:
        rows = await self._backend.fetch_all(
            "SELECT round, seat, tile, side, by_computer FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [MoveLog(row[0], row[1], row[2], row[3], bool(row[4])) for row in rows]

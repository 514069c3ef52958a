"""Chats: their settings (a JSON object in ``chats.settings``, the language in ``chats.language``),
and moving everything a chat owns to a new chat id when a group becomes a supergroup.

The keys inside ``settings`` mean nothing here; the bot (``bot/model/chat_defaults.py``) gives them
their meaning and checks their values.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import storage.handled as handled
from storage.errors import IntegrityError
from storage.users import ChatRow

if TYPE_CHECKING:
    from storage.backend import Backend, Queries, Row

# Every table with a column that names a chat, and that column: all of it moves with the chat.
# A new table that belongs to a chat (results, ratings …) adds its line here.
CHAT_COLUMNS: tuple[tuple[str, str], ...] = (("games", "chat_id"), ("results", "chat_id"), ("result_seats", "chat_id"))

# How often a move is tried again when a game opened in the new chat at the same moment on
# another instance (PostgreSQL): the next try sees it and keeps one open game.
MOVE_TRIES = 3


class ChatRepository:
    def __init__(self, backend: Backend, *, games_moved: Callable[[], None] = lambda: None) -> None:
        self._backend = backend
        # Told when games changed here (moved to a supergroup): the games' own cache reads again.
        self._games_moved = games_moved

    async def get(self, chat_id: int) -> ChatRow | None:
        return await _read(self._backend, chat_id)

    async def update(
        self,
        chat_id: int,
        *,
        chat_type: str,
        settings: dict[str, Any] | None = None,
        language: str | None = None,
    ) -> ChatRow:
        """Set some settings keys (the others stay) and/or the language; makes the row if there is none."""
        mark = handled.pending()
        async with self._backend.transaction() as transaction:
            if mark is not None:
                # The update that asks for it, with it (storage/handled.py): one repeated changes nothing.
                await mark.write_in(transaction)
            # The chat's settings are read, merged and written back: no other update of the same
            # chat may come between (PostgreSQL; SQLite has one writer at a time anyway).
            await transaction.lock(chat_id)
            current = await _read(transaction, chat_id)
            merged = dict(current.settings if current else {})
            merged.update(settings or {})
            await transaction.execute(
                "INSERT INTO chats (id, type, language, settings, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET settings = excluded.settings,"
                " language = COALESCE(excluded.language, chats.language), updated_at = excluded.updated_at",
                (chat_id, chat_type, language, json.dumps(merged, sort_keys=True), time.time()),
            )
            updated = await _read(transaction, chat_id)
        assert updated is not None
        if mark is not None:
            mark.written()
        return updated

    async def adopt_language(self, chat_id: int, chat_type: str, language: str) -> str:
        """The chat's language; ``language`` becomes it if none is set yet (the first game's creator's)."""
        async with self._backend.transaction() as transaction:
            # One statement decides; the row it wrote stays this transaction's until it ends.
            await transaction.execute(
                "INSERT INTO chats (id, type, language, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET language = COALESCE(chats.language, excluded.language)",
                (chat_id, chat_type, language, time.time()),
            )
            row = await _read(transaction, chat_id)
        assert row is not None and row.language is not None
        return row.language

    async def move(self, old: int, new: int) -> int:
        """Everything of chat ``old`` now belongs to chat ``new`` (a group became a supergroup).

        Games (and any other table in :data:`CHAT_COLUMNS`) take the new id; the chat's row, its
        settings and language, go to the new id too, where what the new chat already has set wins.
        Returns the number of games moved; a second call moves nothing.
        """
        if old == new:
            return 0
        try:
            for attempt in range(1, MOVE_TRIES + 1):
                try:
                    return await self._move(old, new)
                except IntegrityError:
                    # Only on PostgreSQL: an open game came into ``new`` after _one_open_game looked.
                    if attempt == MOVE_TRIES:
                        raise
            raise AssertionError("unreachable")
        finally:
            self._games_moved()  # whatever became of it, the games are read again

    async def _move(self, old: int, new: int) -> int:
        moved = 0
        async with self._backend.transaction() as transaction:
            for chat_id in sorted((old, new)):  # in one order everywhere: no deadlock of two moves
                await transaction.lock(chat_id)
            await _one_open_game(transaction, old, new)
            for table, column in CHAT_COLUMNS:
                changed = await transaction.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (new, old))
                if table == "games":
                    moved = changed
            before = await _read(transaction, old)
            if before is not None:
                after = await _read(transaction, new)
                settings = {**before.settings, **(after.settings if after else {})}
                await transaction.execute(
                    "INSERT INTO chats (id, type, title, language, settings, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (id) DO UPDATE SET settings = excluded.settings,"
                    " language = COALESCE(chats.language, excluded.language),"
                    " title = COALESCE(chats.title, excluded.title), updated_at = excluded.updated_at",
                    (
                        new,
                        "supergroup",
                        before.title,
                        before.language,
                        json.dumps(settings, sort_keys=True),
                        time.time(),
                    ),
                )
                await transaction.execute("DELETE FROM chats WHERE id = ?", (old,))
        return moved


async def _read(queries: Queries, chat_id: int) -> ChatRow | None:
    row = await queries.fetch_one("SELECT id, type, title, language, settings FROM chats WHERE id = ?", (chat_id,))
    return _chat(row) if row is not None else None


def _chat(row: Row) -> ChatRow:
    return ChatRow(row[0], row[1], row[2], row[3], json.loads(row[4]))


async def _one_open_game(queries: Queries, old: int, new: int) -> None:
    """Before chat ``old``'s games move into ``new``: if both have an open game, one is cancelled
    (kept, not deleted), since a chat has at most one. A game being played wins over a lobby; of two
    alike, the new chat's, where the people are now."""
    query = "SELECT id, status FROM games WHERE chat_id = ? AND status IN ('lobby', 'playing')"
    moving = await queries.fetch_one(query, (old,))
    staying = await queries.fetch_one(query, (new,))
    if moving is None or staying is None:
        return
    loser = staying if (moving[1], staying[1]) == ("playing", "lobby") else moving
    await queries.execute(
        "UPDATE games SET status = 'cancelled', version = version + 1, updated_at = ?, wake_at = NULL WHERE id = ?",
        (time.time(), loser[0]),
    )

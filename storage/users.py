"""Users (and whether the bot may write to them privately) and chats (their settings)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storage.backend import Backend


@dataclass(frozen=True)
class UserRow:
    id: int
    name: str
    username: str | None
    language: str | None  # Telegram's language_code, as last seen
    private_ok: bool
    chosen_language: str | None = None  # what the user chose with /language


@dataclass(frozen=True)
class ChatRow:
    id: int
    type: str
    title: str | None
    language: str | None
    settings: dict[str, Any]


_SEEN = (
    "INSERT INTO users (id, name, username, language, updated_at) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (id) DO UPDATE SET name = excluded.name, username = excluded.username,"
    " language = COALESCE(excluded.language, users.language), updated_at = excluded.updated_at"
)
# Shared databases only (PostgreSQL; SQLite has IS DISTINCT FROM only since 3.39).
_SEEN_CHANGED = (
    " WHERE users.name IS DISTINCT FROM excluded.name OR users.username IS DISTINCT FROM excluded.username"
    " OR (excluded.language IS NOT NULL AND users.language IS DISTINCT FROM excluded.language)"
)


class UserRepository:
    """Users and chats.

    In a database of its own (SQLite) every write goes through this process, so the small caches
    below stay true (they spare a database round trip on every message and tap). In a shared one
    (PostgreSQL, ``Database.shared``) other instances write the same rows, so a cached value may
    be stale: there the caches are not used, and every call reads or writes the database.
    """

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._cache = not backend.shared
        self._seen: dict[int, tuple[str, str | None, str | None]] = {}
        self._private_ok: dict[int, bool] = {}

    async def seen(self, user_id: int, name: str, username: str | None, language: str | None) -> None:
        """Remember a user's current name (names change) without touching what else we know.

        In a shared database, where this is asked on every update, a row that already says so is
        left alone, so that most calls write nothing."""
        if self._cache:
            if self._seen.get(user_id) == (name, username, language):
                return
            self._seen[user_id] = (name, username, language)
        await self._backend.execute(
            _SEEN if self._cache else _SEEN + _SEEN_CHANGED, (user_id, name, username, language, time.time())
        )

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        if self._cache:
            if self._private_ok.get(user_id) == ok:
                return
            self._private_ok[user_id] = ok
        await self._backend.execute(
            "UPDATE users SET private_ok = ?, updated_at = ? WHERE id = ?", (int(ok), time.time(), user_id)
        )

    async def private_ok(self, user_id: int) -> bool:
        """Whether the bot may write to this user privately (they started it and did not block it)."""
        known = self._private_ok.get(user_id) if self._cache else None
        if known is None:
            user = await self.get(user_id)
            known = bool(user and user.private_ok)
            if self._cache:
                self._private_ok[user_id] = known
        return known

    async def get(self, user_id: int) -> UserRow | None:
        row = await self._backend.fetch_one(
            "SELECT id, name, username, language, private_ok, chosen_language FROM users WHERE id = ?", (user_id,)
        )
        if row is None:
            return None
        return UserRow(row[0], row[1], row[2], row[3], bool(row[4]), row[5])

    async def choose_language(self, user_id: int, name: str, language: str) -> None:
        """Remember the language the user chose (/language); it wins over Telegram's language_code."""
        await self._backend.execute(
            "INSERT INTO users (id, name, chosen_language, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET chosen_language = excluded.chosen_language,"
            " updated_at = excluded.updated_at",
            (user_id, name, language, time.time()),
        )

    async def chat_seen(self, chat_id: int, chat_type: str, title: str | None) -> None:
        await self._backend.execute(
            "INSERT INTO chats (id, type, title, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET type = excluded.type, title = excluded.title,"
            " updated_at = excluded.updated_at",
            (chat_id, chat_type, title, time.time()),
        )

    async def get_chat(self, chat_id: int) -> ChatRow | None:
        row = await self._backend.fetch_one(
            "SELECT id, type, title, language, settings FROM chats WHERE id = ?", (chat_id,)
        )
        if row is None:
            return None
        return ChatRow(row[0], row[1], row[2], row[3], json.loads(row[4]))

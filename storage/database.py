"""Opening the database DATABASE_URL names (SQLite or PostgreSQL), migrating it, and the repositories.

``sqlite:///relative/path``, ``sqlite:////absolute/path`` or ``sqlite:///:memory:`` open one
SQLite file for a single bot process; ``postgresql://user:password@host:port/database`` (or
``postgres://``) opens a shared database for several instances. The repositories (``db.games``,
``db.users``, ``db.chats``, ``db.results``, ``db.handled``: the Telegram updates that changed
something, :mod:`storage.handled`, and ``db.sent``: the replays and reviews sent once,
:mod:`storage.sent`) are the same for both (:mod:`storage.backend`).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from storage.backend import MIGRATIONS_LOCK, Backend
from storage.chats import ChatRepository
from storage.errors import AlreadyHandledError, ChatBusyError, DatabaseUrlError, StaleVersionError
from storage.games import GameRepository
from storage.handled import HandledUpdates
from storage.migrations import migrations_for
from storage.results import ResultRepository
from storage.sent import SentOnce
from storage.users import UserRepository

__all__ = [
    "DEFAULT_WAKE_GRACE",
    "AlreadyHandledError",
    "ChatBusyError",
    "Database",
    "DatabaseUrlError",
    "StaleVersionError",
    "database_path",
]

# Seconds after a save of a running game when another instance may take it over, if nobody
# (the instance that saved it, most likely) has stored a later wake-up by then.
DEFAULT_WAKE_GRACE: Final = 10.0

SQLITE_PREFIX: Final = "sqlite:///"
POSTGRES_SCHEMES: Final = ("postgresql", "postgres")
URL_FORMS: Final = (
    "sqlite:///path/to/file.sqlite3 (sqlite:////absolute/path, sqlite:///:memory:)"
    " or postgresql://user:password@host:port/database"
)


def _scheme_of(url: str) -> str:
    """What an error may show of a URL: its scheme alone (the rest may hold a password)."""
    scheme, colon, _ = url.partition(":")
    if colon and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]{0,20}", scheme):
        return f"got {scheme}:..."
    return "got something that is not a URL"


def database_path(url: str) -> Path | str:
    """The SQLite file of a ``sqlite:///relative`` or ``sqlite:////absolute`` URL (``:memory:`` too)."""
    if not url.startswith(SQLITE_PREFIX):
        raise DatabaseUrlError(f"DATABASE_URL must be {URL_FORMS} ({_scheme_of(url)})")
    rest = url[len(SQLITE_PREFIX) :]
    if rest in ("", ":memory:"):
        return ":memory:"
    return Path(rest)


def _check_postgres_url(url: str) -> None:
    """The checks asyncpg would fail on with a message that may quote the URL, made here first."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - it raises on a port that is not a number
    except ValueError:
        raise DatabaseUrlError(
            "DATABASE_URL is not a well-formed postgresql://user:password@host:port/database URL"
        ) from None


def _check_wake_grace(wake_grace: float) -> None:
    if not (wake_grace >= 0 and math.isfinite(wake_grace)):
        raise ValueError(f"wake_grace must be a number of seconds, at least 0 (got {wake_grace})")


class Database:
    """The repositories over one backend, and what the bot needs to know of that backend.

    ``shared`` is True where other processes may write the same rows (PostgreSQL), so nothing
    read may be kept in memory; ``wake_grace`` is how long after a save a running game may be
    taken over by another instance (:meth:`storage.games.GameRepository.save`).
    """

    def __init__(self, backend: Backend, *, wake_grace: float = DEFAULT_WAKE_GRACE) -> None:
        _check_wake_grace(wake_grace)
        self.backend = backend
        self.dialect = backend.dialect
        self.shared: bool = backend.shared
        self.wake_grace = float(wake_grace)
        self.migrations = migrations_for(backend.dialect)
        self.games = GameRepository(backend, wake_grace=self.wake_grace)
        self.users = UserRepository(backend)
        self.chats = ChatRepository(backend, games_moved=self.games.forget)
        self.results = ResultRepository(backend)
        self.handled = HandledUpdates(backend)
        self.sent = SentOnce(backend)

    @classmethod
    async def open(
        cls, url: str, *, wake_grace: float = DEFAULT_WAKE_GRACE, schema_version: int | None = None
    ) -> Database:
        """The database ``url`` names, migrated to the newest schema (or to ``schema_version``, as an
        older release left it: what the tests of an upgrade start from).

        Raises :class:`DatabaseUrlError` for a URL that is neither ``sqlite:///...`` nor
        ``postgresql://...`` (``postgres://``); any query string of the latter goes to asyncpg,
        which takes unknown parameters as server settings (``?search_path=myschema``).
        """
        _check_wake_grace(wake_grace)
        backend: Backend
        if url.startswith(SQLITE_PREFIX):
            from storage.sqlite_backend import SQLiteBackend

            backend = await SQLiteBackend.open(database_path(url))
        elif url.partition("://")[0].lower() in POSTGRES_SCHEMES:
            _check_postgres_url(url)
            from storage.postgres_backend import PostgresBackend

            backend = await PostgresBackend.open(url)
        else:
            raise DatabaseUrlError(f"DATABASE_URL must be {URL_FORMS} ({_scheme_of(url)})")
        try:
            database = cls(backend, wake_grace=wake_grace)
            await database.migrate(up_to=schema_version)
        except BaseException:
            await backend.close()
            raise
        return database

    async def close(self) -> None:
        await self.backend.close()

    async def migrate(self, *, up_to: int | None = None) -> int:
        """Apply the migrations this database has not seen (those up to ``up_to`` alone, if given);
        returns the schema version.

        Each migration is a transaction of its own that first takes a lock and then reads the
        version again, so that two instances starting at once against one empty database do not
        both apply it: the second waits, then finds it applied.
        """
        scripts = self.migrations[:up_to]
        while True:
            async with self.backend.transaction() as transaction:
                await transaction.lock(MIGRATIONS_LOCK)
                await transaction.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                row = await transaction.fetch_one("SELECT MAX(version) FROM schema_version")
                current = row[0] if row is not None and row[0] is not None else 0
                if current >= len(scripts):
                    return len(scripts)
                for statement in scripts[current].split(";"):
                    if statement.strip():
                        await transaction.execute(statement)
                await transaction.execute("INSERT INTO schema_version (version) VALUES (?)", (current + 1,))

    async def integrity_ok(self) -> bool:
        """Whether the database is sound and at the newest schema (on SQLite: every page checked)."""
        return await self.backend.integrity_ok(len(self.migrations))

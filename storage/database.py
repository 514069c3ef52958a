"""Opening the database, migrating it, and the transaction helper the repositories share."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TypeVar

import aiosqlite

from storage.migrations import MIGRATIONS

T = TypeVar("T")


class StaleVersionError(RuntimeError):
    """Somebody else changed the game first: reload it and decide again."""


class ChatBusyError(ValueError):
    """The chat already has an open (lobby or playing) game; a chat has at most one."""


class DatabaseUrlError(ValueError):
    pass


def database_path(url: str) -> Path | str:
    """The SQLite file of a ``sqlite:///relative`` or ``sqlite:////absolute`` URL (``:memory:`` too)."""
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        raise DatabaseUrlError(f"DATABASE_URL must start with {prefix} (got {url.split(':', 1)[0]}:...)")
    rest = url[len(prefix) :]
    if rest in ("", ":memory:"):
        return ":memory:"
    return Path(rest)


class Database:
    """One aiosqlite connection in WAL mode; writes go through :meth:`transaction`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        # One connection serves every coroutine: a transaction must not interleave with another.
        self._write_lock = asyncio.Lock()
        from storage.chats import ChatRepository
        from storage.games import GameRepository
        from storage.results import ResultRepository
        from storage.users import UserRepository

        self.games = GameRepository(self)
        self.users = UserRepository(self)
        self.chats = ChatRepository(self)
        self.results = ResultRepository(self)

    @classmethod
    async def open(cls, url: str) -> Database:
        path = database_path(url)
        if isinstance(path, Path):
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        database = cls(connection)
        await database.migrate()
        return database

    async def close(self) -> None:
        await self.connection.close()

    async def migrate(self) -> int:
        """Apply the migrations this file has not seen; returns the schema version."""
        await self.connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with self.connection.execute("SELECT MAX(version) FROM schema_version") as cursor:
            row = await cursor.fetchone()
        current = row[0] if row and row[0] is not None else 0
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self.transaction():
                for statement in script.split(";"):
                    if statement.strip():
                        await self.connection.execute(statement)
                await self.connection.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
        return len(MIGRATIONS)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error; one at a time."""
        async with self._write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
                await self.connection.execute("COMMIT")  # a failed COMMIT rolls back too
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise

    async def atomically(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` as one transaction, run whole in the database's thread: one trip from the event loop.

        aiosqlite runs what it is given one at a time, in order, on its own thread, so nothing can
        come between the statements of ``work``; the write lock keeps it out of a
        :meth:`transaction` that another coroutine holds open across awaits. Under load every
        await costs a turn of the busy event loop, and a move's writes are then the bottleneck.
        """

        def run(connection: sqlite3.Connection) -> T:
            connection.execute("BEGIN IMMEDIATE")
            try:
                result = work(connection)
                connection.execute("COMMIT")  # a failed COMMIT rolls back too
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            return result

        async with self._write_lock:
            # aiosqlite's own queue to its thread (``_execute``), the one its public methods use.
            return await self.connection._execute(run, self.connection._conn)  # type: ignore[no-any-return,no-untyped-call]

    async def fetch_one(self, sql: str, parameters: tuple[object, ...] = ()) -> sqlite3.Row | None:
        """The first row of a query, in one trip to the database's thread."""
        rows = await self.connection.execute_fetchall(sql, parameters)
        return next(iter(rows), None)

    async def write(self, sql: str, parameters: tuple[object, ...] = ()) -> int:
        """One statement, committed by itself (never inside another coroutine's transaction); its rowcount."""
        async with self._write_lock:
            cursor = await self.connection.execute(sql, parameters)
            return cursor.rowcount

    async def integrity_ok(self) -> bool:
        async with self.connection.execute("PRAGMA integrity_check") as cursor:
            row = await cursor.fetchone()
        return row is not None and row[0] == "ok"

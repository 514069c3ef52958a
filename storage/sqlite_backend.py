"""The SQLite backend: one aiosqlite connection in WAL mode, for the default single process.

Every operation is one trip to aiosqlite's thread: a small function that runs the statement (and
reads its rows or its rowcount) is queued whole, instead of aiosqlite's cursor methods, each of
which is a trip of its own. Under load every await costs a turn of the busy event loop, and a
move's reads and writes are then the bottleneck.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

import aiosqlite

from storage.backend import SQLITE, Params, Row, Transaction, Write
from storage.errors import IntegrityError

T = TypeVar("T")

# UPDATE ... RETURNING came with SQLite 3.35 (2021); older ones take a select and an update instead.
HAS_RETURNING: Final = sqlite3.sqlite_version_info >= (3, 35, 0)

# Asking for WAL mode when another process does the same on a new file (:func:`_into_wal`).
WAL_TRIES: Final = 50
WAL_RETRY_SECONDS: Final = 0.1


# What runs on aiosqlite's thread: a statement and what the caller needs of it, at once.


def _fetch_all(connection: sqlite3.Connection, sql: str, params: Params) -> list[Row]:
    return connection.execute(sql, params).fetchall()


def _fetch_one(connection: sqlite3.Connection, sql: str, params: Params) -> Row | None:
    row: Row | None = connection.execute(sql, params).fetchone()
    return row


def _execute(connection: sqlite3.Connection, sql: str, params: Params) -> int:
    try:
        return connection.execute(sql, params).rowcount
    except sqlite3.IntegrityError as error:
        raise IntegrityError(str(error)) from error


def _insert(connection: sqlite3.Connection, sql: str, params: Params) -> int:
    try:
        row_id = connection.execute(sql, params).lastrowid
    except sqlite3.IntegrityError as error:
        raise IntegrityError(str(error)) from error
    assert row_id is not None
    return row_id


def _returning(connection: sqlite3.Connection, sql: str, params: Params) -> list[Row]:
    try:
        return connection.execute(sql, params).fetchall()
    except sqlite3.IntegrityError as error:
        raise IntegrityError(str(error)) from error


def _executemany(connection: sqlite3.Connection, sql: str, rows: Iterable[Params]) -> None:
    try:
        connection.executemany(sql, rows)
    except sqlite3.IntegrityError as error:
        raise IntegrityError(str(error)) from error


def _atomically(connection: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work`` as one transaction (BEGIN IMMEDIATE ... COMMIT, rolled back on any error)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        result = work(connection)
        connection.execute("COMMIT")  # a failed COMMIT rolls back too
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return result


def _batch(connection: sqlite3.Connection, writes: Sequence[Write]) -> None:
    for write in writes:
        if write.rows is not None:
            _executemany(connection, write.sql, write.rows)
            continue
        changed = _execute(connection, write.sql, write.params)
        if write.expect is not None and changed != write.expect:
            raise write.error(write.stale)  # and _atomically rolls back what came before


async def _into_wal(connection: aiosqlite.Connection) -> None:
    """WAL mode, even while another process turns the same new file into WAL too.

    Switching needs the file to itself, and two connections that both ask at once can each hold
    what the other waits for: SQLite then answers "database is locked" at once, without waiting
    (busy_timeout is of no help). So the loser asks again, until the winner is done.
    """
    for _ in range(WAL_TRIES - 1):
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error):
                raise
        await asyncio.sleep(WAL_RETRY_SECONDS)
    await connection.execute("PRAGMA journal_mode=WAL")


class SQLiteTransaction:
    """The open transaction of :meth:`SQLiteBackend.transaction`: its statements, on its connection."""

    def __init__(self, run: Callable[..., Awaitable[Any]], connection: sqlite3.Connection) -> None:
        self._run = run
        self._connection = connection

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        rows: list[Row] = await self._run(_fetch_all, self._connection, sql, params)
        return rows

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = await self._run(_fetch_one, self._connection, sql, params)
        return row

    async def execute(self, sql: str, params: Params = ()) -> int:
        count: int = await self._run(_execute, self._connection, sql, params)
        return count

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self._run(_executemany, self._connection, sql, rows)

    async def insert(self, sql: str, params: Params = ()) -> int:
        row_id: int = await self._run(_insert, self._connection, sql, params)
        return row_id

    async def execute_returning(self, sql: str, params: Params = ()) -> list[Row]:
        rows: list[Row] = await self._run(_returning, self._connection, sql, params)
        return rows

    async def lock(self, key: int) -> None:
        """Nothing to do: BEGIN IMMEDIATE took the file's one write lock, which no other
        transaction (of this process or another) can hold at the same time."""


class SQLiteBackend:
    """One aiosqlite connection in WAL mode; one writer at a time (the write lock below, and
    SQLite's own lock on the file across processes)."""

    dialect: Final = SQLITE
    # Several processes may open one file, but the bot runs one per file (README): what this
    # process wrote is what is there, so its caches stay true.
    shared: Final = False
    returning: bool = HAS_RETURNING

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection
        # aiosqlite's own queue to its thread (``_execute``), the one its public methods use, and
        # the sqlite3 connection that lives on that thread: one trip per operation.
        self._run: Callable[..., Awaitable[Any]] = connection._execute
        self._raw: sqlite3.Connection = connection._conn
        # One connection serves every coroutine: a transaction held open across awaits must not
        # interleave with another, and a write outside one must not land inside it (:meth:`_write`).
        self._write_lock = asyncio.Lock()
        self._transaction = SQLiteTransaction(self._run, self._raw)

    @classmethod
    async def open(cls, path: Path | str) -> SQLiteBackend:
        if isinstance(path, Path):
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        try:
            await connection.execute("PRAGMA busy_timeout=5000")
            await _into_wal(connection)
            await connection.execute("PRAGMA synchronous=NORMAL")
            await connection.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            await connection.close()
            raise
        return cls(connection)

    async def close(self) -> None:
        await self._connection.close()

    # Reads take no lock: statements run one at a time on the thread anyway.

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        rows: list[Row] = await self._run(_fetch_all, self._raw, sql, params)
        return rows

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = await self._run(_fetch_one, self._raw, sql, params)
        return row

    # A single statement is a transaction by itself (the connection is in autocommit mode).

    async def execute(self, sql: str, params: Params = ()) -> int:
        count: int = await self._write(_execute, self._raw, sql, params)
        return count

    async def insert(self, sql: str, params: Params = ()) -> int:
        row_id: int = await self._write(_insert, self._raw, sql, params)
        return row_id

    async def execute_returning(self, sql: str, params: Params = ()) -> list[Row]:
        rows: list[Row] = await self._write(_returning, self._raw, sql, params)
        return rows

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self.run(lambda connection: _executemany(connection, sql, rows))

    async def batch(self, writes: Sequence[Write]) -> None:
        if len(writes) == 1 and writes[0].rows is None:
            # One statement needs no BEGIN and COMMIT around it.
            write = writes[0]
            changed = await self.execute(write.sql, write.params)
            if write.expect is not None and changed != write.expect:
                raise write.error(write.stale)
            return
        await self.run(lambda connection: _batch(connection, writes))

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` as one transaction, run whole in the database's thread: one trip from the event loop.

        aiosqlite runs what it is given one at a time, in order, on its own thread, so nothing can
        come between the statements of ``work``; the write lock keeps it out of a
        :meth:`transaction` that another coroutine holds open across awaits.
        """
        result: T = await self._write(_atomically, self._raw, work)
        return result

    async def _write(self, work: Callable[..., T], *args: Any) -> T:
        """A write that is a transaction by itself (one statement, or :func:`_atomically`), queued
        to the thread at once: its place in the queue is its place among the writes. Only a
        :meth:`transaction` open across awaits (holding the write lock) is waited for, so that
        nothing lands inside it. Holding the lock for the whole trip instead made every write of
        the bot wait for the one before it to come back to a busy event loop, one at a time."""
        if self._write_lock.locked():
            async with self._write_lock:
                pass  # released: this write is queued (below, before any await) ahead of the next BEGIN
        result: T = await self._run(work, *args)
        return result

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error; one at a time."""
        async with self._write_lock:
            await self._run(self._raw.execute, "BEGIN IMMEDIATE")
            try:
                yield self._transaction
                await self._run(self._raw.execute, "COMMIT")  # a failed COMMIT rolls back too
            except BaseException:
                await self._run(self._raw.execute, "ROLLBACK")
                raise

    async def integrity_ok(self, version: int) -> bool:
        """SQLite's own full check of the file (it reads all of it), and the schema's version."""
        check = await self.fetch_one("PRAGMA integrity_check")
        current = await self.fetch_one("SELECT MAX(version) FROM schema_version")
        return check is not None and check[0] == "ok" and current is not None and current[0] == version

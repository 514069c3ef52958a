"""The PostgreSQL backend: a small asyncpg pool, for several bot instances sharing one database.

Statements come with ``?`` placeholders (:mod:`storage.backend`) and are numbered ``$1 .. $n``
here, once per distinct statement. Each statement outside a transaction commits by itself, on
whichever pooled connection is free; a transaction or a batch holds one connection throughout.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Final, cast

import asyncpg

from storage.backend import POSTGRESQL, Params, Row, Transaction, Write, rowcount
from storage.errors import IntegrityError

POOL_MIN_SIZE: Final = 1
POOL_MAX_SIZE: Final = 10


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered as PostgreSQL wants them.

    >>> numbered("UPDATE games SET data = ? WHERE id = ? AND version = ?")
    'UPDATE games SET data = $1 WHERE id = $2 AND version = $3'
    """
    parts = sql.split("?")
    if len(parts) == 1:
        return sql
    out = [parts[0]]
    for number, part in enumerate(parts[1:], start=1):
        out.append(f"${number}")
        out.append(part)
    return "".join(out)


@functools.lru_cache(maxsize=256)
def _insert_returning_id(sql: str) -> str:
    return numbered(sql) + " RETURNING id"


# asyncpg's pool and a connection taken from it answer the same calls.
Executor = asyncpg.Pool | asyncpg.Connection | asyncpg.pool.PoolConnectionProxy


class _Queries:
    """The statements of :class:`storage.backend.Queries`, run on a pool or on one connection."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return cast("list[Row]", await self._executor.fetch(numbered(sql), *params))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = await self._executor.fetchrow(numbered(sql), *params)
        return row

    async def execute(self, sql: str, params: Params = ()) -> int:
        try:
            # Without parameters asyncpg sends the text as it is (a script may hold several statements).
            status = await self._executor.execute(numbered(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error
        return rowcount(status)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        try:
            # asyncpg runs executemany atomically: all the rows, or (on an error) none.
            await self._executor.executemany(numbered(sql), [tuple(row) for row in rows])
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error

    async def insert(self, sql: str, params: Params = ()) -> int:
        try:
            row_id = await self._executor.fetchval(_insert_returning_id(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error
        assert isinstance(row_id, int)
        return row_id

    async def execute_returning(self, sql: str, params: Params = ()) -> list[Row]:
        try:
            rows = await self._executor.fetch(numbered(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error
        return cast("list[Row]", rows)


class PostgresTransaction(_Queries):
    """An open transaction on one of the pool's connections."""

    async def lock(self, key: int) -> None:
        # Held until this transaction commits or rolls back, whatever happens to it.
        await self._executor.execute("SELECT pg_advisory_xact_lock($1)", key)


class PostgresBackend(_Queries):
    """An asyncpg pool of :data:`POOL_MIN_SIZE` to :data:`POOL_MAX_SIZE` connections.

    Transactions are PostgreSQL's default, READ COMMITTED: each statement sees what was committed
    before it began. A repository that reads, decides and writes takes a :meth:`~PostgresTransaction.lock`
    first; a single statement (an ``UPDATE ... WHERE version = ?``) needs none, since it waits for
    and then re-checks a row another transaction is changing.
    """

    dialect: Final = POSTGRESQL
    # Other instances write the same rows: nothing read may be kept in memory.
    shared: Final = True
    returning: Final = True

    def __init__(self, pool: asyncpg.Pool) -> None:
        super().__init__(pool)
        self._pool = pool

    @classmethod
    async def open(cls, url: str) -> PostgresBackend:
        """A pool for ``url``; asyncpg takes its query string's unknown parameters (``?search_path=``)
        as settings of the server session."""
        pool = await asyncpg.create_pool(url, min_size=POOL_MIN_SIZE, max_size=POOL_MAX_SIZE, reset=_keep_session)
        return cls(pool)

    async def close(self) -> None:
        await self._pool.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield PostgresTransaction(connection)

    async def batch(self, writes: Sequence[Write]) -> None:
        async with self.transaction() as transaction:
            for write in writes:
                if write.rows is not None:
                    await transaction.executemany(write.sql, write.rows)
                    continue
                changed = await transaction.execute(write.sql, write.params)
                if write.expect is not None and changed != write.expect:
                    raise write.error(write.stale)

    async def integrity_ok(self, version: int) -> bool:
        """Cheap, unlike SQLite's check of every page: a pooled connection answers, and the schema
        is at ``version`` (PostgreSQL looks after its own pages)."""
        try:
            current = await self._pool.fetchval("SELECT MAX(version) FROM schema_version")
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
            return False
        return bool(current == version)


async def _keep_session(connection: asyncpg.Connection) -> None:
    """What a connection goes back to the pool with: as it is. asyncpg's default resets the session
    (a round trip on every release); nothing here changes session state (no SET, no LISTEN, advisory
    locks only for the length of a transaction), so there is nothing to reset."""

"""The small interface the repositories write their SQL against, whichever database is behind it.

There are two backends: :mod:`storage.sqlite_backend` (one aiosqlite connection, the default
single process) and :mod:`storage.postgres_backend` (an asyncpg pool, for several instances).
The repositories write each statement once, in SQL both databases understand, with ``?``
placeholders: the PostgreSQL backend numbers them ``$1 .. $n``, so a ``?`` must never appear
inside a string literal. Where the dialects really differ (JSON functions, ``FOR UPDATE SKIP
LOCKED``) a repository asks :attr:`Backend.dialect`.

A row supports access by column name and by index (``sqlite3.Row`` and ``asyncpg.Record`` both do).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Final, Protocol

from storage.errors import StaleVersionError

SQLITE: Final = "sqlite"
POSTGRESQL: Final = "postgresql"

# Keys of the transaction-scoped locks of :meth:`Transaction.lock`. A lock on a chat takes the
# chat's id as its key; Telegram's ids stay below 2**53 in size, so these (above 2**62) never meet one.
MIGRATIONS_LOCK: Final = 0x646F_6D69_6E6F_0001  # "domino" 1: one instance migrates at a time
RATINGS_LOCK: Final = 0x646F_6D69_6E6F_0002  # "domino" 2: ratings are read and written one game at a time

Params = Sequence[object]


class Row(Protocol):
    """A result row: ``row["column"]`` or ``row[0]``, and iterable over its values."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Write:
    """One statement of a :meth:`Backend.batch`.

    ``params`` once, or (with ``rows``) once for each of ``rows``, as executemany does. With
    ``expect``, the statement must change exactly that many rows, or the whole batch is rolled
    back and ``error`` (:class:`~storage.errors.StaleVersionError` or a subclass) is raised with
    the message ``stale``.
    """

    sql: str
    params: Params = ()
    expect: int | None = None
    stale: str = ""
    rows: Sequence[Params] | None = None
    error: type[StaleVersionError] = StaleVersionError


class Queries(Protocol):
    """What the repositories can ask of a backend, or of a transaction it has open."""

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query."""
        ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or None."""
        ...

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """One statement once for each of ``rows``, all or none of them."""
        ...

    async def insert(self, sql: str, params: Params = ()) -> int:
        """An ``INSERT`` of one row into a table with an ``id`` key the database makes; that id."""
        ...

    async def execute_returning(self, sql: str, params: Params = ()) -> list[Row]:
        """A statement that writes and returns rows (``... RETURNING``); those rows."""
        ...


class Transaction(Queries, Protocol):
    """An open transaction: its statements commit together, or (on any error) none of them do."""

    async def lock(self, key: int) -> None:
        """Wait until no other transaction holds ``key``, then hold it until this one ends.

        What PostgreSQL needs where a transaction reads, decides and writes (its transactions
        only see what was committed before each statement); on SQLite it does nothing, because
        every write transaction there already holds the file's one write lock (BEGIN IMMEDIATE).
        """
        ...


class Backend(Queries, Protocol):
    """One database: statements outside a transaction commit by themselves."""

    @property
    def dialect(self) -> str:
        """SQLITE or POSTGRESQL."""
        ...

    @property
    def shared(self) -> bool:
        """Whether other processes may write the same rows, so nothing read may be kept in memory."""
        ...

    @property
    def returning(self) -> bool:
        """Whether ``UPDATE ... RETURNING`` works (SQLite >= 3.35; PostgreSQL always)."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction: committed when the block ends, rolled back if it raises."""
        ...

    async def batch(self, writes: Sequence[Write]) -> None:
        """``writes`` in order as one transaction, in as few trips to the database as it can."""
        ...

    async def integrity_ok(self, version: int) -> bool:
        """A check of the database (cheap on PostgreSQL): usable, and at schema ``version``."""
        ...

    async def close(self) -> None: ...


def rowcount(status: str) -> int:
    """The number of rows of a PostgreSQL command tag (``UPDATE 3``, ``INSERT 0 1``); 0 if none.

    >>> rowcount("UPDATE 3"), rowcount("INSERT 0 1"), rowcount("CREATE TABLE")
    (3, 1, 0)
    """
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0

"""Every storage test runs against both databases: a SQLite file, and PostgreSQL in a schema of its own.

PostgreSQL is the server at ``TEST_POSTGRES_URL`` (default
``postgresql://postgres@127.0.0.1:5432/postgres``). Each test gets a fresh schema ``t_<random>``
(the database is opened with ``?search_path=t_<random>``), dropped with everything in it afterwards,
so tests never see each other's rows. Where the server cannot be reached within about 2 seconds,
the PostgreSQL variants are skipped, saying why, and never hang for want of a server; under
``CI=true`` they fail instead (:func:`tests.conftest.server_missing`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
import pytest_asyncio

from storage import Database
from tests.conftest import server_missing

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
CONNECT_SECONDS = 2.0

# Why PostgreSQL could not be reached, once known: the other tests skip at once instead of waiting again.
_unreachable: list[str] = []


def with_search_path(url: str, schema: str) -> str:
    """``url`` with ``search_path`` set to ``schema`` (asyncpg passes it on as a server setting)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def admin_connection() -> asyncpg.Connection:
    """A connection to the test server, or a skip (a failure under CI=true), with the reason, if there is none."""
    if _unreachable:
        server_missing(_unreachable[0])
    try:
        # asyncpg's own timeout covers connecting; wait_for bounds anything else it might wait on.
        connection: asyncpg.Connection = await asyncio.wait_for(
            asyncpg.connect(POSTGRES_URL, timeout=CONNECT_SECONDS), CONNECT_SECONDS + 1
        )
    except Exception as error:  # refused, timed out, no such role or database: all mean "no server"
        _unreachable.append(
            f"PostgreSQL is not reachable at TEST_POSTGRES_URL ({type(error).__name__}); set it to run these"
        )
        server_missing(_unreachable[0])
    return connection


@contextlib.asynccontextmanager
async def fresh_schema() -> AsyncIterator[str]:
    """The URL of a new, empty schema ``t_<random>`` of the test server, dropped afterwards."""
    admin = await admin_connection()
    schema = f"t_{secrets.token_hex(8)}"
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_search_path(POSTGRES_URL, schema)
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of an empty database, SQLite or PostgreSQL: each test runs once with each."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'data' / 'test.sqlite3'}"
        return
    async with fresh_schema() as url:
        yield url


@pytest_asyncio.fixture
async def postgres_url() -> AsyncIterator[str]:
    """The URL of an empty PostgreSQL schema, for the few tests about PostgreSQL alone."""
    async with fresh_schema() as url:
        yield url


@pytest_asyncio.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    """The database of :func:`database_url`, opened (and so migrated) and closed after the test."""
    database = await Database.open(database_url)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def dialect(database_url: str) -> str:
    return "sqlite" if database_url.startswith("sqlite") else "postgresql"

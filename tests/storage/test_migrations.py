"""The migrations, written once (storage/migrations.py), on both databases: every version a database
may have been left at upgrades to the schema an empty one gets, and both dialects make the same
tables, columns and indexes at every version."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from storage import Database, GameStatus
from storage.backend import POSTGRESQL, SQLITE
from storage.migrations import MIGRATIONS, TYPE_WORDS, migrations_for
from tests.storage.conftest import fresh_schema

NEWEST = len(MIGRATIONS)

# Index names the databases choose themselves, for primary keys and UNIQUE columns.
OWN_INDEX_MARKS = ("sqlite_autoindex_", "_pkey", "_key")

# What a schema is, read back from the database (not from the migrations' text).
SQLITE_SCHEMA = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
POSTGRES_SCHEMA = (
    "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default,"
    " is_identity, identity_generation FROM information_schema.columns"
    " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
    "SELECT c.conrelid::regclass::text, c.conname, c.contype, pg_get_constraintdef(c.oid) FROM pg_constraint c"
    " WHERE c.connamespace = current_schema()::regnamespace ORDER BY 1, 2",
    "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1, 2",
)
# Per table, its columns in order with whether each may be empty, and the indexes the migrations name.
SQLITE_COLUMNS = (
    'SELECT m.name, p.name, p."notnull" OR p.pk FROM sqlite_master m, pragma_table_info(m.name) p'
    " WHERE m.type = 'table' AND m.name <> 'sqlite_sequence' ORDER BY m.name, p.cid"
)
POSTGRES_COLUMNS = (
    "SELECT table_name, column_name, is_nullable = 'NO' FROM information_schema.columns"
    " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
)
SQLITE_INDEXES = "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name"
POSTGRES_INDEXES = "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname"


@contextlib.asynccontextmanager
async def empty_database(dialect: str, folder: Path) -> AsyncIterator[str]:
    """The URL of a new, empty database of ``dialect``: a new SQLite file, or a new PostgreSQL schema."""
    if dialect == SQLITE:
        folder.mkdir(parents=True, exist_ok=True)
        yield f"sqlite:///{folder / f'{len(list(folder.iterdir()))}.sqlite3'}"
        return
    async with fresh_schema() as url:
        yield url


async def schema_of(database: Database) -> list[tuple[object, ...]]:
    """Everything that makes the database's schema, as the database itself tells it."""
    if database.dialect == SQLITE:
        return [tuple(row) for row in await database.backend.fetch_all(SQLITE_SCHEMA)]
    # Each test's schema has a name of its own (tests/storage/conftest.py), which PostgreSQL writes
    # into the definitions of indexes: named alike, two schemas compare.
    row = await database.backend.fetch_one("SELECT current_schema()")
    assert row is not None
    named = f"{row[0]}."
    return [
        tuple(value.replace(named, "S.") if isinstance(value, str) else value for value in found)
        for query in POSTGRES_SCHEMA
        for found in await database.backend.fetch_all(query)
    ]


async def shape_of(database: Database) -> tuple[list[tuple[str, str, bool]], list[str]]:
    """The tables with their columns (in order, and whether each must hold a value), and the indexes
    the migrations name: what both dialects must agree on."""
    sqlite = database.dialect == SQLITE
    columns = await database.backend.fetch_all(SQLITE_COLUMNS if sqlite else POSTGRES_COLUMNS)
    indexes = await database.backend.fetch_all(SQLITE_INDEXES if sqlite else POSTGRES_INDEXES)
    named = [row[0] for row in indexes if not any(mark in row[0] for mark in OWN_INDEX_MARKS)]
    return [(row[0], row[1], bool(row[2])) for row in columns], sorted(named)


def test_each_migration_is_written_once_and_rendered_for_both_dialects() -> None:
    assert set(TYPE_WORDS) == {SQLITE, POSTGRESQL}
    assert all(words.keys() == TYPE_WORDS[SQLITE].keys() for words in TYPE_WORDS.values())
    sqlite, postgres = migrations_for(SQLITE), migrations_for(POSTGRESQL)
    assert len(sqlite) == len(postgres) == NEWEST == 9
    for mine, theirs in zip(sqlite, postgres, strict=True):
        assert "$" not in mine + theirs  # every type word spelled
        assert mine.count(";") == theirs.count(";")  # the same statements


async def test_every_version_upgrades_to_the_schema_of_an_empty_database(
    database_url: str, dialect: str, tmp_path: Path
) -> None:
    """A database left at any version by an older release gets, on opening, exactly the schema an
    empty one gets (and every version on the way is applied once, in order)."""
    newest = await Database.open(database_url)
    try:
        expected = await schema_of(newest)
    finally:
        await newest.close()
    for version in range(NEWEST):
        async with empty_database(dialect, tmp_path / "older") as url:
            older = await Database.open(url, schema_version=version)
            try:
                rows = await older.backend.fetch_all("SELECT version FROM schema_version ORDER BY version")
                assert [row[0] for row in rows] == list(range(1, version + 1))
            finally:
                await older.close()
            upgraded = await Database.open(url)
            try:
                assert await schema_of(upgraded) == expected, f"upgraded from version {version}"
                rows = await upgraded.backend.fetch_all("SELECT version FROM schema_version ORDER BY version")
                assert [row[0] for row in rows] == list(range(1, NEWEST + 1))
                assert await upgraded.integrity_ok()
            finally:
                await upgraded.close()


async def test_both_dialects_make_the_same_tables_columns_and_indexes_at_every_version(
    postgres_url: str, tmp_path: Path
) -> None:
    sqlite_url = f"sqlite:///{tmp_path / 'shape.sqlite3'}"
    for version in range(NEWEST + 1):
        sqlite = await Database.open(sqlite_url, schema_version=version)
        postgres = await Database.open(postgres_url, schema_version=version)
        try:
            assert await shape_of(sqlite) == await shape_of(postgres), f"at version {version}"
        finally:
            await sqlite.close()
            await postgres.close()


async def test_a_database_of_schema_3_keeps_one_open_game_per_chat(database_url: str) -> None:
    """Migration 4 on a database holding two open games in one chat: the one being played stays
    (of two alike, the newer), the others are cancelled; other chats' games are left alone."""
    old = await Database.open(database_url, schema_version=3)
    statuses = ("lobby", "playing", "lobby", "lobby", "lobby", "finished")
    chats = (-1, -1, -1, -2, -2, -2)
    for chat_id, status in zip(chats, statuses, strict=True):
        await old.backend.execute(
            "INSERT INTO games (chat_id, kind, status, preset, creator_id, data, created_at, updated_at)"
            " VALUES (?, 'group', ?, 'duel', 1, '{}', 1.5, 1.5)",
            (chat_id, status),
        )
    await old.close()
    db = await Database.open(database_url)
    try:
        rows = await db.backend.fetch_all("SELECT chat_id, status FROM games ORDER BY id")
        assert [tuple(row) for row in rows] == [
            (-1, GameStatus.CANCELLED),
            (-1, GameStatus.PLAYING),
            (-1, GameStatus.CANCELLED),
            (-2, GameStatus.CANCELLED),
            (-2, GameStatus.LOBBY),
            (-2, GameStatus.FINISHED),
        ]
    finally:
        await db.close()

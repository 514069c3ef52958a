"""The store on both databases: migrations, optimistic versions, the move log, users and chats."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import ChatBusyError, Database, GameStatus, StaleVersionError, database_path
from storage.database import DatabaseUrlError
from storage.games import MoveLog
from storage.handled import handling
from storage.migrations import MIGRATIONS, migrations_for


def test_database_urls() -> None:
    assert database_path("sqlite:///data/x.sqlite3") == Path("data/x.sqlite3")
    assert database_path("sqlite:////var/lib/x.sqlite3") == Path("/var/lib/x.sqlite3")
    assert database_path("sqlite:///:memory:") == ":memory:"
    with pytest.raises(DatabaseUrlError):
        database_path("postgresql://localhost/db")  # not a SQLite file


@pytest.mark.parametrize(
    "url",
    [
        "mysql://ann:s3cret-pw@db.example/dominoes",
        "sqlite://relative.sqlite3",
        "s3cret-pw",
        "postgresql://ann:s3cret-pw@db.example:port/dominoes",
        "",
    ],
)
async def test_other_urls_are_refused_without_showing_a_password(url: str) -> None:
    with pytest.raises(DatabaseUrlError) as raised:
        await Database.open(url)
    message = str(raised.value)
    assert "s3cret-pw" not in message
    if not url.startswith("postgresql"):
        assert "sqlite:///" in message and "postgresql://" in message


async def test_migrations_run_once(database_url: str, dialect: str) -> None:
    db = await Database.open(database_url)
    assert db.migrations == migrations_for(dialect)
    assert await db.migrate() == len(MIGRATIONS)
    row = await db.backend.fetch_one("SELECT COUNT(*), MAX(version) FROM schema_version")
    assert row is not None and tuple(row) == (len(MIGRATIONS), len(MIGRATIONS))
    if dialect == "sqlite":
        journal = await db.backend.fetch_one("PRAGMA journal_mode")
        assert journal is not None and journal[0] == "wal"
    await db.close()
    again = await Database.open(database_url)  # reopening applies nothing twice
    row = await again.backend.fetch_one("SELECT COUNT(*) FROM schema_version")
    assert row is not None and row[0] == len(MIGRATIONS)
    assert await again.integrity_ok()
    await again.close()


async def test_two_instances_starting_at_once_migrate_once(database_url: str) -> None:
    """Two processes started together against one empty database: one migrates, the other waits."""
    first, second = await asyncio.gather(Database.open(database_url), Database.open(database_url))
    try:
        rows = await first.backend.fetch_all("SELECT version FROM schema_version ORDER BY version")
        assert [row[0] for row in rows] == list(range(1, len(MIGRATIONS) + 1))
        assert await first.integrity_ok() and await second.integrity_ok()
        game = await first.games.create(
            chat_id=-5, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={}
        )
        assert await second.games.get(game.id) == game
    finally:
        await first.close()
        await second.close()


async def test_a_stale_version_writes_nothing(db: Database) -> None:
    game = await db.games.create(
        chat_id=-5, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={"n": 0}
    )
    first = await db.games.save(game, data={"n": 1}, moves=[MoveLog(0, 0, "6-6", None)])
    with pytest.raises(StaleVersionError):
        await db.games.save(game, data={"n": 2}, moves=[MoveLog(0, 1, "6-5", "right")])
    with pytest.raises(StaleVersionError):
        await db.games.save(game, data={"n": 3})  # the one-statement save too
    stored = await db.games.get(game.id)
    assert stored is not None and stored.data == {"n": 1} and stored.version == first.version == 1
    assert await db.games.moves(game.id) == [MoveLog(0, 0, "6-6", None)]


async def test_concurrent_saves_of_one_version_let_exactly_one_through(db: Database) -> None:
    game = await db.games.create(
        chat_id=-5, kind="group", status=GameStatus.PLAYING, preset="block", creator_id=1, data={}
    )
    results = await asyncio.gather(
        *(db.games.save(game, data={"by": i}, moves=[MoveLog(0, i % 2, "6-6", None)]) for i in range(20)),
        return_exceptions=True,
    )
    assert sum(1 for r in results if not isinstance(r, Exception)) == 1
    assert all(isinstance(r, StaleVersionError) for r in results if isinstance(r, Exception))
    assert len(await db.games.moves(game.id)) == 1


async def test_two_instances_saving_one_version_let_exactly_one_through(database_url: str) -> None:
    first, second = await Database.open(database_url), await Database.open(database_url)
    try:
        game = await first.games.create(
            chat_id=-5, kind="group", status=GameStatus.PLAYING, preset="block", creator_id=1, data={}
        )
        results = await asyncio.gather(
            *(
                db.games.save(game, data={"by": i}, moves=[MoveLog(0, 0, "6-6", None), MoveLog(0, 1, "6-5", "left")])
                for i, db in enumerate([first, second] * 5)
            ),
            return_exceptions=True,
        )
        assert sum(1 for r in results if not isinstance(r, Exception)) == 1, results
        assert all(isinstance(r, StaleVersionError) for r in results if isinstance(r, Exception))
        assert [m.tile for m in await second.games.moves(game.id)] == ["6-6", "6-5"]
    finally:
        await first.close()
        await second.close()


async def test_the_move_log_only_grows_in_order(db: Database) -> None:
    game = await db.games.create(
        chat_id=7, kind="private", status=GameStatus.PLAYING, preset="duel", creator_id=7, data={}
    )
    game = await db.games.save(game, moves=[MoveLog(0, 0, "6-6", None, True)])
    game = await db.games.save(game, moves=[MoveLog(0, 1, "6-5", "right"), MoveLog(0, 0, "5-4", "right")])
    assert [m.tile for m in await db.games.moves(game.id)] == ["6-6", "6-5", "5-4"]
    assert (await db.games.moves(game.id))[0].by_computer
    assert await db.games.get(game.id) == game


async def test_active_game_of_a_chat(db: Database) -> None:
    assert await db.games.active_in_chat(-9) is None
    game = await db.games.create(
        chat_id=-9, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={}
    )
    assert (await db.games.active_in_chat(-9)).id == game.id  # type: ignore[union-attr]
    await db.games.save(game, status=GameStatus.CANCELLED)
    assert await db.games.active_in_chat(-9) is None
    assert await db.games.with_status(GameStatus.CANCELLED)
    newest = await db.games.newest_in_chat(-9)
    assert [row.id for row in newest] == [game.id] and newest[0].status is GameStatus.CANCELLED


async def test_users_keep_their_languages_and_reachability(db: Database) -> None:
    await db.users.seen(42, "Ann", "ann", "uk")
    await db.users.set_private_ok(42, True)
    await db.users.seen(42, "Ann B.", None, "en")  # Telegram's language_code as last seen
    await db.users.seen(42, "Ann B.", None, None)  # an update without one forgets nothing
    user = await db.users.get(42)
    assert user is not None
    assert (user.name, user.username, user.language, user.private_ok) == ("Ann B.", None, "en", True)
    assert user.chosen_language is None
    assert await db.users.private_ok(42) and not await db.users.private_ok(43)
    await db.users.choose_language(42, "Ann B.", "uk")
    user = await db.users.get(42)
    assert user is not None and (user.language, user.chosen_language) == ("en", "uk")
    assert await db.users.get(43) is None
    await db.users.chat_seen(-100, "supergroup", "Friends")
    chat = await db.users.get_chat(-100)
    assert chat is not None and chat.title == "Friends" and chat.settings == {}


async def test_a_chat_has_at_most_one_open_game(db: Database) -> None:
    game = dict(kind="group", preset="draw", creator_id=1, data={})
    first = await db.games.create(chat_id=-5, status=GameStatus.LOBBY, **game)  # type: ignore[arg-type]
    with pytest.raises(ChatBusyError):
        await db.games.create(chat_id=-5, status=GameStatus.LOBBY, **game)  # type: ignore[arg-type]
    with pytest.raises(ChatBusyError):
        await db.games.create(chat_id=-5, status=GameStatus.PLAYING, **game)  # type: ignore[arg-type]
    other = await db.games.create(chat_id=-6, status=GameStatus.LOBBY, **game)  # type: ignore[arg-type]
    await db.games.save(first, status=GameStatus.FINISHED)
    again = await db.games.create(chat_id=-5, status=GameStatus.LOBBY, **game)  # type: ignore[arg-type]
    assert (await db.games.active_in_chat(-5)) == again and other.chat_id == -6
    # Moving a group into a supergroup that has an open game of its own keeps one open game there.
    await db.chats.move(-5, -6)
    open_games = [
        row
        for row in [await db.games.get(g.id) for g in (again, other)]
        if row and row.status in (GameStatus.LOBBY, GameStatus.PLAYING)
    ]
    assert len(open_games) == 1


async def test_two_instances_opening_a_game_in_one_chat_open_one(database_url: str) -> None:
    first, second = await Database.open(database_url), await Database.open(database_url)
    try:
        results = await asyncio.gather(
            *(
                db.games.create(chat_id=-5, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=i, data={})
                for i, db in enumerate([first, second] * 4)
            ),
            return_exceptions=True,
        )
        assert sum(1 for r in results if not isinstance(r, BaseException)) == 1, results
        assert all(isinstance(r, ChatBusyError) for r in results if isinstance(r, BaseException))
    finally:
        await first.close()
        await second.close()


async def test_a_database_of_schema_4_gets_wake_ups(database_url: str) -> None:
    """A database made before migration 5 keeps its games; a running one has no wake-up until saved."""
    old = await Database.open(database_url, schema_version=4)
    await old.backend.execute(
        "INSERT INTO games (chat_id, kind, status, preset, creator_id, version, data, created_at, updated_at)"
        " VALUES (?, 'group', 'playing', 'duel', 1, 3, '{\"n\": 1}', 1.5, 2.5)",
        (-5,),
    )
    await old.close()
    db = await Database.open(database_url)
    try:
        (game,) = await db.games.with_status(GameStatus.PLAYING)
        assert (game.chat_id, game.version, game.data, game.wake_at) == (-5, 3, {"n": 1}, None)
        assert await db.games.claim_due(1e12, 1.0) == []  # never saved since: nobody is due to look
        saved = await db.games.save(game)
        assert saved.wake_at is not None and await db.games.claim_due(saved.wake_at, 1.0) == [game.id]
        assert await db.integrity_ok()
    finally:
        await db.close()


async def test_a_database_of_schema_6_drops_the_wake_ups_of_ended_games(database_url: str) -> None:
    """Before migration 7 a finished game kept the wake-up of its last move; now a finished game
    with a wake-up owes something and is woken, so the old ones are dropped (a running game's stay)."""
    old = await Database.open(database_url, schema_version=6)
    rows = {}
    for status in (GameStatus.PLAYING, GameStatus.FINISHED, GameStatus.CANCELLED):
        game = await old.games.create(chat_id=-5, kind="group", status=status, preset="duel", creator_id=1, data={})
        await old.backend.execute("UPDATE games SET wake_at = ?, chat_id = ? WHERE id = ?", (123.0, -game.id, game.id))
        rows[status] = game.id
    await old.close()
    db = await Database.open(database_url)
    try:
        await db.migrate()
        wakes = {status: (await db.games.get(game_id)).wake_at for status, game_id in rows.items()}  # type: ignore[union-attr]
        assert wakes == {GameStatus.PLAYING: 123.0, GameStatus.FINISHED: None, GameStatus.CANCELLED: None}
    finally:
        await db.close()


async def test_a_database_of_schema_5_gets_handled_updates(database_url: str) -> None:
    """A database made before migration 6 keeps its games and starts with no update handled."""
    old = await Database.open(database_url, schema_version=5)
    game = await old.games.create(
        chat_id=-5, kind="group", status=GameStatus.LOBBY, preset="duel", creator_id=1, data={}
    )
    await old.close()
    db = await Database.open(database_url)
    try:
        assert await db.games.get(game.id) == game
        assert not await db.handled.seen(1)
        with handling(1):
            await db.games.save(game)
        assert await db.handled.seen(1)
        assert await db.integrity_ok()
    finally:
        await db.close()


async def test_a_database_of_schema_7_keeps_its_results_unhinted(database_url: str) -> None:
    """Results stored before migration 8 were played without hints."""
    old = await Database.open(database_url, schema_version=7)
    game = await old.games.create(
        chat_id=-5, kind="group", status=GameStatus.FINISHED, preset="duel", creator_id=1, data={}
    )
    await old.backend.execute(
        "INSERT INTO results (game_id, chat_id, kind, preset, seats, outcome, scores, ended_at)"
        " VALUES (?, -5, 'group', 'duel', 0, 'finished', '[]', 1.5)",
        (game.id,),
    )
    await old.close()
    db = await Database.open(database_url)
    try:
        stored = await db.results.get(game.id)
        assert stored is not None and stored.hinted is False
        assert await db.integrity_ok()
    finally:
        await db.close()

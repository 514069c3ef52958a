"""The SQLite store: migrations, optimistic versions, the move log, users and chats."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import ChatBusyError, Database, GameStatus, StaleVersionError, database_path
from storage.database import DatabaseUrlError
from storage.games import MoveLog
from storage.migrations import MIGRATIONS


async def _open(tmp_path: Path) -> Database:
    return await Database.open(f"sqlite:///{tmp_path / 'data' / 'test.sqlite3'}")


def test_database_urls() -> None:
    assert database_path("sqlite:///data/x.sqlite3") == Path("data/x.sqlite3")
    assert database_path("sqlite:////var/lib/x.sqlite3") == Path("/var/lib/x.sqlite3")
    assert database_path("sqlite:///:memory:") == ":memory:"
    with pytest.raises(DatabaseUrlError):
        database_path("postgresql://localhost/db")


async def test_migrations_run_once_and_the_file_is_wal(tmp_path: Path) -> None:
    db = await _open(tmp_path)
    assert await db.migrate() == len(MIGRATIONS)
    async with db.connection.execute("SELECT COUNT(*) FROM schema_version") as cursor:
        assert (await cursor.fetchone())[0] == len(MIGRATIONS)  # type: ignore[index]
    async with db.connection.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"  # type: ignore[index]
    await db.close()
    again = await _open(tmp_path)  # reopening applies nothing twice
    async with again.connection.execute("SELECT COUNT(*) FROM schema_version") as cursor:
        assert (await cursor.fetchone())[0] == len(MIGRATIONS)  # type: ignore[index]
    assert await again.integrity_ok()
    await again.close()


async def test_a_stale_version_writes_nothing(tmp_path: Path) -> None:
    db = await _open(tmp_path)
    game = await db.games.create(
        chat_id=-5, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={"n": 0}
    )
    first = await db.games.save(game, data={"n": 1}, moves=[MoveLog(0, 0, "6-6", None)])
    with pytest.raises(StaleVersionError):
        await db.games.save(game, data={"n": 2}, moves=[MoveLog(0, 1, "6-5", "right")])
    stored = await db.games.get(game.id)
    assert stored is not None and stored.data == {"n": 1} and stored.version == first.version == 1
    assert await db.games.moves(game.id) == [MoveLog(0, 0, "6-6", None)]
    await db.close()


async def test_concurrent_saves_of_one_version_let_exactly_one_through(tmp_path: Path) -> None:
    db = await _open(tmp_path)
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
    await db.close()


async def test_the_move_log_only_grows_in_order(tmp_path: Path) -> None:
    db = await _open(tmp_path)
    game = await db.games.create(
        chat_id=7, kind="private", status=GameStatus.PLAYING, preset="duel", creator_id=7, data={}
    )
    game = await db.games.save(game, moves=[MoveLog(0, 0, "6-6", None, True)])
    game = await db.games.save(game, moves=[MoveLog(0, 1, "6-5", "right"), MoveLog(0, 0, "5-4", "right")])
    assert [m.tile for m in await db.games.moves(game.id)] == ["6-6", "6-5", "5-4"]
    assert (await db.games.moves(game.id))[0].by_computer
    await db.close()


async def test_active_game_of_a_chat(tmp_path: Path) -> None:
    db = await _open(tmp_path)
    assert await db.games.active_in_chat(-9) is None
    game = await db.games.create(
        chat_id=-9, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={}
    )
    assert (await db.games.active_in_chat(-9)).id == game.id  # type: ignore[union-attr]
    await db.games.save(game, status=GameStatus.CANCELLED)
    assert await db.games.active_in_chat(-9) is None
    assert await db.games.with_status(GameStatus.CANCELLED)
    await db.close()


async def test_users_keep_their_languages_and_reachability(tmp_path: Path) -> None:
    db = await _open(tmp_path)
    await db.users.seen(42, "Ann", "ann", "uk")
    await db.users.set_private_ok(42, True)
    await db.users.seen(42, "Ann B.", None, "en")  # Telegram's language_code as last seen
    await db.users.seen(42, "Ann B.", None, None)  # an update without one forgets nothing
    user = await db.users.get(42)
    assert user is not None
    assert (user.name, user.username, user.language, user.private_ok) == ("Ann B.", None, "en", True)
    assert user.chosen_language is None
    await db.users.choose_language(42, "Ann B.", "uk")
    user = await db.users.get(42)
    assert user is not None and (user.language, user.chosen_language) == ("en", "uk")
    assert await db.users.get(43) is None
    await db.users.chat_seen(-100, "supergroup", "Friends")
    chat = await db.users.get_chat(-100)
    assert chat is not None and chat.title == "Friends" and chat.settings == {}
    await db.close()


async def test_a_chat_has_at_most_one_open_game(tmp_path: Path) -> None:
    db = await _open(tmp_path)
    game = dict(kind="group", preset="draw", creator_id=1, data={})
    first = await db.games.create(chat_id=-5, status=GameStatus.LOBBY, **game)  # type: ignore[arg-type]
    with pytest.raises(ChatBusyError):
        await db.games.create(chat_id=-5, status=GameStatus.LOBBY, **game)  # type: ignore[arg-type]
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
    await db.close()

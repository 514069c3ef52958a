"""Chat settings, moving a chat to a new id (a group became a supergroup), and idle games (both databases)."""

from __future__ import annotations

import asyncio
import time

from storage import Database, GameStatus


async def test_settings_merge_key_by_key_and_keep_the_language(db: Database) -> None:
    assert await db.chats.get(-1) is None
    row = await db.chats.update(-1, chat_type="group", settings={"preset": "fives"})  # no row yet: made
    assert row.settings == {"preset": "fives"} and row.type == "group" and row.language is None
    row = await db.chats.update(-1, chat_type="group", settings={"turn_seconds": 30}, language="uk")
    assert row.settings == {"preset": "fives", "turn_seconds": 30} and row.language == "uk"
    row = await db.chats.update(-1, chat_type="group", settings={"preset": "block"})  # no language given: kept
    assert row.settings == {"preset": "block", "turn_seconds": 30} and row.language == "uk"
    await db.users.chat_seen(-1, "group", "Friends")  # a message in the chat keeps its settings
    again = await db.chats.get(-1)
    assert again is not None and again.title == "Friends" and again.settings == row.settings
    assert (await db.users.get_chat(-1)) == again


async def test_a_chat_moves_with_its_games_and_settings(db: Database) -> None:
    old, new = -5, -1_000_000_005
    await db.users.chat_seen(old, "group", "Friends")
    await db.chats.update(old, chat_type="group", settings={"preset": "duel", "seats": 2}, language="ru")
    finished = await db.games.create(
        chat_id=old, kind="group", status=GameStatus.FINISHED, preset="duel", creator_id=1, data={}
    )
    running = await db.games.create(
        chat_id=old, kind="group", status=GameStatus.PLAYING, preset="duel", creator_id=1, data={"n": 1}
    )
    elsewhere = await db.games.create(
        chat_id=-6, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=2, data={}
    )
    # The new supergroup has been seen already (its service message came first), with its own title.
    await db.users.chat_seen(new, "supergroup", "Friends!")

    assert await db.chats.move(old, new) == 2
    assert await db.chats.get(old) is None
    moved = await db.chats.get(new)
    assert moved is not None
    assert (moved.type, moved.title, moved.language) == ("supergroup", "Friends!", "ru")
    assert moved.settings == {"preset": "duel", "seats": 2}
    for game in (finished, running):
        row = await db.games.get(game.id)
        assert row is not None and row.chat_id == new
    assert (await db.games.active_in_chat(new)).id == running.id  # type: ignore[union-attr]
    assert await db.games.active_in_chat(old) is None
    other = await db.games.get(elsewhere.id)
    assert other is not None and other.chat_id == -6
    # The game's version is untouched: a move in flight still saves.
    row = await db.games.get(running.id)
    assert row is not None and row.version == running.version
    await db.games.save(row, data={"n": 2})

    assert await db.chats.move(old, new) == 0  # the second notice of the same upgrade moves nothing
    assert (await db.chats.get(new)) == moved
    assert await db.chats.move(new, new) == 0


async def test_settings_set_in_the_new_chat_win_over_the_old_ones(db: Database) -> None:
    await db.chats.update(-7, chat_type="group", settings={"preset": "duel", "level": "hard"}, language="uk")
    await db.chats.update(-1_000_000_007, chat_type="supergroup", settings={"preset": "fives"}, language="en")
    await db.chats.move(-7, -1_000_000_007)
    row = await db.chats.get(-1_000_000_007)
    assert row is not None and row.settings == {"preset": "fives", "level": "hard"} and row.language == "en"


async def test_a_chat_without_a_row_moves_its_games(db: Database) -> None:
    game = await db.games.create(
        chat_id=-8, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={}
    )
    assert await db.chats.move(-8, -1_000_000_008) == 1
    assert await db.chats.get(-1_000_000_008) is None
    row = await db.games.get(game.id)
    assert row is not None and row.chat_id == -1_000_000_008


async def test_idle_games_and_the_closed_status(db: Database) -> None:
    lobby = await db.games.create(
        chat_id=-9, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={}
    )
    playing = await db.games.create(
        chat_id=7, kind="private", status=GameStatus.PLAYING, preset="duel", creator_id=7, data={}
    )
    done = await db.games.create(
        chat_id=-9, kind="group", status=GameStatus.FINISHED, preset="draw", creator_id=1, data={}
    )
    later = time.time() + 1
    assert [row.id for row in await db.games.idle_since(later)] == [lobby.id, playing.id]  # never a finished one
    assert await db.games.idle_since(lobby.created_at - 1) == []
    closed = await db.games.save(lobby, status=GameStatus.CLOSED)
    assert await db.games.status_of(lobby.id) is GameStatus.CLOSED
    assert await db.games.status_of(done.id) is GameStatus.FINISHED
    assert await db.games.status_of(10_000) is None
    assert [row.id for row in await db.games.idle_since(later)] == [playing.id]
    assert await db.games.active_in_chat(-9) is None  # a closed lobby does not hold the chat
    assert (await db.games.get(lobby.id)) == closed  # kept, not deleted


async def test_two_instances_setting_a_chat_at_once_keep_every_key(database_url: str) -> None:
    first, second = await Database.open(database_url), await Database.open(database_url)
    try:
        await asyncio.gather(
            *(
                db.chats.update(-3, chat_type="group", settings={f"key{i}": i})
                for i, db in enumerate([first, second] * 5)
            )
        )
        row = await first.chats.get(-3)
        assert row is not None and row.settings == {f"key{i}": i for i in range(10)}
    finally:
        await first.close()
        await second.close()

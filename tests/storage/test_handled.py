"""An update changes the database at most once (storage/handled.py): its id is written in the
transaction of its first change, and a change of an update already written writes nothing. On both
databases."""

from __future__ import annotations

import asyncio

import pytest

from storage import AlreadyHandledError, Database, GameRow, GameStatus, StaleVersionError
from storage.games import MoveLog
from storage.handled import KEEP_SECONDS, handling


async def _lobby(db: Database, chat_id: int = -5) -> GameRow:
    return await db.games.create(
        chat_id=chat_id, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={"seats": 2}
    )


async def test_a_save_writes_its_update_with_it_and_a_repeat_changes_nothing(db: Database) -> None:
    game = await _lobby(db)
    with handling(41):
        saved = await db.games.save(game, data={"seats": 3})
        again = await db.games.save(saved, data={"seats": 4})  # the same update's next change: as usual
    assert await db.handled.seen(41)
    assert (await db.games.get(game.id)) == again

    with handling(41), pytest.raises(AlreadyHandledError):  # delivered again, on the game as it is now
        await db.games.save(again, data={"seats": 2}, moves=[MoveLog(0, 0, "6-6", None)])
    assert (await db.games.get(game.id)) == again
    assert await db.games.moves(game.id) == []

    with handling(42):  # another update goes through
        newer = await db.games.save(again, data={"seats": 2})
    assert (await db.games.get(game.id)) == newer and await db.handled.seen(42)


async def test_a_change_refused_writes_no_update(db: Database) -> None:
    game = await _lobby(db)
    await db.games.save(game, data={"seats": 3})
    with handling(7), pytest.raises(StaleVersionError) as refused:
        await db.games.save(game, data={"seats": 4})  # an older version: refused, and with it the update
    assert not isinstance(refused.value, AlreadyHandledError)
    assert not await db.handled.seen(7)
    with handling(7):  # so its next delivery is handled as the first
        fresh = await db.games.get(game.id)
        assert fresh is not None
        await db.games.save(fresh, data={"seats": 4})
    assert await db.handled.seen(7)


async def test_a_game_made_by_an_update_is_made_once(db: Database) -> None:
    with handling(100):
        first = await _lobby(db, chat_id=-9)
    assert await db.handled.seen(100)
    await db.games.save(first, status=GameStatus.CANCELLED)  # the chat is free again: only the update stops it
    with handling(100), pytest.raises(AlreadyHandledError):
        await _lobby(db, chat_id=-9)
    assert [row.id for row in await db.games.newest_in_chat(-9)] == [first.id]
    assert await db.games.active_in_chat(-9) is None


async def test_a_chats_settings_change_once_per_update(db: Database) -> None:
    with handling(5):
        await db.chats.update(-3, chat_type="group", settings={"seats": 3})
    await db.chats.update(-3, chat_type="group", settings={"seats": 4})  # not an update's: no check
    with handling(5), pytest.raises(AlreadyHandledError):
        await db.chats.update(-3, chat_type="group", settings={"seats": 2})
    chat = await db.chats.get(-3)
    assert chat is not None and chat.settings == {"seats": 4}


async def test_a_task_started_while_handling_is_not_that_updates_change(db: Database) -> None:
    game = await _lobby(db)
    with handling(9):
        # The computers' moves, a timer: their own tasks, so their saves write no update.
        saved = await asyncio.create_task(db.games.save(game, data={"seats": 3}))
        assert not await db.handled.seen(9)
        await db.games.save(saved, data={"seats": 4})  # the update's own change writes it
    assert await db.handled.seen(9)


async def test_old_updates_are_pruned(db: Database) -> None:
    game = await _lobby(db)
    for update_id in (1, 2):
        with handling(update_id):
            game = await db.games.save(game, data={"n": update_id})
    await db.backend.execute("UPDATE handled_updates SET handled_at = ? WHERE update_id = 1", (1000.0,))
    assert await db.handled.prune(now=1000.0 + KEEP_SECONDS - 1) == 0
    assert await db.handled.prune(now=1000.0 + KEEP_SECONDS + 1) == 1
    assert not await db.handled.seen(1) and await db.handled.seen(2)

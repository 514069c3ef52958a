"""The newest row of each game kept in memory where no other process writes (SQLite), and
never where others may (PostgreSQL): every write through the repositories is seen at once."""

from __future__ import annotations

import time

from storage import Database, GameRow, GameStatus


async def _playing(db: Database, chat_id: int) -> GameRow:
    return await db.games.create(
        chat_id=chat_id, kind="group", status=GameStatus.PLAYING, preset="duel", creator_id=7, data={"n": 0}
    )


async def _behind_its_back(db: Database, game_id: int) -> None:
    await db.backend.execute("UPDATE games SET data = ? WHERE id = ?", ('{"n": 99}', game_id))


async def test_a_game_is_read_from_memory_only_where_nobody_else_writes(db: Database) -> None:
    game = await db.games.save(await _playing(db, -1), data={"n": 1})
    await _behind_its_back(db, game.id)  # what another process would do
    read = await db.games.get(game.id)
    assert read is not None
    if db.shared:
        assert read.data == {"n": 99}  # PostgreSQL: always the stored row
    else:
        assert read == game and read.data is game.data  # SQLite: the row just written, no trip to the file


async def test_a_row_read_once_is_kept_and_a_write_replaces_it(db: Database) -> None:
    game = await _playing(db, -2)
    db.games.forget()
    first = await db.games.get(game.id)
    assert first == game
    await _behind_its_back(db, game.id)
    again = await db.games.get(game.id)
    assert again is not None and again.data == ({"n": 99} if db.shared else {"n": 0})
    saved = await db.games.save(game if not db.shared else again, data={"n": 2})
    assert await db.games.get(game.id) == saved


async def test_wake_ups_set_and_claimed_are_seen(db: Database) -> None:
    game = await _playing(db, -3)
    assert await db.games.set_wake(game.id, game.version, 1234.5)
    read = await db.games.get(game.id)
    assert read is not None and read.wake_at == 1234.5 and read.version == game.version
    assert not await db.games.set_wake(game.id, game.version - 1, 99.0)  # an older version: nothing changes
    assert (await db.games.get(game.id)).wake_at == 1234.5  # type: ignore[union-attr]
    now = time.time()
    assert game.id in await db.games.claim_due(now, lease=60.0)
    claimed = await db.games.get(game.id)
    assert claimed is not None and abs(claimed.wake_at - (now + 60.0)) < 1e-6  # type: ignore[operator]


async def test_games_moved_to_a_supergroup_are_read_again(db: Database) -> None:
    game = await _playing(db, -4)
    assert await db.games.get(game.id) == game
    assert await db.chats.move(-4, -1004) == 1
    moved = await db.games.get(game.id)
    assert moved is not None and moved.chat_id == -1004

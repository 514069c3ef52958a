"""Stored wake-ups of running games, and of finished ones that still owe something
(games.wake_at): what save, set_wake and claim_due do with them, and that two instances claiming
at once never take the same game, on both databases."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from storage import Database, GameRow, GameStatus, StaleVersionError
from storage.games import MoveLog


async def _playing(db: Database, chat_id: int, **data: Any) -> GameRow:
    return await db.games.create(
        chat_id=chat_id, kind="private", status=GameStatus.PLAYING, preset="duel", creator_id=7, data=dict(data)
    )


async def test_a_save_sets_the_wake_up(database_url: str) -> None:
    db = await Database.open(database_url, wake_grace=5.0)
    try:
        assert db.wake_grace == 5.0
        lobby = await db.games.create(
            chat_id=-1, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={}
        )
        assert lobby.wake_at is None and (await db.games.get(lobby.id)) == lobby
        game = await _playing(db, 7)
        assert game.wake_at == game.updated_at + 5.0  # made running: looked at soon unless told otherwise
        assert (await db.games.get(game.id)) == game

        saved = await db.games.save(game, data={"n": 1})  # not passed: the grace from this save
        assert saved.wake_at == saved.updated_at + 5.0
        assert (await db.games.get(game.id)) == saved
        saved = await db.games.save(saved, moves=[MoveLog(0, 0, "6-6", None)], wake_at=1234.5)
        assert saved.wake_at == 1234.5 and (await db.games.get(game.id)) == saved
        saved = await db.games.save(saved, wake_at=None)  # None: nobody need look (a person's turn, no clock)
        assert saved.wake_at is None and (await db.games.get(game.id)) == saved
        started = await db.games.save(lobby, status=GameStatus.PLAYING, wake_at=99.0)
        assert (await db.games.get(lobby.id)).wake_at == started.wake_at == 99.0  # type: ignore[union-attr]

        # Finished: only a wake-up it is given (what it still owes), none by default.
        ended = await db.games.save(saved, status=GameStatus.FINISHED, wake_at=50.0)
        assert ended.wake_at == 50.0 and (await db.games.get(game.id)) == ended
        ended = await db.games.save(ended, data={"n": 2})
        assert ended.wake_at is None and (await db.games.get(game.id)) == ended
        cancelled = await db.games.save(ended, status=GameStatus.CANCELLED, wake_at=50.0)  # over for good: never
        assert cancelled.wake_at is None and (await db.games.get(game.id)) == cancelled
    finally:
        await db.close()


async def test_set_wake_changes_only_the_running_game_it_was_told(db: Database) -> None:
    game = await _playing(db, 7)
    assert await db.games.set_wake(game.id, game.version, 77.25)
    stored = await db.games.get(game.id)
    assert stored is not None and stored.wake_at == 77.25 and stored.version == game.version  # no new version
    assert await db.games.save(stored, data={"n": 1})  # so a move in flight still saves
    assert not await db.games.set_wake(game.id, game.version, 1.0)  # changed since: nothing written
    current = await db.games.get(game.id)
    assert current is not None and current.wake_at != 1.0
    assert await db.games.set_wake(game.id, current.version, None)
    assert (await db.games.get(game.id)).wake_at is None  # type: ignore[union-attr]
    ended = await db.games.save(current, status=GameStatus.FINISHED)
    assert await db.games.set_wake(game.id, ended.version, 5.0)  # finished, and still owing something
    cancelled = await db.games.save(ended, status=GameStatus.CANCELLED)
    assert not await db.games.set_wake(game.id, cancelled.version, 5.0)  # over for good: never woken
    assert not await db.games.set_wake(10_000, 0, 5.0)
    with pytest.raises(StaleVersionError):
        await db.games.save(current)


async def test_claim_due_takes_the_due_running_games_oldest_first(db: Database) -> None:
    now = 1_000_000.0
    games = {}
    for chat_id, at in [(1, now - 30), (2, now - 10), (3, now - 20), (4, now), (5, now + 1), (6, None)]:
        game = await _playing(db, chat_id)
        assert await db.games.set_wake(game.id, game.version, at)
        games[chat_id] = game
    lobby = await db.games.create(
        chat_id=-7, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={}
    )
    await db.backend.execute("UPDATE games SET wake_at = ? WHERE id = ?", (now - 100, lobby.id))  # not running
    killed = await db.games.save(await _playing(db, 8), status=GameStatus.CANCELLED)
    await db.backend.execute("UPDATE games SET wake_at = ? WHERE id = ?", (now - 100, killed.id))
    # A finished game that still owes something (its result, the clock's notices) is taken too.
    owing = await db.games.save(await _playing(db, 9), status=GameStatus.FINISHED, wake_at=now - 25)

    first = await db.games.claim_due(now, 60.0, limit=3)
    assert first == sorted([games[1].id, games[3].id, owing.id])  # the three due longest
    for chat_id in (1, 3):
        row = await db.games.get(games[chat_id].id)
        assert row is not None and row.wake_at == now + 60.0 and row.version == games[chat_id].version
    assert await db.games.claim_due(now, 60.0) == sorted([games[2].id, games[4].id])  # due at now counts
    assert await db.games.claim_due(now, 60.0) == []  # claimed: not due again while the lease runs
    # The lease runs out (the instance that took them died too): due again, with the one due meanwhile.
    assert await db.games.claim_due(now + 60.0, 60.0, limit=10) == sorted(
        [games[1].id, games[2].id, games[3].id, games[4].id, games[5].id, owing.id]
    )


async def test_claim_due_without_returning_on_an_old_sqlite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite before 3.35 has no UPDATE ... RETURNING: a select and an update in one transaction."""
    db = await Database.open(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    monkeypatch.setattr(db.backend, "returning", False)
    a, b = await _playing(db, 1), await _playing(db, 2)
    await db.games.set_wake(a.id, a.version, 10.0)
    await db.games.set_wake(b.id, b.version, 5.0)
    assert await db.games.claim_due(20.0, 30.0, limit=1) == [b.id]
    assert await db.games.claim_due(20.0, 30.0) == [a.id]
    assert await db.games.claim_due(20.0, 30.0) == []
    assert (await db.games.get(b.id)).wake_at == 50.0  # type: ignore[union-attr]
    await db.close()


async def test_two_instances_claiming_at_once_never_take_the_same_game(database_url: str) -> None:
    first, second = await Database.open(database_url), await Database.open(database_url)
    try:
        now = time.time()
        ids = set()
        for chat_id in range(60):
            game = await _playing(first, chat_id)
            await first.games.set_wake(game.id, game.version, now - chat_id)
            ids.add(game.id)
        claims = await asyncio.gather(*(db.games.claim_due(now, 30.0, limit=4) for db in [first, second] * 12))
        taken = [game_id for claim in claims for game_id in claim]
        assert len(taken) == len(set(taken)), "a game was claimed twice"
        assert set(taken) == ids  # 24 claims of 4 are enough for all 60
        assert await second.games.claim_due(now, 30.0) == []
    finally:
        await first.close()
        await second.close()


async def test_a_wake_grace_must_be_a_number_of_seconds(database_url: str) -> None:
    with pytest.raises(ValueError):
        await Database.open(database_url, wake_grace=-1.0)
    with pytest.raises(ValueError):
        await Database.open(database_url, wake_grace=float("nan"))
    db = await Database.open(database_url)
    assert db.wake_grace == 10.0
    await db.close()

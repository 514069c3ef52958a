"""What must come out of both databases alike: Telegram's 64-bit ids, times to the last bit, the
caches that only a database of one's own allows, and ratings when two games end at once."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from storage import Database, GameStatus
from storage.games import MoveLog
from storage.results import FINISHED, GameResult, SeatResult, Skill

# A supergroup's id (-100 followed by ten digits) and a user id past 2**32, as Telegram has them.
BIG_CHAT = -1_002_345_678_901
BIG_USER = 7_123_456_789
BIG = 2**53 - 1  # the largest id Telegram promises to fit in a double


async def test_big_ids_come_back_as_they_went_in(db: Database) -> None:
    for chat_id, user_id in [(BIG_CHAT, BIG_USER), (-BIG, BIG)]:
        await db.users.seen(user_id, "Ann", "ann", "en")
        user = await db.users.get(user_id)
        assert user is not None and user.id == user_id
        await db.users.chat_seen(chat_id, "supergroup", "Friends")
        await db.chats.update(chat_id, chat_type="supergroup", settings={"preset": "duel"})
        chat = await db.chats.get(chat_id)
        assert chat is not None and chat.id == chat_id
        game = await db.games.create(
            chat_id=chat_id, kind="group", status=GameStatus.PLAYING, preset="duel", creator_id=user_id, data={}
        )
        stored = await db.games.get(game.id)
        assert stored == game and stored.chat_id == chat_id and stored.creator_id == user_id
        assert (await db.games.active_in_chat(chat_id)) == game
        result = GameResult(
            game_id=game.id,
            chat_id=chat_id,
            kind="group",
            preset="duel",
            seats=(SeatResult(0, f"user:{user_id}", user_id, None, "Ann", 10, 1, True),),
            outcome=FINISHED,
            ended_at=1.5,
        )
        recorded, _ = await db.results.record(result)
        assert recorded.chat_id == chat_id and recorded.seats[0].user_id == user_id
        assert [r.game_id for r in await db.results.recent(user_id=user_id)] == [game.id]
        await db.games.save(game, status=GameStatus.FINISHED)
    assert await db.chats.move(BIG_CHAT, -BIG + 1) == 1
    assert (await db.chats.get(-BIG + 1)) is not None


async def test_times_and_ratings_keep_every_bit(db: Database) -> None:
    """A REAL of PostgreSQL (4 bytes) would round these; both databases must keep a double."""
    precise = 1_712_345_678.123_456_7
    game = await db.games.create(
        chat_id=7, kind="private", status=GameStatus.PLAYING, preset="duel", creator_id=7, data={}
    )
    saved = await db.games.save(game, moves=[MoveLog(0, 0, "6-6", None)], wake_at=precise)
    stored = await db.games.get(game.id)
    assert stored is not None and stored.wake_at == precise and stored.updated_at == saved.updated_at
    assert stored.created_at == game.created_at
    assert await db.games.set_wake(game.id, saved.version, precise + 1e-6)
    assert (await db.games.get(game.id)).wake_at == precise + 1e-6  # type: ignore[union-attr]
    assert await db.games.claim_due(precise + 1, 0.1 + 0.2) == [game.id]
    assert (await db.games.get(game.id)).wake_at == precise + 1 + (0.1 + 0.2)  # type: ignore[union-attr]
    assert await db.games.idle_since(saved.updated_at) == []  # strictly before: the very same time is not
    skill: Skill = (25.123_456_789_012_34, 8.333_333_333_333_334)
    result = GameResult(
        game_id=game.id,
        chat_id=7,
        kind="private",
        preset="duel",
        seats=(SeatResult(0, "user:7", 7, None, "Ann", 10, 1, True),),
        outcome=FINISHED,
        ended_at=precise,
    )
    stored_result, _ = await db.results.record(result, lambda chat, overall: [(skill, skill)])
    assert stored_result.ended_at == precise and stored_result.seats[0].after == skill
    assert (await db.results.standings(None))[0].skill == skill


async def test_only_a_database_of_ones_own_is_cached(database_url: str, dialect: str) -> None:
    """On PostgreSQL another instance may change a user between two calls: nothing is kept in memory."""
    first, second = await Database.open(database_url), await Database.open(database_url)
    try:
        assert first.shared is (dialect == "postgresql") and second.shared is first.shared
        await first.users.seen(1, "Ann", None, None)
        await first.users.set_private_ok(1, True)
        assert await first.users.private_ok(1)
        await second.users.set_private_ok(1, False)  # she blocked the bot; the other instance heard it
        await second.users.seen(1, "Bob", None, None)
        await first.users.seen(1, "Ann", None, None)  # and she changes her name back
        user = await second.users.get(1)
        assert user is not None
        if first.shared:
            assert not await first.users.private_ok(1)
            assert user.name == "Ann"
        else:  # one process per SQLite file: what this process wrote is what is there
            assert await first.users.private_ok(1)
            assert user.name == "Bob"
    finally:
        await first.close()
        await second.close()


async def test_two_games_ending_at_once_rate_one_after_the_other(database_url: str) -> None:
    """Each game's ratings start from the other's, whichever was first, on two instances at once."""
    first, second = await Database.open(database_url), await Database.open(database_url)
    try:
        games = [
            await first.games.create(
                chat_id=-chat, kind="group", status=GameStatus.FINISHED, preset="duel", creator_id=1, data={}
            )
            for chat in range(1, 9)
        ]

        def result(game_id: int, chat_id: int) -> GameResult:
            seats = (
                SeatResult(0, "user:1", 1, None, "Ann", 10, 1, True),
                SeatResult(1, "user:2", 2, None, "Bob", 0, 2, False),
            )
            return GameResult(
                game_id=game_id, chat_id=chat_id, kind="group", preset="duel", seats=seats, outcome=FINISHED, ended_at=1
            )

        def rate(chat: dict[str, Skill], overall: dict[str, Skill]) -> list[tuple[Skill | None, Skill | None]]:
            ann, bob = overall.get("user:1", (0.0, 1.0)), overall.get("user:2", (0.0, 1.0))
            return [(None, (ann[0] + 1, 1.0)), (None, (bob[0] - 1, 1.0))]

        recorded = await asyncio.gather(
            *(
                db.results.record(result(g.id, g.chat_id), rate)
                for db, g in zip([first, second] * 4, games, strict=True)
            )
        )
        assert all(new for _, new in recorded)
        befores = sorted((r.seats[0].before or (0.0, 1.0))[0] for r, _ in recorded)
        assert befores == [float(n) for n in range(8)], "two games started from the same rating"
        # Recording again, from either instance, stores nothing new.
        again = await asyncio.gather(
            *(db.results.record(r, rate) for db, (r, _) in zip([second, first] * 4, recorded, strict=True))
        )
        assert all(not new for _, new in again) and [r for r, _ in again] == [r for r, _ in recorded]
    finally:
        await first.close()
        await second.close()


async def test_unposted_results_are_found_in_the_documents(db: Database) -> None:
    def doc(posted: object, rounds: object) -> dict[str, Any]:
        return {"results_posted": posted, "record": {"rounds": rounds}}

    ids: dict[str, int] = {}
    documents: dict[str, dict[str, Any]] = {
        "none_posted": doc(0, [1, 2]),
        "one_of_two": doc(1, [1, 2]),
        "all": doc(2, [1, 2]),
        "no_count": {"record": {"rounds": [1]}},
        "null_count": doc(None, [1]),
        "no_record": {"results_posted": 0},
        "null_record": {"record": None},
        "not_a_list": doc(0, {"a": 1}),
    }
    for name, data in documents.items():
        game = await db.games.create(
            chat_id=len(ids), kind="private", status=GameStatus.FINISHED, preset="duel", creator_id=1, data=data
        )
        ids[name] = game.id
        assert json.loads(json.dumps(data)) == (await db.games.get(game.id)).data  # type: ignore[union-attr]
    expected = sorted(ids[name] for name in ("none_posted", "one_of_two", "no_count", "null_count"))
    assert await db.results.unposted(60) == expected


async def test_integrity(db: Database) -> None:
    assert await db.integrity_ok()
    await db.backend.execute("INSERT INTO schema_version (version) VALUES (?)", (99,))
    assert not await db.integrity_ok()  # a newer schema than this code knows


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
async def test_both_postgres_schemes(postgres_url: str, scheme: str) -> None:
    db = await Database.open(scheme + postgres_url.removeprefix("postgresql"))
    assert db.shared and db.dialect == "postgresql"
    await db.close()

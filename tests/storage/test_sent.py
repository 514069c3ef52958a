"""A game's replay into a chat and its review to a person are made once (storage/sent.py): of several
asks at once, on one instance or several sharing the database, one claims the drawing; the others
learn that it is being drawn, then where it was sent. On both databases."""

from __future__ import annotations

import asyncio

from storage import Database
from storage.sent import CLAIM_SECONDS, Claim, Kind


async def test_of_many_asks_at_once_exactly_one_draws(database_url: str) -> None:
    instances = [await Database.open(database_url) for _ in range(3)]  # three bots sharing one database
    try:
        claims = await asyncio.gather(*(db.sent.claim(7, Kind.REPLAY, -100) for db in instances for _ in range(4)))
        assert sum(claim.won for claim in claims) == 1
        assert all(claim.drawing for claim in claims if not claim.won)
    finally:
        for db in instances:
            await db.close()


async def test_once_sent_every_later_ask_is_pointed_at_the_message(db: Database) -> None:
    claim = await db.sent.claim(7, Kind.REPLAY, -100)
    assert claim.won and claim.claimed_at is not None
    await db.sent.sent(7, Kind.REPLAY, -100, 555)
    assert await db.sent.claim(7, Kind.REPLAY, -100) == Claim(won=False, message_id=555)
    # later too, long after, and after a restart (a new connection to the same rows)
    assert (await db.sent.claim(7, Kind.REPLAY, -100, now=claim.claimed_at + 10 * CLAIM_SECONDS)).message_id == 555


async def test_each_game_chat_person_and_kind_is_its_own(db: Database) -> None:
    assert (await db.sent.claim(7, Kind.REPLAY, -100)).won
    assert (await db.sent.claim(7, Kind.REPLAY, -200)).won  # another chat
    assert (await db.sent.claim(8, Kind.REPLAY, -100)).won  # another game
    assert (await db.sent.claim(7, Kind.REVIEW, 42)).won  # a person's review
    assert (await db.sent.claim(7, Kind.REVIEW, 43)).won
    assert (await db.sent.claim(7, Kind.REVIEW, 42)).drawing


async def test_a_failed_drawing_gives_its_claim_back(db: Database) -> None:
    claim = await db.sent.claim(7, Kind.REVIEW, 42)
    await db.sent.release(7, Kind.REVIEW, 42, claim)
    assert (await db.sent.claim(7, Kind.REVIEW, 42)).won


async def test_a_claim_left_by_a_stopped_instance_is_taken_over_later(db: Database) -> None:
    stopped = await db.sent.claim(7, Kind.REPLAY, -100, now=1000.0)
    assert (await db.sent.claim(7, Kind.REPLAY, -100, now=1000.0 + CLAIM_SECONDS / 2)).drawing
    taken = await db.sent.claim(7, Kind.REPLAY, -100, now=1000.0 + CLAIM_SECONDS + 1)
    assert taken.won
    await db.sent.release(7, Kind.REPLAY, -100, stopped)  # the old claim's late give-back changes nothing
    assert (await db.sent.claim(7, Kind.REPLAY, -100, now=1000.0 + CLAIM_SECONDS + 2)).drawing

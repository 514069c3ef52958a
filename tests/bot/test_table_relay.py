"""Two instances' table pages through Redis: a commit announced on one reaches the other's pages only."""

from __future__ import annotations

import asyncio
import random

from redis.asyncio import Redis

from bot.model.game import Game, Seat, TableDoc
from bot.webapp.relay import TableRelay
from engine import Match, Rules
from storage import GameRow, GameStatus
from tests.bot.test_shared import fresh_prefix, redis

__all__ = ["redis"]


def _game(game_id: int) -> Game:
    match = Match.new(Rules.preset("block"), 2, random.Random(game_id))
    row = GameRow(game_id, -1, "group", GameStatus.PLAYING, "block", 1, 1, {}, 0.0, 0.0)
    return Game(row, TableDoc(seats=(Seat("Ann", 1), Seat("Bob", 2))), match)


async def test_a_commit_reaches_the_pages_of_the_other_instance(redis: Redis) -> None:
    channel = f"{fresh_prefix()}table"
    delivered: dict[str, list[int]] = {"one": [], "two": []}
    holding = {"one": {7}, "two": {7, 8}}

    def relay(name: str) -> TableRelay:
        async def stored(game_id: int) -> Game | None:
            return _game(game_id)

        instance = type("Relay", (TableRelay,), {"CHANNEL": channel})(
            redis, stored, lambda game: delivered[name].append(game.id), lambda game_id: game_id in holding[name]
        )
        instance.start()
        return instance

    one, two = relay("one"), relay("two")
    try:
        await asyncio.sleep(0.2)  # both subscribed
        one.announce(_game(7))  # committed on one: its own pages were told directly
        one.announce(_game(8))
        two.announce(_game(9))  # nobody holds 9's pages
        for _ in range(50):
            if sorted(delivered["two"]) == [7, 8]:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        # Two games' announcements may cross (each is sent on its own); a page drops an older frame anyway.
        assert delivered["one"] == [] and sorted(delivered["two"]) == [7, 8]
        await redis.publish(channel, "junk")  # a stray message changes nothing
        await redis.publish(channel, '{"game": "x", "from": 1}')
        await asyncio.sleep(0.2)
        assert delivered["one"] == [] and sorted(delivered["two"]) == [7, 8]
    finally:
        await one.close()
        await two.close()

"""Several instances: a commit on one reaches the table pages open on every other, through Redis.

Each instance announces the games it commits on one Redis channel (the game's id and the
instance's own id); every instance listens, and for a game whose pages it holds it reads the game
from the shared database and sends it to them. A lost announcement (Redis restarting) leaves a
page one change behind until the next one; the page can always reload.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.model.game import Game

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger(__name__)

RETRY = 1.0


class TableRelay:
    CHANNEL = "dominoes:table-changes"

    def __init__(
        self,
        redis: Redis,
        load: Callable[[int], Awaitable[Game | None]],
        deliver: Callable[[Game], None],
        holds: Callable[[int], bool],
    ) -> None:
        self.redis = redis
        self.load = load  # the game as stored now
        self.deliver = deliver  # to this instance's pages
        self.holds = holds  # whether this instance has pages of the game
        self.instance = secrets.token_hex(6)
        self._listener: asyncio.Task[None] | None = None
        self._sends: set[asyncio.Task[None]] = set()

    def announce(self, game: Game) -> None:
        """``game`` was committed here: tell the other instances (without waiting for Redis)."""
        task = asyncio.create_task(self._publish(game.id))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    async def _publish(self, game_id: int) -> None:
        from redis.exceptions import RedisError

        try:
            await self.redis.publish(self.CHANNEL, json.dumps({"game": game_id, "from": self.instance}))
        except (RedisError, OSError) as error:
            log.warning("game %s: the other instances' table pages were not told (%s)", game_id, error)

    def start(self) -> None:
        self._listener = asyncio.create_task(self._listen(), name="table-relay")

    async def _listen(self) -> None:
        from redis.exceptions import RedisError

        while True:
            try:
                async with self.redis.pubsub() as channel:
                    await channel.subscribe(self.CHANNEL)
                    async for message in channel.listen():
                        if message.get("type") == "message":
                            await self._take(message.get("data"))
            except (RedisError, OSError) as error:
                log.warning("table changes from other instances: %s; listening again", error)
                await asyncio.sleep(RETRY)

    async def _take(self, data: object) -> None:
        try:
            note = json.loads(data if isinstance(data, (str, bytes)) else "")
            game_id, sender = int(note["game"]), str(note["from"])
        except (ValueError, KeyError, TypeError):
            return
        if sender == self.instance or not self.holds(game_id):
            return
        game = await self.load(game_id)
        if game is not None:
            self.deliver(game)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        if self._sends:
            await asyncio.wait(self._sends, timeout=2)

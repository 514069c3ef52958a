"""One lock per game: every change to a game, and every save of its messages, happens under it.

With one bot process, an asyncio lock per game is enough (:class:`GameLocks`). With several
instances behind a load balancer, two taps of one game may reach two processes, so the lock
must live outside them: :class:`SharedGameLocks` takes the process's own lock and then a Redis
lock with a time to live. The game's version, checked in the database's UPDATE, stays the
final word either way: a lock that expired under a stalled holder can cost a retry, never a
move applied twice (storage.StaleVersionError).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Coroutine
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.lock import Lock

log = logging.getLogger(__name__)


class GameLocks:
    """The lock of each game id, made on first use, for one process.

    The service changes games under it, and the board painter saves a new board message under
    it, so that neither overwrites what the other has just stored.
    """

    def __init__(self) -> None:
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def __call__(self, game_id: int) -> AbstractAsyncContextManager[object]:
        return self._locks[game_id]


class SharedGameLocks(GameLocks):
    """A game's lock held across every instance of the bot: this process's own, then Redis's.

    The Redis lock expires ``ttl`` seconds after its holder stops renewing it (a killed
    instance), so no game waits longer than that for a process that is gone; while held it is
    renewed every third of ``ttl``, since a holder may wait for Telegram longer than that.
    """

    PREFIX = "dominoes:lock:game:"

    def __init__(self, redis: Redis, *, ttl: float = 10.0, poll: float = 0.01) -> None:
        super().__init__()
        self.redis = redis
        self.ttl = ttl
        self.poll = poll

    def __call__(self, game_id: int) -> AbstractAsyncContextManager[object]:
        return self._held(game_id)

    @contextlib.asynccontextmanager
    async def _held(self, game_id: int) -> AsyncIterator[None]:
        # The process's own lock first: coroutines of one instance queue here instead of polling Redis.
        async with super().__call__(game_id):
            lock = self.redis.lock(f"{self.PREFIX}{game_id}", timeout=self.ttl, sleep=self.poll, thread_local=False)
            await self._acquire(lock, game_id)
            keeper = asyncio.create_task(self._keep(lock, game_id), name=f"lock-{game_id}")
            try:
                yield
            finally:
                keeper.cancel()
                await _to_the_end(self._release(lock, game_id))

    async def _acquire(self, lock: Lock, game_id: int) -> None:
        """Take the Redis lock, polling; a task cancelled meanwhile never leaves it taken.

        Each ask (``SET NX`` with this holder's own token) runs in a task of its own that the caller's
        cancellation does not reach: a cancellation landing while Redis's "yes" is on its way would
        otherwise leave the key set, with nobody knowing its token, for the lock's ``ttl``. Cancelled
        (or failed) there, the holder waits for the answer and gives back whatever it was granted.
        """
        token = uuid.uuid4().hex.encode()
        while True:
            asking = asyncio.create_task(lock.acquire(blocking=False, token=token), name=f"lock-{game_id}-ask")
            try:
                granted = await asyncio.shield(asking)
            except BaseException:
                await _to_the_end(self._give_back(asking, lock, token, game_id))
                raise
            if granted:
                return
            await asyncio.sleep(self.poll)

    async def _give_back(self, asking: asyncio.Task[bool], lock: Lock, token: bytes, game_id: int) -> None:
        from redis.exceptions import LockNotOwnedError, RedisError

        await asyncio.wait([asking])  # its answer, whatever it is: the key is set by then if ever
        if not asking.cancelled():
            asking.exception()  # seen (a fault is the caller's to raise, or moot once it is cancelled)
        try:
            async with asyncio.timeout(self.ttl):  # past that the key has expired anyway
                await lock.do_release(token)  # deleted only if it holds this token
        except LockNotOwnedError:  # never granted: nothing to give back
            pass
        except (RedisError, TimeoutError) as error:
            log.warning("game %s: a shared lock granted to a cancelled task could not be freed (%s)", game_id, error)

    async def _keep(self, lock: Lock, game_id: int) -> None:
        from redis.exceptions import LockError, RedisError

        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await lock.reacquire()
            except LockError as error:  # it expired under us: the version check still guards the game
                log.warning("game %s: its shared lock was lost (%s)", game_id, error)
                return
            except RedisError as error:  # a passing fault: try again before the lock runs out
                log.warning("game %s: its shared lock could not be renewed yet (%s)", game_id, error)

    async def _release(self, lock: Lock, game_id: int) -> None:
        from redis.exceptions import RedisError

        try:
            async with asyncio.timeout(self.ttl):  # past that the key has expired anyway
                await lock.release()
        except (RedisError, TimeoutError) as error:
            log.warning("game %s: its shared lock had expired before release (%s)", game_id, error)


async def _to_the_end(work: Coroutine[object, object, None]) -> None:
    """Run ``work`` to its end in a task of its own, however often the caller is cancelled meanwhile.

    A cancellation of the caller is raised once ``work`` is done: freeing a lock is never cut short.
    """
    task = asyncio.create_task(work)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():
                raise
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    task.result()

"""What several instances share through Redis: game locks and Telegram's send budgets.

Run against the Redis server named by ``TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/15``);
skipped where none answers (failed under ``CI=true``). Each test works under its own key prefix.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import pytest_asyncio
from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.telegram.locks import SharedGameLocks
from bot.telegram.pacing import SharedPacer
from tests.conftest import server_missing

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest_asyncio.fixture
async def redis() -> AsyncIterator[Redis]:
    client = Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        await client.ping()
    except (RedisError, OSError) as error:
        await client.aclose()
        server_missing(f"no Redis at {REDIS_URL}: {error}")
    yield client
    await client.aclose()


def prefixed(cls: type, prefix: str) -> type:
    """The class with its own keys, so that tests running at once never share a bucket or a lock."""
    return type(cls.__name__, (cls,), {"PREFIX": prefix})


def fresh_prefix() -> str:
    return f"test:{secrets.token_hex(4)}:"


class Waited(Exception):
    """What :class:`Waits` raises in place of a wait: the test has seen the pacer hold a send back."""


class Waits:
    """A ``sleep`` for :class:`SharedPacer` that records the waits Redis names instead of sleeping.

    With no ``then`` the first wait raises :class:`Waited`; with one, ``then()`` stands for the time
    passing (it refills the buckets) and the pacer asks Redis again. No wall clock is read.
    """

    def __init__(self, then: Callable[[], Awaitable[None]] | None = None) -> None:
        self.asked: list[float] = []
        self.then = then

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        if self.then is None:
            raise Waited(seconds)
        await self.then()


async def test_two_instances_share_a_groups_budget(redis: Redis) -> None:
    prefix = fresh_prefix()
    waits = Waits()
    pacers = [prefixed(SharedPacer, prefix)(redis, 20, 0, 0, sleep=waits) for _ in range(2)]
    for index in range(3):  # a burst of 3 for the group, whichever instance sends
        await pacers[index % 2].before_send(-100)
    assert waits.asked == []
    for pacer in pacers:  # then either instance waits: one token every 60/17 s
        with pytest.raises(Waited):
            await pacer.before_send(-100)
    assert len(waits.asked) == 2 and all(0 < wait <= 60 / 17 for wait in waits.asked), waits.asked
    await pacers[1].before_send(-101)  # another group has a budget of its own
    assert len(waits.asked) == 2


async def test_private_chats_and_the_bot_budget(redis: Redis) -> None:
    prefix = fresh_prefix()
    waits = Waits()
    pacer = prefixed(SharedPacer, prefix)(redis, 0, 0, 2, sleep=waits)
    await pacer.before_send(42)
    await pacer.before_send(43)  # 2 a second over all chats, a burst of 2
    assert waits.asked == []
    with pytest.raises(Waited):
        await pacer.before_send(44)  # a third chat waits for the bot's budget: at most half a second
    assert len(waits.asked) == 1 and 0 < waits.asked[0] <= 0.5, waits.asked


async def test_the_board_waits_for_two_group_tokens_and_spends_none(redis: Redis) -> None:
    prefix = fresh_prefix()

    async def two_tokens_later() -> None:  # what time would do: the group's bucket holds two again
        seconds, micros = await redis.time()
        await redis.hset(f"{prefix}group:-7", mapping={"tokens": "2", "at": str(seconds + micros / 1e6)})

    waits = Waits(then=two_tokens_later)
    pacer = prefixed(SharedPacer, prefix)(redis, 20, 0, 0, sleep=waits)
    for _ in range(2):
        await pacer.before_send(-7)
    assert waits.asked == []
    await pacer.board_ready(-7)  # one token left: waits for a second one
    assert len(waits.asked) == 1 and 0 < waits.asked[0] <= 60 / 17, waits.asked
    await pacer.board_ready(-7)  # spent nothing: ready at once
    await pacer.before_send(-7)  # and the two tokens are still there for a message
    assert len(waits.asked) == 1, waits.asked


async def test_the_room_for_a_quiet_answer_is_the_whole_shared_burst(redis: Redis) -> None:
    """An answer that changes nothing (bot/telegram/quiet.py) goes only while the group's shared
    bucket is full, whichever instance spent from it; asking spends nothing."""
    prefix = fresh_prefix()
    pacers = [prefixed(SharedPacer, prefix)(redis, 20, 0, 0, sleep=Waits()) for _ in range(2)]
    assert await pacers[0].has_room(-9) and await pacers[1].has_room(-9)
    assert await pacers[0].has_room(-9)  # asked twice: still full
    await pacers[1].before_send(-9)  # the other instance sends a board
    assert not await pacers[0].has_room(-9)
    assert await pacers[0].has_room(-10)  # another group's budget is its own
    assert await pacers[0].has_room(42)  # a private chat has no group budget


async def test_no_budget_is_no_redis_call(caplog: pytest.LogCaptureFixture) -> None:
    gone = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.5)
    pacer = prefixed(SharedPacer, fresh_prefix())(gone, 0, 0, 0)
    calls: list[object] = []

    async def take(**arguments: object) -> str:
        calls.append(arguments)
        return "0"

    pacer._take = take  # type: ignore[method-assign,assignment]
    with caplog.at_level(logging.WARNING, logger="bot.telegram.pacing"):
        await pacer.before_send(-1)  # no bucket applies: Redis is never asked
        await pacer.board_ready(-1)
        await pacer.before_send(42)
    assert calls == []
    assert caplog.records == []  # nor tried and failed (it is unreachable here)
    await gone.aclose()


async def test_an_unreachable_redis_falls_back_on_the_process_budget(caplog: pytest.LogCaptureFixture) -> None:
    gone = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.5)
    pacer = prefixed(SharedPacer, fresh_prefix())(gone, 20, 1, 30)
    with caplog.at_level(logging.WARNING, logger="bot.telegram.pacing"):
        await pacer.before_send(-1)  # logged, then paced by this process alone
    await gone.aclose()
    assert any("pacing this process alone" in record.getMessage() for record in caplog.records), caplog.text
    # The send spent a token of this process's own buckets: the group's, the chat's and the bot's.
    assert pacer.groups._level(-1) == pytest.approx(pacer.groups.burst - 1, abs=0.05)
    assert pacer.chats._level(-1) == pytest.approx(pacer.chats.burst - 1, abs=0.05)
    assert pacer.overall._level(0) < pacer.overall.burst


async def test_one_holder_at_a_time_across_instances(redis: Redis) -> None:
    prefix = fresh_prefix()
    instances = [prefixed(SharedGameLocks, prefix)(redis, ttl=2.0) for _ in range(2)]
    inside = 0
    most = 0

    async def change(index: int) -> None:
        nonlocal inside, most
        async with instances[index % 2](1):
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0.02)
            inside -= 1

    await asyncio.gather(*(change(i) for i in range(20)))
    assert most == 1


async def test_a_lock_is_renewed_while_held_and_freed_when_its_holder_dies(redis: Redis) -> None:
    prefix = fresh_prefix()
    first, second = (prefixed(SharedGameLocks, prefix)(redis, ttl=0.6) for _ in range(2))
    order: list[str] = []

    first_in = asyncio.Event()

    async def long_holder() -> None:
        async with first(5):
            order.append("first in")
            first_in.set()
            await asyncio.sleep(1.5)  # longer than the time to live: renewed meanwhile
            order.append("first out")

    async def waiter() -> None:
        await first_in.wait()
        async with second(5):
            order.append("second in")

    await asyncio.gather(long_holder(), waiter())
    assert order == ["first in", "first out", "second in"]

    # A holder that dies (nobody renews or releases): the lock is free once its time to live passes.
    dead = b"a dead instance's token"
    await redis.set(f"{prefix}7", dead, px=500)
    async with asyncio.timeout(30), second(7):  # a generous bound: it must not wait forever
        held_by = await redis.get(f"{prefix}7")
    assert held_by is not None and held_by != dead  # it waited for the dead lock to expire, not took it


class SlowGrant(Redis):
    """A client whose lock grant (``SET NX``) is applied at once but answered only once ``answer`` is set.

    The test cancels the asking task in between: the cancellation lands while Redis's "yes" is on
    its way, the moment a real one may land at, with the key already set.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.granted = asyncio.Event()
        self.answer = asyncio.Event()

    async def set(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
        reply = await super().set(*args, **kwargs)  # type: ignore[arg-type]
        if kwargs.get("nx") and reply:
            self.granted.set()
            await self.answer.wait()
        return reply


async def test_a_task_cancelled_as_its_lock_is_granted_leaves_the_game_free(redis: Redis) -> None:
    prefix = fresh_prefix()
    slow = SlowGrant.from_url(REDIS_URL, socket_connect_timeout=2)
    locks = prefixed(SharedGameLocks, prefix)(slow, ttl=10.0)
    entered: list[str] = []

    async def change() -> None:
        async with locks(3):
            entered.append("in")

    holder = asyncio.create_task(change())
    await slow.granted.wait()
    assert await redis.get(f"{prefix}3") is not None  # Redis has granted it; the holder has not heard yet
    holder.cancel()
    slow.answer.set()
    with pytest.raises(asyncio.CancelledError):
        await holder
    await slow.aclose()
    assert entered == []
    assert await redis.get(f"{prefix}3") is None  # not left set for its 10 s
    async with asyncio.timeout(30):  # another instance takes it without waiting for it to expire
        async with prefixed(SharedGameLocks, prefix)(redis, ttl=10.0)(3):
            entered.append("other in")
    assert entered == ["other in"]


class SlowRelease(Redis):
    """A client whose scripts (the lock's release) reach Redis only once ``go`` is set."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.asked = asyncio.Event()
        self.go = asyncio.Event()
        self.done = asyncio.Event()

    async def evalsha(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
        self.asked.set()
        await self.go.wait()
        reply = await super().evalsha(*args, **kwargs)  # type: ignore[arg-type]
        self.done.set()
        return reply


async def test_a_task_cancelled_again_while_releasing_still_releases(redis: Redis) -> None:
    prefix = fresh_prefix()
    slow = SlowRelease.from_url(REDIS_URL, socket_connect_timeout=2)
    locks = prefixed(SharedGameLocks, prefix)(slow, ttl=10.0)
    inside = asyncio.Event()

    async def change() -> None:
        async with locks(4):
            inside.set()
            await asyncio.Event().wait()  # until cancelled

    holder = asyncio.create_task(change())
    await inside.wait()
    holder.cancel()  # it leaves the lock: its release is on its way to Redis
    await slow.asked.wait()
    holder.cancel()  # and a second cancellation lands in the release
    slow.go.set()
    with pytest.raises(asyncio.CancelledError):
        await holder
    await slow.aclose()
    assert slow.done.is_set()
    assert await redis.get(f"{prefix}4") is None  # released all the same, not left for its 10 s

"""What several instances share through Redis: game locks and Telegram's send budgets.

Run against the Redis server named by ``TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/15``);
skipped where none answers. Each test works under its own key prefix.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.telegram.locks import SharedGameLocks
from bot.telegram.pacing import SharedPacer

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest_asyncio.fixture
async def redis() -> AsyncIterator[Redis]:
    client = Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        await client.ping()
    except (RedisError, OSError) as error:
        await client.aclose()
        pytest.skip(f"no Redis at {REDIS_URL}: {error}")
    yield client
    await client.aclose()


def prefixed(cls: type, prefix: str) -> type:
    """The class with its own keys, so that tests running at once never share a bucket or a lock."""
    return type(cls.__name__, (cls,), {"PREFIX": prefix})


def fresh_prefix() -> str:
    return f"test:{secrets.token_hex(4)}:"


async def test_two_instances_share_a_groups_budget(redis: Redis) -> None:
    prefix = fresh_prefix()
    pacers = [prefixed(SharedPacer, prefix)(redis, 20, 0, 0) for _ in range(2)]
    start = time.monotonic()
    sent: list[float] = []

    async def send(index: int) -> None:
        await pacers[index % 2].before_send(-100)
        sent.append(time.monotonic() - start)

    await asyncio.gather(*(send(i) for i in range(4)))
    # A burst of 3 for the group whichever instance sends, then one every 60/17 s.
    assert sorted(sent)[2] < 1.0
    assert sorted(sent)[3] > 3.0


async def test_private_chats_and_the_bot_budget(redis: Redis) -> None:
    prefix = fresh_prefix()
    pacer = prefixed(SharedPacer, prefix)(redis, 0, 0, 5)
    start = time.monotonic()
    for _ in range(6):
        await pacer.before_send(42)
    # 5 a second over all chats, a burst of 5: the sixth waits about 0.2 s.
    assert 0.1 < time.monotonic() - start < 1.5


async def test_the_board_waits_for_two_group_tokens_and_spends_none(redis: Redis) -> None:
    prefix = fresh_prefix()
    pacer = prefixed(SharedPacer, prefix)(redis, 20, 0, 0)
    for _ in range(2):
        await pacer.before_send(-7)
    start = time.monotonic()
    await pacer.board_ready(-7)  # one token left: waits for a second one
    assert time.monotonic() - start > 2.0
    await pacer.board_ready(-7)  # spent nothing: ready at once
    assert time.monotonic() - start < 4.0


async def test_no_budget_is_no_redis_call(redis: Redis) -> None:
    pacer = prefixed(SharedPacer, fresh_prefix())(Redis.from_url("redis://127.0.0.1:1/0"), 0, 0, 0)
    await pacer.before_send(-1)  # no bucket applies: Redis (unreachable here) is never asked
    await pacer.board_ready(-1)


async def test_an_unreachable_redis_falls_back_on_the_process_budget() -> None:
    gone = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.5)
    pacer = prefixed(SharedPacer, fresh_prefix())(gone, 20, 1, 30)
    await pacer.before_send(-1)  # logged, then paced by this process alone
    await gone.aclose()


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

    async def long_holder() -> None:
        async with first(5):
            order.append("first in")
            await asyncio.sleep(1.5)  # longer than the time to live: renewed meanwhile
            order.append("first out")

    async def waiter() -> None:
        await asyncio.sleep(0.1)
        async with second(5):
            order.append("second in")

    await asyncio.gather(long_holder(), waiter())
    assert order == ["first in", "first out", "second in"]

    # A holder that dies (nobody renews or releases): the lock is free once its time to live passes.
    await redis.set(f"{prefix}7", "a dead instance's token", px=500)
    start = time.monotonic()
    async with second(7):
        waited = time.monotonic() - start
    assert 0.2 < waited < 3.0

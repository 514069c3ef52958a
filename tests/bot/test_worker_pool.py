"""The replay worker gives back what a replay grew it by (issue 31: it kept 556-600 MB after one long
replay): a pool made with ``retire_after`` ends its idle worker, and starts a new one for the next
work; a busy one is kept, and the board pictures' pool keeps its warm workers."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path

from bot.display.pictures import WorkerPool

WAIT = 30.0  # seconds a worker may take to start or end on a busy machine


async def _until(condition: Callable[[], bool], what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not condition():
        assert loop.time() < deadline, f"{what} not within {WAIT} s"
        await asyncio.sleep(0.05)


async def test_an_idle_worker_is_ended_and_a_new_one_does_the_next_work() -> None:
    pool = WorkerPool(1, retire_after=0.2)
    pool.start()
    try:
        first = await pool.run(os.getpid)
        assert first != os.getpid()
        assert await pool.run(os.getpid) == first  # work soon after: the same worker
        await _until(lambda: not pool.running, "the idle pool's retirement")
        await _until(lambda: not Path(f"/proc/{first}").exists(), "the idle worker's end")
        second = await pool.run(os.getpid)
        assert second not in (first, os.getpid()) and pool.running
    finally:
        pool.close()


async def test_a_pool_without_retire_after_keeps_its_worker() -> None:
    pool = WorkerPool(1)
    pool.start()
    try:
        first = await pool.run(os.getpid)
        await asyncio.sleep(0.5)
        assert pool.running and await pool.run(os.getpid) == first
    finally:
        pool.close()


async def test_work_arriving_while_busy_keeps_the_worker() -> None:
    pool = WorkerPool(1, retire_after=0.2)
    pool.start()
    try:
        slow = asyncio.ensure_future(pool.run(_sleep_then_pid, 0.6))
        await asyncio.sleep(0.3)
        quick = await pool.run(os.getpid)  # queued behind the slow one, in the same worker
        assert await slow == quick
    finally:
        pool.close()


def _sleep_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()

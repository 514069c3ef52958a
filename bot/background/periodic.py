"""A piece of work run every few seconds in the background until the bot stops (the sweeps)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable


class Periodic:
    """``work()`` every ``every`` seconds from :meth:`start` until :meth:`close`; a run that fails
    is logged (under ``name``) and the next one comes all the same."""

    def __init__(self, name: str, every: float, work: Callable[[], Awaitable[object]], log: logging.Logger) -> None:
        self.name = name
        self.every = every
        self.work = work
        self.log = log
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.work()
            except Exception:
                self.log.exception("%s failed; it runs again in %.1f s", self.name, self.every)

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

"""Running games that nobody is looking after get looked after: the stored wake-up sweep.

Every instance keeps timers in memory for the games it touched: the computers' next move, the
turn clock. When an instance dies, so do its timers. So every committed change also stores when
the game must next be looked at (``games.wake_at``: a little after the computer's move or the
clock's run-out is due, or soon after a move until it has been shown), and each instance,
every ``every`` seconds, claims the games whose time has passed. A claim is atomic in the
database (``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL), so exactly one instance takes
each game, and it pushes the wake-up ``lease`` seconds on in case that instance dies too. The
game is then woken as a restart would (:meth:`bot.table.service.GameService.wake`), and whatever it
does is checked again under the game's lock, so a late or repeated wake-up changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from bot.background.periodic import Periodic
from bot.table.service import GameService

log = logging.getLogger(__name__)

BATCH = 20
BACKFILL_EVERY = 30.0  # seconds


class WakeSweeper:
    def __init__(
        self,
        service: GameService,
        *,
        every: float,
        lease: float,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.every = every
        self.lease = lease
        self.now = now
        self.woken = 0  # games this instance took over, for the log and the tests
        self._backfilled = now()  # start-up has just done it
        self._periodic = Periodic("the wake-up sweep", every, self.sweep, log)  # i18n: not shown
        self._waking: set[asyncio.Task[None]] = set()

    async def sweep(self) -> list[int]:
        """Claim the games due now and wake each (in tasks of their own); returns their ids.

        With a shared database, now and then also what a restart does for ended games: record a
        result nobody recorded and post a final result nobody posted (an instance died between
        the last move and its result; bot/model/scores.py)."""
        now = self.now()
        if self.service.db.shared and now - self._backfilled >= BACKFILL_EVERY:
            self._backfilled = now
            await self.service.backfill_results()
        claimed = await self.service.db.games.claim_due(now, self.lease, BATCH)
        for game_id in claimed:
            task = asyncio.create_task(self._wake(game_id), name=f"wake-{game_id}")
            self._waking.add(task)
            task.add_done_callback(self._waking.discard)
        if claimed:
            self.woken += len(claimed)
            log.info("looking after %d games nobody looked after: %s", len(claimed), claimed)
        return claimed

    async def _wake(self, game_id: int) -> None:
        try:
            await self.service.wake(game_id)
        except Exception:
            log.exception("game %s could not be woken; it is tried again in %.0f s", game_id, self.lease)

    async def settled(self) -> None:
        """Until the games this instance is waking now have been woken (for the tests)."""
        while self._waking:
            await asyncio.wait(list(self._waking))

    def start(self) -> None:
        self._periodic.start()

    async def close(self) -> None:
        await self._periodic.close()
        for waking in list(self._waking):
            waking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await waking

"""Closing games nobody has touched for days (IDLE_CLOSE_DAYS, seven by default).

A sweep runs once at start-up (before the running games are resumed) and then every
IDLE_SWEEP_SECONDS (an hour): every lobby and running game whose row has not changed for the
idle time is marked ``closed`` (:attr:`storage.GameStatus.CLOSED`), under the game's lock and
only if it is still idle then.
Nothing is deleted and no message is sent: the game's buttons stay, and a tap on one of them
answers that the game was closed (:mod:`bot.handlers.closed_games`).  The clock is injectable (``now``),
so tests can sweep "eight days later" without waiting.
Each sweep also forgets the Telegram updates handled more than two days before (storage/handled.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from aiogram.filters.callback_data import CallbackData

from bot.background.periodic import Periodic
from bot.model import scores
from bot.model.documents import load_game
from bot.telegram.locks import GameLocks
from storage import Database, GameRow, GameStatus

log = logging.getLogger(__name__)

DAY = 86400.0
ACTIVE = (GameStatus.LOBBY, GameStatus.PLAYING)


class IdleSweeper:
    def __init__(
        self,
        db: Database,
        locks: GameLocks,
        *,
        idle_days: float,
        every: float,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.locks = locks
        self.idle_seconds = idle_days * DAY
        self.every = every
        self.now = now
        self._periodic = Periodic("the idle sweep", every, self.sweep, log)  # i18n: not shown

    async def sweep(self) -> list[int]:
        """Close every game idle for longer than the idle time; returns the ids of those closed."""
        cutoff = self.now() - self.idle_seconds
        closed = []
        for row in await self.db.games.idle_since(cutoff):
            async with self.locks(row.id):
                fresh = await self.db.games.get(row.id)
                # A move may have come while we looked: only a game still idle is closed.
                if fresh is None or fresh.status not in ACTIVE or fresh.updated_at >= cutoff:
                    continue
                saved = await self.db.games.save(fresh, status=GameStatus.CLOSED)
                await self._record(saved)
            closed.append(row.id)
        if closed:
            log.info("closed %d idle games: %s", len(closed), closed)
        # The updates handled long ago, which Telegram will not deliver again (storage/handled.py).
        pruned = await self.db.handled.prune(self.now())
        if pruned:
            log.info("forgot %d updates handled more than two days ago", pruned)
        return closed

    async def _record(self, row: GameRow) -> None:
        """A closed game is an abandoned one: kept with the scores, changing no rating."""
        try:
            game = load_game(row)
        except (KeyError, TypeError, ValueError):
            log.warning("game %s: closed, but its document cannot be read to record it", row.id)
            return
        await scores.record_quietly(self.db, game)

    def start(self) -> None:
        """Sweep every ``every`` seconds from now on, until :meth:`close` (the start-up sweep is the
        caller's, before the running games are resumed, so that no idle game is woken)."""
        self._periodic.start()

    async def close(self) -> None:
        await self._periodic.close()


def _game_callbacks() -> list[type[CallbackData]]:
    """Every kind of button that names a game (a ``game`` field), found once all are defined."""
    found: list[type[CallbackData]] = []
    pending = list(CallbackData.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if "game" in cls.model_fields:
            found.append(cls)
    return found


def game_of(data: str | None) -> int | None:
    """The game a button's callback data names, if it is one of the bot's game buttons."""
    if not data:
        return None
    for cls in _game_callbacks():
        if not data.startswith(f"{cls.__prefix__}{cls.__separator__}"):
            continue
        try:
            game = getattr(cls.unpack(data), "game", None)
        except (ValueError, TypeError):
            continue
        if isinstance(game, int) and game > 0:
            return game
    return None

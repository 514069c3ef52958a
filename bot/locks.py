"""One asyncio lock per game: every change to a game, and every save of its messages, happens under it."""

from __future__ import annotations

import asyncio
from collections import defaultdict


class GameLocks:
    """The lock of each game id, made on first use.

    The service changes games under it, and the board painter saves a new board message under
    it, so that neither overwrites what the other has just stored.
    """

    def __init__(self) -> None:
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def __call__(self, game_id: int) -> asyncio.Lock:
        return self._locks[game_id]

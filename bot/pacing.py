"""Telegram's budget of messages into one group: about 20 a minute, edits included.

A token bucket per group chat. Rare messages (a result, a lobby edit, a reply) always go and
spend a token, even into debt; the board, which changes with every move, waits until the group
has a token again and then shows only the newest table (see :mod:`bot.boards`).

>>> clock = [0.0]
>>> budget = GroupBudget(per_minute=20, burst=2, clock=lambda: clock[0])
>>> budget.spend(-1); budget.spend(-1); budget.wait_time(-1)
3.0
>>> clock[0] = 3.0; budget.wait_time(-1)
0.0
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class GroupBudget:
    def __init__(self, per_minute: float, burst: int = 3, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self._clock = clock
        self._tokens: dict[int, tuple[float, float]] = {}  # chat -> (tokens, when counted)

    def _level(self, chat_id: int) -> float:
        tokens, when = self._tokens.get(chat_id, (self.burst, self._clock()))
        return min(self.burst, tokens + (self._clock() - when) * self.rate)

    def spend(self, chat_id: int) -> None:
        """Count one message into ``chat_id`` (private chats are not counted)."""
        if chat_id < 0 and self.rate > 0:
            self._tokens[chat_id] = (self._level(chat_id) - 1.0, self._clock())
            if len(self._tokens) > 10_000:
                self._forget_full()

    def wait_time(self, chat_id: int) -> float:
        """Seconds until the chat may have one more message."""
        if chat_id >= 0 or self.rate <= 0:
            return 0.0
        missing = 1.0 - self._level(chat_id)
        return max(0.0, missing / self.rate)

    async def ready(self, chat_id: int) -> None:
        """Wait until one more message into the chat keeps within the budget."""
        while (wait := self.wait_time(chat_id)) > 0:
            await asyncio.sleep(wait)

    def _forget_full(self) -> None:
        for chat_id in [chat for chat in self._tokens if self._level(chat) >= self.burst]:
            del self._tokens[chat_id]

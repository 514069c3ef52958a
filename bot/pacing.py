"""Telegram's budgets for messages: about 20 a minute into a group, about one a second into any
chat, about 30 a second overall (edits count in practice; answers to taps and deletions do not).

Each budget is a token bucket per chat. Before a message or an edit the outbox waits until the
chat (and, for a group, the group's minute budget) and the bot as a whole have a token, then
spends one in every bucket that applies. The board, which changes with every move, waits for
the group's budget *before* it draws, leaving one token for other messages, and then shows only
the newest table (see :mod:`bot.boards`), so fast play costs no queue of stale pictures and
never holds up a result.

>>> clock = [0.0]
>>> groups = Buckets(per_second=20 / 60, burst=2, clock=lambda: clock[0])
>>> groups.spend(-1); groups.spend(-1); groups.wait_time(-1)
3.0
>>> clock[0] = 3.0; groups.wait_time(-1)
0.0
>>> Buckets(per_second=0).wait_time(-1)  # a rate of 0: no limit
0.0
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.methods.base import TelegramType

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import Response, TelegramMethod

FORGET_AFTER = 10_000  # buckets kept before full ones are dropped


class Buckets:
    """A token bucket per key: ``per_second`` tokens flow in, at most ``burst`` are kept."""

    def __init__(self, per_second: float, burst: float = 3, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_second
        self.burst = float(burst)
        self._clock = clock
        self._tokens: dict[int, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def _level(self, key: int) -> float:
        tokens, when = self._tokens.get(key, (self.burst, self._clock()))
        return min(self.burst, tokens + (self._clock() - when) * self.rate)

    def spend(self, key: int) -> None:
        if self.rate <= 0:
            return
        self._tokens[key] = (self._level(key) - 1.0, self._clock())
        if len(self._tokens) > FORGET_AFTER:
            for full in [k for k in self._tokens if self._level(k) >= self.burst]:
                del self._tokens[full]

    def wait_time(self, key: int, need: float = 1.0) -> float:
        """Seconds until ``key`` holds ``need`` tokens (at most the burst)."""
        if self.rate <= 0:
            return 0.0
        return max(0.0, (min(need, self.burst) - self._level(key)) / self.rate)

    async def ready(self, key: int, need: float = 1.0) -> None:
        while (wait := self.wait_time(key, need)) > 0:
            await asyncio.sleep(wait)


class Pacer:
    """The three budgets together; a rate of 0 turns that budget off.

    A group's bucket holds a burst of 3 and refills at ``group_per_minute - 3`` a minute, so
    that no 60-second window ever holds more than ``group_per_minute`` messages.

    >>> clock = [0.0]
    >>> pacer = Pacer(group_per_minute=20, chat_per_second=0, overall_per_second=0, clock=lambda: clock[0])
    >>> sent = 0
    >>> while pacer.wait_time(-5) == 0 or clock[0] < 60:
    ...     if pacer.wait_time(-5) == 0:
    ...         pacer.spend(-5); sent += 1
    ...     clock[0] += 0.5
    >>> sent <= 20 + 1  # 20 within the first minute, one more as it ends
    True
    """

    GROUP_BURST = 3

    def __init__(
        self,
        group_per_minute: float = 20,
        chat_per_second: float = 1,
        overall_per_second: float = 30,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        burst = min(self.GROUP_BURST, max(1, int(group_per_minute) - 1))
        self.groups = Buckets(max(0.0, group_per_minute - burst) / 60, burst=burst, clock=clock)
        self.chats = Buckets(chat_per_second, burst=3, clock=clock)
        self.overall = Buckets(overall_per_second, burst=max(1.0, overall_per_second), clock=clock)

    def wait_time(self, chat_id: int) -> float:
        waits = [self.chats.wait_time(chat_id), self.overall.wait_time(0)]
        if chat_id < 0:
            waits.append(self.groups.wait_time(chat_id))
        return max(waits)

    def spend(self, chat_id: int) -> None:
        self.chats.spend(chat_id)
        self.overall.spend(0)
        if chat_id < 0:
            self.groups.spend(chat_id)

    async def before_send(self, chat_id: int) -> None:
        """Wait until the chat (and its group budget) and the bot have a token, then spend them."""
        while (wait := self.wait_time(chat_id)) > 0:
            await asyncio.sleep(wait)
        self.spend(chat_id)

    async def board_ready(self, chat_id: int) -> None:
        """Wait until the group can take a board and still keep a token for anything else.

        The token kept back lets a result, a lobby edit or a reply go at once, even while a
        fast game keeps the board waiting for the budget (private chats: at once)."""
        if chat_id < 0:
            await self.groups.ready(chat_id, need=2.0)


UNLIMITED = Pacer(0, 0, 0)


# Methods that put a message into a chat or change one: they spend the chat's budget.
COUNTED_PREFIXES = ("send", "edit", "copyMessage", "forwardMessage")
NOT_COUNTED = frozenset({"sendChatAction"})


class PacingMiddleware(BaseRequestMiddleware):
    """Every message and edit the bot sends, by any path, waits for and spends the budgets.

    A request middleware of aiogram's session, so that a reply sent straight from a handler
    (``message.answer``) counts as much as one sent by the outbox.
    """

    def __init__(self, pacer: Pacer) -> None:
        self.pacer = pacer

    async def __call__(
        self, make_request: NextRequestMiddlewareType[TelegramType], bot: Bot, method: TelegramMethod[TelegramType]
    ) -> Response[TelegramType]:
        name = method.__api_method__
        chat_id = getattr(method, "chat_id", None)
        if isinstance(chat_id, int) and name.startswith(COUNTED_PREFIXES) and name not in NOT_COUNTED:
            await self.pacer.before_send(chat_id)
        return await make_request(bot, method)

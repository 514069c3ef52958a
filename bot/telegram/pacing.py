"""Telegram's budgets for messages: about 20 a minute into a group, about one a second into any
chat, about 30 a second overall (edits count in practice; answers to taps and deletions do not).

Each budget is a token bucket per chat. Before a message or an edit the outbox waits until the
chat (and, for a group, the group's minute budget) and the bot as a whole have a token, then
spends one in every bucket that applies. The board, which changes with every move, waits for
the group's budget *before* it draws, leaving one token for other messages, and then shows only
the newest table (see :mod:`bot.display.boards`), so fast play costs no queue of stale pictures and
never holds up a result. What can wait longest, a refusal to a group command that changes
nothing, is sent only while the group's bucket is full (:meth:`Pacer.has_room`,
:mod:`bot.telegram.quiet`), so it never takes a token the board or the game needs.

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
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.methods.base import TelegramType
from redis.asyncio import Redis
from redis.exceptions import RedisError

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import Response, TelegramMethod

log = logging.getLogger(__name__)

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


# A chat's budget refills this much slower than Telegram's one a second: two sends the pacer
# lets go exactly a second apart can reach Telegram closer together (the first one delayed on a
# busy machine or network) and earn a 429; five per cent is room for that jitter.
CHAT_MARGIN = 1.05


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
        self.chats = Buckets(chat_per_second / CHAT_MARGIN, burst=3, clock=clock)
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

    async def has_room(self, chat_id: int) -> bool:
        """Whether the group's budget is full now (private chats: always), spending nothing.

        What may wait for another day (an answer to a command that changes nothing,
        :mod:`bot.telegram.quiet`) is sent only then, so that it never takes a token the board
        or the game's own messages are waiting for: with the full burst there, the board's
        two tokens are still there after it."""
        return chat_id > 0 or self.groups.wait_time(chat_id, need=self.groups.burst) == 0


UNLIMITED = Pacer(0, 0, 0)


# The same token buckets, kept in Redis for every instance of the bot at once. One call looks at
# every bucket a message needs and, only if all of them hold ``need`` tokens, spends one from each:
# checking and spending in two calls would let two instances spend the last token twice. Times
# are Redis's own clock, so instances whose clocks differ still agree. Returns the seconds to
# wait (a string: Redis turns Lua numbers into integers), "0" when it spent or may proceed.
TAKE_TOKENS = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local need = tonumber(ARGV[1])
local spend = ARGV[2] == '1'
local levels = {}
local wait = 0
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[1 + 2 * i])
  local burst = tonumber(ARGV[2 + 2 * i])
  local stored = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = burst
  if stored[1] then
    tokens = math.min(burst, tonumber(stored[1]) + math.max(0, now - tonumber(stored[2])) * rate)
  end
  levels[i] = tokens
  local want = math.min(need, burst)
  if tokens < want then
    wait = math.max(wait, (want - tokens) / rate)
  end
end
if wait > 0 or not spend then
  return tostring(wait)
end
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[1 + 2 * i])
  local burst = tonumber(ARGV[2 + 2 * i])
  redis.call('HSET', key, 'tokens', tostring(levels[i] - 1), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil((burst + 1) / rate * 1000) + 1000)
end
return '0'
"""  # i18n: not shown


class SharedPacer(Pacer):
    """The budgets of :class:`Pacer`, shared through Redis by every instance of the bot.

    Telegram counts what the bot sends, whichever process sends it, so with several instances
    the buckets must be one. Should Redis fail, this process falls back on its own buckets (and
    says so in the log) rather than stop sending. ``sleep`` waits for the seconds Redis names
    (tests pass one that records the waits instead of sleeping).
    """

    PREFIX = "dominoes:pace:"

    def __init__(
        self,
        redis: Redis,
        group_per_minute: float = 20,
        chat_per_second: float = 1,
        overall_per_second: float = 30,
        *,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        super().__init__(group_per_minute, chat_per_second, overall_per_second)
        self.redis = redis
        self._sleep = sleep
        self._take = redis.register_script(TAKE_TOKENS)

    def _buckets(self, chat_id: int, *, group_only: bool = False) -> list[tuple[str, Buckets]]:
        buckets = [] if group_only else [(f"chat:{chat_id}", self.chats), ("bot", self.overall)]
        if chat_id < 0:
            buckets.append((f"group:{chat_id}", self.groups))
        return [(self.PREFIX + name, bucket) for name, bucket in buckets if bucket.rate > 0]

    async def _wait(self, buckets: list[tuple[str, Buckets]], need: float, spend: bool) -> float:
        keys = [key for key, _ in buckets]
        arguments: list[float | int] = [need, int(spend)]
        for _, bucket in buckets:
            arguments += [bucket.rate, bucket.burst]
        return float(await self._take(keys=keys, args=arguments))

    async def before_send(self, chat_id: int) -> None:
        if not await self._ready(self._buckets(chat_id), need=1.0, spend=True):
            await super().before_send(chat_id)

    async def board_ready(self, chat_id: int) -> None:
        if not await self._ready(self._buckets(chat_id, group_only=True), need=2.0, spend=False):
            await super().board_ready(chat_id)

    async def has_room(self, chat_id: int) -> bool:
        buckets = self._buckets(chat_id, group_only=True)
        if not buckets:
            return True
        try:
            return await self._wait(buckets, self.groups.burst, spend=False) == 0
        except RedisError as error:
            log.warning("shared send budgets unavailable (%s); pacing this process alone", error)
            return await super().has_room(chat_id)

    async def _ready(self, buckets: list[tuple[str, Buckets]], *, need: float, spend: bool) -> bool:
        """Wait until every bucket holds ``need`` tokens (and spend one of each); False if Redis failed."""
        if not buckets:
            return True
        try:
            while (wait := await self._wait(buckets, need, spend)) > 0:
                await self._sleep(wait)
        except RedisError as error:
            log.warning("shared send budgets unavailable (%s); pacing this process alone", error)
            return False
        return True


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

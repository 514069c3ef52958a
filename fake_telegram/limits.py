"""Flood limits (429 with retry_after) and injected faults (429, 500, hangs): both off by default.

Telegram's documented limits (bots FAQ, DESIGN.md): about one message per second in a chat,
about 20 messages per minute into one group (edits count in practice), about 30 per second
overall.  ``Limits.telegram()`` turns on those numbers; tests of speed leave them off.
"""

from __future__ import annotations

import math
import random
from collections import deque
from dataclasses import dataclass, field

# Methods that put something into a chat (a message or an edit) and so count against the limits.
COUNTED_PREFIXES = ("send", "edit", "copyMessage", "forwardMessage", "stopPoll", "stopMessageLiveLocation")
NOT_COUNTED = frozenset({"sendChatAction"})


def counts_against_limits(method: str) -> bool:
    return method not in NOT_COUNTED and method.startswith(COUNTED_PREFIXES)


@dataclass(frozen=True)
class Limits:
    """Flood-control settings; ``None`` turns a limit off."""

    group_per_minute: int | None = None  # messages + edits into one group/supergroup per 60 s
    chat_per_second: float | None = None  # sustained rate in any one chat
    chat_burst: int = 3  # how many may go at once before the per-chat rate applies
    global_per_second: float | None = None  # all chats together

    @classmethod
    def telegram(cls) -> Limits:
        return cls(group_per_minute=20, chat_per_second=1.0, chat_burst=3, global_per_second=30.0)


@dataclass
class _Bucket:
    rate: float
    capacity: float
    tokens: float
    at: float

    def take(self, now: float) -> float:
        """0 if a token was taken, else seconds until one is free."""
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


class RateLimiter:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._group: dict[int, deque[float]] = {}
        self._chat: dict[int, _Bucket] = {}
        self._global: _Bucket | None = None

    def check(self, chat_id: int, is_group: bool, now: float) -> int | None:
        """``None`` if the call may go (and it is counted), else the retry_after in whole seconds."""
        limits = self.limits
        waits: list[float] = []
        window: deque[float] | None = None
        if is_group and limits.group_per_minute is not None:
            window = self._group.setdefault(chat_id, deque())
            while window and now - window[0] >= 60.0:
                window.popleft()
            if len(window) >= limits.group_per_minute:
                waits.append(window[0] + 60.0 - now)
        bucket = None
        if limits.chat_per_second is not None:
            bucket = self._chat.get(chat_id)
            if bucket is None:
                capacity = float(max(1, limits.chat_burst))
                bucket = self._chat[chat_id] = _Bucket(limits.chat_per_second, capacity, capacity, now)
            peek = _Bucket(bucket.rate, bucket.capacity, bucket.tokens, bucket.at)
            if (wait := peek.take(now)) > 0:
                waits.append(wait)
        if limits.global_per_second is not None:
            if self._global is None:
                rate = limits.global_per_second
                self._global = _Bucket(rate, rate, rate, now)
            peek = _Bucket(self._global.rate, self._global.capacity, self._global.tokens, self._global.at)
            if (wait := peek.take(now)) > 0:
                waits.append(wait)
        if waits:
            return max(1, math.ceil(max(waits)))
        if window is not None:
            window.append(now)
        if bucket is not None:
            bucket.take(now)
        if self._global is not None:
            self._global.take(now)
        return None


@dataclass(frozen=True)
class Faults:
    """Random faults: each call (of ``methods``, default all but getUpdates) fails with these odds."""

    rate_429: float = 0.0
    rate_500: float = 0.0
    rate_hang: float = 0.0
    seed: int = 0
    retry_after: int = 1
    hang_seconds: float = 600.0  # a hang lasts until the client gives up (or this long)
    apply_before_hang: bool = False  # True: the call takes effect, only its answer is lost
    methods: frozenset[str] | None = None

    @property
    def active(self) -> bool:
        return self.rate_429 > 0 or self.rate_500 > 0 or self.rate_hang > 0


@dataclass
class Fault:
    kind: str  # "429", "500", "hang", "slow" (answered after ``delay``), or "error" (a scripted ApiError)
    retry_after: int = 1
    code: int = 0
    description: str = ""
    apply_before_hang: bool = False  # "slow": True takes effect at once (its answer is slow), False after the delay
    delay: float = 0.0


@dataclass
class ScriptedFault:
    """``fake.inject(...)``: the next ``times`` matching calls fail this way."""

    fault: Fault
    method: str | None
    chat_id: int | None
    times: int


@dataclass
class FaultInjector:
    faults: Faults
    scripted: list[ScriptedFault] = field(default_factory=list)
    _rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.faults.seed)

    def decide(self, method: str, chat_id: int | None) -> Fault | None:
        for item in self.scripted:
            if (item.method is None or item.method.lower() == method.lower()) and (
                item.chat_id is None or item.chat_id == chat_id
            ):
                item.times -= 1
                if item.times <= 0:
                    self.scripted.remove(item)
                return item.fault
        f = self.faults
        if not f.active:
            return None
        if (method not in f.methods) if f.methods is not None else method == "getUpdates":
            return None
        roll = self._rng.random()
        if roll < f.rate_429:
            return Fault("429", retry_after=f.retry_after)
        if roll < f.rate_429 + f.rate_500:
            return Fault("500")
        if roll < f.rate_429 + f.rate_500 + f.rate_hang:
            return Fault("hang", apply_before_hang=f.apply_before_hang)
        return None

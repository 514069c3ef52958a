"""Random faults for reliability runs: a share of Bot API calls fail the ways Telegram's do.

``ChaosFaults(rate=0.10, seed=1)`` makes about one call in ten fail, each failure one of:

* ``429``: ``{"ok":false,"error_code":429,"description":"Too Many Requests: retry after N",
  "parameters":{"retry_after":N}}`` (N = ``retry_after``, 1 s by default so runs stay short);
* ``500``: ``{"ok":false,"error_code":500,"description":"Internal Server Error"}``;
* ``hang``: no answer at all; the connection stays open until the client's timeout gives up
  (or ``hang_seconds``, then it is closed without an answer);
* ``drop``: the connection is closed at once without an answer (a reset proxy, a dead link).

For ``hang`` and ``drop`` the call may still have taken effect (``applied_share`` of them do,
seeded): Telegram can send a message and lose only its answer, so a bot that retries may
send twice.  ``getUpdates`` fails at its own, lower rate (``get_updates_rate``), never by
``hang`` (a long poll that never answers is only a slow poll) and, when it is dropped, never
after taking effect: updates are confirmed by the next call's offset, so they come again.

Install with :func:`install` (it keeps ``fake.inject`` one-off faults working); the injector
counts what it did in ``counts`` (kind -> calls), ``by_method`` and ``applied`` (method -> unanswered
calls that took effect).  The hook is where the fake
server already asks its injector about every call (``server.ApiServer._run``); ``drop`` is
carried out in ``server.ApiServer._hang``.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .limits import Fault, ScriptedFault

if TYPE_CHECKING:
    from .fake import FakeTelegram

KINDS = ("429", "500", "hang", "drop")


@dataclass(frozen=True)
class ChaosFaults:
    """What share of calls fail, and how (``mix`` weighs the kinds; it need not add up to 1)."""

    rate: float = 0.10
    mix: tuple[tuple[str, float], ...] = (("429", 0.4), ("500", 0.3), ("hang", 0.15), ("drop", 0.15))
    get_updates_rate: float = 0.02
    retry_after: int = 1
    hang_seconds: float = 30.0
    applied_share: float = 0.5
    seed: int = 1

    def __post_init__(self) -> None:
        unknown = [kind for kind, _ in self.mix if kind not in KINDS]
        if unknown or not 0 <= self.rate <= 1 or not 0 <= self.get_updates_rate <= 1:
            raise ValueError(f"bad faults: rate {self.rate}, getUpdates rate {self.get_updates_rate}, kinds {unknown}")


@dataclass
class ChaosInjector:
    """Decides, call by call, whether it fails (the fake's injector interface: ``decide``, ``scripted``)."""

    faults: ChaosFaults
    scripted: list[ScriptedFault] = field(default_factory=list)
    enabled: bool = True
    counts: Counter[str] = field(default_factory=Counter)
    by_method: Counter[tuple[str, str]] = field(default_factory=Counter)
    applied: Counter[str] = field(default_factory=Counter)  # method -> unanswered calls that took effect
    calls: int = 0  # calls decided while enabled (getUpdates among them)
    polls: int = 0  # getUpdates calls among them
    _rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.faults.seed)

    def decide(self, method: str, chat_id: int | None) -> Fault | None:
        for item in self.scripted:  # one-off faults first, exactly as the fake's own injector does
            if (item.method is None or item.method.lower() == method.lower()) and (
                item.chat_id is None or item.chat_id == chat_id
            ):
                item.times -= 1
                if item.times <= 0:
                    self.scripted.remove(item)
                return item.fault
        if not self.enabled:
            return None
        self.calls += 1
        f = self.faults
        polling = method == "getUpdates"
        self.polls += polling
        if self._rng.random() >= (f.get_updates_rate if polling else f.rate):
            return None
        mix = [(kind, weight) for kind, weight in f.mix if not (polling and kind == "hang")]
        if not mix:
            return None
        kind = self._rng.choices([k for k, _ in mix], [w for _, w in mix])[0]
        applied = kind in ("hang", "drop") and not polling and self._rng.random() < f.applied_share
        self.counts[kind] += 1
        self.by_method[(method, kind)] += 1
        self.applied[method] += applied
        return Fault(kind, retry_after=f.retry_after, apply_before_hang=applied)

    @property
    def injected(self) -> int:
        return sum(self.counts.values())


def install(fake: FakeTelegram, faults: ChaosFaults) -> ChaosInjector:
    """Put a :class:`ChaosInjector` in the fake's pipeline (one-off ``fake.inject`` faults still come first)."""
    injector = ChaosInjector(faults, fake.pipeline.injector.scripted)
    fake.pipeline.injector = injector  # type: ignore[assignment]
    fake.pipeline.hang_seconds = faults.hang_seconds
    return injector

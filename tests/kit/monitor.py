"""Reads the fake Telegram's transcript as it grows: update deliveries, the requests that answer them, call counts.

Everything comes from timestamps the fake already records (``fake_telegram/transcript.py``):

- a request's ``Entry.at`` is when the fake started handling it (seconds since the fake started);
- a ``getUpdates`` entry is recorded when the call returns, with ``at + duration`` the moment the
  updates in its ``response`` were handed to the bot;
- in webhook mode, a ``webhook`` entry's ``at`` is when the fake began to POST that update.

The request that answers an update: for a callback query, the bot's ``answerCallbackQuery`` with its
id (the bot answers every tap, and answers before it redraws anything); for a message, the first
request into the same chat that started after the delivery (the bench only writes into a chat
when the bot is quiet there, so nothing else can claim it).

Consumed entries are removed from ``recorder.entries`` so that a long run does not keep every
request (parameters, answers) in memory; the bench never uses the fake's ``wait_idle``.
"""

from __future__ import annotations

import asyncio
import bisect
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fake_telegram import CallbackQuery, FakeTelegram

TILE_PREFIX = "t:"  # bot/telegram/callbacks.py TileTap: tile taps and choices of an end


@dataclass
class Tap:
    delivered: float | None = None
    answered: float | None = None  # start of the first answerCallbackQuery with this id
    kind: str = "other tap"


@dataclass
class Latencies:
    kind: str
    values: list[float]  # seconds
    missing: int  # delivered, never answered


def percentile(ordered: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (``q`` in 0..100)."""
    if not ordered:
        return float("nan")
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


class Monitor:
    """Follows the transcript; wakes whoever watches a chat or a callback when a request touches it."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        self.recorder = fake.recorder
        self._queries: dict[int, CallbackQuery] = {}  # by update id, for updates posted to a webhook
        self.watch_chat: dict[int, Callable[[], None]] = {}
        self.watch_callback: dict[str, Callable[[], None]] = {}
        self.taps: dict[str, Tap] = {}
        self.messages: list[tuple[float, int]] = []  # (delivered, chat id)
        self.chat_requests: defaultdict[int, list[float]] = defaultdict(list)
        self.calls: Counter[str] = Counter()  # requests that started inside the window, by method
        self.errors: Counter[tuple[str, str]] = Counter()  # (method, description) of failed calls
        self.window: tuple[float, float] = (0.0, float("inf"))
        self.last_request = 0.0  # recorder time of the latest request other than getUpdates
        self.entries_seen = 0

    def now(self) -> float:
        return self.recorder.elapsed()

    async def follow(self, stop: asyncio.Event) -> None:
        """Drain after every change of the transcript until ``stop`` is set (whoever sets it also sets
        ``recorder.changed``, see :meth:`stop`); one waiter per change, no helper tasks."""
        changed = self.recorder.changed
        while not stop.is_set():
            changed.clear()
            self.drain()
            await changed.wait()
        self.drain()

    def stop(self, stop: asyncio.Event) -> None:
        stop.set()
        self.recorder.changed.set()

    def drain(self) -> None:
        entries = self.recorder.entries
        if not entries:
            return
        batch = entries[:]
        entries.clear()
        self.entries_seen += len(batch)
        wake: set[Callable[[], None]] = set()
        for entry in batch:
            if entry.kind == "webhook":  # webhook mode: an update POSTed to the bot
                self._posted(entry.params, entry.chat_id, entry.at)
                continue
            if entry.kind != "request":
                continue
            if entry.method == "getUpdates":
                self._count(entry.method, entry.at)
                if entry.ok and isinstance(entry.response, list):
                    self._delivered(entry.response, entry.at + entry.duration)
                continue
            self._count(entry.method, entry.at)
            self.last_request = max(self.last_request, entry.at)
            if not entry.ok:
                self.errors[(entry.method, entry.description or str(entry.status))] += 1
            if entry.method == "answerCallbackQuery":
                query_id = str(entry.params.get("callback_query_id", ""))
                tap = self.taps.setdefault(query_id, Tap())
                if tap.answered is None or entry.at < tap.answered:
                    tap.answered = entry.at
                if (callback := self.watch_callback.pop(query_id, None)) is not None:
                    wake.add(callback)
            if entry.chat_id is not None:
                self.chat_requests[entry.chat_id].append(entry.at)
                if (callback := self.watch_chat.get(entry.chat_id)) is not None:
                    wake.add(callback)
        for callback in wake:
            callback()

    def _count(self, method: str, at: float) -> None:
        start, end = self.window
        if start <= at <= end:
            self.calls[method] += 1

    def _posted(self, params: dict[str, Any], chat_id: int | None, at: float) -> None:
        """An update the fake began to POST to the webhook (any attempt: the first one that
        reaches the bot counts, as a repeated getUpdates would)."""
        kind = params.get("type")
        if kind == "callback_query":
            query = self._queries.get(int(params["update_id"]))
            if query is None:
                self._queries = {q.update_id: q for q in self.fake.callback_queries}
                query = self._queries.get(int(params["update_id"]))
            if query is not None:
                self._delivered([{"callback_query": {"id": query.id, "data": query.data}}], at)
        elif kind == "message" and chat_id is not None:
            self._delivered([{"message": {"chat": {"id": chat_id}}}], at)

    def _delivered(self, updates: list[dict[str, Any]], at: float) -> None:
        for update in updates:
            if (query := update.get("callback_query")) is not None:
                tap = self.taps.setdefault(str(query["id"]), Tap())
                tap.delivered = at if tap.delivered is None else min(tap.delivered, at)
                tap.kind = "tile tap" if str(query.get("data", "")).startswith(TILE_PREFIX) else "other tap"
            elif (message := update.get("message")) is not None:
                self.messages.append((at, int(message["chat"]["id"])))

    def latencies(self) -> list[Latencies]:
        """Delivery to the first answering request, per kind of update delivered inside the window."""
        start, end = self.window
        by_kind: dict[str, Latencies] = {k: Latencies(k, [], 0) for k in ("tile tap", "other tap", "message")}
        for tap in self.taps.values():
            if tap.delivered is None or not start <= tap.delivered <= end:
                continue
            row = by_kind[tap.kind]
            if tap.answered is None:
                row.missing += 1
            else:
                row.values.append(max(0.0, tap.answered - tap.delivered))
        for requests in self.chat_requests.values():
            requests.sort()
        for delivered, chat_id in self.messages:
            if not start <= delivered <= end:
                continue
            requests = self.chat_requests.get(chat_id, [])
            index = bisect.bisect_left(requests, delivered)
            row = by_kind["message"]
            if index == len(requests):
                row.missing += 1
            else:
                row.values.append(requests[index] - delivered)
        rows = list(by_kind.values())
        everything = Latencies("all updates", [v for r in rows for v in r.values], sum(r.missing for r in rows))
        for row in [*rows, everything]:
            row.values.sort()
        return [*rows, everything]

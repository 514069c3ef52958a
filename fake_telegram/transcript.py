"""What happened, for assertions and for humans: requests, answers, user actions, violations."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .media import Upload


@dataclass
class Violation:
    """A request that breaks a Telegram rule (rejected with Telegram's error, or accepted but recorded)."""

    seq: int
    method: str
    kind: str
    description: str
    detail: str = ""
    rejected: bool = True

    def __str__(self) -> str:
        verdict = "rejected" if self.rejected else "accepted by Telegram, still wrong"
        extra = f" ({self.detail})" if self.detail else ""
        return f"#{self.seq} {self.method}: {self.kind}: {self.description}{extra} [{verdict}]"


@dataclass
class Entry:
    """One line of the transcript: a bot request with its answer (``kind="request"``), a user action
    (``"user"``), or one attempt to POST an update to the webhook (``"webhook"``: ``params`` has the
    update_id, its type and the attempt number; ``status`` is the webhook's HTTP status, 0 when there
    was none; ``response`` the method run from its answer, or the error and the retry delay)."""

    seq: int
    at: float  # seconds since the fake started
    kind: str  # "request" or "user"
    method: str
    params: dict[str, Any] = field(default_factory=dict)
    chat_id: int | None = None
    status: int = 200
    response: Any = None  # the ``result`` on success, the error payload otherwise
    duration: float = 0.0
    fault: str | None = None
    note: str = ""

    @property
    def ok(self) -> bool:
        if self.kind == "webhook":
            return 200 <= self.status <= 299
        return self.status == 200

    @property
    def description(self) -> str:
        if isinstance(self.response, dict) and not self.ok:
            return str(self.response.get("description", ""))
        return ""


def printable(params: dict[str, Any]) -> dict[str, Any]:
    """Parameters with uploads replaced by a short description (transcripts hold no file bytes)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        out[key] = value.describe() if isinstance(value, Upload) else value
    return out


def _short(value: Any, width: int = 70) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("\n", "⏎")
    return text if len(text) <= width else text[: width - 1] + "…"


def _buttons(markup: Any) -> str:
    if isinstance(markup, str):
        try:
            markup = json.loads(markup)
        except ValueError:
            return _short(markup)
    if not isinstance(markup, dict) or "inline_keyboard" not in markup:
        return _short(markup)
    rows = []
    for row in markup.get("inline_keyboard") or []:
        cells = []
        for button in row if isinstance(row, list) else []:
            if not isinstance(button, dict):
                continue
            target = button.get("callback_data") or button.get("url") or "?"
            cells.append(f"{button.get('text', '')}→{target}")
        rows.append(" | ".join(cells))
    return "[" + " / ".join(rows) + "]"


def _render_delivery(head: str, entry: Entry) -> str:
    params = entry.params
    parts = [f"update {params.get('update_id')} {params.get('type')}"]
    if entry.chat_id is not None:
        parts.append(f"chat={entry.chat_id}")
    if params.get("attempt", 1) > 1:
        parts.append(f"attempt {params['attempt']}")
    response = entry.response if isinstance(entry.response, dict) else {}
    if entry.ok:
        outcome = f"{entry.status}" + (f" answer runs {response['reply']}" if response.get("reply") else "")
    else:
        outcome = f"{entry.status or 'no answer'}: {response.get('description', '')}"
        if "retry_in" in response:
            outcome += f" (again in {response['retry_in']} s)"
    return f"{head} => webhook {' '.join(parts)} -> {outcome} ({entry.duration * 1000:.0f} ms)"


def render(entry: Entry) -> str:
    head = f"[{entry.at:8.3f}] #{entry.seq:<4}"
    if entry.kind == "user":
        return f"{head} >> {entry.method} {entry.note}"
    if entry.kind == "webhook":
        return _render_delivery(head, entry)
    parts = [entry.method]
    params = entry.params
    if entry.chat_id is not None:
        parts.append(f"chat={entry.chat_id}")
    for key in ("message_id", "callback_query_id", "user_id", "offset", "timeout", "action"):
        if key in params:
            parts.append(f"{key}={params[key]}")
    for key in ("text", "caption", "url", "media", "photo", "document", "commands"):
        if key in params:
            parts.append(f"{key}={_short(params[key])}")
    if "reply_markup" in params:
        parts.append(f"markup={_buttons(params['reply_markup'])}")
    if entry.fault:
        parts.append(f"[fault: {entry.fault}]")
    if entry.note:
        parts.append(f"[{entry.note}]")
    if entry.ok:
        outcome = "ok"
        result = entry.response
        if isinstance(result, dict) and "message_id" in result:
            outcome += f" message_id={result['message_id']}"
        elif isinstance(result, list):
            outcome += f" ({len(result)} items)"
    else:
        outcome = f"{entry.status} {entry.description}"
    return f"{head} {' '.join(parts)} -> {outcome} ({entry.duration * 1000:.0f} ms)"


class Recorder:
    """The transcript, the violations, and a signal for anyone waiting on a change."""

    def __init__(self) -> None:
        self._time = time.monotonic
        self.started = self._time()
        self.entries: list[Entry] = []
        self.violations: list[Violation] = []
        self.flood_events: list[Entry] = []
        self.changed = asyncio.Event()
        self.listeners: list[Callable[[Entry], None]] = []  # told of every entry (the sandbox's page)
        self.last_poll = 0  # seq of the latest answered getUpdates (the bot is up once one came after its start)
        self._seq = 0

    def elapsed(self) -> float:
        return self._time() - self.started

    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def add(self, entry: Entry) -> Entry:
        self.entries.append(entry)
        if entry.status == 429 and entry.fault is None and entry.kind == "request":
            self.flood_events.append(entry)
        if entry.status == 200 and entry.method == "getUpdates" and entry.kind == "request":
            self.last_poll = max(self.last_poll, entry.seq)
        self.changed.set()
        for listener in self.listeners:
            listener(entry)
        return entry

    def user_action(self, action: str, note: str, chat_id: int | None = None) -> Entry:
        entry = Entry(self.next_seq(), self.elapsed(), "user", action, chat_id=chat_id, note=note)
        return self.add(entry)

    def violation(self, seq: int, method: str, kind: str, description: str, detail: str, *, rejected: bool) -> None:
        self.violations.append(Violation(seq, method, kind, description, detail, rejected))
        self.changed.set()

    def text(self, last: int | None = None) -> str:
        """Readable transcript; long polls that returned nothing are left out."""
        shown = [e for e in self.entries if not (e.method == "getUpdates" and e.ok and not e.response)]
        shown.sort(key=lambda e: e.at)  # entries are recorded when answered; show them as they began
        if last is not None:
            shown = shown[-last:]
        return "\n".join(render(entry) for entry in shown)

"""HTTP: ``{base}/bot{token}/{method}`` and ``{base}/file/bot{token}/{path}``, as aiogram calls them.

aiogram (``AiohttpSession``) POSTs every call as form data: ``application/x-www-form-urlencoded``
when there is no file, ``multipart/form-data`` with ``attach://<key>`` references when there is;
nested objects travel as JSON text.  JSON bodies and query strings are accepted too, as the real
server does.  Method names match case-insensitively.  Each call goes: token (401 "Unauthorized")
-> method (404 "Not Found") -> parameters (400, violations) -> injected fault -> flood limits
(429) -> the handler; every call lands in the transcript.

The HTTP layer is :mod:`.httpserver`.  A call is answered synchronously, without a task, unless
it has to wait: ``getUpdates`` (long polling) and injected hangs return a coroutine instead,
which the HTTP layer runs as a task and cancels if the client disconnects.

While a webhook is set, :class:`~.webhook.WebhookSender` POSTs the updates instead, and a
method named in a webhook's answer comes through the same pipeline (:meth:`ApiServer.execute`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
import traceback
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import fake_telegram.bot_methods as bot_methods
import fake_telegram.errors as errors
import fake_telegram.messaging as messaging
import fake_telegram.webhook as webhook

from .body import decode
from .context import Call, Settings
from .errors import ApiError, retry_after
from .httpserver import HttpServer, Request, Response
from .limits import Fault, FaultInjector, RateLimiter, counts_against_limits
from .media import Upload
from .spec import ApiSpec, MethodSpec
from .state import World
from .transcript import Entry, Recorder, printable
from .updates import UpdateQueue
from .validation import Validator
from .webhook import WebhookSender

MAX_UPLOAD = 50 * 1024 * 1024 + 64 * 1024  # the Bot API's 50 MB upload limit, plus form overhead
_API_PATH = re.compile(r"/bot([^/]*)/([^/]+)/?")
_FILE_PATH = re.compile(r"/file/bot([^/]*)/(.+)")
HANDLERS: dict[str, Callable[[Call], Any]] = {**bot_methods.HANDLERS, **messaging.HANDLERS, **webhook.HANDLERS}

# Compact and UTF-8, as Telegram answers; answers are trees built per call, so no cycle check.
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode


def _json(body: dict[str, Any], status: int) -> Response:
    return Response(status, _dumps(body).encode())


class Waiting:
    """A call's result that is not there yet: the coroutine that will produce it (or raise)."""

    def __init__(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        self.coroutine = coroutine


@dataclass
class Pipeline:
    """Everything a call needs; shared with :class:`~.fake.FakeTelegram`."""

    token: str
    spec: ApiSpec
    world: World
    queue: UpdateQueue
    validator: Validator
    settings: Settings
    limiter: RateLimiter
    injector: FaultInjector
    recorder: Recorder
    hang_seconds: float = 600.0


class ApiServer:
    def __init__(self, pipeline: Pipeline) -> None:
        self.p = pipeline
        self.http = HttpServer(self.handle, max_body=MAX_UPLOAD)
        self._stopping = False
        self.base_url = ""
        self.http_host = ""
        self.http_port = 0
        self.webhook = WebhookSender(pipeline.world, pipeline.queue, pipeline.recorder, pipeline.settings, self.execute)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        self.http_host, self.http_port = await self.http.start(host, port)
        self.base_url = f"http://{self.http_host}:{self.http_port}"
        return self.base_url

    async def stop(self) -> None:
        self._stopping = True
        self.p.queue.stopping = True
        self.p.queue.wake()  # long polls answer at once; hangs see _stopping
        await self.webhook.stop()
        await self.http.stop(grace=1.0)

    # ------------------------------------------------------------------ routing
    def handle(self, request: Request) -> Response | Coroutine[Any, Any, Response]:
        if match := _FILE_PATH.fullmatch(request.path):
            return self._file(match.group(1), match.group(2))
        match = _API_PATH.fullmatch(request.path)
        if match is None:
            return _json({"ok": False, "error_code": 404, "description": errors.NOT_FOUND}, 404)
        token, name = match.groups()
        if token != self.p.token:
            return _json({"ok": False, "error_code": 401, "description": errors.UNAUTHORIZED}, 401)
        return self._api(request, name)

    def _file(self, token: str, path: str) -> Response:
        if token != self.p.token:
            return _json({"ok": False, "error_code": 401, "description": errors.UNAUTHORIZED}, 401)
        stored = self.p.world.files.by_path(path)
        if stored is None:
            return _json({"ok": False, "error_code": 404, "description": errors.NOT_FOUND}, 404)
        return Response(200, stored.data, "application/octet-stream")

    def execute(self, request: Request, name: str, origin: str) -> Response | Coroutine[Any, Any, Response]:
        """A call that did not come over HTTP (a method in a webhook's answer): the same pipeline,
        and ``origin`` in its transcript entry."""
        return self._api(request, name, origin)

    def _api(self, request: Request, name: str, origin: str = "") -> Response | Coroutine[Any, Any, Response]:
        p = self.p
        started = time.monotonic()
        spec = p.spec.method(name)
        entry = Entry(p.recorder.next_seq(), p.recorder.elapsed(), "request", spec.name if spec else name)
        entry.note = origin
        try:
            raw, files = decode(request)
            entry.params = printable({**raw, **files}) if files else raw  # until coerced (raw is not changed)
            if spec is None:
                raise ApiError(404, errors.NOT_FOUND)
            result = self._run(request, spec, raw, files, entry)
        except Exception as exc:
            return self._failed(entry, started, exc)
        if isinstance(result, Waiting):
            return self._wait(result, entry, started)
        return self._answer(entry, started, 200, {"ok": True, "result": result})

    async def _wait(self, waiting: Waiting, entry: Entry, started: float) -> Response:
        try:
            result = await waiting.coroutine
        except asyncio.CancelledError:
            entry.status, entry.response = 0, {"description": "the client closed the connection"}
            entry.duration = time.monotonic() - started
            self.p.recorder.add(entry)
            raise
        except Exception as exc:
            return self._failed(entry, started, exc)
        return self._answer(entry, started, 200, {"ok": True, "result": result})

    def _failed(self, entry: Entry, started: float, exc: Exception) -> Response:
        p = self.p
        if isinstance(exc, ApiError):
            if exc.violation:
                p.recorder.violation(entry.seq, entry.method, exc.violation, exc.description, exc.detail, rejected=True)
            return self._answer(entry, started, exc.code, exc.payload())
        # a bug in the fake: answer like a failing Telegram, and make it visible
        detail = "".join(traceback.format_exception(exc))
        p.recorder.violation(entry.seq, entry.method, "fake_bug", f"{type(exc).__name__}: {exc}", detail, rejected=True)
        return self._answer(entry, started, 500, ApiError(500, errors.INTERNAL).payload())

    def _answer(self, entry: Entry, started: float, status: int, body: dict[str, Any]) -> Response:
        entry.status = status
        entry.response = body.get("result") if status == 200 else body
        entry.duration = time.monotonic() - started
        self.p.recorder.add(entry)
        return _json(body, status)

    def _run(
        self, request: Request, spec: MethodSpec, raw: dict[str, Any], files: dict[str, Upload], entry: Entry
    ) -> Any:
        p = self.p
        params = p.validator.coerce(spec, raw, files)
        entry.params = printable(params)
        chat = p.world.chat_by_ref(params["chat_id"]) if "chat_id" in params else None
        entry.chat_id = chat.id if chat else (params["chat_id"] if isinstance(params.get("chat_id"), int) else None)
        fault = p.injector.decide(spec.name, entry.chat_id)
        if fault is not None:
            entry.fault = fault.kind
            if fault.kind == "429":
                raise retry_after(fault.retry_after)
            if fault.kind == "500":
                raise ApiError(500, errors.INTERNAL)
            if fault.kind == "error":
                raise ApiError(fault.code, fault.description)
            if fault.kind == "slow":
                return Waiting(self._slow(fault, spec, params, files, entry))
            return Waiting(self._hang(request, fault, spec, params, files, entry))
        if chat is not None and counts_against_limits(spec.name):
            wait = p.limiter.check(chat.id, chat.is_group, time.monotonic())
            if wait is not None:
                raise retry_after(wait)
        return self._call(spec, params, files, entry)

    async def _hang(
        self,
        request: Request,
        fault: Fault,
        spec: MethodSpec,
        params: dict[str, Any],
        files: dict[str, Upload],
        entry: Entry,
    ) -> Any:
        """The call takes effect (``apply_before_hang``) or not, and its answer never comes ("drop":
        the connection is closed at once)."""
        if fault.apply_before_hang:
            with contextlib.suppress(ApiError):
                result = self._call(spec, params, files, entry)
                if isinstance(result, Waiting):
                    await result.coroutine
        if fault.kind == "drop" and request.transport is not None:  # fake_telegram/faults.py
            request.transport.close()  # closed without an answer; the HTTP layer then cancels this call
        deadline = time.monotonic() + self.p.hang_seconds
        while time.monotonic() < deadline and not self._stopping:
            transport = request.transport
            if transport is None or transport.is_closing():
                break
            await asyncio.sleep(0.05)
        raise ApiError(500, errors.INTERNAL)

    async def _slow(
        self, fault: Fault, spec: MethodSpec, params: dict[str, Any], files: dict[str, Upload], entry: Entry
    ) -> Any:
        """The call is answered ``fault.delay`` seconds late, having taken effect at once
        (``apply_before_hang``) or only when answered (it was slow to arrive)."""
        if fault.apply_before_hang:
            result = self._call(spec, params, files, entry)
            await asyncio.sleep(fault.delay)
        else:
            await asyncio.sleep(fault.delay)
            result = self._call(spec, params, files, entry)
        return (await result.coroutine) if isinstance(result, Waiting) else result

    def _call(self, spec: MethodSpec, params: dict[str, Any], files: dict[str, Upload], entry: Entry) -> Any:
        p = self.p
        if spec.name == "getUpdates":
            return Waiting(self._get_updates(params))
        handler = HANDLERS.get(spec.name)
        if handler is None:
            return self._generic(spec)
        notes: list[tuple[str, str]] = []
        call = Call(
            spec.name,
            params,
            files,
            p.world,
            p.validator,
            p.settings,
            lambda k, d: notes.append((k, d)),
            time.monotonic(),
            p.queue,
        )
        try:
            result = handler(call)
        finally:
            for kind, detail in notes:
                p.recorder.violation(
                    entry.seq, spec.name, kind, "accepted by Telegram but breaks a rule", detail, rejected=False
                )
            if spec.name in ("setWebhook", "deleteWebhook"):
                self.webhook.sync()  # even a refused setWebhook may have closed the old webhook
        return result

    def _generic(self, spec: MethodSpec) -> Any:
        if {"Boolean", "True"} & set(spec.returns):
            return True
        raise ApiError(
            400, f"Bad Request: {spec.name} is not emulated by the fake Bot API", violation="fake_unsupported"
        )

    async def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        p = self.p
        if p.world.webhook_url:
            raise ApiError(409, errors.WEBHOOK_CONFLICT)
        updates = await p.queue.get(
            int(params.get("offset", 0)),
            int(params.get("limit", 100)),
            int(params.get("timeout", 0)),
            params.get("allowed_updates"),
        )
        now = time.monotonic()
        for update in updates:
            if update.callback_id is not None:
                query = p.world.callbacks[update.callback_id]
                query.delivered_at = query.delivered_at or now
                query.deliveries += 1
        return [update.json() for update in updates]

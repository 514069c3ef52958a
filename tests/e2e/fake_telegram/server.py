"""HTTP: ``{base}/bot{token}/{method}`` and ``{base}/file/bot{token}/{path}``, as aiogram calls them.

aiogram (``AiohttpSession``) POSTs every call as form data: ``application/x-www-form-urlencoded``
when there is no file, ``multipart/form-data`` with ``attach://<key>`` references when there is;
nested objects travel as JSON text.  JSON bodies and query strings are accepted too, as the real
server does.  Method names match case-insensitively.  Each call goes: token (401 "Unauthorized")
-> method (404 "Not Found") -> parameters (400, violations) -> injected fault -> flood limits
(429) -> the handler; every call lands in the transcript.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import bot_methods, errors, messaging
from .context import Call, Settings
from .errors import ApiError, retry_after
from .limits import FaultInjector, RateLimiter, counts_against_limits
from .media import Upload
from .spec import ApiSpec, MethodSpec
from .state import World
from .transcript import Entry, Recorder, printable
from .updates import UpdateQueue
from .validation import Validator

MAX_UPLOAD = 50 * 1024 * 1024 + 64 * 1024  # the Bot API's 50 MB upload limit, plus form overhead
_API_PATH = re.compile(r"/bot([^/]*)/([^/]+)/?")
_FILE_PATH = re.compile(r"/file/bot([^/]*)/(.+)")
HANDLERS: dict[str, Callable[[Call], Any]] = {**bot_methods.HANDLERS, **messaging.HANDLERS}


def _json(body: dict[str, Any], status: int) -> web.Response:
    return web.json_response(body, status=status, dumps=lambda v: json.dumps(v, ensure_ascii=False))


async def decode(request: web.Request) -> tuple[dict[str, Any], dict[str, Upload]]:
    """Parameters and uploaded files of a request, whatever its encoding."""
    raw: dict[str, Any] = dict(request.query)
    files: dict[str, Upload] = {}
    if not request.can_read_body:
        return raw, files
    if request.content_type == "application/json":
        body = await request.read()
        if body.strip():
            try:
                data = json.loads(body)
            except ValueError as exc:
                raise ApiError(400, "Bad Request: can't parse JSON request body") from exc
            if not isinstance(data, dict):
                raise ApiError(400, "Bad Request: JSON object expected as request body")
            raw.update(data)
        return raw, files
    form = await request.post()
    for key, value in form.items():
        if isinstance(value, web.FileField):
            files[key] = Upload(key, value.filename or key, value.content_type or "", value.file.read())
        else:
            raw[key] = str(value)
    return raw, files


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
        self.app = web.Application(client_max_size=MAX_UPLOAD)
        self.app.router.add_route("*", "/{tail:.*}", self._dispatch)
        self._runner: web.AppRunner | None = None
        self._stopping = False
        self.base_url = ""

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        self._runner = web.AppRunner(self.app, handler_cancellation=True, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound_host, bound_port = self._runner.addresses[0][:2]
        self.base_url = f"http://{bound_host}:{bound_port}"
        return self.base_url

    async def stop(self) -> None:
        self._stopping = True
        self.p.queue.stopping = True
        self.p.queue.wake()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ routing
    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        if match := _FILE_PATH.fullmatch(request.path):
            return self._file(match.group(1), match.group(2))
        match = _API_PATH.fullmatch(request.path)
        if match is None:
            return _json({"ok": False, "error_code": 404, "description": errors.NOT_FOUND}, 404)
        token, name = match.groups()
        if token != self.p.token:
            return _json({"ok": False, "error_code": 401, "description": errors.UNAUTHORIZED}, 401)
        return await self._api(request, name)

    def _file(self, token: str, path: str) -> web.StreamResponse:
        if token != self.p.token:
            return _json({"ok": False, "error_code": 401, "description": errors.UNAUTHORIZED}, 401)
        stored = self.p.world.files.by_path(path)
        if stored is None:
            return _json({"ok": False, "error_code": 404, "description": errors.NOT_FOUND}, 404)
        return web.Response(body=stored.data, content_type="application/octet-stream")

    async def _api(self, request: web.Request, name: str) -> web.StreamResponse:
        p = self.p
        started = time.monotonic()
        spec = p.spec.method(name)
        entry = Entry(p.recorder.next_seq(), p.recorder.elapsed(), "request", spec.name if spec else name)
        status, body = 200, {}
        try:
            try:
                raw, files = await decode(request)
            except web.HTTPRequestEntityTooLarge as exc:
                raise ApiError(413, "Request Entity Too Large") from exc
            entry.params = printable({**raw, **files})
            if spec is None:
                raise ApiError(404, errors.NOT_FOUND)
            result = await self._run(request, spec, raw, files, entry)
            body = {"ok": True, "result": result}
        except ApiError as exc:
            status, body = exc.code, exc.payload()
            if exc.violation:
                p.recorder.violation(entry.seq, entry.method, exc.violation, exc.description, exc.detail, rejected=True)
        except asyncio.CancelledError:
            entry.status, entry.response = 0, {"description": "the client closed the connection"}
            entry.duration = time.monotonic() - started
            p.recorder.add(entry)
            raise
        except Exception as exc:  # a bug in the fake: answer like a failing Telegram, and make it visible
            status, body = 500, ApiError(500, errors.INTERNAL).payload()
            detail = "".join(traceback.format_exception(exc))
            p.recorder.violation(
                entry.seq, entry.method, "fake_bug", f"{type(exc).__name__}: {exc}", detail, rejected=True
            )
        entry.status = status
        entry.response = body.get("result") if status == 200 else body
        entry.duration = time.monotonic() - started
        p.recorder.add(entry)
        return _json(body, status)

    async def _run(
        self, request: web.Request, spec: MethodSpec, raw: dict[str, Any], files: dict[str, Upload], entry: Entry
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
            if fault.apply_before_hang:
                with contextlib.suppress(ApiError):
                    await self._call(spec, params, files, entry)
            await self._hang(request)
            raise ApiError(500, errors.INTERNAL)
        if chat is not None and counts_against_limits(spec.name):
            wait = p.limiter.check(chat.id, chat.is_group, time.monotonic())
            if wait is not None:
                raise retry_after(wait)
        return await self._call(spec, params, files, entry)

    async def _hang(self, request: web.Request) -> None:
        deadline = time.monotonic() + self.p.hang_seconds
        while time.monotonic() < deadline and not self._stopping:
            transport = request.transport
            if transport is None or transport.is_closing():
                return
            await asyncio.sleep(0.05)

    async def _call(self, spec: MethodSpec, params: dict[str, Any], files: dict[str, Upload], entry: Entry) -> Any:
        p = self.p
        if spec.name == "getUpdates":
            return await self._get_updates(params)
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
        )
        try:
            result = handler(call)
        finally:
            for kind, detail in notes:
                p.recorder.violation(
                    entry.seq, spec.name, kind, "accepted by Telegram but breaks a rule", detail, rejected=False
                )
        if spec.name in ("deleteWebhook", "setWebhook") and params.get("drop_pending_updates"):
            p.queue.pending.clear()
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
        return [update.json() for update in updates]

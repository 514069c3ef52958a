"""The fake's HTTP layer on aiohttp's low-level server: a request in, one answer out.

The rest of the fake sees only :class:`Request` (method, decoded path, query string, headers
with lower-case names, the whole body) and answers a :class:`Response`, or a coroutine that will
produce one when the call has to wait (a long poll, an injected hang).  aiohttp speaks HTTP/1.0
and 1.1 as clients send it to the Bot API: keep-alive and ``Connection: close``,
``Content-Length`` and chunked bodies, pipelined requests (answered in order), malformed ones
(answered ``400 Bad Request``).  On top of it, this module adds what Telegram's front does:

* ``Expect: 100-continue`` is answered before the body is read (aiohttp's low-level server
  leaves that to the application);
* a body over ``max_body`` is not read: the handler sees ``too_large`` and an empty body, and
  the connection is closed after the answer;
* a handler still waiting when its client goes away is cancelled (``handler_cancellation``),
  so a cut long poll ends at once.

aiohttp's own web ``Application`` (routing, middlewares, signals) is not used: the fake routes
by itself, and the low-level server costs less per call on a machine the fake shares with the
bot it measures.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl

from aiohttp import web


@dataclass
class Request:
    method: str
    path: str  # percent-decoded, without the query string
    query_string: str
    headers: dict[str, str]  # lower-case names; a repeated header's values joined with ", "
    body: bytes = b""
    too_large: bool = False  # the body was over the limit and was not read
    transport: asyncio.BaseTransport | None = None

    @property
    def query(self) -> dict[str, str]:
        """The query string's parameters (the first of repeated ones, as ``dict(aiohttp_request.query)``)."""
        found: dict[str, str] = {}
        for key, value in parse_qsl(self.query_string, keep_blank_values=True):
            found.setdefault(key, value)
        return found


@dataclass
class Response:
    status: int
    body: bytes
    content_type: str = "application/json"


Handler = Callable[[Request], "Response | Awaitable[Response]"]


class HttpServer:
    """Serves ``handler`` on a TCP port; ``stop`` lets waiting handlers finish for ``grace`` seconds."""

    def __init__(self, handler: Handler, *, max_body: int, name: str = "fake-telegram") -> None:
        self.handler = handler
        self.max_body = max_body
        self.name = name
        self._runner: web.ServerRunner | None = None

    async def start(self, host: str, port: int) -> tuple[str, int]:
        # lingering_time=0: an unread (too large) body is not drained before the connection closes
        server = web.Server(self._serve, handler_cancellation=True, access_log=None, lingering_time=0)
        self._runner = web.ServerRunner(server, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound = self._runner.addresses[0]
        return str(bound[0]), int(bound[1])

    async def stop(self, grace: float = 1.0) -> None:
        runner, self._runner = self._runner, None
        if runner is None:
            return
        runner._shutdown_timeout = grace  # aiohttp reads it from the runner; its constructor warns when given one
        await runner.cleanup()

    async def _serve(self, incoming: web.BaseRequest) -> web.StreamResponse:
        request = Request(
            incoming.method,
            incoming.path,
            incoming.query_string,
            _headers(incoming),
            transport=incoming.transport,
        )
        if request.headers.get("expect", "").lower() == "100-continue":
            await incoming.writer.write(b"HTTP/%d.%d 100 Continue\r\n\r\n" % incoming.version)
        await self._read_body(incoming, request)
        answer = self.handler(request)
        response = await answer if inspect.isawaitable(answer) else answer
        assert isinstance(response, Response)
        shown = web.Response(
            status=response.status,
            body=response.body,
            headers={"Server": self.name, "Content-Type": response.content_type},
        )
        if request.too_large:
            shown.force_close()  # the unread body is still coming: this connection is done
        elif incoming.keep_alive:
            shown.headers["Connection"] = "keep-alive"  # as Telegram's nginx says it (aiohttp says nothing)
        return shown

    async def _read_body(self, incoming: web.BaseRequest, request: Request) -> None:
        length = incoming.content_length
        if length is not None and length > self.max_body:
            request.too_large = True
            return
        if length is not None:
            request.body = await incoming.content.readexactly(length) if length else b""
            return
        chunks: list[bytes] = []
        received = 0
        async for chunk in incoming.content.iter_any():
            received += len(chunk)
            if received > self.max_body:
                request.too_large = True
                return
            chunks.append(chunk)
        request.body = b"".join(chunks)


def _headers(incoming: web.BaseRequest) -> dict[str, str]:
    headers: dict[str, str] = {}
    for name, value in incoming.headers.items():
        name = name.lower()
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return headers

"""A small HTTP/1.1 server on :class:`asyncio.Protocol`: what the fake Bot API needs, at a fraction of aiohttp's cost.

aiohttp's web server spent more CPU per call than the fake itself (a task, a stream and a
request object per call, headers in multidicts, a response object prepared in several steps),
and the fake shares the machine with the bot it measures.  This server parses a request in
one pass over the bytes received, calls the handler directly, and writes the answer in one
piece; only a handler that has to wait (a long poll, an injected hang) gets a task, which is
cancelled if the client goes away (as aiohttp's ``handler_cancellation=True`` did).

It speaks what HTTP clients send to the Bot API: HTTP/1.0 and 1.1, keep-alive and
``Connection: close``, ``Content-Length`` and ``Transfer-Encoding: chunked`` bodies,
``Expect: 100-continue``, pipelined requests (answered in order).  A request it cannot parse
is answered ``400 Bad Request`` and the connection closed; a body over ``max_body`` reaches the
handler as ``too_large`` (with no body) and the connection is closed after the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from email.utils import formatdate
from http import HTTPStatus
from urllib.parse import parse_qsl, unquote

MAX_HEAD = 64 * 1024  # request line and headers together
_REQUEST_LINE = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([^\s]+) HTTP/1\.([01])")
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,16})[ \t]*(?:;[^\r\n]*)?")
_REASONS = {status.value: status.phrase for status in HTTPStatus}


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


class HttpError(Exception):
    """A request that is not valid HTTP: answered with a plain-text error, then the connection is closed."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class _Date:
    """The Date header, formatted once a second."""

    second = -1
    text = b""

    @classmethod
    def now(cls) -> bytes:
        second = int(time.time())
        if second != cls.second:
            cls.second, cls.text = second, formatdate(second, usegmt=True).encode()
        return cls.text


def response_bytes(response: Response, *, keep_alive: bool, server: bytes) -> bytes:
    status = response.status
    head = (
        b"HTTP/1.1 %d %s\r\nServer: %s\r\nDate: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: %s\r\n\r\n"
        % (
            status,
            _REASONS.get(status, "Unknown").encode(),
            server,
            _Date.now(),
            response.content_type.encode(),
            len(response.body),
            b"keep-alive" if keep_alive else b"close",
        )
    )
    return head + response.body


@dataclass
class _Head:
    """A request whose headers are parsed and whose body is still arriving."""

    request: Request
    keep_alive: bool
    length: int | None  # Content-Length; None for a chunked body
    chunks: list[bytes] = field(default_factory=list)
    received: int = 0


class HttpProtocol(asyncio.Protocol):
    def __init__(self, server: HttpServer) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.head: _Head | None = None
        self.task: asyncio.Task[None] | None = None  # the request being answered, if its handler waits
        self.closing = False

    # ------------------------------------------------------------------ asyncio callbacks
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.server.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closing = True
        self.server.connections.discard(self)
        if self.task is not None:
            self.task.cancel()  # the client is gone: so is the handler waiting for it
        self.buffer.clear()

    def data_received(self, data: bytes) -> None:
        if self.closing:
            return
        self.buffer += data
        if self.task is None:
            self._process()

    # ------------------------------------------------------------------ requests
    def _process(self) -> None:
        """Answer every complete request in the buffer, in order, until one has to wait."""
        while self.task is None and not self.closing:
            try:
                head = self._next()
            except HttpError as error:
                self._fail(error)
                return
            if head is None:
                return
            request = head.request
            request.transport = self.transport
            answer = self.server.handler(request)
            if isinstance(answer, Response):
                self._send(answer, head.keep_alive and not request.too_large)
            else:
                self.task = asyncio.ensure_future(self._wait(answer, head.keep_alive and not request.too_large))

    async def _wait(self, answer: Awaitable[Response], keep_alive: bool) -> None:
        try:
            response = await answer
        except Exception as exc:  # the handler should answer every error itself; never leave the client hanging
            response = Response(500, f"500 Internal Server Error: {exc!r}".encode(), "text/plain; charset=utf-8")
        finally:
            self.task = None
        self._send(response, keep_alive)
        if not self.closing:
            self._process()

    def _send(self, response: Response, keep_alive: bool) -> None:
        transport = self.transport
        if transport is None or self.closing:
            return
        transport.write(response_bytes(response, keep_alive=keep_alive, server=self.server.name))
        if not keep_alive:
            self.closing = True
            transport.close()

    def _fail(self, error: HttpError) -> None:
        body = f"{error.status} {_REASONS.get(error.status, 'Error')}: {error}".encode()
        self._send(Response(error.status, body, "text/plain; charset=utf-8"), keep_alive=False)

    def _next(self) -> _Head | None:
        """The next complete request (headers and body) taken off the buffer, or None if it has not all arrived."""
        head = self.head
        if head is None:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buffer) > MAX_HEAD:
                    raise HttpError(431, "request headers too large")
                return None
            if end > MAX_HEAD:
                raise HttpError(431, "request headers too large")
            head = self.head = self._parse_head(bytes(self.buffer[:end]))
            del self.buffer[: end + 4]
            if head.request.headers.get("expect", "").lower() == "100-continue" and self.transport is not None:
                self.transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            if head.length is not None and head.length > self.server.max_body:
                head.request.too_large = True  # not read: the connection is closed after the answer
                self.head = None
                self.buffer.clear()
                return head
        if head.length is not None:
            if len(self.buffer) < head.length:
                return None
            head.request.body = bytes(self.buffer[: head.length])
            del self.buffer[: head.length]
        elif not self._read_chunks(head):
            return None
        self.head = None
        return head

    def _read_chunks(self, head: _Head) -> bool:
        """Move complete chunks from the buffer into ``head``; True once the last chunk (and trailers) came."""
        buffer = self.buffer
        while True:
            line_end = buffer.find(b"\r\n")
            if line_end < 0:
                if len(buffer) > 4096:
                    raise HttpError(400, "bad chunk size line")
                return False
            match = _CHUNK_SIZE.fullmatch(buffer, 0, line_end)
            if match is None:
                raise HttpError(400, "bad chunk size line")
            size = int(match.group(1), 16)
            if size == 0:
                trailers_end = buffer.find(b"\r\n\r\n", line_end)
                if buffer.startswith(b"\r\n", line_end + 2):
                    trailers_end = line_end
                elif trailers_end < 0:
                    return False
                del buffer[: trailers_end + 4]
                head.request.body = b"".join(head.chunks)
                return True
            start = line_end + 2
            if len(buffer) < start + size + 2:
                return False
            if buffer[start + size : start + size + 2] != b"\r\n":
                raise HttpError(400, "chunk not followed by CRLF")
            head.received += size
            if head.received > self.server.max_body:
                head.request.too_large = True
                head.request.body = b""
                buffer.clear()
                return True
            head.chunks.append(bytes(buffer[start : start + size]))
            del buffer[: start + size + 2]

    def _parse_head(self, raw: bytes) -> _Head:
        line_end = raw.find(b"\r\n")
        request_line = raw if line_end < 0 else raw[:line_end]
        match = _REQUEST_LINE.fullmatch(request_line)
        if match is None:
            raise HttpError(400, "bad request line")
        method, target, minor = match.group(1).decode(), match.group(2).decode("latin-1"), match.group(3)
        headers: dict[str, str] = {}
        if line_end >= 0:
            for line in raw[line_end + 2 :].decode("latin-1").split("\r\n"):
                name, colon, value = line.partition(":")
                # the usual names are letters, digits and "-": checked without the regular expression
                if not colon or not ((name.replace("-", "").isalnum() and name.isascii()) or _TOKEN.fullmatch(name)):
                    raise HttpError(400, f"bad header line {line[:100]!r}")
                name, value = name.lower(), value.strip(" \t")
                headers[name] = f"{headers[name]}, {value}" if name in headers else value
        connection = headers.get("connection", "").lower()
        keep_alive = "keep-alive" in connection if minor == b"0" else "close" not in connection
        length: int | None = 0
        if "transfer-encoding" in headers:
            if "content-length" in headers:
                raise HttpError(400, "both Content-Length and Transfer-Encoding")
            if headers["transfer-encoding"].lower().rsplit(",", 1)[-1].strip() != "chunked":
                raise HttpError(501, "unsupported Transfer-Encoding")
            length = None
        elif "content-length" in headers:
            values = {v.strip() for v in headers["content-length"].split(",")}
            if len(values) != 1 or not next(iter(values)).isdigit():
                raise HttpError(400, "bad Content-Length")
            length = int(values.pop())
        path, _, query = target.partition("?")
        path = path.partition("#")[0]
        return _Head(Request(method, unquote(path), query, headers), keep_alive, length)


class HttpServer:
    """Serves ``handler`` on a TCP port; ``stop`` lets waiting handlers finish for ``grace`` seconds."""

    def __init__(self, handler: Handler, *, max_body: int, name: str = "fake-telegram") -> None:
        self.handler = handler
        self.max_body = max_body
        self.name = name.encode()
        self.connections: set[HttpProtocol] = set()
        self._server: asyncio.Server | None = None

    async def start(self, host: str, port: int) -> tuple[str, int]:
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(lambda: HttpProtocol(self), host, port)
        bound = self._server.sockets[0].getsockname()
        return str(bound[0]), int(bound[1])

    async def stop(self, grace: float = 1.0) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        waiting = [c.task for c in self.connections if c.task is not None]
        if waiting:
            await asyncio.wait(waiting, timeout=grace)
        for connection in list(self.connections):
            if connection.task is not None:
                connection.task.cancel()
            if connection.transport is not None:
                connection.transport.close()
        remaining = [c.task for c in self.connections if c.task is not None]
        for task in remaining:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await server.wait_closed()

"""A round-robin HTTP reverse proxy, for tests and the bench: what nginx does in front of several bot instances.

In webhook mode Telegram (here the fake) POSTs every update to one public URL; behind it a
proxy spreads them over the bot instances.  :class:`Balancer` is that proxy, small and
observable::

    balancer = Balancer(["http://127.0.0.1:8081", "http://127.0.0.1:8082"])
    url = await balancer.start()  # http://127.0.0.1:<free port>; give f"{url}/webhook" to setWebhook
    ...
    assert balancer.counts == {"http://127.0.0.1:8081": 5, "http://127.0.0.1:8082": 5}
    print(balancer.served_by(update_id))  # which instance answered that update
    await balancer.stop()

* Each request (method, path, query string, headers, the secret-token header among them, body)
  goes to the next upstream in turn; its status, headers and body come back unchanged.
* An upstream that refuses the connection, drops it or times out is passed over for the next
  one, as nginx's ``proxy_next_upstream error timeout`` does; only when every upstream failed
  does the balancer answer ``502 Bad Gateway``.  nginx does not pass a POST on once it has been
  sent (``non_idempotent`` is off by default); ``Balancer(retry_after_send=False)`` does the
  same, while the default also retries those, as ``proxy_next_upstream error timeout
  non_idempotent`` would.  A status the upstream answered, 5xx included, is passed back as is.
* ``fail_timeout`` (off by default) passes over an upstream that just failed for that many
  seconds, as nginx's ``max_fails=1 fail_timeout=...`` does.
* ``counts`` (answers per upstream), ``failures`` (failed attempts per upstream) and ``log``
  (one :class:`Forwarded` per request: the update_id read from a JSON body, who answered, who was
  tried) tell a test where updates went; ``set_upstreams``/``add``/``remove`` change the pool
  while it runs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from types import TracebackType

import aiohttp
from aiohttp import web
from multidict import CIMultiDict

# Hop-by-hop headers (RFC 9110 7.6.1) and those the client or server library sets itself.
_NOT_FORWARDED = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
    }
)
# nginx does not pass these on once sent (proxy_next_upstream without non_idempotent).
NON_IDEMPOTENT = frozenset({"POST", "LOCK", "PATCH"})
BAD_GATEWAY_PAGE = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>balancer</center>\r\n</body>\r\n</html>\r\n"
)
MAX_BODY = 50 * 1024 * 1024


@dataclass
class Forwarded:
    """One request through the balancer."""

    at: float  # seconds since the balancer started
    method: str
    path: str  # with its query string
    update_id: int | None  # from a JSON body, when it has one
    upstream: str | None = None  # the upstream whose answer was passed back; None: none answered (502)
    status: int = 0
    tried: list[str] = field(default_factory=list)  # in the order they were tried
    errors: list[str] = field(default_factory=list)  # "<upstream>: <error>" for each that failed
    duration: float = 0.0


def _update_id(body: bytes) -> int | None:
    if not body.startswith(b"{"):
        return None
    try:
        data = json.loads(body)
    except ValueError:
        return None
    value = data.get("update_id") if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class Balancer:
    """Round-robin reverse proxy over ``upstreams`` (base URLs such as ``http://127.0.0.1:8081``)."""

    def __init__(
        self,
        upstreams: Iterable[str],
        *,
        connect_timeout: float = 5.0,
        read_timeout: float = 60.0,
        retry_after_send: bool = True,
        fail_timeout: float = 0.0,
    ) -> None:
        self.upstreams: list[str] = []
        self.counts: dict[str, int] = {}
        self.failures: dict[str, int] = {}
        self.log: list[Forwarded] = []
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.retry_after_send = retry_after_send
        self.fail_timeout = fail_timeout
        self.url = ""
        self._next = 0
        self._down_until: dict[str, float] = {}
        self._started = time.monotonic()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self.set_upstreams(upstreams)

    # ------------------------------------------------------------------ lifecycle
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Listen on ``host:port`` (0: a free port); returns the base URL, e.g. ``http://127.0.0.1:41234``."""
        self._session = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=None, connect=self.connect_timeout, sock_read=self.read_timeout),
            auto_decompress=False,  # bodies pass through as they are, Content-Encoding with them
            skip_auto_headers=("User-Agent", "Accept", "Accept-Encoding", "Content-Type"),
            connector=aiohttp.TCPConnector(limit=0),
        )
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        # Stopping waits at most a second for requests under way (aiohttp's default is a minute).
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound_host, bound_port = self._runner.addresses[0][:2]
        self.url = f"http://{bound_host}:{bound_port}"
        self._started = time.monotonic()
        return self.url

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def __aenter__(self) -> Balancer:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    # ------------------------------------------------------------------ the pool
    def set_upstreams(self, upstreams: Iterable[str]) -> None:
        """Replace the pool (counts of upstreams that stay are kept)."""
        self.upstreams = [upstream.rstrip("/") for upstream in upstreams]
        for upstream in self.upstreams:
            self.counts.setdefault(upstream, 0)
            self.failures.setdefault(upstream, 0)

    def add(self, upstream: str) -> None:
        if upstream.rstrip("/") not in self.upstreams:
            self.set_upstreams([*self.upstreams, upstream])

    def remove(self, upstream: str) -> None:
        self.set_upstreams([u for u in self.upstreams if u != upstream.rstrip("/")])

    def clear(self) -> None:
        """Forget counts, failures and the log (between phases of a test)."""
        self.counts = dict.fromkeys(self.upstreams, 0)
        self.failures = dict.fromkeys(self.upstreams, 0)
        self.log.clear()

    def served_by(self, update_id: int) -> list[str]:
        """The upstreams whose answers to requests carrying ``update_id`` were passed back, in order."""
        return [f.upstream for f in self.log if f.update_id == update_id and f.upstream is not None]

    def _order(self) -> list[str]:
        """This request's upstreams: round robin from the next in turn; those resting after a failure last."""
        pool = list(self.upstreams)
        if not pool:
            return []
        start = self._next % len(pool)
        self._next = start + 1
        turn = pool[start:] + pool[:start]
        now = time.monotonic()
        resting = [u for u in turn if self._down_until.get(u, 0.0) > now]
        return [u for u in turn if u not in resting] + resting

    # ------------------------------------------------------------------ forwarding
    async def _handle(self, request: web.Request) -> web.StreamResponse:
        session = self._session
        assert session is not None
        started = time.monotonic()
        body = await request.read()
        record = Forwarded(started - self._started, request.method, request.path_qs, _update_id(body))
        self.log.append(record)
        headers = CIMultiDict((k, v) for k, v in request.headers.items() if k.lower() not in _NOT_FORWARDED)
        for upstream in self._order():
            record.tried.append(upstream)
            try:
                async with session.request(
                    request.method, upstream + request.path_qs, headers=headers, data=body, allow_redirects=False
                ) as answer:
                    data = await answer.read()
            except (aiohttp.ClientConnectorError, aiohttp.ConnectionTimeoutError) as exc:
                self._failed(record, upstream, exc)  # never reached the upstream: the next one may take it
                continue
            except (aiohttp.ClientError, TimeoutError) as exc:
                self._failed(record, upstream, exc)
                if self.retry_after_send or request.method not in NON_IDEMPOTENT:
                    continue
                break
            self.counts[upstream] = self.counts.get(upstream, 0) + 1
            record.upstream, record.status = upstream, answer.status
            record.duration = time.monotonic() - started
            back = CIMultiDict((k, v) for k, v in answer.headers.items() if k.lower() not in _NOT_FORWARDED)
            return web.Response(status=answer.status, reason=answer.reason, headers=back, body=data)
        record.status, record.duration = 502, time.monotonic() - started
        return web.Response(status=502, text=BAD_GATEWAY_PAGE, content_type="text/html")

    def _failed(self, record: Forwarded, upstream: str, exc: BaseException) -> None:
        self.failures[upstream] = self.failures.get(upstream, 0) + 1
        record.errors.append(f"{upstream}: {type(exc).__name__}: {exc}")
        if self.fail_timeout > 0:
            self._down_until[upstream] = time.monotonic() + self.fail_timeout

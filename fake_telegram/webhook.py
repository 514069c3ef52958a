"""Webhook mode, the way a local Bot API server (``telegram-bot-api --local``) does it.

* ``setWebhook``, ``deleteWebhook`` and ``getWebhookInfo`` (:data:`HANDLERS`), with the Bot API
  server's checks, order and texts (``Client.cpp``: ``process_set_webhook_query``,
  ``do_set_webhook``, ``finish_set_webhook``, ``JsonWebhookInfo``; td's ``parse_url``;
  ``WebhookActor::start_up``).  As a *local* server it accepts ``http://`` URLs on any port and
  loopback addresses; ``Settings.webhook_local_mode = False`` brings back api.telegram.org's
  "HTTPS on ports 443, 80, 88 or 8443, not a reserved address".
* :class:`WebhookSender`: while a webhook is set, pending updates are POSTed to it as JSON, with
  the secret token header, at most ``max_connections`` at a time, each delivery queue in order
  and one update at a time (:func:`queue_key`).  A 2xx answer confirms the update; a method in
  the answer (``{"method": "sendMessage", ...}``, JSON or a form, as aiogram's webhook reply
  sends it) is then run as if the bot had called it.  A refused or dropped connection, a
  timeout or any other status leaves the update pending, sets ``last_error_date`` /
  ``last_error_message`` and tries again after ``Settings.webhook_retry_delay``.  Every attempt
  is a transcript entry of kind ``"webhook"``.
* The POSTs go out through aiohttp's client (:class:`WebhookClient`), keep-alive connections to
  the address the webhook resolved to (setWebhook's ``ip_address`` or the host's), as the Bot API
  server connects: the URL's host in ``Host`` and in TLS's server name.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import errno
import ipaddress
import json
import os
import re
import socket
import ssl
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

import aiohttp
from yarl import URL

import fake_telegram.errors as errors

from .body import decode
from .context import Call, Settings
from .errors import ApiError, bad_request, retry_after
from .httpserver import Request, Response
from .media import Upload
from .state import Webhook, World
from .transcript import Entry, Recorder
from .updates import DEFAULT_EXCLUDED, PendingUpdate, UpdateQueue

# Update types in the Bot API server's order (Client::UpdateType), which getWebhookInfo lists them in.
UPDATE_TYPES = (
    "message",
    "edited_message",
    "channel_post",
    "edited_channel_post",
    "inline_query",
    "chosen_inline_result",
    "callback_query",
    "shipping_query",
    "pre_checkout_query",
    "poll",
    "poll_answer",
    "my_chat_member",
    "chat_member",
    "chat_join_request",
    "chat_boost",
    "removed_chat_boost",
    "message_reaction",
    "message_reaction_count",
    "business_connection",
    "business_message",
    "edited_business_message",
    "deleted_business_messages",
    "purchased_paid_media",
    "managed_bot",
    "guest_message",
)
DEFAULT_ALLOWED = frozenset(UPDATE_TYPES) - DEFAULT_EXCLUDED
MAX_CONNECTIONS = 100  # api.telegram.org's upper bound (a --local server allows 100000)
DEFAULT_MAX_CONNECTIONS = 40
SECRET_TOKEN_MAX = 256
MAX_CERTIFICATE = 3 << 20  # Client::MAX_CERTIFICATE_FILE_SIZE
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_PORTS = frozenset({443, 80, 88, 8443})
_SECRET = re.compile(r"[A-Za-z0-9_-]*")  # td::is_base64url_characters
# Methods the Bot API server does not run when a webhook answer names them (WebhookActor::handle).
NOT_RUN_FROM_ANSWERS = frozenset({"deletewebhook", "setwebhook", "close", "logout"})
MESSAGE_KINDS = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_message",
        "edited_business_message",
    }
)
QUEUE_MODES = ("telegram", "chat")

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode


# --------------------------------------------------------------------------- URLs


@dataclass(frozen=True)
class WebhookUrl:
    """A webhook URL as td's ``parse_url`` reads it (``[https?://][userinfo@]host[:port][/path?query]``)."""

    scheme: str  # "http" or "https"
    userinfo: str
    host: str  # lower-cased; an IPv6 address keeps its brackets
    is_ipv6: bool
    specified_port: int  # 0 when the URL names none
    port: int
    target: str  # the request target: path and query, always starting with "/"

    @property
    def host_header(self) -> str:
        """``Host``: the port only when it is not the scheme's default (td's ``get_host_header``)."""
        default = 80 if self.scheme == "http" else 443
        return self.host if self.port == default else f"{self.host}:{self.port}"

    @property
    def connect_host(self) -> str:
        return self.host[1:-1] if self.is_ipv6 else self.host


def _is_integer(text: str) -> bool:
    """``td::to_integer_safe<int>``: the text is exactly an int's decimal form."""
    return bool(re.fullmatch(r"-?\d{1,10}", text)) and str(int(text)) == text


def parse_url(url: str, default_scheme: str = "https") -> WebhookUrl:
    """td's ``parse_url``, raising ``ValueError`` with td's reason where it refuses the URL.

    >>> parse_url("http://127.0.0.1:8081/webhook?x=1")
    WebhookUrl(scheme='http', userinfo='', host='127.0.0.1', is_ipv6=False, specified_port=8081, port=8081, \
target='/webhook?x=1')
    >>> parse_url("example.com").scheme, parse_url("example.com").port
    ('https', 443)
    >>> parse_url("ftp://example.com")
    Traceback (most recent call last):
    ...
    ValueError: Unsupported URL protocol
    """
    stop = re.search(r"[:/?#@\[\]]", url)
    scheme_end = stop.start() if stop else len(url)
    if url.startswith("://", scheme_end):
        scheme = url[:scheme_end].lower()
        if scheme not in ("http", "https"):
            raise ValueError("Unsupported URL protocol")
        rest = url[scheme_end + 3 :]
    else:
        scheme, rest = default_scheme, url
    authority_end = re.search(r"[/?#]", rest)
    split = authority_end.start() if authority_end else len(rest)
    authority, tail = rest[:split], rest[split:]

    port = 0
    colon = len(authority) - 1
    while colon > 0 and authority[colon] not in ":]@":
        colon -= 1
    if colon > 0 and authority[colon] == ":":
        port_text = authority[colon + 1 :]
        while len(port_text) > 1 and port_text[0] == "0":
            port_text = port_text[1:]
        port = int(port_text) if _is_integer(port_text) and int(port_text) != 0 else -1
        userinfo_host = authority[:colon]
    else:
        userinfo_host = authority
    if port < 0 or port > 65535:
        raise ValueError("Wrong port number specified in the URL")

    at = userinfo_host.rfind("@")
    userinfo, host = (userinfo_host[:at], userinfo_host[at + 1 :]) if at >= 0 else ("", userinfo_host)
    is_ipv6 = False
    if host.startswith("[") and host.endswith("]") and len(host) > 1:
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise ValueError("Wrong IPv6 address specified in the URL") from None
        is_ipv6 = True
    if not host:
        raise ValueError("URL host is empty")
    if host == ".":
        raise ValueError("Host is invalid")
    specified_port = port
    if port == 0:
        port = 80 if scheme == "http" else 443

    target = tail.rstrip(" \t\r\n\v\f")
    if not target:
        target = "/"
    if not target.startswith("/"):
        target = "/" + target
    target = "".join(f"%{ord(c):02X}" if ord(c) <= 0x20 else c for c in target)

    host = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in host)  # ASCII only, as td's to_lower
    _check_host(host, is_ipv6)
    return WebhookUrl(scheme, userinfo, host, is_ipv6, specified_port, port, target)


def _check_host(host: str, is_ipv6: bool) -> None:
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789.-_!$,~*'();&+=")
    hexdigits = set("0123456789abcdef")
    index = 0
    while index < len(host):
        char = host[index]
        if is_ipv6:
            if index in (0, len(host) - 1) or char in ":." or char in hexdigits:
                index += 1
                continue
            raise ValueError("Wrong IPv6 URL host")
        if char in allowed or ord(char) >= 128:  # RFC 3986 symbols, and plain UTF-8
            index += 1
            continue
        if char == "%":
            if host[index + 1 : index + 2] in hexdigits and host[index + 2 : index + 3] in hexdigits:
                index += 3
                continue
            raise ValueError("Wrong percent-encoded symbol in URL host")
        raise ValueError("Wrong URL host")


def _literal_ip(host: str) -> str:
    """The address a host names without a DNS lookup ("" when it takes one)."""
    bare = host[1:-1] if host.startswith("[") else host
    if bare == "localhost":
        return "127.0.0.1"
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        return ""


def _address_problem(address: str, *, local: bool) -> str:
    """``WebhookActor::check_ip_address``: "" when Telegram would connect to ``address``."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return "Invalid IP address specified"
    if local:
        return ""
    if ip.version == 6:
        return "IPv6-only addresses are not allowed"
    if not ip.is_global or ip.is_multicast:
        return f"IP address {ip} is reserved"
    return ""


def _start_up_problem(target: WebhookUrl, fixed_ip: str, *, local: bool) -> str:
    """Why ``WebhookActor::start_up`` (or the address check after resolving) closes the new webhook."""
    if not local:
        if target.scheme == "https" and target.port not in WEBHOOK_PORTS:
            return errors.WEBHOOK_PORTS
        if target.scheme == "http":
            return errors.WEBHOOK_HTTPS_REQUIRED
    address = fixed_ip or _literal_ip(target.host)
    return _address_problem(address, local=local) if address else ""


# --------------------------------------------------------------------------- the methods


def allowed_updates_list(allowed: list[str] | None) -> list[str] | None:
    """``allowed_updates`` as getWebhookInfo shows it: known types in the server's order; None for the default."""
    chosen = {kind.lower() for kind in allowed or () if isinstance(kind, str)} & set(UPDATE_TYPES)
    if not chosen or chosen == DEFAULT_ALLOWED:
        return None
    return [kind for kind in UPDATE_TYPES if kind in chosen]


def _set_allowed_updates(call: Call, queue: UpdateQueue) -> None:
    """``Client::update_allowed_update_types``: unknown names are ignored; none known means the default."""
    if "allowed_updates" not in call.params:
        return  # "If not specified, the previous setting will be used"
    queue.allowed = allowed_updates_list(call.params["allowed_updates"]) or []


def _max_connections(call: Call) -> int:
    requested = call.params.get("max_connections")
    wanted = DEFAULT_MAX_CONNECTIONS if requested is None else int(requested)
    value = min(max(wanted, 1), MAX_CONNECTIONS)  # Client::get_webhook_max_connections clamps, it never refuses
    if value != wanted:
        detail = f"max_connections={wanted} is not 1-{MAX_CONNECTIONS}: Telegram uses {value}"
        call.note("webhook_max_connections", detail)
    return value


def _set(call: Call, url: str) -> bool:
    """setWebhook (``url`` not empty) and deleteWebhook (``url`` empty), step by step as the server does them."""
    params, settings, hook = call.params, call.settings, call.world.webhook
    queue = call.queue
    assert queue is not None, "the server passes the update queue to webhook methods"
    if url and settings.webhook_set_interval > 0:
        if call.now < hook.next_set_at:
            raise retry_after(1)  # one setWebhook with a URL a second, even an unchanged one
        hook.next_set_at = call.now + settings.webhook_set_interval
    certificate = params.get("certificate") if url else None
    has_certificate = isinstance(certificate, Upload)
    max_connections = _max_connections(call) if url else 0
    fixed_ip = str(params.get("ip_address") or "") if url else ""
    secret = str(params.get("secret_token") or "") if url else ""
    drop = bool(params.get("drop_pending_updates"))
    unchanged = (
        hook.url == url
        and not hook.has_custom_certificate
        and not has_certificate
        and max_connections == hook.max_connections
        and bool(fixed_ip) == hook.fixed_ip
        and secret == hook.secret_token
        and (not fixed_ip or fixed_ip == hook.ip_address)
        and not drop
    )
    if unchanged:  # "Webhook is already set" / "Webhook is already deleted"
        _set_allowed_updates(call, queue)
        return True
    if url:
        queue.abort_poll(errors.TERMINATED_BY_SET_WEBHOOK)
    # The old webhook is closed before the new one is checked: a refused setWebhook leaves none.
    hook.close()
    if drop:
        queue.drop_pending()
    if not url:
        return True
    try:
        target = parse_url(url)
    except ValueError as exc:
        raise bad_request(errors.WEBHOOK_URL_INVALID, violation="webhook_url", detail=f"{url!r}: {exc}") from exc
    if len(secret.encode()) > SECRET_TOKEN_MAX:
        raise bad_request(errors.SECRET_TOKEN_TOO_LONG, violation="webhook_secret", detail=f"{len(secret)} characters")
    if not _SECRET.fullmatch(secret):
        raise bad_request(errors.SECRET_TOKEN_CHARACTERS, violation="webhook_secret", detail=repr(secret))
    if isinstance(certificate, Upload) and len(certificate.data) > MAX_CERTIFICATE:
        size = len(certificate.data)
        raise bad_request(f"certificate size is too big ({size} bytes)", violation="webhook_certificate")
    _set_allowed_updates(call, queue)  # finish_set_webhook does this before the webhook starts up
    problem = _start_up_problem(target, fixed_ip, local=settings.webhook_local_mode)
    if problem:
        raise bad_request(errors.BAD_WEBHOOK + problem, violation="webhook_url", detail=url)
    hook.url, hook.target, hook.secret_token, hook.max_connections = url, target, secret, max_connections
    hook.fixed_ip, hook.ip_address = bool(fixed_ip), fixed_ip or _literal_ip(target.host)
    hook.has_custom_certificate = has_certificate
    return True


def set_webhook(call: Call) -> bool:
    return _set(call, str(call.params.get("url") or ""))


def delete_webhook(call: Call) -> bool:
    return _set(call, "")


def webhook_info(hook: Webhook, queue: UpdateQueue) -> dict[str, Any]:
    """A WebhookInfo, with the fields the Bot API server includes and in its order."""
    info: dict[str, Any] = {
        "url": hook.url,
        "has_custom_certificate": hook.has_custom_certificate,
        "pending_update_count": queue.pending_count(),
    }
    if hook.last_error_date:
        info["last_error_date"] = hook.last_error_date
        info["last_error_message"] = hook.last_error_message
    if hook.max_connections:
        info["max_connections"] = hook.max_connections
    if hook.url:
        info["ip_address"] = hook.ip_address or "<unknown>"
    allowed = allowed_updates_list(queue.allowed)
    if allowed is not None:
        info["allowed_updates"] = allowed
    return info


def get_webhook_info(call: Call) -> dict[str, Any]:
    assert call.queue is not None
    return webhook_info(call.world.webhook, call.queue)


HANDLERS: dict[str, Callable[[Call], Any]] = {
    "setWebhook": set_webhook,
    "deleteWebhook": delete_webhook,
    "getWebhookInfo": get_webhook_info,
}


def queue_key(update: PendingUpdate, mode: str = "telegram") -> tuple[str, int]:
    """The delivery queue an update waits in: each is delivered in order, one update at a time.

    ``"telegram"``, the Bot API server's queues (``webhook_queue_id`` in ``Client.cpp``): messages
    and their edits by chat, callback queries by the user who tapped, ``my_chat_member`` by chat
    and ``chat_member`` by member, each kind apart; so taps of two people in one group go in
    parallel, and so may a tap and a message.  ``"chat"``: everything about a chat in one queue.
    """
    kind = update.kind
    if mode == "chat" and update.chat_id is not None:
        return ("chat", update.chat_id)
    if kind in MESSAGE_KINDS and update.chat_id is not None:
        return ("chat", update.chat_id)
    if kind == "callback_query" and update.user_id is not None:
        return ("callback", update.user_id)
    if kind == "my_chat_member" and update.chat_id is not None:
        return ("my_chat_member", update.chat_id)
    if kind == "chat_member" and update.user_id is not None:
        return ("chat_member", update.user_id)
    return ("update", update.update_id)


# --------------------------------------------------------------------------- the HTTP client (aiohttp's)


class HttpAnswer(NamedTuple):
    status: int
    reason: str
    headers: Mapping[str, str]  # case-insensitive names
    body: bytes  # gzip or deflate undone


class AnswerError(Exception):
    """The webhook's answer was not HTTP, or the connection ended before it was complete."""


class WebhookClient:
    """Keep-alive connections to one webhook, as the Bot API server keeps up to max_connections of them.

    One client per webhook: a new webhook gets a new one, so no connection to an old URL is reused.
    """

    def __init__(self) -> None:
        self._session: aiohttp.ClientSession | None = None

    async def post(self, url: URL, headers: dict[str, str], body: bytes, *, server_hostname: str | None) -> HttpAnswer:
        """POST ``body``; a failure is an :class:`OSError` (no connection) or an :class:`AnswerError`."""
        if self._session is None:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=0),  # the sender keeps at most max_connections POSTs under way
                timeout=aiohttp.ClientTimeout(),  # none here: the sender's webhook_timeout covers the whole POST
                skip_auto_headers=("User-Agent", "Accept"),
            )
        try:
            async with self._session.post(
                url, data=body, headers=headers, server_hostname=server_hostname, allow_redirects=False
            ) as response:
                return HttpAnswer(response.status, response.reason or "", response.headers, await response.read())
        except aiohttp.ClientConnectorCertificateError as exc:
            raise exc.certificate_error from exc
        except aiohttp.ClientConnectorError as exc:
            raise exc.os_error from exc
        except aiohttp.ClientOSError:
            raise  # an OSError already ("Connection reset by peer")
        except (aiohttp.ServerDisconnectedError, aiohttp.ClientPayloadError) as exc:
            raise AnswerError(errors.WEBHOOK_CLOSED) from exc  # no answer, or a body cut short
        except aiohttp.ClientResponseError as exc:  # not HTTP: a bad status line, headers too large, ...
            raise AnswerError(errors.WEBHOOK_WRONG_RESPONSE + exc.message) from exc
        except aiohttp.ClientError as exc:
            raise AnswerError(errors.WEBHOOK_WRONG_RESPONSE + (str(exc) or type(exc).__name__)) from exc

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()


def connection_error_text(exc: OSError) -> str:
    """An OS error as last_error_message shows it ("Connection refused", "Connection reset by peer", ...)."""
    if isinstance(exc, socket.gaierror):
        return f"Failed to resolve host: {exc.strerror or exc}"
    if isinstance(exc, ssl.SSLError):
        return f"SSL error {{{exc.reason or exc}}}"
    if exc.errno:
        return os.strerror(exc.errno)
    text = str(exc)  # "Multiple exceptions: [Errno 111] Connect call failed ..." (one per address tried)
    if f"[Errno {errno.ECONNREFUSED}]" in text:
        return os.strerror(errno.ECONNREFUSED)
    return text or type(exc).__name__


def _retry_after_header(answer: HttpAnswer | None) -> float:
    """A numeric ``Retry-After`` on a failed answer, which the Bot API server honours (at most an hour)."""
    value = answer.headers.get("retry-after", "") if answer is not None else ""
    return float(min(int(value), 3600)) if value.isdigit() else 0.0


# --------------------------------------------------------------------------- delivery

Execute = Callable[[Request, str, str], "Response | Coroutine[Any, Any, Response]"]


class WebhookSender:
    """Delivers pending updates to the webhook while one is set (see the module's docstring).

    ``execute(request, method, origin)`` runs a method found in a webhook answer through the
    server's pipeline (validation, faults, limits, transcript), as if the bot had called it.
    """

    def __init__(
        self, world: World, queue: UpdateQueue, recorder: Recorder, settings: Settings, execute: Execute
    ) -> None:
        self.world = world
        self.queue = queue
        self.recorder = recorder
        self.settings = settings
        self.execute = execute
        self.client = WebhookClient()
        self.in_flight: dict[int, tuple[asyncio.Task[None], PendingUpdate]] = {}  # by update_id
        self.tasks: set[asyncio.Task[Any]] = set()  # deliveries, and methods from answers that had to wait
        self._closing: set[asyncio.Task[None]] = set()  # clients of webhooks given up, closing their connections
        self._generation = world.webhook.generation
        self._scheduled = False
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self._stopped = False
        queue.listeners.append(self.kick)

    # ------------------------------------------------------------------ control
    def sync(self) -> None:
        """After setWebhook/deleteWebhook: a closed or new webhook abandons the old one's deliveries."""
        if self.world.webhook.generation != self._generation:
            self._generation = self.world.webhook.generation
            self._abandon()
        self.kick()

    def kick(self) -> None:
        """Look for updates to send, soon (several kicks in one loop iteration make one look)."""
        if self._scheduled or self._stopped or not self.world.webhook.url:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # an update made outside the event loop (a doctest): the next kick sends it
            return
        self._scheduled = True
        loop.call_soon(self._dispatch)

    async def stop(self) -> None:
        self._stopped = True
        self._abandon()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(self.client.close(), *self._closing)
        with contextlib.suppress(ValueError):
            self.queue.listeners.remove(self.kick)

    def _abandon(self) -> None:
        """Stop every delivery under way; their updates stay pending (they may come again)."""
        for task, update in self.in_flight.values():
            update.sending = False
            task.cancel()
        self.in_flight.clear()
        closing = asyncio.ensure_future(self.client.close())
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)
        self.client = WebhookClient()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _dispatch(self) -> None:
        self._scheduled = False
        hook = self.world.webhook
        if self._stopped or not hook.url or hook.target is None:
            return
        if hook.generation != self._generation:
            self.sync()
            return
        free = hook.max_connections - len(self.in_flight)
        if free <= 0:
            return
        ready, wake = self.queue.deliverable(
            time.monotonic(), free, partial(queue_key, mode=self.settings.webhook_queues)
        )
        for update in ready:
            update.sending = True
            update.attempts += 1
            task = asyncio.ensure_future(self._deliver(update, hook, self._generation))
            self.in_flight[update.update_id] = (task, update)
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        if wake is not None:
            self._wake_at(wake)

    def _wake_at(self, when: float) -> None:
        if self._timer is not None and self._timer_at <= when:
            return
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._timer_at = when
        self._timer = loop.call_later(max(0.0, when - time.monotonic()), self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self.kick()

    # ------------------------------------------------------------------ one delivery
    @staticmethod
    def _headers(hook: Webhook, target: WebhookUrl) -> dict[str, str]:
        """The POST's headers as the Bot API server writes them (WebhookActor::send_update)."""
        headers = {"Host": target.host_header}
        if target.userinfo:
            headers["Authorization"] = f"Basic {base64.b64encode(target.userinfo.encode()).decode()}"
        if hook.secret_token:
            headers[SECRET_HEADER] = hook.secret_token
        headers.update({"Content-Type": "application/json", "Connection": "keep-alive"})
        headers["Accept-Encoding"] = "gzip, deflate"
        return headers

    @staticmethod
    async def _address(hook: Webhook, target: WebhookUrl) -> str:
        """Where to connect: setWebhook's ip_address, the host's literal address, or the host resolved now."""
        if hook.ip_address:
            return hook.ip_address
        loop = asyncio.get_running_loop()
        found = await loop.getaddrinfo(target.connect_host, target.port, type=socket.SOCK_STREAM)
        return str(found[0][4][0])

    async def _post(self, hook: Webhook, update: PendingUpdate) -> tuple[HttpAnswer, str]:
        """POST the update; the answer and the address it came from."""
        target = hook.target
        assert isinstance(target, WebhookUrl)
        address = await self._address(hook, target)
        host = f"[{address}]" if ":" in address else address
        url = URL(f"{target.scheme}://{host}:{target.port}{target.target}", encoded=True)
        body = _dumps(update.json()).encode()
        tls_name = target.connect_host if target.scheme == "https" else None
        return await self.client.post(url, self._headers(hook, target), body, server_hostname=tls_name), address

    async def _deliver(self, update: PendingUpdate, hook: Webhook, generation: int) -> None:
        recorder = self.recorder
        entry = Entry(
            recorder.next_seq(),
            recorder.elapsed(),
            "webhook",
            "webhook",
            params={"update_id": update.update_id, "type": update.kind, "attempt": update.attempts},
            chat_id=update.chat_id,
        )
        started = time.monotonic()
        if update.callback_id is not None:
            query = self.world.callbacks.get(update.callback_id)
            if query is not None:
                query.delivered_at = query.delivered_at or started  # as getUpdates handing it out
                query.deliveries += 1
        answer: HttpAnswer | None = None
        peer, error = "", ""
        try:
            async with asyncio.timeout(self.settings.webhook_timeout):
                answer, peer = await self._post(hook, update)
        except asyncio.CancelledError:
            entry.status, entry.duration = 0, time.monotonic() - started
            entry.response = {"description": "abandoned: the webhook was deleted or changed, or the fake stopped"}
            recorder.add(entry)
            raise
        except TimeoutError:
            error = errors.WEBHOOK_TIMEOUT
        except AnswerError as exc:
            error = str(exc)
        except OSError as exc:
            error = connection_error_text(exc)
        entry.duration = time.monotonic() - started
        if generation != self._generation:  # abandoned just as it finished: the update stays pending
            entry.status, entry.response = 0, {"description": "abandoned: the webhook was deleted or changed"}
            recorder.add(entry)
            return
        if self.in_flight.get(update.update_id, (None, None))[1] is update:
            del self.in_flight[update.update_id]
        update.sending = False
        if peer and not hook.fixed_ip:
            hook.ip_address = peer
        if answer is not None and 200 <= answer.status <= 299:
            entry.status = answer.status
            reply = self._reply(answer, update, entry)
            entry.response = {"reply": reply} if reply else None
            self.queue.delivered(update)
        else:
            if answer is not None:
                error = f"{errors.WEBHOOK_WRONG_RESPONSE}{answer.status} {answer.reason}".rstrip()
            delay = max(self.settings.webhook_retry_delay, _retry_after_header(answer))
            update.retry_at = time.monotonic() + delay
            hook.last_error_date, hook.last_error_message = self.world.now(), error
            entry.status = answer.status if answer is not None else 0
            entry.response = {"description": error, "retry_in": round(delay, 3)}
        recorder.add(entry)
        self.kick()

    def _reply(self, answer: HttpAnswer, update: PendingUpdate, entry: Entry) -> str:
        """Run the method a 2xx answer names, if any; returns its name for the transcript."""
        if answer.body in (b"", b"{}"):  # nothing to run: aiogram's answer when a handler returns no method
            return ""
        content_type = answer.headers.get("content-type")
        request = Request("POST", "", "", {"content-type": content_type} if content_type else {}, answer.body)
        try:
            raw, _ = decode(request)
        except ApiError:
            return ""  # not a form nor a JSON object: nothing to run, as for Telegram
        method = raw.get("method")
        if not isinstance(method, str) or not method:
            return ""
        lowered = method.lower()
        if lowered in NOT_RUN_FROM_ANSWERS or lowered.startswith("get"):
            self.recorder.violation(
                entry.seq,
                method,
                "webhook_reply",
                "accepted by Telegram but not run",
                f"{method} in the answer to update {update.update_id}: Telegram runs no setWebhook, "
                "deleteWebhook, close, logOut or get* method given in a webhook answer",
                rejected=False,
            )
            return f"{method} (not run)"
        result = self.execute(request, method, f"webhook answer to update {update.update_id}")
        if not isinstance(result, Response):  # a method that waits (an injected hang): its answer goes nowhere
            task = asyncio.ensure_future(result)
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return method

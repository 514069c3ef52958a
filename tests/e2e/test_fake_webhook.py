"""Tests of the fake Bot API's webhook mode, of the balancer and of the launcher's webhook helpers, without the bot.

A small aiohttp app (:class:`Endpoint`) stands in for a bot instance's webhook: it records what
it is sent and answers as a test tells it.  One test runs aiogram's own ``SimpleRequestHandler``
(``handle_in_background=False``, as the bot will) to show that its answers, a webhook reply
included, work with the fake.  ``setWebhook``'s checks and texts are the Bot API server's
(``tdlib/telegram-bot-api``, ``Client.cpp`` and ``WebhookActor.cpp``).
"""

from __future__ import annotations

import asyncio
import gzip
import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiogram import Bot, Dispatcher
from aiogram import types as tg_types
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest, TelegramConflictError, TelegramRetryAfter
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from fake_telegram import FakeTelegram
from fake_telegram import errors as tg
from fake_telegram.spec import answer_problems
from fake_telegram.updates import PendingUpdate
from fake_telegram.webhook import parse_url, queue_key
from tests.kit.balancer import Balancer
from tests.kit.launcher import DEFAULT_WEBHOOK_SECRET, BotLauncher, free_port, webhook_env

pytestmark = pytest.mark.asyncio
SECRET = "s3cret_TOKEN-for-tests"
RETRY = 0.2  # the fake's webhook_retry_delay here


# --------------------------------------------------------------------------- a stand-in for the bot


@dataclass
class Received:
    update: dict[str, Any]
    headers: dict[str, str]
    path: str
    at: float
    peer: tuple[str, int]  # the fake's end of the connection

    @property
    def update_id(self) -> int:
        return int(self.update["update_id"])


def chat_of(update: dict[str, Any]) -> int | None:
    for kind in ("message", "edited_message", "callback_query", "my_chat_member"):
        payload = update.get(kind)
        if isinstance(payload, dict):
            chat = payload.get("chat") or (payload.get("message") or {}).get("chat") or {}
            return chat.get("id")
    return None


Behaviour = Callable[[dict[str, Any], web.Request], Awaitable[web.StreamResponse | None]]


class Endpoint:
    """A webhook that records every POST and answers ``{}`` (or what ``behaviour`` returns) after ``delay``."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.behaviour: Behaviour | None = None
        self.delay = 0.0
        self.active = 0
        self.max_active = 0
        self.active_chats: Counter[int] = Counter()
        self.chat_overlap = False  # two POSTs about one chat were under way at once
        self.port = 0
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def webhook(self) -> str:
        return f"{self.url}/webhook"

    def ids(self) -> list[int]:
        return [r.update_id for r in self.received]

    async def start(self, port: int = 0) -> str:
        app = web.Application()
        app.router.add_post("/webhook", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", port).start()
        self.port = int(self._runner.addresses[0][1])
        return self.webhook

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        update = await request.json()
        peer = request.transport.get_extra_info("peername") if request.transport else ("", 0)
        self.received.append(Received(update, dict(request.headers), request.path_qs, time.monotonic(), tuple(peer)))
        chat = chat_of(update)
        self.active += 1
        self.max_active = max(self.max_active, self.active)
        if chat is not None:
            self.active_chats[chat] += 1
            self.chat_overlap = self.chat_overlap or self.active_chats[chat] > 1
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            if self.behaviour is not None:
                response = await self.behaviour(update, request)
                if response is not None:
                    return response
            return web.json_response({})
        finally:
            self.active -= 1
            if chat is not None:
                self.active_chats[chat] -= 1


def answers(*statuses: int) -> Behaviour:
    """Answer the first POSTs with these statuses, then ``{}`` with 200."""
    remaining = list(statuses)

    async def behaviour(update: dict[str, Any], request: web.Request) -> web.StreamResponse | None:
        return web.Response(status=remaining.pop(0), text="no") if remaining else None

    return behaviour


# --------------------------------------------------------------------------- fixtures and helpers


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(webhook_retry_delay=RETRY, webhook_set_interval=0) as server:
        yield server
        for entry in server.calls("getWebhookInfo", ok=True):  # every WebhookInfo had api.json's shape
            assert not answer_problems(entry.response, ["WebhookInfo"], server.spec), entry.response


async def close(bot: Bot) -> None:
    session = getattr(bot.session, "_session", None)
    if session is not None:
        await session.close()


@pytest_asyncio.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    client = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url)))
    yield client
    await close(client)


@pytest_asyncio.fixture
async def endpoint() -> AsyncIterator[Endpoint]:
    stand_in = Endpoint()
    await stand_in.start()
    yield stand_in
    await stand_in.stop()


async def api(fake: FakeTelegram, method: str, **params: Any) -> dict[str, Any]:
    """A raw call with a JSON body (aiogram leaves out falsy values such as max_connections=0)."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{fake.base_url}/bot{fake.token}/{method}", json=params) as answer,
    ):
        payload: dict[str, Any] = await answer.json()
        return payload


def info_shape_ok(fake: FakeTelegram, info: dict[str, Any]) -> None:
    assert not answer_problems(info, ["WebhookInfo"], fake.spec), info


# --------------------------------------------------------------------------- setWebhook


async def test_set_webhook_checks_and_texts(fake: FakeTelegram, bot: Bot, endpoint: Endpoint) -> None:
    for secret, text in [
        ("with space", tg.SECRET_TOKEN_CHARACTERS),
        ("base64+/=", tg.SECRET_TOKEN_CHARACTERS),
        ("секрет", tg.SECRET_TOKEN_CHARACTERS),
        ("a" * 257, tg.SECRET_TOKEN_TOO_LONG),
    ]:
        with pytest.raises(TelegramBadRequest) as error:
            await bot.set_webhook(endpoint.webhook, secret_token=secret)
        assert error.value.message == text, secret
    assert {v.kind for v in fake.take_violations()} == {"webhook_secret"}
    for url in [
        "ftp://example.com/hook",
        "http://127.0.0.1:99999/hook",
        "http://exa mple.com/",
        "http://",
        "https://[::1",
    ]:
        with pytest.raises(TelegramBadRequest) as error:
            await bot.set_webhook(url)
        assert error.value.message == tg.WEBHOOK_URL_INVALID, url
    assert {v.kind for v in fake.take_violations()} == {"webhook_url"}
    assert await bot.set_webhook(endpoint.webhook, secret_token="A" * 256)  # 256 is still fine
    assert await bot.set_webhook(endpoint.webhook, secret_token="Az09_-")

    # max_connections is clamped to 1-100, as the Bot API server does (it never refuses it), and recorded.
    assert (await api(fake, "setWebhook", url=endpoint.webhook, max_connections=0))["result"] is True
    assert fake.webhook_info()["max_connections"] == 1
    assert (await api(fake, "setWebhook", url=endpoint.webhook, max_connections=101))["result"] is True
    assert fake.webhook_info()["max_connections"] == 100
    clamped = fake.take_violations()
    assert [(v.kind, v.rejected) for v in clamped] == [("webhook_max_connections", False)] * 2
    assert await bot.set_webhook(endpoint.webhook)
    assert fake.webhook_info()["max_connections"] == 40

    # A refused setWebhook has already closed the webhook that was set.
    with pytest.raises(TelegramBadRequest):
        await bot.set_webhook("http://127.0.0.1:0x50/")
    assert fake.webhook_info()["url"] == ""
    fake.take_violations()
    # Local mode: plain HTTP, any port, loopback; an empty URL (aiogram leaves it out) removes the webhook.
    assert await bot.set_webhook("http://127.0.0.1:8081/x?y=1", ip_address="127.0.0.1")
    assert fake.webhook.target.target == "/x?y=1"
    assert await bot.set_webhook("")
    assert fake.webhook.url == ""
    fake.assert_no_violations()


async def test_api_telegram_org_rules_when_not_local() -> None:
    async with FakeTelegram(webhook_local_mode=False, webhook_set_interval=0) as fake:
        for url, reason in [
            ("http://example.com/hook", tg.WEBHOOK_HTTPS_REQUIRED),
            ("https://example.com:8080/hook", tg.WEBHOOK_PORTS),
            ("https://127.0.0.1/hook", "IP address 127.0.0.1 is reserved"),
            ("https://localhost:8443/hook", "IP address 127.0.0.1 is reserved"),
            ("https://[2001:db8::1]/hook", "IPv6-only addresses are not allowed"),
        ]:
            answer = await api(fake, "setWebhook", url=url)
            assert answer == {"ok": False, "error_code": 400, "description": tg.BAD_WEBHOOK + reason}, url
        answer = await api(fake, "setWebhook", url="https://example.com/hook", ip_address="not an address")
        assert answer["description"] == tg.BAD_WEBHOOK + "Invalid IP address specified"
        assert fake.webhook.url == ""


async def test_set_webhook_with_a_url_once_a_second() -> None:
    async with FakeTelegram() as fake:  # the real interval
        assert (await api(fake, "setWebhook", url="http://127.0.0.1:9/hook"))["ok"]
        again = await api(fake, "setWebhook", url="http://127.0.0.1:9/hook")  # even unchanged
        assert again == {
            "ok": False,
            "error_code": 429,
            "description": "Too Many Requests: retry after 1",
            "parameters": {"retry_after": 1},
        }
        assert (await api(fake, "deleteWebhook"))["ok"]  # removing is never limited
        client = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url)))
        try:
            with pytest.raises(TelegramRetryAfter):
                await client.set_webhook("http://127.0.0.1:9/hook")
            await asyncio.sleep(max(0.0, fake.webhook.next_set_at - time.monotonic()) + 0.02)
            assert await client.set_webhook("http://127.0.0.1:9/hook")
            assert await client.delete_webhook()
        finally:
            await close(client)
        assert [e.method for e in fake.flood_events] == ["setWebhook", "setWebhook"]


# --------------------------------------------------------------------------- delivery


async def test_updates_are_posted_with_the_secret_header(fake: FakeTelegram, bot: Bot, endpoint: Endpoint) -> None:
    alice = fake.add_user("Alice")
    assert await bot.set_webhook(endpoint.webhook, secret_token=SECRET, allowed_updates=[])
    fake.send(alice, "hello")
    await fake.wait_delivered(timeout=3)
    [got] = endpoint.received
    assert got.headers["X-Telegram-Bot-Api-Secret-Token"] == SECRET
    assert got.headers["Content-Type"] == "application/json"
    assert got.path == "/webhook"
    assert got.update["message"]["text"] == "hello" and got.update["message"]["chat"]["id"] == alice.id
    info = (await bot.get_webhook_info()).model_dump(exclude_none=True)
    assert info == {
        "url": endpoint.webhook,
        "has_custom_certificate": False,
        "pending_update_count": 0,
        "max_connections": 40,
        "ip_address": "127.0.0.1",
    }
    info_shape_ok(fake, fake.webhook_info())
    [delivery] = fake.deliveries()
    assert delivery.ok and delivery.status == 200 and delivery.params["update_id"] == got.update_id
    assert f"=> webhook update {got.update_id} message chat={alice.id} -> 200" in fake.transcript_text()

    assert await bot.set_webhook(endpoint.webhook)  # no secret: no header
    for text in ("again", "and again"):
        fake.send(alice, text)
        await fake.wait_delivered(timeout=3)
    assert "X-Telegram-Bot-Api-Secret-Token" not in endpoint.received[-1].headers
    assert endpoint.received[-1].peer == endpoint.received[-2].peer  # one keep-alive connection


async def test_changing_the_webhook_abandons_posts_under_way(fake: FakeTelegram, bot: Bot, endpoint: Endpoint) -> None:
    alice = fake.add_user("Alice")
    endpoint.delay = 1.0
    assert await bot.set_webhook(endpoint.webhook)
    fake.send(alice, "hi")
    await fake.wait_for(lambda: endpoint.received, 3, what="the first POST")
    other = Endpoint()
    await other.start()
    try:
        assert await bot.set_webhook(other.webhook)  # the old webhook is closed: its POST is given up
        await fake.wait_delivered(timeout=3)
        assert other.ids() == endpoint.ids()  # the same update again (at least once, as Telegram)
        abandoned, delivered = fake.deliveries()
        assert abandoned.status == 0 and "abandoned" in abandoned.response["description"]
        assert delivered.ok and delivered.params["attempt"] == 2
        other.delay = 1.0
        fake.send(alice, "bye")
        await fake.wait_for(lambda: len(other.received) == 2, 3, what="the POST of 'bye'")
        assert await bot.delete_webhook()  # deleted while its POST is under way: getUpdates gets it
        [update] = await bot.get_updates()
        assert update.message is not None and update.message.text == "bye"
    finally:
        await other.stop()


async def test_pending_updates_get_updates_conflict_and_back_to_polling(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    poll = asyncio.ensure_future(bot.get_updates(timeout=5, request_timeout=10))
    await asyncio.sleep(0.1)
    assert await bot.set_webhook(f"http://127.0.0.1:{free_port()}/webhook")  # nobody listens there
    with pytest.raises(TelegramConflictError, match="terminated by setWebhook request"):
        await poll
    ids = []
    for i in range(3):
        fake.send(alice, f"m{i}")
        ids.append(fake.queue.pending[-1].update_id)
    refused_after = int(time.time())
    await fake.wait_for(lambda: len(fake.deliveries(ok=False)) >= 3, 30, what="three failed deliveries")
    info = fake.webhook_info()
    assert info["pending_update_count"] == 3
    assert info["last_error_message"] == tg.WEBHOOK_REFUSED
    assert refused_after <= info["last_error_date"] <= time.time()  # a Unix time: that of the last refusal
    info_shape_ok(fake, info)
    with pytest.raises(TelegramConflictError) as error:
        await bot.get_updates()
    assert error.value.message == tg.WEBHOOK_CONFLICT

    assert await bot.delete_webhook()
    assert fake.webhook_info() == {"url": "", "has_custom_certificate": False, "pending_update_count": 3}
    updates = await bot.get_updates(timeout=1)
    assert [u.update_id for u in updates] == ids
    assert [u.message.text for u in updates if u.message] == ["m0", "m1", "m2"]
    # The update_id sequence goes on in either mode.
    fake.send(alice, "m3")
    assert fake.queue.pending[-1].update_id == ids[-1] + 1


async def test_drop_pending_updates(fake: FakeTelegram, bot: Bot, endpoint: Endpoint) -> None:
    alice = fake.add_user("Alice")
    fake.send(alice, "old 1")
    fake.send(alice, "old 2")
    assert await bot.set_webhook(endpoint.webhook, drop_pending_updates=True)
    assert fake.webhook_info()["pending_update_count"] == 0
    fake.send(alice, "new")
    await fake.wait_delivered(timeout=3)
    assert [r.update["message"]["text"] for r in endpoint.received] == ["new"]


async def test_a_webhook_that_was_down_gets_the_update_once(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    port = free_port()
    assert await bot.set_webhook(f"http://127.0.0.1:{port}/webhook", secret_token=SECRET)
    fake.send(alice, "are you there?")
    update_id = fake.queue.pending[-1].update_id
    await fake.wait_for(lambda: len(fake.deliveries(ok=False)) >= 2, 3, what="two refused deliveries")
    first, second = fake.deliveries(ok=False)[:2]
    assert first.status == 0 and first.response["description"] == "Connection refused"
    assert second.at - first.at >= RETRY * 0.9  # retried after the delay, not at once
    assert fake.webhook_info()["last_error_message"] == "Connection refused"
    assert "-> no answer: Connection refused (again in 0.2 s)" in fake.transcript_text()
    late = Endpoint()
    await late.start(port)
    try:
        await fake.wait_delivered(timeout=3)
        assert late.ids() == [update_id]
        assert late.received[0].headers["X-Telegram-Bot-Api-Secret-Token"] == SECRET
        info = fake.webhook_info()
        assert info["pending_update_count"] == 0
        assert info["last_error_message"] == "Connection refused"  # stays until the webhook is set again
        assert fake.deliveries(update_id)[-1].ok
        assert await bot.set_webhook(late.webhook, secret_token="other")  # a new webhook: no last error
        assert "last_error_message" not in fake.webhook_info()
    finally:
        await late.stop()


async def test_a_wrong_status_is_retried(fake: FakeTelegram, bot: Bot, endpoint: Endpoint) -> None:
    alice = fake.add_user("Alice")
    endpoint.behaviour = answers(502, 500)
    assert await bot.set_webhook(endpoint.webhook)
    fake.send(alice, "hi")
    await fake.wait_delivered(timeout=3)
    assert len(set(endpoint.ids())) == 1 and len(endpoint.ids()) == 3
    failed = fake.deliveries(ok=False)
    assert [e.status for e in failed] == [502, 500]
    assert failed[0].response["description"] == "Wrong response from the webhook: 502 Bad Gateway"
    assert fake.webhook_info()["last_error_message"] == "Wrong response from the webhook: 500 Internal Server Error"
    assert endpoint.received[2].at - endpoint.received[1].at >= RETRY * 0.9


async def test_a_slow_or_vanishing_webhook_is_retried(fake: FakeTelegram, bot: Bot, endpoint: Endpoint) -> None:
    alice = fake.add_user("Alice")
    fake.settings.webhook_timeout = 0.3
    calls = 0

    async def slow_then_drop(update: dict[str, Any], request: web.Request) -> web.StreamResponse | None:
        nonlocal calls
        calls += 1
        if calls == 1:
            await asyncio.sleep(1.0)  # longer than the fake waits
        elif calls == 2:
            assert request.transport is not None
            request.transport.close()  # no answer at all
            await asyncio.sleep(0.1)
        return None

    endpoint.behaviour = slow_then_drop
    assert await bot.set_webhook(endpoint.webhook)
    fake.send(alice, "hi")
    await fake.wait_delivered(timeout=5)
    errors = [e.response["description"] for e in fake.deliveries(ok=False)]
    assert errors[0] == tg.WEBHOOK_TIMEOUT
    assert errors[1] in (tg.WEBHOOK_CLOSED, "Connection reset by peer")
    assert len(endpoint.received) == 3


def raw_answer(head: str, body: bytes = b"") -> bytes:
    return (head.replace("\n", "\r\n") + "\r\n\r\n").encode() + body


def method_json(chat_id: int, text: str) -> bytes:
    return json.dumps({"method": "sendMessage", "chat_id": chat_id, "text": text}).encode()


async def test_answers_framed_any_way_http_allows(fake: FakeTelegram, bot: Bot) -> None:
    """Chunks, gzip, an interim 100, a body that ends with the connection are answers; garbage and a body cut
    short are not (the update comes again).  A raw server answers each POST with the next of ``script``."""
    alice = fake.add_user("Alice")
    chunked, gzipped = method_json(alice.id, "chunked"), gzip.compress(method_json(alice.id, "gzipped"))
    script = [
        b"hello\r\n\r\n",
        raw_answer("HTTP/1.1 200 OK\nContent-Type: application/json\nTransfer-Encoding: chunked")
        + b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (5, chunked[:5], len(chunked) - 5, chunked[5:]),
        raw_answer("HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 10", b"{}"),
        raw_answer(
            f"HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Encoding: gzip\nContent-Length: {len(gzipped)}",
            gzipped,
        ),
        raw_answer("HTTP/1.1 100 Continue") + raw_answer("HTTP/1.1 200 OK\nContent-Length: 2", b"{}"),
        raw_answer("HTTP/1.0 200 OK\nContent-Type: application/json", method_json(alice.id, "until close")),
    ]

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        [length] = [line.split(b":")[1] for line in head.lower().split(b"\r\n") if line.startswith(b"content-length")]
        await reader.readexactly(int(length))
        writer.write(script.pop(0))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    try:
        port = server.sockets[0].getsockname()[1]
        assert await bot.set_webhook(f"http://127.0.0.1:{port}/webhook")
        for text in ("one", "two", "three", "four"):
            fake.send(alice, text)
        await fake.wait_delivered(timeout=5)
    finally:
        server.close()
    assert not script
    failed = [e.response["description"] for e in fake.deliveries(ok=False)]
    assert len(failed) == 2 and failed[0].startswith(tg.WEBHOOK_WRONG_RESPONSE) and failed[1] == tg.WEBHOOK_CLOSED
    assert [m.shown_text for m in fake.messages(alice, from_bot=True)] == ["chunked", "gzipped", "until close"]


async def test_one_chat_in_order_and_chats_in_parallel(fake: FakeTelegram, bot: Bot, endpoint: Endpoint) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Friends", members=[alice, bob], bot_admin=True)
    endpoint.delay = 0.15
    assert await bot.set_webhook(endpoint.webhook)
    for i in range(3):
        fake.send(alice, f"private {i}")
        fake.send(bob, f"group {i}", chat=group)
    await fake.wait_delivered(timeout=5)
    by_chat: dict[int, list[str]] = {}
    for got in endpoint.received:
        by_chat.setdefault(got.update["message"]["chat"]["id"], []).append(got.update["message"]["text"])
    assert by_chat == {alice.id: ["private 0", "private 1", "private 2"], group.id: ["group 0", "group 1", "group 2"]}
    assert not endpoint.chat_overlap  # one update of a chat at a time
    assert endpoint.max_active == 2  # the two chats in parallel


async def test_max_connections_bounds_parallel_posts(fake: FakeTelegram, bot: Bot, endpoint: Endpoint) -> None:
    people = [fake.add_user(f"P{i}") for i in range(6)]
    endpoint.delay = 0.15
    assert await bot.set_webhook(endpoint.webhook, max_connections=2)
    for person in people:
        fake.send(person, "hi")
    await fake.wait_delivered(timeout=5)
    assert endpoint.max_active == 2 and len(endpoint.received) == 6


@pytest.mark.parametrize(("queues", "parallel"), [("telegram", 2), ("chat", 1)])
async def test_delivery_queues(fake: FakeTelegram, bot: Bot, endpoint: Endpoint, queues: str, parallel: int) -> None:
    """Telegram queues taps by the person who tapped: two people's taps in one group may come at once."""
    fake.settings.webhook_queues = queues
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    group = fake.add_group("Friends", members=[alice, bob])
    markup = tg_types.InlineKeyboardMarkup(
        inline_keyboard=[[tg_types.InlineKeyboardButton(text="Join", callback_data="join")]]
    )
    sent = await bot.send_message(group.id, "Lobby", reply_markup=markup)
    lobby = fake.world.message(group.id, sent.message_id)
    assert lobby is not None
    endpoint.delay = 0.2
    assert await bot.set_webhook(endpoint.webhook)
    fake.tap(alice, lobby, text="Join")
    fake.tap(bob, lobby, text="Join")
    await fake.wait_delivered(timeout=3)
    assert endpoint.max_active == parallel


async def test_queue_keys() -> None:
    message = PendingUpdate(1, "message", {"chat": {"id": -5}, "from": {"id": 7}})
    tap = PendingUpdate(2, "callback_query", {"from": {"id": 7}, "message": {"chat": {"id": -5}}})
    member = PendingUpdate(3, "my_chat_member", {"chat": {"id": -5}, "from": {"id": 7}})
    assert [queue_key(u) for u in (message, tap, member)] == [("chat", -5), ("callback", 7), ("my_chat_member", -5)]
    assert {queue_key(u, "chat") for u in (message, tap, member)} == {("chat", -5)}


async def test_allowed_updates_apply_to_delivery(fake: FakeTelegram, bot: Bot, endpoint: Endpoint) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    markup = tg_types.InlineKeyboardMarkup(
        inline_keyboard=[[tg_types.InlineKeyboardButton(text="A", callback_data="a")]]
    )
    sent = await bot.send_message(alice.id, "Pick", reply_markup=markup)
    fake.queue.drop_pending()  # the /start
    assert await bot.set_webhook(endpoint.webhook, allowed_updates=["callback_query", "no_such_type"])
    assert fake.webhook_info()["allowed_updates"] == ["callback_query"]
    fake.send(alice, "ignored")
    message = fake.world.message(alice.id, sent.message_id)
    assert message is not None
    tap = fake.tap(alice, message, text="A")
    await fake.wait_delivered(timeout=3)
    assert [list(r.update)[1] for r in endpoint.received] == ["callback_query"]
    assert endpoint.received[0].update_id == tap.update_id
    assert await bot.set_webhook(endpoint.webhook, allowed_updates=[])  # back to the default
    assert "allowed_updates" not in fake.webhook_info()


# --------------------------------------------------------------------------- what the webhook answers


async def test_a_method_in_the_answer_is_run(fake: FakeTelegram, bot: Bot, endpoint: Endpoint) -> None:
    alice = fake.add_user("Alice")

    async def reply(update: dict[str, Any], request: web.Request) -> web.StreamResponse:
        text = update["message"]["text"]
        chat_id = update["message"]["chat"]["id"]
        if text == "no text":
            return web.json_response({"method": "sendMessage", "chat_id": chat_id})
        if text == "who":
            return web.json_response({"method": "getMe"})
        return web.json_response({"method": "sendMessage", "chat_id": chat_id, "text": f"hi {text}"})

    endpoint.behaviour = reply
    assert await bot.set_webhook(endpoint.webhook)
    fake.send(alice, "there")
    message = await fake.wait_for_message(alice, lambda m: m.shown_text == "hi there", timeout=3)
    update_id = endpoint.received[-1].update_id
    [call] = fake.calls("sendMessage")
    assert call.ok and call.note == f"webhook answer to update {update_id}"
    assert call.response["message_id"] == message.message_id
    assert fake.deliveries(update_id)[-1].response == {"reply": "sendMessage"}
    assert f"[webhook answer to update {update_id}]" in fake.transcript_text()
    fake.assert_no_violations()

    fake.send(alice, "no text")  # validated as any call: Telegram's error, recorded, the answer goes nowhere
    fake.send(alice, "who")  # get* methods are not run from an answer
    await fake.wait_delivered(timeout=3)
    assert fake.calls("sendMessage", ok=False)[0].description == tg.TEXT_EMPTY
    assert not fake.calls("getMe")
    assert sorted(v.kind for v in fake.take_violations()) == ["missing_parameter", "webhook_reply"]


async def test_aiogram_simple_request_handler(fake: FakeTelegram, bot: Bot) -> None:
    """aiogram's own webhook handler, as the bot serves it: secret check, webhook replies as multipart forms."""
    alice = fake.add_user("Alice")
    dispatcher = Dispatcher()

    @dispatcher.message()
    async def on_message(message: tg_types.Message) -> Any:
        return message.answer(f"pong {message.text}")  # returned: it travels in the webhook's answer

    @dispatcher.callback_query()
    async def on_tap(query: tg_types.CallbackQuery) -> None:
        await query.answer("tapped")  # an ordinary call, made before the POST is answered

    app = web.Application()
    SimpleRequestHandler(dispatcher, bot, secret_token=SECRET, handle_in_background=False).register(
        app, path="/webhook"
    )
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/webhook"
    try:
        assert await bot.set_webhook(url, secret_token="wrong")
        fake.send(alice, "ping")
        await fake.wait_for(lambda: fake.deliveries(ok=False), 3, what="a refused delivery")
        assert fake.webhook_info()["last_error_message"] == "Wrong response from the webhook: 401 Unauthorized"

        assert await bot.set_webhook(url, secret_token=SECRET)
        pong = await fake.wait_for_message(alice, lambda m: m.shown_text == "pong ping", timeout=3)
        assert fake.calls("sendMessage")[0].note.startswith("webhook answer to update")
        markup = tg_types.InlineKeyboardMarkup(
            inline_keyboard=[[tg_types.InlineKeyboardButton(text="Tap", callback_data="t")]]
        )
        await bot.edit_message_reply_markup(chat_id=alice.id, message_id=pong.message_id, reply_markup=markup)
        tap = fake.tap(alice, fake.last_message(alice) or pong, text="Tap")
        await fake.wait_answered(tap, timeout=3)
        assert tap.answer is not None and tap.answer.get("text") == "tapped"
        assert tap.delivered_at is not None
        await fake.wait_idle(quiet=0.2, timeout=5)
        fake.assert_callbacks_answered(within=1.0)
        fake.assert_no_violations()
    finally:
        await runner.cleanup()


# --------------------------------------------------------------------------- the balancer


async def test_balancer_spreads_updates_round_robin(fake: FakeTelegram, bot: Bot) -> None:
    one, two = Endpoint(), Endpoint()
    await one.start()
    await two.start()
    balancer = Balancer([one.url, two.url])
    try:
        url = await balancer.start()
        alice = fake.add_user("Alice")
        assert await bot.set_webhook(f"{url}/webhook", secret_token=SECRET)
        for i in range(10):
            fake.send(alice, f"move {i}")  # one chat: delivered one after another
        await fake.wait_delivered(timeout=5)
        assert balancer.counts == {one.url: 5, two.url: 5}
        assert len(one.received) == len(two.received) == 5
        assert all(r.headers["X-Telegram-Bot-Api-Secret-Token"] == SECRET for r in one.received + two.received)
        ids = sorted(one.ids() + two.ids())
        served = [balancer.served_by(update_id) for update_id in ids]
        assert all(len(s) == 1 for s in served)
        assert all(a != b for a, b in itertools.pairwise(served))  # consecutive moves: the other instance
        assert not fake.deliveries(ok=False)
    finally:
        await balancer.stop()
        await one.stop()
        await two.stop()


async def test_balancer_fails_over_and_answers_502_when_all_are_down(fake: FakeTelegram, bot: Bot) -> None:
    one, two = Endpoint(), Endpoint()
    await one.start()
    await two.start()
    await two.stop()  # its port now refuses connections
    balancer = Balancer([one.url, two.url])
    try:
        url = await balancer.start()
        alice = fake.add_user("Alice")
        assert await bot.set_webhook(f"{url}/webhook")
        for i in range(10):
            fake.send(alice, f"move {i}")
        await fake.wait_delivered(timeout=5)
        assert balancer.counts == {one.url: 10, two.url: 0}
        assert balancer.failures[two.url] == 5
        assert [f.tried for f in balancer.log if f.errors] == [[two.url, one.url]] * 5
        assert not fake.deliveries(ok=False)  # the fake never noticed

        await one.stop()
        fake.send(alice, "anyone?")
        await fake.wait_for(lambda: fake.deliveries(ok=False), 3, what="a 502 from the balancer")
        assert fake.webhook_info()["last_error_message"] == "Wrong response from the webhook: 502 Bad Gateway"
        assert balancer.log[-1].status == 502 and balancer.log[-1].upstream is None
        await two.start(int(two.url.rsplit(":", 1)[1]))  # back on its port
        await fake.wait_delivered(timeout=3)
        assert two.received[-1].update["message"]["text"] == "anyone?"
    finally:
        await balancer.stop()
        await one.stop()
        await two.stop()


async def test_balancer_after_a_dropped_post(fake: FakeTelegram) -> None:
    """A POST whose connection dropped goes on to the next upstream; with retry_after_send=False, as nginx, not."""
    dropping, healthy = Endpoint(), Endpoint()

    async def drop(update: dict[str, Any], request: web.Request) -> web.StreamResponse | None:
        assert request.transport is not None
        request.transport.close()
        await asyncio.sleep(0.1)
        return None

    dropping.behaviour = drop
    await dropping.start()
    await healthy.start()
    body = b'{"update_id":5,"message":{}}'
    try:
        for retry_after_send, statuses in [(True, {200}), (False, {200, 502})]:
            async with Balancer([dropping.url, healthy.url], retry_after_send=retry_after_send) as balancer:
                async with aiohttp.ClientSession() as session:
                    for _ in range(2):
                        async with session.post(f"{balancer.url}/webhook", data=body) as answer:
                            assert answer.status in statuses
                got = {f.status for f in balancer.log}
                assert got == statuses, retry_after_send
                assert all(f.update_id == 5 for f in balancer.log)
    finally:
        await dropping.stop()
        await healthy.stop()


# --------------------------------------------------------------------------- the launcher's webhook helpers


async def test_webhook_env(fake: FakeTelegram, tmp_path: Path) -> None:
    base = {"PATH": "/bin", "WEBHOOK_URL": "https://prod.example/hook", "REDIS_URL": "redis://prod", "BOT_X": "1"}
    env = webhook_env(
        fake,
        "postgresql://bot:pw@127.0.0.1:5432/bot",
        url="http://127.0.0.1:9000/webhook",
        port=8081,
        secret=SECRET,
        max_connections=10,
        wake_grace_seconds=2.5,
        base=base,
    )
    assert env["WEBHOOK_URL"] == "http://127.0.0.1:9000/webhook"
    assert (env["WEBHOOK_HOST"], env["WEBHOOK_PORT"], env["WEBHOOK_SECRET"]) == ("127.0.0.1", "8081", SECRET)
    assert (env["WEBHOOK_MAX_CONNECTIONS"], env["WAKE_GRACE_SECONDS"]) == ("10", "2.5")
    assert env["DATABASE_URL"] == "postgresql://bot:pw@127.0.0.1:5432/bot"
    assert "REDIS_URL" not in env and "BOT_X" not in env
    assert env["BOT_TOKEN"] == fake.token and env["TELEGRAM_API_URL"] == fake.base_url
    sqlite = webhook_env(fake, tmp_path / "db.sqlite3", url="http://x/", port=1, redis_url="redis://127.0.0.1", base={})
    assert sqlite["DATABASE_URL"] == f"sqlite:///{tmp_path / 'db.sqlite3'}"
    assert sqlite["REDIS_URL"] == "redis://127.0.0.1"
    assert sqlite["WEBHOOK_SECRET"] == DEFAULT_WEBHOOK_SECRET  # the bot insists on one; all instances share it
    assert "WEBHOOK_SECRET" not in webhook_env(fake, tmp_path / "db", url="http://x/", port=1, secret=None, base={})


# A stand-in for the bot in webhook mode: serves /health on WEBHOOK_PORT after a moment.
HEALTH_SERVER = """
import http.server, os, time
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/health" else 404)
        self.end_headers()
    def log_message(self, *args):
        pass
time.sleep(0.3)
http.server.HTTPServer(("127.0.0.1", int(os.environ["WEBHOOK_PORT"])), Health).serve_forever()
"""


async def test_launcher_waits_for_health(fake: FakeTelegram, tmp_path: Path) -> None:
    port = free_port()
    env = webhook_env(fake, tmp_path / "db.sqlite3", url=f"http://127.0.0.1:{port}/webhook", port=port)
    launcher = BotLauncher(fake, tmp_path / "bot.log", env, command=[sys.executable, "-c", HEALTH_SERVER])
    try:
        await launcher.start(ready="webhook", timeout=10)
        assert launcher.running
    finally:
        await launcher.stop(timeout=5)
    failing = BotLauncher(
        fake, tmp_path / "bad.log", env, command=[sys.executable, "-c", "print('no config'); exit(3)"]
    )
    with pytest.raises(RuntimeError, match=r"status 3(.|\n)*no config"):
        await failing.start(ready="webhook", timeout=10)
    with pytest.raises(ValueError):
        await failing.start(ready="carrier pigeon")


# --------------------------------------------------------------------------- pieces


async def test_url_and_answer_parsing() -> None:
    url = parse_url("HTTP://User:pw@LocalHost:08081/hook path?a=1")
    assert (url.scheme, url.userinfo, url.host, url.port, url.target) == (
        "http",
        "User:pw",
        "localhost",
        8081,
        "/hook%20path?a=1",
    )
    assert url.host_header == "localhost:8081"
    assert parse_url("https://[::1]/").connect_host == "::1"
    for bad, reason in [
        ("gopher://x", "Unsupported URL protocol"),
        ("http://x:0/", "Wrong port number specified in the URL"),
        ("http:///", "URL host is empty"),
        ("http://a%zz/", "Wrong percent-encoded symbol in URL host"),
        ("http://[zz]/", "Wrong IPv6 address specified in the URL"),
    ]:
        with pytest.raises(ValueError, match=reason):
            parse_url(bad)

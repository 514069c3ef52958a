"""The sandbox's server in-process (no bot): what pages are told, and forged requests refused without a change."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer

from fake_telegram import FakeTelegram
from fake_telegram.media import Upload
from sandbox.cast import Cast
from sandbox.web import SandboxSite


class Site:
    def __init__(self, fake: FakeTelegram, cast: Cast, client: TestClient[Any, Any]) -> None:
        self.fake, self.cast, self.client = fake, cast, client
        self.people = {person.first_name: person for person in cast.people}

    async def api(self, action: str, body: Any, **headers: str) -> tuple[int, dict[str, Any]]:
        response = await self.client.post(f"/api/{action}", json=body, headers=headers)
        return response.status, await response.json()

    async def bot_call(self, method: str, **params: Any) -> Any:
        """The bot's side: a Bot API call to the fake, over HTTP as the bot makes it."""
        async with aiohttp.ClientSession() as session:
            url = f"{self.fake.base_url}/bot{self.fake.token}/{method}"
            async with session.post(url, json=params) as response:
                answer = await response.json()
        assert answer["ok"], answer
        return answer["result"]


@pytest_asyncio.fixture
async def site() -> AsyncIterator[Site]:
    async with FakeTelegram(bot_username="dominoes_sandbox_bot") as fake:
        cast = Cast(fake)
        cast.create()
        sandbox = SandboxSite(fake, cast)
        pusher = asyncio.create_task(sandbox.hub.run())
        async with TestClient(TestServer(sandbox.application())) as client:
            yield Site(fake, cast, client)
        pusher.cancel()


async def frames_until(socket: aiohttp.ClientWebSocketResponse, wanted: str, timeout: float = 5.0) -> list[Any]:
    """Frames up to and including the first of type ``wanted``."""
    seen = []
    while True:
        frame = await asyncio.wait_for(socket.receive_json(), timeout)
        seen.append(frame)
        if frame["type"] == wanted:
            return seen


async def quiet(socket: aiohttp.ClientWebSocketResponse, seconds: float = 0.3) -> list[Any]:
    seen = []
    try:
        while True:
            seen.append(await asyncio.wait_for(socket.receive_json(), seconds))
    except TimeoutError:
        return seen


async def test_a_page_gets_its_chats_then_what_changes_in_them(site: Site) -> None:
    ann, dan = site.people["Ann"], site.people["Dan"]
    group = site.cast.group
    assert group is not None
    ann_page = await site.client.ws_connect(f"/ws?person={ann.id}")
    dan_page = await site.client.ws_connect(f"/ws?person={dan.id}")
    first = await quiet(ann_page)
    assert [f["type"] for f in first] == ["world", "chat", "chat"]
    assert [f["chat"]["id"] for f in first[1:]] == [group.id, ann.id]
    assert [f["chat"]["id"] for f in (await quiet(dan_page))[1:]] == [dan.id]  # Dan is not in the group

    assert await site.api("send", {"person": ann.id, "chat_id": group.id, "text": "/new fives"}) == (
        200,
        {"ok": True, "message_id": 2},
    )
    sent = await site.bot_call("sendMessage", chat_id=group.id, text="<b>Lobby</b> & co", parse_mode="HTML")
    pushed = [f for f in await quiet(ann_page) if f["type"] == "message"]
    assert [(f["message"]["id"], f["message"]["html"]) for f in pushed] == [
        (2, "/new fives"),
        (sent["message_id"], "<b>Lobby</b> &amp; co"),
    ]
    assert await quiet(dan_page) == []  # nothing of a group he is not in

    await site.bot_call("deleteMessage", chat_id=group.id, message_id=sent["message_id"])
    (deleted,) = await quiet(ann_page)
    assert deleted["message"]["deleted"] is True

    assert (await site.api("group/add", {"person": dan.id}))[0] == 200
    joined = await quiet(dan_page)
    assert [f["chat"]["id"] for f in joined if f["type"] == "chat"] == [group.id, dan.id]
    assert next(f for f in joined if f["type"] == "world")["people"][3]["in_group"] is True


async def test_a_tap_is_answered_on_the_tapping_persons_page_only(site: Site) -> None:
    ann, bob = site.people["Ann"], site.people["Bob"]
    group = site.cast.group
    assert group is not None
    keyboard = {"inline_keyboard": [[{"text": "Join", "callback_data": "lb:1:join"}]]}
    lobby = await site.bot_call("sendMessage", chat_id=group.id, text="Lobby", reply_markup=keyboard)
    ann_page = await site.client.ws_connect(f"/ws?person={ann.id}")
    bob_page = await site.client.ws_connect(f"/ws?person={bob.id}")
    await quiet(ann_page), await quiet(bob_page)

    status, tapped = await site.api(
        "tap", {"person": bob.id, "chat_id": group.id, "message_id": lobby["message_id"], "data": "lb:1:join"}
    )
    assert status == 200
    link = "https://t.me/dominoes_sandbox_bot?start=j1"
    await site.bot_call("answerCallbackQuery", callback_query_id=tapped["callback_id"], url=link)
    answer = (await frames_until(bob_page, "answer"))[-1]
    assert answer == {
        "type": "answer",
        "chat_id": group.id,
        "message_id": lobby["message_id"],
        "text": "",
        "show_alert": False,
        "url": link,
    }
    assert not [f for f in await quiet(ann_page) if f["type"] == "answer"]

    # Following the link opens Bob's private chat and sends the payload, as Telegram does.
    assert await site.api("link", {"person": bob.id, "url": link}) == (200, {"ok": True, "chat_id": bob.id})
    assert site.fake.messages(bob, from_bot=False)[-1].shown_text == "/start j1"
    assert bob.started


async def test_forged_requests_are_refused_and_change_nothing(site: Site) -> None:
    ann, bob = site.people["Ann"], site.people["Bob"]
    group = site.cast.group
    assert group is not None
    lobby = await site.bot_call(
        "sendMessage",
        chat_id=group.id,
        text="Lobby",
        reply_markup={"inline_keyboard": [[{"text": "Join", "callback_data": "lb:1:join"}]]},
    )
    document = site.fake.world.files.add_document(Upload("document", "game 1 «final».json", "application/json", b"{}"))
    pending, entries = len(site.fake.queue.pending), len(site.fake.transcript)
    forged = [
        ("send", {"person": 999, "chat_id": group.id, "text": "hi"}, "There is no such person in the sandbox."),
        ("send", {"person": True, "chat_id": group.id, "text": "hi"}, "There is no such person in the sandbox."),
        ("send", {"person": ann.id, "chat_id": bob.id, "text": "hi"}, "You cannot write in that chat."),
        ("send", {"person": ann.id, "chat_id": ann.id, "text": "hi"}, "Press START first."),
        ("send", {"person": ann.id, "chat_id": group.id, "text": "  "}, "“text” must be some text."),
        ("send", {"person": ann.id, "chat_id": group.id, "text": "x" * 4097}, "“text” is longer than 4096 characters."),
        ("send", {"person": ann.id, "chat_id": "group", "text": "hi"}, "“chat_id” must be a number."),
        (
            "tap",
            {"person": ann.id, "chat_id": group.id, "message_id": lobby["message_id"], "data": "lb:1:kill"},
            "That button is not there any more.",
        ),
        (
            "tap",
            {"person": ann.id, "chat_id": group.id, "message_id": 999, "data": "x"},
            "That message is not there any more.",
        ),
        (
            "link",
            {"person": ann.id, "url": "https://t.me/other_bot?start=j1"},
            "That link does not lead to @dominoes_sandbox_bot.",
        ),
        ("person", {"person": ann.id, "language": "de"}, "The language must be one of en, ru, uk."),
        ("person", {"person": ann.id, "name": ""}, "“name” must be some text."),
        ("group/add", {"person": ann.id}, "Ann is in the group already."),
        ("group/leave", {"person": site.people["Dan"].id}, "Dan is not in the group."),
        ("block", {"person": ann.id, "blocked": False}, "Ann has not blocked the bot already."),
        ("block", {"person": ann.id, "blocked": "yes"}, "“blocked” must be true or false."),
    ]
    for action, body, error in forged:
        assert await site.api(action, body) == (400, {"ok": False, "error": error}), (action, body)
    assert await site.api("send", [1]) == (400, {"ok": False, "error": "The request must be a JSON object."})
    assert await site.api("nothing", {}) == (404, {"ok": False, "error": "There is no such action."})
    elsewhere = await site.api(
        "send", {"person": ann.id, "chat_id": group.id, "text": "hi"}, Origin="https://evil.example"
    )
    assert elsewhere == (403, {"ok": False, "error": "This sandbox only talks to its own page."})
    as_form = await site.client.post("/api/send", data={"person": str(ann.id)})
    assert as_form.status == 415
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await site.client.ws_connect(f"/ws?person={ann.id}", headers={"Origin": "https://evil.example"})
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await site.client.ws_connect("/ws?person=bot")
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await site.client.ws_connect(f"/ws?person={site.fake.bot.id}")
    first_visit = await site.client.ws_connect("/ws")
    assert (await first_visit.receive_json())["type"] == "world"
    assert (await first_visit.receive()).type == aiohttp.WSMsgType.CLOSE
    assert (len(site.fake.queue.pending), len(site.fake.transcript)) == (pending, entries)
    assert ann.language_code == "en" and ann.name == "Ann" and not ann.started

    missing = await site.client.get("/files/nothing")
    assert missing.status == 404
    download = await site.client.get(f"/files/{document['file_id']}")
    assert await download.read() == b"{}"
    assert download.headers["Content-Disposition"] == (
        "attachment; filename=\"game 1 _final_.json\"; filename*=UTF-8''game%201%20%C2%ABfinal%C2%BB.json"
    )


async def test_a_supergroup_is_a_new_chat_for_every_page(site: Site) -> None:
    ann = site.people["Ann"]
    old = site.cast.group
    assert old is not None
    page = await site.client.ws_connect(f"/ws?person={ann.id}")
    await quiet(page)
    assert (await site.api("group/supergroup", {}))[0] == 200
    assert await site.api("group/supergroup", {}) == (400, {"ok": False, "error": "The group is a supergroup already."})
    frames = await quiet(page)
    world = next(f for f in frames if f["type"] == "world")
    assert world["group"]["type"] == "supergroup" and world["group"]["id"] != old.id
    chats = [f["chat"] for f in frames if f["type"] == "chat"]
    assert chats[0]["id"] == world["group"]["id"]
    assert chats[0]["messages"][-1]["service"] == "The group was upgraded to a supergroup"

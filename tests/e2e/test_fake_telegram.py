"""Tests of the fake Bot API itself, through a real aiogram ``Bot`` over loopback HTTP.

They show that aiogram parses every answer shape the fake gives, that every Telegram error comes
back as the aiogram exception the bot will see in production, and that the fake's rules (limits,
deep links, markup, photos, flood control, faults, getUpdates) behave as documented.  After each
test every successful answer is also checked against ``api.json``'s required fields.
"""

from __future__ import annotations

import asyncio
import io
import json
import zlib
from collections.abc import AsyncIterator
from typing import Any, ClassVar

import aiohttp
import pytest
import pytest_asyncio
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.methods import TelegramMethod
from aiogram.types import (
    BotCommand,
    BotCommandScopeChat,
    BufferedInputFile,
    ChatMemberAdministrator,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    MenuButtonCommands,
)
from PIL import Image

from fake_telegram import FakeTelegram, Faults, Limits, builtin_spec, load_spec
from fake_telegram import errors as tg
from fake_telegram.body import MALFORMED, NOT_UTF8, header_params
from fake_telegram.formatting import format_text
from fake_telegram.media import png_size
from fake_telegram.server import MAX_UPLOAD
from fake_telegram.spec import SCALARS, ApiSpec, element_type
from fake_telegram.validation import render_path

pytestmark = pytest.mark.asyncio


def png(width: int, height: int, mode: str = "RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, (width, height)).save(buffer, "PNG")
    return buffer.getvalue()


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")


def crafted_png(width: int, height: int, *, depth: int = 8, colour: int = 2, idat: bool = True) -> bytes:
    """A PNG put together by hand, with correct checksums: the header says what the test wants."""
    ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([depth, colour, 0, 0, 0])
    image = png_chunk(b"IDAT", zlib.compress(b"\x00" * 4)) if idat else b""
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + image + png_chunk(b"IEND", b"")


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=t, callback_data=d) for t, d in row] for row in rows]
    )


def shape_problems(value: Any, type_names: list[str] | tuple[str, ...], spec: ApiSpec, path: str) -> list[str]:
    """Where ``value`` lacks a required field of its Bot API type (any one type may fit)."""
    best: list[str] | None = None
    for type_name in type_names:
        depth, base = element_type(type_name)
        problems = _shape(value, depth, base, spec, path)
        if not problems:
            return []
        best = problems if best is None or len(problems) < len(best) else best
    return best or []


def _shape(value: Any, depth: int, base: str, spec: ApiSpec, path: str) -> list[str]:
    if depth:
        if not isinstance(value, list):
            return [f"{path}: expected an Array"]
        return [p for i, item in enumerate(value) for p in _shape(item, depth - 1, base, spec, f"{path}[{i}]")]
    if base in SCALARS:
        kinds: dict[str, type | tuple[type, ...]] = {"String": str, "Integer": int, "Float": (int, float)}
        expected = kinds.get(base, bool if base in ("Boolean", "True") else object)
        return [] if isinstance(value, expected) else [f"{path}: expected {base}, got {value!r}"]
    type_spec = spec.type(base)
    if type_spec is None:
        return []
    if not isinstance(value, dict):
        return [f"{path}: expected a {base} object"]
    if type_spec.subtypes:
        return shape_problems(value, type_spec.subtypes, spec, path)
    problems = [
        f"{path}.{f.name}: missing ({base})" for f in type_spec.fields.values() if f.required and f.name not in value
    ]
    for name, item in value.items():
        field = type_spec.fields.get(name)
        if field is not None:
            problems += shape_problems(item, field.types, spec, f"{path}.{name}")
    return problems


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(bot_username="dominoes_test_bot") as server:
        yield server
        spec = server.spec
        for entry in server.transcript:
            method = spec.method(entry.method)
            if entry.kind == "request" and entry.ok and method is not None:
                problems = shape_problems(entry.response, method.returns, spec, entry.method)
                assert not problems, f"#{entry.seq} {entry.method} answered a shape api.json does not allow: {problems}"


async def close(bot: Bot) -> None:
    """Close the client session without AiohttpSession.close()'s 250 ms grace sleep."""
    session = getattr(bot.session, "_session", None)
    if session is not None:
        await session.close()


@pytest_asyncio.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    client = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url)))
    yield client
    await close(client)


# --------------------------------------------------------------------------- answer shapes


async def test_get_me_and_wrong_token(fake: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot, me.can_join_groups) == (fake.bot.id, "dominoes_test_bot", True, True)
    stranger = Bot("42:wrong-token", session=AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url)))
    with pytest.raises(TelegramUnauthorizedError, match="Unauthorized"):
        await stranger.get_me()
    await close(stranger)


class NoSuchMethod(TelegramMethod[bool]):
    __returning__ = bool
    __api_method__ = "noSuchMethod"


async def test_unknown_method_is_404_and_methods_match_case_insensitively(fake: FakeTelegram, bot: Bot) -> None:
    with pytest.raises(TelegramNotFound, match="Not Found"):
        await bot(NoSuchMethod())
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{fake.base_url}/bot{fake.token}/GETME") as response:
            assert (await response.json())["result"]["id"] == fake.bot.id
        async with http.post(f"{fake.base_url}/bot{fake.token}/logOut") as response:
            assert await response.json() == {"ok": True, "result": True}
        async with http.get(f"{fake.base_url}/nothing") as response:
            assert await response.json() == {"ok": False, "error_code": 404, "description": "Not Found"}


async def test_send_text_with_inline_keyboard(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice", language_code="ru")
    fake.start_bot(alice)
    markup = keyboard([("Join", "join:1"), ("Add computer", "cpu:1")], [("Cancel", "cancel:1")])
    sent = await bot.send_message(
        alice.id, "  <b>Lobby</b> for 😀 &amp; friends ", parse_mode="HTML", reply_markup=markup
    )
    assert sent.text == "Lobby for 😀 & friends"
    assert sent.entities is not None and (sent.entities[0].type, sent.entities[0].offset, sent.entities[0].length) == (
        "bold",
        0,
        5,
    )
    assert sent.reply_markup is not None and sent.reply_markup.inline_keyboard[1][0].callback_data == "cancel:1"
    assert sent.chat.type == "private" and sent.from_user is not None and sent.from_user.is_bot
    view = fake.view(alice)[-1]
    assert view.text == "Lobby for 😀 & friends" and view.button_texts() == [["Join", "Add computer"], ["Cancel"]]
    fake.assert_no_violations()


async def test_json_bodies_are_accepted_like_form_data(fake: FakeTelegram) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    body = {
        "chat_id": alice.id,
        "text": "hi",
        "reply_markup": {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]},
    }
    url = f"{fake.base_url}/bot{fake.token}/sendMessage"
    async with aiohttp.ClientSession() as http, http.post(url, json=body) as response:
        answer = await response.json()
    assert answer["ok"] and answer["result"]["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "a"


async def test_send_photo_multipart_and_resend_by_file_id(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    group = fake.add_group("Friends", members=[alice])
    picture = png(1000, 600)
    sent = await bot.send_photo(
        group.id, BufferedInputFile(picture, "table.png"), caption="<i>Table</i>", parse_mode="HTML"
    )
    assert sent.photo is not None and [(p.width, p.height) for p in sent.photo] == [
        (90, 54),
        (320, 192),
        (800, 480),
        (1000, 600),
    ]
    assert all(p.file_id and p.file_unique_id and p.file_size for p in sent.photo)
    assert sent.caption == "Table" and sent.caption_entities is not None and sent.caption_entities[0].type == "italic"
    assert fake.photo_bytes(fake.messages(group)[-1]) == picture
    again = await bot.send_photo(group.id, sent.photo[-1].file_id)
    assert again.photo is not None and again.photo[-1].file_id == sent.photo[-1].file_id
    upload = fake.calls("sendPhoto")[0]
    assert "<file 'table.png'" in str(upload.params["photo"])
    file = await bot.get_file(sent.photo[-1].file_id)
    assert file.file_path is not None
    url = f"{fake.base_url}/file/bot{fake.token}/{file.file_path}"
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert await response.read() == picture


async def test_edit_media_caption_and_markup(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    group = fake.add_group("Friends", members=[alice])
    board = await bot.send_photo(
        group.id,
        BufferedInputFile(png(400, 300), "a.png"),
        caption="Turn: Alice",
        reply_markup=keyboard([("Hand", "hand")]),
    )
    new_picture = png(500, 300)
    edited = await bot.edit_message_media(
        chat_id=group.id,
        message_id=board.message_id,
        media=InputMediaPhoto(media=BufferedInputFile(new_picture, "b.png"), caption="Turn: Bob"),
        reply_markup=keyboard([("Hand", "hand")]),
    )
    assert not isinstance(edited, bool) and edited.edit_date is not None and edited.caption == "Turn: Bob"
    assert edited.photo is not None and (edited.photo[-1].width, edited.photo[-1].height) == (500, 300)
    assert fake.photo_bytes(fake.messages(group)[-1]) == new_picture
    captioned = await bot.edit_message_caption(
        chat_id=group.id, message_id=board.message_id, caption="Turn: Carol", reply_markup=keyboard([("Hand", "hand")])
    )
    assert not isinstance(captioned, bool) and captioned.caption == "Turn: Carol"
    with pytest.raises(TelegramBadRequest) as not_modified:
        await bot.edit_message_caption(
            chat_id=group.id,
            message_id=board.message_id,
            caption="Turn: Carol",
            reply_markup=keyboard([("Hand", "hand")]),
        )
    assert not_modified.value.message == tg.NOT_MODIFIED
    # Omitting reply_markup in an edit removes the keyboard, as Telegram does.
    bare = await bot.edit_message_caption(chat_id=group.id, message_id=board.message_id, caption="Turn: Carol")
    assert not isinstance(bare, bool) and bare.reply_markup is None
    again = await bot.edit_message_reply_markup(
        chat_id=group.id, message_id=board.message_id, reply_markup=keyboard([("Hand", "hand")])
    )
    assert not isinstance(again, bool) and again.reply_markup is not None
    with pytest.raises(TelegramBadRequest, match="there is no text in the message to edit"):
        await bot.edit_message_text(chat_id=group.id, message_id=board.message_id, text="x")
    fake.assert_no_violations()


async def test_updates_with_a_message_and_a_callback(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice", username="alice", language_code="uk")
    group = fake.add_group("Friends", members=[alice])
    fake.send(alice, "/new@dominoes_test_bot classic", chat=group)
    updates = await bot.get_updates(timeout=1)
    assert len(updates) == 1 and updates[0].message is not None
    message = updates[0].message
    assert message.text == "/new@dominoes_test_bot classic" and message.chat.type == "group"
    assert message.entities is not None and (message.entities[0].type, message.entities[0].length) == (
        "bot_command",
        22,
    )
    assert message.from_user is not None and message.from_user.language_code == "uk"
    lobby = await bot.send_message(group.id, "Lobby", reply_markup=keyboard([("Join", "join:7")]))
    query = fake.tap(alice, fake.messages(group)[-1], text="Join")
    updates = await bot.get_updates(offset=updates[-1].update_id + 1, timeout=1)
    assert len(updates) == 1 and updates[0].callback_query is not None
    callback = updates[0].callback_query
    assert (callback.id, callback.data, callback.from_user.id) == (query.id, "join:7", alice.id)
    assert callback.chat_instance and callback.message is not None and callback.message.message_id == lobby.message_id
    link = "https://t.me/dominoes_test_bot?start=join_7"
    assert await bot.answer_callback_query(callback.id, url=link)
    assert (
        query.answered
        and query.answer == {"url": link}
        and query.latency is not None
        and query.delivered_at is not None
    )
    with pytest.raises(TelegramBadRequest) as twice:
        await bot.answer_callback_query(callback.id)
    assert twice.value.message == tg.QUERY_TOO_OLD
    assert [v.kind for v in fake.take_violations()] == ["callback_query"]
    assert await bot.get_updates(offset=updates[-1].update_id + 1) == []
    joined = fake.open_link(alice, link)
    assert joined.text is not None and joined.text.text == "/start join_7" and alice.started


async def test_a_confirmed_update_can_be_delivered_again(fake: FakeTelegram, bot: Bot) -> None:
    """``redeliver``: the same update (id, contents, callback query) again, as Telegram delivers one
    whose confirmation it never saw; a poll that confirms it drops it again, unseen."""
    alice = fake.add_user("Alice")
    fake.start_bot(alice, "first")
    fake.start_bot(alice, "second")
    first, second = await bot.get_updates()
    assert await bot.get_updates(offset=second.update_id + 1) == []  # both confirmed
    with pytest.raises(ValueError, match="ever queued"):
        fake.redeliver(second.update_id + 100)

    fake.redeliver(second.update_id)
    fake.redeliver(first.update_id)
    with pytest.raises(ValueError, match="still pending"):
        fake.redeliver(first.update_id)
    assert fake.pending_updates == 2
    again = await bot.get_updates()  # a poll from a restarted bot: no offset yet
    assert [u.model_dump() for u in again] == [first.model_dump(), second.model_dump()]  # in their order
    assert await bot.get_updates(offset=second.update_id + 1) == []

    fake.redeliver(first.update_id)
    assert await bot.get_updates(offset=second.update_id + 1) == []  # confirmed by a later offset: dropped
    assert fake.pending_updates == 0

    lobby = await bot.send_message(alice.id, "lobby", reply_markup=keyboard([("Join", "join:7")]))
    fake.tap(alice, fake.messages(alice)[-1], data="join:7")
    (tap,) = await bot.get_updates(offset=second.update_id + 1)
    assert tap.callback_query is not None and tap.callback_query.message is not None
    assert tap.callback_query.message.message_id == lobby.message_id
    assert await bot.get_updates(offset=tap.update_id + 1) == []
    fake.redeliver(tap.update_id)
    (tap_again,) = await bot.get_updates()
    assert tap_again.model_dump() == tap.model_dump()
    assert await bot.answer_callback_query(tap_again.callback_query.id)  # the same query, still unanswered
    assert fake.violations == []
    # Answered once more (the bot cannot know whether its first answer died with it): refused as
    # Telegram refuses it, and not held against the bot, since the tap came twice.
    with pytest.raises(TelegramBadRequest) as twice:
        await bot.answer_callback_query(tap_again.callback_query.id)
    assert twice.value.message == tg.QUERY_TOO_OLD
    assert fake.violations == []


async def test_long_poll_returns_as_soon_as_an_update_arrives(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    poll = asyncio.create_task(bot.get_updates(timeout=60, request_timeout=90))
    await asyncio.sleep(0.2)
    assert not poll.done()  # nothing to take: the poll waits
    fake.start_bot(alice, "lobby42")
    # Answered by the update, not by the end of its 60-second wait (a generous bound, not a timing).
    updates = await asyncio.wait_for(poll, 30)
    assert updates[0].message is not None and updates[0].message.text == "/start lobby42"


async def test_a_second_poller_terminates_the_first(fake: FakeTelegram, bot: Bot) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=10))
    await asyncio.sleep(0.2)
    second = asyncio.create_task(bot.get_updates(timeout=10))
    with pytest.raises(TelegramConflictError, match="terminated by other getUpdates request"):
        await asyncio.wait_for(first, 2)
    fake.start_bot(fake.add_user("Alice"))
    assert len(await asyncio.wait_for(second, 2)) == 1


async def test_allowed_updates_filters_update_types(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.add_group("Friends", members=[alice], announce=True)
    fake.start_bot(alice)
    updates = await bot.get_updates(allowed_updates=["message"])
    assert [u.event_type for u in updates] == ["message", "message"]
    assert updates[0].message is not None and updates[0].message.group_chat_created


async def test_group_privacy_mode(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    group = fake.add_group("Friends", members=[alice])
    board = await bot.send_message(group.id, "Board")
    for text in ("hello", "/new@other_bot", "/new", "/join@Dominoes_Test_Bot", "hey @dominoes_test_bot"):
        fake.send(alice, text, chat=group)
    fake.send(alice, "a reply", chat=group, reply_to=board.message_id)
    got = [u.message.text for u in await bot.get_updates() if u.message]
    assert got == ["/new", "/join@Dominoes_Test_Bot", "hey @dominoes_test_bot", "a reply"]
    assert len(fake.view(group)) == 7  # the people in the group still see everything
    fake.promote_bot(group)
    fake.send(alice, "hello again", chat=group)
    assert [u.message.text for u in await bot.get_updates(offset=-1) if u.message] == ["hello again"]


async def test_chat_members_and_administrators(fake: FakeTelegram, bot: Bot) -> None:
    alice, bob, carol, dave = (fake.add_user(n) for n in ("Alice", "Bob", "Carol", "Dave"))
    group = fake.add_group("Friends", members=[alice, carol], admins=[bob], creator=alice)
    assert isinstance(await bot.get_chat_member(group.id, alice.id), ChatMemberOwner)
    assert isinstance(await bot.get_chat_member(group.id, bob.id), ChatMemberAdministrator)
    assert isinstance(await bot.get_chat_member(group.id, carol.id), ChatMemberMember)
    assert isinstance(await bot.get_chat_member(group.id, dave.id), ChatMemberLeft)
    assert isinstance(await bot.get_chat_member(group.id, fake.bot.id), ChatMemberMember)
    admins = await bot.get_chat_administrators(group.id)
    assert sorted(a.user.first_name for a in admins) == ["Alice", "Bob"]
    info = await bot.get_chat(group.id)
    assert (info.title, info.type) == ("Friends", "group")
    assert await bot.get_chat_member_count(group.id) == 4
    with pytest.raises(TelegramBadRequest, match="user not found"):
        await bot.get_chat_member(group.id, 12345)


async def test_commands_descriptions_and_menu_button(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    group = fake.add_group("Friends", members=[alice])
    commands = [BotCommand(command="new", description="New game"), BotCommand(command="join", description="Join")]
    assert await bot.set_my_commands(commands, scope=BotCommandScopeChat(chat_id=group.id), language_code="ru")
    got = await bot.get_my_commands(scope=BotCommandScopeChat(chat_id=group.id), language_code="ru")
    assert [c.command for c in got] == ["new", "join"]
    assert await bot.get_my_commands() == []
    assert await bot.delete_my_commands(scope=BotCommandScopeChat(chat_id=group.id), language_code="ru")
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="New-Game", description="x")])
    assert fake.take_violations()[0].kind == "bot_command"
    assert await bot.set_my_description("Dominoes for groups", language_code="en")
    assert (await bot.get_my_description(language_code="en")).description == "Dominoes for groups"
    assert await bot.set_chat_menu_button(menu_button=MenuButtonCommands())
    assert (await bot.get_chat_menu_button()).type == "commands"
    assert await bot.delete_webhook(drop_pending_updates=True)
    assert await bot.send_chat_action(group.id, "upload_photo")


# --------------------------------------------------------------------------- errors as aiogram exceptions


async def test_runtime_errors_come_back_as_aiogram_exceptions(fake: FakeTelegram, bot: Bot) -> None:
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    fake.start_bot(alice)
    with pytest.raises(TelegramBadRequest) as missing_chat:
        await bot.send_message(999, "hi")
    assert missing_chat.value.message == tg.CHAT_NOT_FOUND
    with pytest.raises(TelegramForbiddenError) as never_opened:
        await bot.send_message(bob.id, "hi")
    assert never_opened.value.message == tg.CANT_INITIATE
    fake.block_bot(alice)
    with pytest.raises(TelegramForbiddenError) as blocked:
        await bot.send_message(alice.id, "hi")
    assert blocked.value.message == tg.BLOCKED
    fake.unblock_bot(alice)
    sent = await bot.send_message(alice.id, "hi")
    with pytest.raises(TelegramBadRequest) as gone:
        await bot.edit_message_text(chat_id=alice.id, message_id=sent.message_id + 50, text="x")
    assert gone.value.message == tg.MESSAGE_TO_EDIT_NOT_FOUND
    with pytest.raises(TelegramBadRequest) as same:
        await bot.edit_message_text(chat_id=alice.id, message_id=sent.message_id, text="hi")
    assert same.value.message == tg.NOT_MODIFIED
    assert await bot.delete_message(alice.id, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(alice.id, sent.message_id)
    with pytest.raises(
        TelegramBadRequest, match="query is too old and response timeout expired or query ID is invalid"
    ):
        await bot.answer_callback_query("123")
    fake.take_violations()


async def test_rule_breaking_requests_are_rejected_and_recorded(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"text": ""}, tg.TEXT_EMPTY, "missing_parameter"),
        ({"text": " \n "}, tg.TEXT_EMPTY, "text_empty"),
        ({"text": "x" * 4097}, tg.TEXT_TOO_LONG, "text_length"),
        (
            {"text": "<b>x", "parse_mode": "HTML"},
            "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
            "parse_entities",
        ),
        (
            {"text": "1.5", "parse_mode": "MarkdownV2"},
            "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
            "parse_entities",
        ),
        ({"text": "a", "reply_markup": keyboard([("Ё", "ё" * 33)])}, tg.BUTTON_DATA_INVALID, "callback_data"),
        (
            {
                "text": "a",
                "reply_markup": InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="No action")]]),
            },
            tg.TEXT_BUTTONS_UNALLOWED,
            "button_action",
        ),
    ]
    for kwargs, text, kind in cases:
        with pytest.raises(TelegramBadRequest) as error:
            await bot.send_message(alice.id, **kwargs)
        assert error.value.message == text
        assert fake.take_violations()[0].kind == kind
    # At the limits: 4096 characters (code points, so astral emoji count once) and 64 bytes of callback_data.
    await bot.send_message(alice.id, "😀" * 4096, reply_markup=keyboard([("ok", "d" * 64)]))
    await bot.send_message(alice.id, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")
    fake.assert_no_violations()


async def test_caption_and_callback_answer_limits(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    with pytest.raises(TelegramBadRequest) as caption:
        await bot.send_photo(alice.id, BufferedInputFile(png(10, 10), "p.png"), caption="c" * 1025)
    assert caption.value.message == tg.CAPTION_TOO_LONG
    await bot.send_photo(
        alice.id, BufferedInputFile(png(10, 10), "p.png"), caption="c" * 1024, reply_markup=keyboard([("Go", "go")])
    )
    query = fake.tap(alice, fake.messages(alice)[-1], data="go")
    with pytest.raises(TelegramBadRequest) as long_text:
        await bot.answer_callback_query(query.id, text="t" * 201)
    assert long_text.value.message == tg.CALLBACK_TEXT_TOO_LONG
    with pytest.raises(TelegramBadRequest) as foreign:
        await bot.answer_callback_query(query.id, url="https://example.com/")
    assert foreign.value.message == tg.URL_INVALID
    assert await bot.answer_callback_query(query.id, text="t" * 200)
    assert [v.kind for v in fake.take_violations()] == ["caption_length", "callback_text_length", "callback_url"]


async def test_deep_links_and_double_actions_are_accepted_but_recorded(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    buttons = InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text="Bad payload", url="https://t.me/dominoes_test_bot?start=join:game!")],
            [InlineKeyboardButton(text="Other bot", url="t.me/someone_else_bot?start=x")],
            [InlineKeyboardButton(text="Two", url="https://t.me/dominoes_test_bot?start=ok", callback_data="two")],
            [InlineKeyboardButton(text="Good", url="https://t.me/dominoes_test_bot?start=seat_3-A")],
        ]
    )
    await bot.send_message(alice.id, "Links", reply_markup=buttons)
    kinds = [(v.kind, v.rejected) for v in fake.take_violations()]
    assert kinds == [("deep_link_payload", False), ("deep_link_bot", False), ("button_action", False)]
    # A client drops an invalid payload: the tap opens the bot with a plain /start.
    assert fake.follow(alice, fake.messages(alice)[-1], text="Bad payload").text.text == "/start"  # type: ignore[union-attr]
    assert fake.follow(alice, fake.messages(alice, from_bot=True)[-1], text="Good").text.text == "/start seat_3-A"  # type: ignore[union-attr]
    with pytest.raises(TelegramBadRequest, match="BUTTON_URL_INVALID"):
        await bot.send_message(
            alice.id,
            "x",
            reply_markup=InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="u", url="not a url")]]),
        )
    fake.take_violations()


async def test_photo_rules(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    bad = [
        (png(2100, 100), tg.PHOTO_INVALID_DIMENSIONS, "photo_dimensions"),
        (png(9000, 1500, "1"), tg.PHOTO_INVALID_DIMENSIONS, "photo_dimensions"),
        (b"\x89PNG" + bytes(10 * 1024 * 1024), tg.PHOTO_TOO_BIG, "photo_size"),
        (b"not an image", tg.IMAGE_PROCESS_FAILED, "photo_invalid"),
    ]
    for data, text, kind in bad:
        with pytest.raises(TelegramBadRequest) as error:
            await bot.send_photo(alice.id, BufferedInputFile(data, "p.png"))
        assert error.value.message == text
        assert fake.take_violations()[0].kind == kind
    await bot.send_photo(alice.id, BufferedInputFile(png(2000, 100), "p.png"))  # ratio exactly 20
    with pytest.raises(TelegramBadRequest, match=r"wrong file identifier/HTTP URL specified"):
        await bot.send_photo(alice.id, "no-such-file-id")
    fake.assert_no_violations()


async def test_png_headers_are_checked_without_decoding(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    good = png(300, 200)
    bad_checksum = good[:29] + bytes([good[29] ^ 0xFF]) + good[30:]  # the IHDR chunk's CRC
    cases = [
        (bad_checksum, tg.IMAGE_PROCESS_FAILED, "photo_invalid", "bad header checksum"),
        (good[:-20], tg.IMAGE_PROCESS_FAILED, "photo_invalid", "truncated"),
        (good[:8] + good[33:], tg.IMAGE_PROCESS_FAILED, "photo_invalid", "IHDR"),  # no IHDR chunk
        (crafted_png(0, 100), tg.IMAGE_PROCESS_FAILED, "photo_invalid", "bad image size"),
        (crafted_png(100, 100, colour=5), tg.IMAGE_PROCESS_FAILED, "photo_invalid", "unknown PNG mode"),
        (crafted_png(100, 100, idat=False), tg.IMAGE_PROCESS_FAILED, "photo_invalid", "no IDAT"),
        (crafted_png(9000, 1500), tg.PHOTO_INVALID_DIMENSIONS, "photo_dimensions", "9000x1500"),
        (crafted_png(2001, 100), tg.PHOTO_INVALID_DIMENSIONS, "photo_dimensions", "2001x100"),
    ]
    for data, text, kind, detail in cases:
        with pytest.raises(TelegramBadRequest) as error:
            await bot.send_photo(alice.id, BufferedInputFile(data, "p.png"))
        assert error.value.message == text, detail
        violation = fake.take_violations()[0]
        assert (violation.kind, detail in violation.detail) == (kind, True), violation
    # As with Pillow's Image.open before, the pixels themselves are not decoded: the header gives the size.
    sent = await bot.send_photo(alice.id, BufferedInputFile(crafted_png(640, 480), "p.png"))
    assert sent.photo is not None and (sent.photo[-1].width, sent.photo[-1].height) == (640, 480)
    jpeg = io.BytesIO()
    Image.new("RGB", (500, 400)).save(jpeg, "JPEG")  # not a PNG: Pillow reads it
    sent = await bot.send_photo(alice.id, BufferedInputFile(jpeg.getvalue(), "p.jpg"))
    assert sent.photo is not None and (sent.photo[-1].width, sent.photo[-1].height) == (500, 400)
    fake.assert_no_violations()


async def test_png_size_agrees_with_pillow() -> None:
    for mode, size in [("1", (7, 3)), ("L", (64, 9)), ("P", (5, 300)), ("RGB", (1280, 720)), ("RGBA", (33, 34))]:
        data = png(*size, mode=mode)
        with Image.open(io.BytesIO(data)) as image:
            assert png_size(data) == image.size == size, mode
    sixteen = io.BytesIO()
    Image.new("I;16", (20, 10)).save(sixteen, "PNG")
    assert png_size(sixteen.getvalue()) == (20, 10)


async def test_group_migration(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    group = fake.add_group("Friends", members=[alice])
    supergroup = fake.migrate_to_supergroup(group)
    with pytest.raises(TelegramMigrateToChat) as moved:
        await bot.send_message(group.id, "board")
    assert moved.value.migrate_to_chat_id == supergroup.id and str(supergroup.id).startswith("-100")
    updates = await bot.get_updates()
    assert [u.message.migrate_to_chat_id for u in updates if u.message] == [supergroup.id, None]
    assert updates[1].message is not None and updates[1].message.migrate_from_chat_id == group.id
    sent = await bot.send_message(supergroup.id, "board")
    assert sent.chat.type == "supergroup"


async def test_malformed_parameters_get_telegrams_parse_errors(fake: FakeTelegram) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    url = f"{fake.base_url}/bot{fake.token}/sendMessage"
    cases = [
        ({"chat_id": "abc", "text": "x"}, tg.CHAT_NOT_FOUND, None),
        ({"text": "x"}, "Bad Request: chat_id is empty", "missing_parameter"),
        (
            {"chat_id": str(alice.id), "text": "x", "reply_markup": "{oops"},
            "Bad Request: can't parse reply keyboard markup JSON object",
            "json",
        ),
        (
            {"chat_id": str(alice.id), "text": "x", "reply_markup": '{"inline_keyboard": [{"text": "a"}]}'},
            'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays',
            "type",
        ),
        (
            {"chat_id": str(alice.id), "text": "x", "reply_markup": '{"inline_keyboard": [[{"callback_data": "a"}]]}'},
            "Bad Request: can't parse inline keyboard button: Can't find field \"text\"",
            "missing_field",
        ),
        (
            {"chat_id": str(alice.id), "text": "x", "parse_mode": "BBCode"},
            "Bad Request: unsupported parse_mode",
            "parse_mode",
        ),
    ]
    async with aiohttp.ClientSession() as http:
        for form, description, kind in cases:
            async with http.post(url, data=form) as response:
                assert (response.status, (await response.json())["description"]) == (400, description), form
            assert [v.kind for v in fake.take_violations()] == ([kind] if kind else []), form


async def test_nested_fields_are_named_in_errors(fake: FakeTelegram) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    url = f"{fake.base_url}/bot{fake.token}/sendMessage"
    markup = {"inline_keyboard": [[{"text": "a", "callback_data": "a"}, {"text": "b", "callback_data": 5}]]}
    form = {"chat_id": str(alice.id), "text": "x", "reply_markup": json.dumps(markup)}
    async with aiohttp.ClientSession() as http, http.post(url, data=form) as response:
        answer = await response.json()
    assert answer["description"] == (
        'Bad Request: field "reply_markup.inline_keyboard[0][1].callback_data" must be of type String'
    )
    assert [v.kind for v in fake.take_violations()] == ["type"]
    assert render_path(("reply_markup", "inline_keyboard", 0, 1)) == "reply_markup.inline_keyboard[0][1]"


async def test_request_bodies(fake: FakeTelegram) -> None:
    """Multipart and urlencoded bodies as any client may write them; broken ones are refused and recorded."""
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    url = f"{fake.base_url}/bot{fake.token}/sendPhoto"
    picture = png(40, 30)

    def multipart(*parts: tuple[str, bytes], close: bool = True) -> bytes:
        body = b"preamble\r\n" + b"".join(
            b"--XyZ\r\n" + head.encode() + b"\r\n\r\n" + data + b"\r\n" for head, data in parts
        )
        return body + (b"--XyZ--\r\nepilogue" if close else b"")

    good = multipart(
        ('Content-Disposition: form-data; name="chat_id"', str(alice.id).encode()),
        ('Content-Disposition: form-data; name="caption"\r\nContent-Type: text/plain; charset=utf-8', "Zoë".encode()),
        ('Content-Disposition: form-data; name="photo"', b"attach://pic"),
        ("Content-Disposition: form-data; name=\"pic\"; filename*=utf-8''t%C3%A9%20%22x%22.png", picture),
    )
    headers = {"Content-Type": 'multipart/form-data; boundary="XyZ"'}
    async with aiohttp.ClientSession() as http:
        async with http.post(url, data=good, headers=headers) as response:
            answer = await response.json()
        assert answer["ok"] and answer["result"]["caption"] == "Zoë", answer
        assert fake.calls("sendPhoto")[-1].params["photo"] == f"<file 'té \"x\".png' {len(picture)} bytes>"
        broken = [
            (multipart(('Content-Disposition: form-data; name="chat_id"', b"1"), close=False), MALFORMED),
            (multipart(("Content-Disposition: form-data", b"1")), MALFORMED),  # a part without a name
            (multipart(('Content-Disposition: form-data; name="chat_id"', b"\xff")), NOT_UTF8),
        ]
        for body, description in broken:
            async with http.post(url, data=body, headers=headers) as response:
                assert (response.status, (await response.json())["description"]) == (400, description)
            assert [v.kind for v in fake.take_violations()] == ["malformed_body"]
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        text_url = f"{fake.base_url}/bot{fake.token}/sendMessage"
        async with http.post(text_url, data=f"chat_id={alice.id}&text=a%2Bb+c".encode(), headers=form) as response:
            assert (await response.json())["result"]["text"] == "a+b c"
        async with http.post(
            text_url, data=f"chat_id={alice.id}&text=\xff".encode("latin-1"), headers=form
        ) as response:
            assert (response.status, (await response.json())["description"]) == (400, NOT_UTF8)
        assert [v.kind for v in fake.take_violations()] == ["malformed_body"]
    assert header_params('form-data; name="a\\"b"; filename=x.png') == (
        "form-data",
        {"name": 'a"b', "filename": "x.png"},
    )
    with pytest.raises(ValueError):
        header_params('form-data; name="unterminated')


async def raw_http(fake: FakeTelegram, data: bytes) -> bytes:
    """Send bytes as they are, read until the server closes the connection (bounded).

    The client does not half-close: a request with ``Connection: close`` (or a broken one) is
    what ends the connection, as with real clients."""
    reader, writer = await asyncio.open_connection(fake.server.http_host, fake.server.http_port)
    writer.write(data)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()


async def test_http_layer(fake: FakeTelegram) -> None:
    """Keep-alive, pipelining, chunked bodies, 100-continue, Connection: close, broken requests, big bodies."""
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    path = f"/bot{fake.token}"
    get_me = f"GET {path}/getMe HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    last = f"GET {path}/getMe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
    answer = await raw_http(fake, get_me + get_me + last)  # three requests in one write, answered in order
    assert answer.count(b"HTTP/1.1 200 OK\r\n") == 3 and answer.count(b'"username":"dominoes_test_bot"') == 3
    assert b"Connection: keep-alive" in answer and answer.rstrip().endswith(b"}") and b"Connection: close" in answer
    text = f"chat_id={alice.id}&text=chunks".encode()
    chunked = (
        (
            f"POST {path}/sendMessage HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            "Transfer-Encoding: chunked\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n"
        ).encode()
        + b"".join(b"%x;ext=1\r\n%s\r\n" % (len(piece), piece) for piece in (text[:5], text[5:]))
        + b"0\r\n\r\n"
    )
    answer = await raw_http(fake, chunked)
    assert answer.startswith(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n") and b'"text":"chunks"' in answer
    broken = await raw_http(fake, b"HELLO\r\n\r\n")  # not HTTP: aiohttp answers (as HTTP/1.0) and closes
    assert broken.split(b"\r\n", 1)[0] in (b"HTTP/1.0 400 Bad Request", b"HTTP/1.1 400 Bad Request")
    big = f"POST {path}/sendMessage HTTP/1.1\r\nHost: x\r\nContent-Length: {MAX_UPLOAD + 1}\r\n\r\n".encode()
    answer = await raw_http(fake, big)  # answered before the body, and the connection closed
    assert answer.startswith(b"HTTP/1.1 413 ") and answer.endswith(
        b'{"ok":false,"error_code":413,"description":"Request Entity Too Large"}'
    )
    assert fake.calls("sendMessage")[-1].status == 413
    fake.assert_no_violations()


async def test_a_long_poll_ends_when_the_client_goes_away(fake: FakeTelegram) -> None:
    _, writer = await asyncio.open_connection(fake.server.http_host, fake.server.http_port)
    writer.write(f"GET /bot{fake.token}/getUpdates?timeout=30 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await writer.drain()
    await asyncio.sleep(0.1)
    writer.close()
    entry = await fake.wait_for(lambda: next(iter(fake.calls("getUpdates")), None), 5, what="the cut long poll")
    assert (entry.status, entry.response) == (0, {"description": "the client closed the connection"})
    await fake.stop()  # and stopping the server with nobody polling is quick


async def test_other_real_methods_answer_plausibly(fake: FakeTelegram, bot: Bot) -> None:
    if fake.spec.source == "builtin":
        pytest.skip("the built-in table knows only the methods the bot uses")
    alice = fake.add_user("Alice")
    group = fake.add_group("Friends", members=[alice], bot_admin=True)
    assert await bot.set_chat_title(group.id, "Dominoes night")  # a real method the fake only acknowledges
    with pytest.raises(TelegramBadRequest, match="sendDice is not emulated"):
        await bot.send_dice(group.id)
    assert [v.kind for v in fake.take_violations()] == ["fake_unsupported"]


# --------------------------------------------------------------------------- limits and faults


async def test_flood_limits(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    group = fake.add_group("Friends", members=[alice])
    fake.set_limits(Limits(group_per_minute=3))
    for _ in range(3):
        await bot.send_message(group.id, "move")
    with pytest.raises(TelegramRetryAfter) as flood:
        await bot.send_message(group.id, "move")
    assert 55 <= flood.value.retry_after <= 60
    await bot.send_message(alice.id, "private chats are not limited by the group rule")
    fake.set_limits(Limits(chat_per_second=1.0, chat_burst=2))
    await bot.send_message(alice.id, "one")
    await bot.send_message(alice.id, "two")
    with pytest.raises(TelegramRetryAfter) as burst:
        await bot.send_message(alice.id, "three")
    assert burst.value.retry_after == 1
    assert len(fake.flood_events) == 2 and fake.flood_events[0].description == "Too Many Requests: retry after " + str(
        flood.value.retry_after
    )
    fake.assert_no_violations()


async def test_injected_faults(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    fake.start_bot(alice)
    fake.inject("429", method="sendMessage", retry_after=3)
    with pytest.raises(TelegramRetryAfter) as flood:
        await bot.send_message(alice.id, "a")
    assert flood.value.retry_after == 3
    fake.inject("500", chat=alice.id)
    with pytest.raises(TelegramServerError, match="Internal Server Error"):
        await bot.send_message(alice.id, "b")
    fake.inject("hang", method="sendMessage")
    with pytest.raises(TelegramNetworkError, match="Request timeout error"):
        await bot.send_message(alice.id, "c", request_timeout=1)
    assert await fake.wait_for(lambda: fake.calls("sendMessage")[-1].fault == "hang", 3)
    fake.inject("hang", method="sendMessage", apply_before_hang=True)
    with pytest.raises(TelegramNetworkError):
        await bot.send_message(alice.id, "delivered, answer lost", request_timeout=1)
    await fake.wait_for(lambda: len(fake.calls("sendMessage")) == 4, 3)
    assert [m.shown_text for m in fake.messages(alice, from_bot=True)] == ["delivered, answer lost"]
    fake.set_faults(Faults(rate_500=1.0, seed=7))
    with pytest.raises(TelegramServerError):
        await bot.send_message(alice.id, "d")
    assert await bot.get_updates() != []  # getUpdates is spared by default


async def test_random_faults_are_reproducible() -> None:
    outcomes = []
    for _ in range(2):
        fake = FakeTelegram(faults=Faults(rate_429=0.2, rate_500=0.2, seed=11))
        outcomes.append([getattr(fake.pipeline.injector.decide("sendMessage", 1), "kind", None) for _ in range(20)])
    assert outcomes[0] == outcomes[1] and {"429", "500", None} <= set(outcomes[0])


# --------------------------------------------------------------------------- test-side API


async def test_waiting_views_and_transcript(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Alice")
    group = fake.add_group("Friends", members=[alice])
    fake.send(alice, "/new", chat=group)

    async def fake_bot() -> None:
        updates = await bot.get_updates(timeout=5)
        chat_id = updates[0].message.chat.id  # type: ignore[union-attr]
        await bot.send_photo(
            chat_id, BufferedInputFile(png(320, 200), "t.png"), caption="Lobby", reply_markup=keyboard([("Join", "j")])
        )

    task = asyncio.create_task(fake_bot())
    lobby = await fake.wait_for_message(group, lambda m: m.photo is not None)
    await task
    assert fake.view(group)[-1].photo_size == (320, 200)
    assert "[Join]" in fake.screen(group) and "/new" in fake.screen(group)
    query = fake.tap(alice, lobby, text="Join")
    with pytest.raises(TimeoutError, match="an answer to callback"):
        await fake.wait_answered(query, timeout=0.2)
    assert fake.unanswered_callbacks() == [query]
    with pytest.raises(AssertionError, match="never answered"):
        fake.assert_callbacks_answered()
    text = fake.transcript_text()
    assert "sendPhoto chat=" in text and "tapped 'Join'" in text and "markup=[Join→j]" in text
    entry = fake.calls("sendPhoto", chat=group)[0]
    assert entry.ok and entry.response["caption"] == "Lobby"


async def test_builtin_spec_agrees_with_api_json() -> None:
    builtin = builtin_spec()
    for name in (
        "getMe",
        "getUpdates",
        "sendMessage",
        "sendPhoto",
        "editMessageMedia",
        "answerCallbackQuery",
        "getChatMember",
    ):
        assert builtin.method(name) is not None, name
    spec = load_spec()
    if spec.source == "builtin":
        pytest.skip("api.json is not beside this checkout")
    for name, method in builtin.methods.items():
        real = spec.method(name)
        assert real is not None, name
        for field_name, field in method.fields.items():
            assert field_name in real.fields, (name, field_name)
            assert real.fields[field_name].required == field.required, (name, field_name)
            assert real.fields[field_name].limit == field.limit, (name, field_name)


class TestFormatting:
    """Pure text rules, no server (async only because the module's tests are all marked asyncio)."""

    CASES: ClassVar[list[tuple[str, str | None, str, list[tuple[str, int, int]]]]] = [
        ("<b>😀x</b> y", "HTML", "😀x y", [("bold", 0, 3)]),
        (
            "*bold* _it_ __u__ ~s~ ||sp|| `c`",
            "MarkdownV2",
            "bold it u s sp c",
            [
                ("bold", 0, 4),
                ("italic", 5, 2),
                ("underline", 8, 1),
                ("strikethrough", 10, 1),
                ("spoiler", 12, 2),
                ("code", 15, 1),
            ],
        ),
        ("[site](https://example.com/a\\)b) end\\.", "MarkdownV2", "site end.", [("text_link", 0, 4)]),
        ("*b* _i_ [l](http://x.org)", "Markdown", "b i l", [("bold", 0, 1), ("italic", 2, 1), ("text_link", 4, 1)]),
        (
            "  hi @alice see https://t.me/x #tag /help  ",
            None,
            "hi @alice see https://t.me/x #tag /help",
            [("mention", 3, 6), ("url", 14, 14), ("hashtag", 29, 4), ("bot_command", 34, 5)],
        ),
    ]

    async def test_entities(self) -> None:
        for source, mode, text, entities in self.CASES:
            formatted = format_text(source, mode, None, allow_empty=False, empty_error=tg.TEXT_EMPTY)
            assert formatted.text == text, source
            assert [(e["type"], e["offset"], e["length"]) for e in formatted.entities] == entities, source

    async def test_html_errors_name_byte_offsets(self) -> None:
        for source, message in [
            ("a < b", 'Unsupported start tag "" at byte offset 2'),
            ("ё<foo>", 'Unsupported start tag "foo" at byte offset 2'),
            ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
            ('<span class="x">s</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ]:
            with pytest.raises(tg.ApiError) as error:
                format_text(source, "HTML", None, allow_empty=False, empty_error=tg.TEXT_EMPTY)
            assert error.value.description == f"Bad Request: can't parse entities: {message}"

    async def test_json_round_trip_of_entities(self) -> None:
        formatted = format_text(
            '<pre><code class="language-python">x = 1</code></pre>', "HTML", None, allow_empty=False, empty_error=""
        )
        assert json.loads(json.dumps(formatted.json_entities())) == [
            {"type": "pre", "offset": 0, "length": 5, "language": "python"}
        ]

"""Helpers for friend rooms and rematches, as a person meets them: menus, links and buttons.

Like :mod:`tests.kit.people.players`, nothing here reaches into the bot: links are read from the
room message, buttons are found by their callback data under messages the person can see.
"""

from __future__ import annotations

import re

from fake_telegram import CallbackQuery, Chat, FakeTelegram, Message, User
from tests.kit.people.players import GAME_OVER, TURN_TIMEOUT, result_messages

ROOM_LINK = re.compile(r"https://t\.me/\w+\?start=(r[A-Za-z0-9_-]+)")
REMATCH_DATA = re.compile(r"^rm:(?P<game>\d+)$")
FRIEND_MENU = "ro:menu::0"


def data_on(fake: FakeTelegram, message: Message, pattern: re.Pattern[str] | str) -> list[str]:
    """Callback data of the live message's buttons that match ``pattern`` (a regex or an exact string)."""
    live = fake.world.message(message.chat_id, message.message_id)
    if live is None or live.deleted:
        return []
    found = []
    for row in live.inline_keyboard:
        for button in row:
            data = button.get("callback_data") or ""
            if (isinstance(pattern, str) and data == pattern) or (
                isinstance(pattern, re.Pattern) and pattern.match(data)
            ):
                found.append(data)
    return found


def live(fake: FakeTelegram, message: Message) -> Message:
    found = fake.world.message(message.chat_id, message.message_id)
    assert found is not None
    return found


async def tap(fake: FakeTelegram, user: User, message: Message, data: str) -> CallbackQuery:
    query = fake.tap(user, message, data=data)
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    return query


def room_link(fake: FakeTelegram, message: Message) -> str | None:
    found = ROOM_LINK.search(live(fake, message).shown_text)
    return found.group(0) if found else None


async def open_room(fake: FakeTelegram, user: User, preset: str) -> tuple[Message, str]:
    """/start, "Play with a friend", the rule set; returns the room message and its link."""
    before = len(fake.messages(user))
    fake.start_bot(user)

    def menu() -> Message | None:
        for message in fake.messages(user, from_bot=True)[before:]:
            if data_on(fake, message, FRIEND_MENU):
                return message
        return None

    message = await fake.wait_for(menu, TURN_TIMEOUT, what="the private menu with Play with a friend")
    await tap(fake, user, message, FRIEND_MENU)
    choice = f"ro:preset:{preset}:0"
    await fake.wait_for(lambda: data_on(fake, message, choice) or None, TURN_TIMEOUT, what="the rule sets")
    await tap(fake, user, message, choice)
    link = await fake.wait_for(lambda: room_link(fake, message), TURN_TIMEOUT, what="the invitation link")
    return message, link


def newest_text(fake: FakeTelegram, user: User, after: int) -> str | None:
    """The text of the bot's newest message to ``user`` with an id above ``after``."""
    newer = [m for m in fake.messages(user, from_bot=True) if m.message_id > after]
    return newer[-1].shown_text if newer else None


async def reply_to_link(fake: FakeTelegram, user: User, link: str, words: str) -> str:
    """``user`` opens ``link``; returns the bot's reply that contains ``words``."""
    floor = fake.last_message(user)
    after = floor.message_id if floor is not None else 0
    fake.open_link(user, link)

    def reply() -> str | None:
        for message in fake.messages(user, from_bot=True):
            if message.message_id > after and words in message.shown_text:
                return message.shown_text
        return None

    return await fake.wait_for(reply, TURN_TIMEOUT, what=f"{user.name}'s answer containing {words!r}")


def final_results(fake: FakeTelegram, chat: Chat | User) -> list[Message]:
    return [m for m in result_messages(fake, chat) if GAME_OVER.search(m.shown_text)]


def rematch_button(fake: FakeTelegram, message: Message) -> str | None:
    found = data_on(fake, message, REMATCH_DATA)
    return found[0] if found else None


def button_texts(fake: FakeTelegram, message: Message) -> list[str]:
    return [str(b.get("text", "")) for row in live(fake, message).inline_keyboard for b in row]

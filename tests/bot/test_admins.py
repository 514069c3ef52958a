"""Who administers a group (bot/telegram/admins.py): a change asks Telegram about that one member
then and there; what is only shown may use the list remembered for a minute.

Telegram is replaced by a stub that answers ``getChatMember`` and ``getChatAdministrators`` from a
dict of statuses and counts the calls; the cache reads a fake time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from aiogram import Bot
from aiogram.enums import ChatMemberStatus
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import GetChatMember

from bot.telegram.admins import AdminCache

CHAT = -100123
ANN, BOB, CAROL = 7, 8, 9


@dataclass
class User:
    id: int


@dataclass
class Member:
    status: ChatMemberStatus
    user: User


@dataclass
class Telegram:
    statuses: dict[int, ChatMemberStatus]
    calls: list[str] = field(default_factory=list)
    failing: bool = False

    async def get_chat_member(self, chat_id: int, user_id: int) -> Member:
        self.calls.append("getChatMember")
        if self.failing:
            raise TelegramBadRequest(GetChatMember(chat_id=chat_id, user_id=user_id), "Bad Request: chat not found")
        return Member(self.statuses.get(user_id, ChatMemberStatus.LEFT), User(user_id))

    async def get_chat_administrators(self, chat_id: int) -> list[Member]:
        self.calls.append("getChatAdministrators")
        admins = (ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR)
        return [Member(status, User(uid)) for uid, status in self.statuses.items() if status in admins]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def a_group() -> tuple[Telegram, Bot, AdminCache]:
    telegram = Telegram({ANN: ChatMemberStatus.CREATOR, BOB: ChatMemberStatus.ADMINISTRATOR})
    telegram.statuses[CAROL] = ChatMemberStatus.MEMBER
    return telegram, cast(Bot, telegram), AdminCache(now=Clock())


async def test_a_demoted_admin_is_refused_a_change_at_once_while_the_list_is_remembered() -> None:
    telegram, bot, cache = a_group()
    assert await cache.is_admin(bot, CHAT, BOB)  # the list, remembered for a minute
    telegram.statuses[BOB] = ChatMemberStatus.MEMBER  # demoted a moment later
    assert not await cache.is_admin_now(bot, CHAT, BOB)
    # What is only shown learns it too: the remembered list no longer has him.
    assert not await cache.is_admin(bot, CHAT, BOB)
    assert telegram.calls == ["getChatAdministrators", "getChatMember"]


async def test_a_promoted_member_may_make_a_change_at_once() -> None:
    telegram, bot, cache = a_group()
    assert not await cache.is_admin(bot, CHAT, CAROL)
    telegram.statuses[CAROL] = ChatMemberStatus.ADMINISTRATOR
    assert await cache.is_admin_now(bot, CHAT, CAROL)
    assert await cache.is_admin(bot, CHAT, CAROL)
    assert telegram.calls == ["getChatAdministrators", "getChatMember"]


async def test_every_change_asks_and_a_failed_question_is_a_no() -> None:
    telegram, bot, cache = a_group()
    assert await cache.is_admin_now(bot, CHAT, ANN) and await cache.is_admin_now(bot, CHAT, ANN)
    assert telegram.calls == ["getChatMember", "getChatMember"]
    telegram.failing = True
    assert not await cache.is_admin_now(bot, CHAT, ANN)
    assert not await cache.is_admin_now(bot, CHAT, CAROL)

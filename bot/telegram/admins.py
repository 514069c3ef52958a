"""Who administers a group, asked from Telegram: for a change, about that one member right then;
for a view, from a list remembered for a minute.

Shared: /settings and its taps (bot/handlers/settings.py), /kill and /kick
(bot/handlers/table_manners.py) ask it.

/kill, /kick and a tap on /settings change a game or a chat's defaults, and only an
administrator (or, for /kill and /kick, the game's creator) may make them: :func:`is_admin_now`
asks ``getChatMember`` for the one member before the change, so someone demoted a moment ago is
refused, and someone promoted a moment ago is not. It is one request, not a sent message, and
only for a command or tap of someone who is not the game's creator. What only decides what is
shown (the buttons under /settings) takes :func:`is_admin`: one ``getChatAdministrators`` call
answers for the whole chat for a minute, so a burst of /settings costs one request. Either way a
failed request counts as "not an administrator" (and is not remembered).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from aiogram import Bot
from aiogram.enums import ChatMemberStatus
from aiogram.exceptions import TelegramAPIError

log = logging.getLogger(__name__)

TTL = 60.0
ADMIN_STATUSES = frozenset({ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR})


class AdminCache:
    def __init__(self, ttl: float = TTL, now: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.now = now
        self._admins: dict[int, tuple[float, frozenset[int]]] = {}  # chat -> (when asked, user ids)

    async def is_admin(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        admins = await self.admins(bot, chat_id)
        return admins is not None and user_id in admins

    async def is_admin_now(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is the chat's creator or an administrator now: ``getChatMember``
        asked this very moment (and the remembered list, if any, told the answer)."""
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except TelegramAPIError as error:
            log.info("getChatMember %s %s: %s", chat_id, user_id, error)
            return False
        admin = member.status in ADMIN_STATUSES
        cached = self._admins.get(chat_id)
        if cached is not None:
            when, found = cached
            self._admins[chat_id] = (when, (found | {user_id}) if admin else (found - {user_id}))
        return admin

    async def admins(self, bot: Bot, chat_id: int) -> frozenset[int] | None:
        """The user ids of the chat's creator and administrators; None when Telegram cannot say."""
        cached = self._admins.get(chat_id)
        if cached is not None and self.now() - cached[0] < self.ttl:
            return cached[1]
        try:
            members = await bot.get_chat_administrators(chat_id)
        except TelegramAPIError as error:
            log.info("getChatAdministrators %s: %s", chat_id, error)
            return None
        found = frozenset(member.user.id for member in members)
        self._admins[chat_id] = (self.now(), found)
        if len(self._admins) > 4096:
            self._forget_old()
        return found

    def forget(self, chat_id: int) -> None:
        self._admins.pop(chat_id, None)

    def _forget_old(self) -> None:
        now = self.now()
        for chat_id, (when, _) in list(self._admins.items()):
            if now - when >= self.ttl:
                del self._admins[chat_id]


# The bot's one cache (the routers ask it).
CACHE = AdminCache()


async def is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether ``user_id`` is the chat's creator or one of its administrators (asked at most once a
    minute): for what is shown, never for a change (:func:`is_admin_now`)."""
    return await CACHE.is_admin(bot, chat_id, user_id)


async def is_admin_now(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether ``user_id`` is the chat's creator or one of its administrators, asked from Telegram
    now: for a change only administrators may make (/kill, /kick, a tap on /settings)."""
    return await CACHE.is_admin_now(bot, chat_id, user_id)

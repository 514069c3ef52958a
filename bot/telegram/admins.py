"""Who administers a group, asked from Telegram and remembered for a minute.

Shared: /settings (bot/handlers/settings.py) and /kill, /kick (bot/handlers/table_manners.py) ask it.

/kill and /kick are for the game's creator or a chat administrator.  One
``getChatAdministrators`` call answers for the whole chat, so a burst of commands costs one
request; a failed request counts as "not an administrator" (and is not remembered).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError

log = logging.getLogger(__name__)

TTL = 60.0


class AdminCache:
    def __init__(self, ttl: float = TTL, now: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.now = now
        self._admins: dict[int, tuple[float, frozenset[int]]] = {}  # chat -> (when asked, user ids)

    async def is_admin(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        admins = await self.admins(bot, chat_id)
        return admins is not None and user_id in admins

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
    """Whether ``user_id`` is the chat's creator or one of its administrators (asked at most once a minute)."""
    return await CACHE.is_admin(bot, chat_id, user_id)

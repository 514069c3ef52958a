"""Cross-cutting work on every update: remember who wrote and whether we may write back privately."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, Message, TelegramObject, User

from bot.telegram.people import Person
from storage import Database


def full_name(user: User) -> str:
    return " ".join(part for part in (user.first_name, user.last_name) if part) or (user.username or str(user.id))


class PeopleMiddleware(BaseMiddleware):
    """Puts ``person`` (a :class:`~bot.table.service.Person`) into the handler's data.

    A private message from a user proves the bot may write to them; that is remembered.
    """

    def __init__(self, db: Database) -> None:
        self.db = db

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        user: User | None = getattr(event, "from_user", None)
        if user is not None and not user.is_bot:
            name = full_name(user)
            if isinstance(event, Message):
                await self.db.users.seen(user.id, name, user.username, user.language_code)
                if event.chat.type == ChatType.PRIVATE:
                    await self.db.users.set_private_ok(user.id, True)
                else:
                    await self.db.users.chat_seen(event.chat.id, event.chat.type, event.chat.title)
            data["person"] = Person(user.id, name, private_ok=await self.db.users.private_ok(user.id))
        elif isinstance(event, CallbackQuery):
            data["person"] = None
        return await handler(event, data)


class InFlight(BaseMiddleware):
    """Counts the updates being handled, so that shutdown lets them finish before the database closes.

    aiogram stops polling on SIGTERM but leaves the handlers it started running; closing the
    database under them would fail a tap half-way (its move is committed or not, but unanswered).
    """

    def __init__(self) -> None:
        self._running = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        self._running += 1
        self._idle.clear()
        try:
            return await handler(event, data)
        finally:
            self._running -= 1
            if self._running == 0:
                self._idle.set()

    async def drained(self, timeout: float) -> bool:
        """Wait until no update is being handled (at most ``timeout`` seconds); whether none is."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

"""Cross-cutting work on every update: remember who wrote and whether we may write back privately,
change nothing twice for an update delivered again, and let shutdown wait for the updates in hand."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramAPIError
from aiogram.types import CallbackQuery, Message, TelegramObject, Update, User

from bot.telegram.people import Person
from storage import AlreadyHandledError, Database
from storage.handled import handling

log = logging.getLogger(__name__)


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


class OncePerUpdate(BaseMiddleware):
    """Every update changes the games and settings at most once, however often it is delivered.

    Telegram delivers an update again when its delivery was not confirmed: the instance was killed
    after committing its change but before its next ``getUpdates`` (or its answer to the webhook
    POST), or the POST's answer was lost and it was retried. The first change an update makes is
    committed with a row naming the update (storage/handled.py, through :func:`handling` around the
    handler); an update found there is skipped, quietly (a tap is answered once more, without a
    word, in case its first answer died with the instance that was to give it: Telegram refuses a
    second answer, which is harmless), and one delivered twice at once is stopped by that row at its change
    (:class:`~storage.AlreadyHandledError`), which then writes nothing. An update that changed
    nothing (``/help``) is handled again: that changes nothing either.
    """

    def __init__(self, db: Database) -> None:
        self.db = db

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        update_id = event.update_id
        if await self.db.handled.seen(update_id):
            log.info("update %s was delivered again; it changed what it had to already", update_id)
            await _stop_spinner(event.callback_query)
            return None
        with handling(update_id):
            try:
                return await handler(event, data)
            except AlreadyHandledError:
                log.info("update %s was handled meanwhile; this delivery changed nothing", update_id)
                return None


async def _stop_spinner(query: CallbackQuery | None) -> None:
    """Answer a tap delivered again, with no words: its person's spinner stops at once, should its
    first answer have been lost (a second answer is refused by Telegram, which changes nothing)."""
    if query is None:
        return
    try:
        await query.answer()
    except TelegramAPIError as error:
        log.debug("tap %s delivered again: its answer was refused (%s)", query.id, error)

"""Sending to Telegram within its rules: retry after 429, shrug off "not modified", never crash a game.

Every call returns what the caller needs (a message id, or whether it worked) and logs
instead of raising, because a failed send must never undo or block a committed move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    MenuButtonWebApp,
    Message,
    WebAppInfo,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

ATTEMPTS = 5
MAX_RETRY_AFTER = 60.0


class Unreachable(Exception):
    """The user never opened a private chat with the bot, or blocked it."""


class Outbox:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        # Called (old chat id, new chat id) when a send finds its group became a supergroup
        # (bot/table/supergroup.py); run as a task, since the send may hold the game's lock.
        self.on_migrate: Callable[[int, int], Awaitable[object]] | None = None
        self._migrations: set[asyncio.Task[object]] = set()
        self._deleting: set[asyncio.Future[None]] = set()

    def _migrated(self, chat_id: int, error: TelegramMigrateToChat) -> None:
        log.warning("chat %s became supergroup %s", chat_id, error.migrate_to_chat_id)
        if self.on_migrate is None:
            return
        task: asyncio.Task[object] = asyncio.ensure_future(self.on_migrate(chat_id, error.migrate_to_chat_id))
        self._migrations.add(task)
        task.add_done_callback(self._migrations.discard)

    async def _call(self, what: str, call: Callable[[], Awaitable[T]]) -> T | None:
        """Run one Bot API call, retrying flood waits and passing faults; None if it cannot be done."""
        delay = 0.5
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return await call()
            except TelegramRetryAfter as error:
                wait = min(float(error.retry_after), MAX_RETRY_AFTER)
                log.warning("%s: flood wait %.0fs (attempt %d)", what, wait, attempt)
                await asyncio.sleep(wait)
            except (TelegramServerError, TelegramNetworkError) as error:
                log.warning("%s: %s (attempt %d)", what, type(error).__name__, attempt)
                await asyncio.sleep(delay)
                delay *= 2
            except TelegramForbiddenError:
                raise Unreachable(what) from None
            except TelegramBadRequest as error:
                if "message is not modified" in error.message:
                    return None
                log.warning("%s: %s", what, error.message)
                raise
        log.error("%s: gave up after %d attempts", what, ATTEMPTS)
        return None

    async def _counted(self, what: str, chat_id: int, call: Callable[[], Awaitable[T]]) -> T | None:
        """A message or edit into ``chat_id`` (paced by the pacing middleware); None if Telegram refused it."""
        try:
            return await self._call(what, call)
        except TelegramBadRequest:
            return None
        except TelegramMigrateToChat as error:
            self._migrated(chat_id, error)
            return None

    async def send_text(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *, notify: bool = True
    ) -> int | None:
        message = await self._counted(
            "sendMessage",
            chat_id,
            lambda: self.bot.send_message(chat_id, text, reply_markup=markup, disable_notification=not notify),
        )
        return message.message_id if isinstance(message, Message) else None

    async def send_photo(
        self,
        chat_id: int,
        photo: bytes,
        filename: str,
        caption: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        notify: bool = True,
    ) -> int | None:
        message = await self._counted(
            "sendPhoto",
            chat_id,
            lambda: self.bot.send_photo(
                chat_id,
                BufferedInputFile(photo, filename),
                caption=caption,
                reply_markup=markup,
                disable_notification=not notify,
            ),
        )
        return message.message_id if isinstance(message, Message) else None

    async def send_animation(
        self,
        chat_id: int,
        animation: bytes | str,
        filename: str,
        caption: str,
        *,
        width: int,
        height: int,
        seconds: int,
    ) -> tuple[int, str] | None:
        """An MP4 or GIF, played inline; ``animation`` is the bytes, or a file id Telegram gave
        before. Returns (message id, file id to send it again with), or None."""
        media = BufferedInputFile(animation, filename) if isinstance(animation, bytes) else animation
        message = await self._counted(
            "sendAnimation",
            chat_id,
            lambda: self.bot.send_animation(
                chat_id, media, caption=caption, width=width, height=height, duration=seconds
            ),
        )
        if not isinstance(message, Message):
            return None
        sent = message.animation or message.document
        return message.message_id, sent.file_id if sent is not None else ""

    # The edits say whether the message still shows what was asked: False when it is gone.
    # "message is not modified" counts as shown (``_call`` returns None for it, not an error).

    async def edit_photo(
        self,
        chat_id: int,
        message_id: int,
        photo: bytes,
        filename: str,
        caption: str,
        markup: InlineKeyboardMarkup | None = None,
    ) -> bool:
        """Replace a photo message's picture, caption and buttons."""
        media = InputMediaPhoto(media=BufferedInputFile(photo, filename), caption=caption)
        return await self._edited(
            "editMessageMedia",
            chat_id,
            lambda: self.bot.edit_message_media(
                media=media, chat_id=chat_id, message_id=message_id, reply_markup=markup
            ),
        )

    async def edit_caption(
        self, chat_id: int, message_id: int, caption: str, markup: InlineKeyboardMarkup | None = None
    ) -> bool:
        """Replace a photo message's caption and buttons, keeping its picture."""
        return await self._edited(
            "editMessageCaption",
            chat_id,
            lambda: self.bot.edit_message_caption(
                chat_id=chat_id, message_id=message_id, caption=caption, reply_markup=markup
            ),
        )

    async def edit_text(
        self, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> bool:
        return await self._edited(
            "editMessageText",
            chat_id,
            lambda: self.bot.edit_message_text(text=text, chat_id=chat_id, message_id=message_id, reply_markup=markup),
        )

    async def edit_markup(self, chat_id: int, message_id: int, markup: InlineKeyboardMarkup | None) -> bool:
        return await self._edited(
            "editMessageReplyMarkup",
            chat_id,
            lambda: self.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id, reply_markup=markup),
        )

    async def _edited(self, what: str, chat_id: int, call: Callable[[], Awaitable[object]]) -> bool:
        try:
            await self._call(what, call)
        except TelegramBadRequest:
            return False
        except TelegramMigrateToChat as error:
            self._migrated(chat_id, error)
            return False
        return True

    async def set_menu_app(self, chat_id: int, text: str, url: str) -> bool:
        """The private chat's menu button opens the Mini App at ``url``; False if it cannot be set."""
        button = MenuButtonWebApp(text=text, web_app=WebAppInfo(url=url))
        try:
            done = await self._call(
                "setChatMenuButton", lambda: self.bot.set_chat_menu_button(chat_id=chat_id, menu_button=button)
            )
        except (TelegramBadRequest, Unreachable):
            return False
        return bool(done)

    def delete_soon(self, chat_id: int, message_id: int) -> None:
        """Delete a replaced message without waiting for it: nothing depends on when it goes, and
        the caller usually holds the game's lock, which the next tap is waiting for."""
        task = asyncio.ensure_future(self.delete(chat_id, message_id))
        self._deleting.add(task)
        task.add_done_callback(self._deleting.discard)

    async def delete(self, chat_id: int, message_id: int) -> None:
        # Already gone, or too old to delete: nothing to undo.
        with contextlib.suppress(TelegramBadRequest, TelegramMigrateToChat, Unreachable):
            try:
                await self._call("deleteMessage", lambda: self.bot.delete_message(chat_id, message_id))
            except TelegramAPIError as error:  # often run as a task nobody awaits: logged here
                log.info("deleteMessage %s/%s: %s", chat_id, message_id, error)

    async def answer(self, callback_id: str, text: str = "", *, alert: bool = False, url: str | None = None) -> None:
        """Answer a button tap; a late or failed answer only costs the spinner on the user's screen."""
        try:
            await self.bot.answer_callback_query(callback_id, text=text[:200] or None, show_alert=alert, url=url)
        except TelegramAPIError as error:
            log.info("answerCallbackQuery: %s", error)

"""Which language each chat is spoken to in.

- A private chat, and a person's alerts anywhere: the language they chose with /language, else
  Telegram's ``language_code`` (the latest seen), else English.
- A group: its setting (/settings), which the creator of the chat's first game gives it; until
  then a reply follows whoever wrote, and anything else is English.

Words for a chat are built inside ``async with languages.speaking_to(chat_id)``; the update's own
chat is set by :class:`LanguageMiddleware`.  Lookups are cached in memory; every change of a
language goes through this class, which keeps the cache true.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Message, TelegramObject, User

from bot.words.i18n import DEFAULT_LANGUAGE, LANGUAGES, language_of, speaking
from storage import Database


class Languages:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._chosen: dict[int, str | None] = {}  # user -> their /language choice
        self._codes: dict[int, str | None] = {}  # user -> Telegram's language_code, the latest seen
        self._chats: dict[int, str | None] = {}
        # With several instances, a choice made through another one must count at once: read it
        # from the database every time rather than keep it.
        self._keep = not db.shared

    async def of_user(self, user_id: int, telegram_code: str | None = None) -> str:
        """A person's language; ``telegram_code`` is the update's ``from_user.language_code``, if there is one."""
        if user_id not in self._chosen or not self._keep:
            user = await self.db.users.get(user_id)
            self._chosen[user_id] = user.chosen_language if user and user.chosen_language in LANGUAGES else None
            self._codes[user_id] = user.language if user else None
        if telegram_code:
            self._codes[user_id] = telegram_code
        return self._chosen[user_id] or language_of(self._codes.get(user_id))

    async def of_chat(self, chat_id: int, *, writer: str | None = None) -> str:
        """The language of ``chat_id``: a user's for a private chat; a group's setting, else ``writer``'s."""
        if chat_id > 0:
            return await self.of_user(chat_id)
        if chat_id not in self._chats or not self._keep:
            row = await self.db.chats.get(chat_id)
            language = row.language if row is not None else None
            self._chats[chat_id] = language if language in LANGUAGES else None
        return self._chats[chat_id] or writer or DEFAULT_LANGUAGE

    @asynccontextmanager
    async def speaking_to(self, chat_id: int) -> AsyncIterator[str]:
        """Words built inside the block are in ``chat_id``'s language (which the block gets)."""
        language = await self.of_chat(chat_id)
        with speaking(language):
            yield language

    async def choose(self, user_id: int, name: str, language: str) -> None:
        """The person chose ``language`` (/language)."""
        await self.db.users.choose_language(user_id, name, language)
        self._chosen[user_id] = language

    async def adopt(self, chat_id: int, chat_type: str, language: str) -> str:
        """A group without a language takes ``language`` (its first game's creator's); the group's language."""
        if self._chats.get(chat_id) is None or not self._keep:
            self._chats[chat_id] = await self.db.chats.adopt_language(chat_id, chat_type, language)
        return self._chats[chat_id] or language

    def forget_chat(self, chat_id: int) -> None:
        """The chat's language was changed elsewhere (/settings, a migration): read it again next time."""
        self._chats.pop(chat_id, None)


class LanguageMiddleware(BaseMiddleware):
    """Handlers build their words in the language of the update's reader.

    A message: its chat's language (a group without one: the writer's). A tap: the tapper's, since
    its answer (an alert or a toast) is read by them alone; what a tap changes in a group is built
    inside ``languages.speaking_to(group)``. The reader's language is also in ``data["language"]``.
    """

    def __init__(self, languages: Languages) -> None:
        self.languages = languages

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        personal, language = await readers_language(self.languages, event)
        data["language"] = personal
        with speaking(language):
            return await handler(event, data)


async def readers_language(languages: Languages, event: TelegramObject) -> tuple[str, str]:
    """The language of whoever sent ``event``, and the one its answer is read in (a group's message:
    the group's; see :class:`LanguageMiddleware`)."""
    user: User | None = getattr(event, "from_user", None)
    personal = DEFAULT_LANGUAGE
    if user is not None and not user.is_bot:
        personal = await languages.of_user(user.id, user.language_code)
    if isinstance(event, Message) and event.chat.id < 0:
        return personal, await languages.of_chat(event.chat.id, writer=personal)
    return personal, personal

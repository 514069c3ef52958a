"""A refusal a handler lets go is answered in one place (bot/handlers/errors.py): a tap with an
alert, a command with a message (a quiet reply in a group), in its reader's language; any other
error still gets the catch-all "something went wrong"."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiogram import Bot, Dispatcher, Router
from aiogram.client.session.base import BaseSession
from aiogram.filters import Command, ExceptionTypeFilter
from aiogram.methods import AnswerCallbackQuery, SendMessage, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import CallbackQuery, Chat, Message, Update, User

from bot.handlers import errors, lobby
from bot.table.service import TableError
from bot.telegram.callbacks import LobbyAction, LobbyTap
from bot.telegram.quiet import QuietAnswers
from bot.words.i18n import speaking
from bot.words.languages import Languages
from bot.words.refusals import Refusal
from storage import Database

ANN = User(id=7, is_bot=False, first_name="Ann", language_code="ru")
GROUP = Chat(id=-100, type="group", title="Dominoes")
PRIVATE = Chat(id=7, type="private")


class Recording(BaseSession):
    """Answers every request as Telegram would, and keeps it."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[TelegramMethod[Any]] = []

    async def make_request(self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None) -> Any:
        self.requests.append(method)
        if isinstance(method, SendMessage):
            chat = GROUP if method.chat_id == GROUP.id else PRIVATE
            return Message(message_id=len(self.requests), date=0, chat=chat, text=method.text)
        return True

    async def close(self) -> None:
        return None

    def stream_content(self, *args: Any, **kwargs: Any) -> AsyncGenerator[bytes, None]:
        raise NotImplementedError


def refusing() -> Router:
    router = Router()

    @router.message(Command("leave"))
    async def leave(message: Message) -> None:
        raise TableError(Refusal.NOT_SEATED)

    @router.message(Command("boom"))
    async def boom(message: Message) -> None:
        raise RuntimeError("a bug")

    @router.callback_query()
    async def tap(query: CallbackQuery) -> None:
        raise TableError(Refusal.CREATOR_ONLY)

    return router


@pytest_asyncio.fixture
async def languages(tmp_path: Path) -> AsyncIterator[Languages]:
    db = await Database.open(f"sqlite:///{tmp_path / 'refusals.sqlite3'}")
    await db.migrate()
    try:
        yield Languages(db)
    finally:
        await db.close()


def answering() -> Router:
    """bot/handlers/errors.py's error handlers on a router of the test's own: the module's router is the
    bot's, and a router is attached to one dispatcher for good (the bot's, in another test of this process)."""
    router = Router()
    router.errors(ExceptionTypeFilter(TableError))(errors.refused)
    router.errors()(errors.on_error)
    return router


DISPATCHER = Dispatcher()
DISPATCHER.include_routers(refusing(), answering())


async def handle(update: Update, languages: Languages) -> list[TelegramMethod[Any]]:
    session = Recording()
    bot = Bot("42:TEST", session=session)
    await DISPATCHER.feed_update(bot, update, languages=languages, quiet=QuietAnswers(every=60))
    return session.requests


def russian(refusal: Refusal) -> str:
    with speaking("ru"):
        return refusal.text


def command(chat: Chat, text: str) -> Update:
    return Update(update_id=1, message=Message(message_id=5, date=0, chat=chat, from_user=ANN, text=text))


@pytest.mark.asyncio
async def test_a_refused_tap_is_answered_with_its_alert_in_the_tappers_language(languages: Languages) -> None:
    query = CallbackQuery(id="q1", from_user=ANN, chat_instance="c", data="lb:1:start")
    sent = await handle(Update(update_id=1, callback_query=query), languages)
    assert len(sent) == 1 and isinstance(sent[0], AnswerCallbackQuery)
    assert (sent[0].callback_query_id, sent[0].text, sent[0].show_alert) == ("q1", russian(Refusal.CREATOR_ONLY), True)


@pytest.mark.asyncio
async def test_a_refused_command_in_a_group_gets_a_quiet_reply(languages: Languages) -> None:
    sent = await handle(command(GROUP, "/leave"), languages)
    assert len(sent) == 1 and isinstance(sent[0], SendMessage)
    assert sent[0].chat_id == GROUP.id and sent[0].text == russian(Refusal.NOT_SEATED)
    assert sent[0].reply_parameters is not None and sent[0].reply_parameters.message_id == 5


@pytest.mark.asyncio
async def test_a_refused_command_in_a_private_chat_is_answered_without_a_reply(languages: Languages) -> None:
    sent = await handle(command(PRIVATE, "/leave"), languages)
    assert len(sent) == 1 and isinstance(sent[0], SendMessage)
    assert sent[0].chat_id == PRIVATE.id and sent[0].text == russian(Refusal.NOT_SEATED)
    assert sent[0].reply_parameters is None


@pytest.mark.asyncio
async def test_any_other_error_is_not_taken_for_a_refusal(languages: Languages) -> None:
    assert await handle(command(PRIVATE, "/boom"), languages) == []  # logged, and no words a refusal would say


@pytest.mark.asyncio
@pytest.mark.parametrize("action", list(LobbyAction))
async def test_every_lobby_button_has_exactly_one_handler(action: LobbyAction) -> None:
    query = CallbackQuery(id="q", from_user=ANN, chat_instance="c", data=LobbyTap(game=1, action=action).pack())
    taking = [
        handler.callback.__name__ for handler in lobby.router.callback_query.handlers if (await handler.check(query))[0]
    ]
    assert len(taking) == 1, taking


def test_the_bots_errors_router_answers_refusals_before_its_catch_all() -> None:
    """The tests above feed the error handlers through a router of their own: here, that the bot's router
    registers them the same way, the refusal's first."""
    handlers = errors.router.errors.handlers
    assert [handler.callback for handler in handlers] == [errors.refused, errors.on_error]
    (only,) = handlers[0].filters or []
    assert isinstance(only.callback, ExceptionTypeFilter) and only.callback.exceptions == (TableError,)
    assert not handlers[1].filters

"""Refusals answered in one place, and the last line of defence: log the error, answer the tap
politely, keep the bot running.

A handler lets a refusal (:class:`~bot.table.service.TableError`) go; :func:`refused` answers it with
its words: a tap with an alert, a command with a message (in a group a quiet reply, which never
spends the budget a game needs: bot/telegram/quiet.py). A handler answers a refusal itself only
when it says more than the words (a link to open, a hand brought up to date).
"""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.filters import ExceptionTypeFilter
from aiogram.types import CallbackQuery, ErrorEvent, Message

from bot.table.service import TableError
from bot.telegram.quiet import QuietAnswers
from bot.words.i18n import speaking
from bot.words.languages import Languages, readers_language
from bot.words.refusals import Refusal

router = Router(name="errors")
log = logging.getLogger(__name__)


@router.callback_query()
async def unknown_button(query: CallbackQuery) -> None:
    """A tap no other handler took (callback data from an old keyboard, or forged): say so.

    Telegram keeps the spinner on the button until a tap is answered."""
    await query.answer(Refusal.BROKEN.text, show_alert=True)


@router.errors(ExceptionTypeFilter(TableError))
async def refused(event: ErrorEvent, languages: Languages, quiet: QuietAnswers) -> None:
    """A request the game refused, answered with the refusal's words in its reader's language
    (errors come outside the update's middlewares, so the language is looked up here)."""
    refusal = event.exception.refusal if isinstance(event.exception, TableError) else Refusal.BROKEN
    asked: CallbackQuery | Message | None = event.update.callback_query or event.update.message
    if asked is None:
        return
    _, language = await readers_language(languages, asked)
    with speaking(language):
        words = refusal.text
    if isinstance(asked, CallbackQuery):
        await asked.answer(words, show_alert=True)
    else:  # a command: in a group, a reply to it
        await quiet.answer(asked, words, reply=asked.chat.id < 0)


@router.error()
async def on_error(event: ErrorEvent, languages: Languages) -> bool:
    log.exception("update %s failed", event.update.update_id, exc_info=event.exception)
    query = event.update.callback_query
    if query is not None:
        try:
            # Outside the update's middlewares: the tapper's language is looked up here.
            with speaking(await languages.of_user(query.from_user.id, query.from_user.language_code)):
                await query.answer(Refusal.BROKEN.text, show_alert=True)
        except Exception:  # the answer may already have been given, or time out
            log.debug("could not answer callback %s", query.id)
    return True

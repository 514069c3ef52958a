"""The last line of defence: log the error, answer the tap politely, keep the bot running."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import CallbackQuery, ErrorEvent

from bot.words.i18n import speaking
from bot.words.languages import Languages
from bot.words.refusals import Refusal

router = Router(name="errors")
log = logging.getLogger(__name__)


@router.callback_query()
async def unknown_button(query: CallbackQuery) -> None:
    """A tap no other handler took (callback data from an old keyboard, or forged): say so.

    Telegram keeps the spinner on the button until a tap is answered."""
    await query.answer(Refusal.BROKEN.text, show_alert=True)


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

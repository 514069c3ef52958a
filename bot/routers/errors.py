"""The last line of defence: log the error, answer the tap politely, keep the bot running."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import ErrorEvent

from bot import texts

router = Router(name="errors")
log = logging.getLogger(__name__)


@router.error()
async def on_error(event: ErrorEvent) -> bool:
    log.exception("update %s failed", event.update.update_id, exc_info=event.exception)
    query = event.update.callback_query
    if query is not None:
        try:
            await query.answer(texts.alert("broken"), show_alert=True)
        except Exception:  # the answer may already have been given, or time out
            log.debug("could not answer callback %s", query.id)
    return True

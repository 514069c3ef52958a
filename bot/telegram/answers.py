"""Answers to button taps never fail a handler: a few quick retries, then the spinner is let go.

A handler answers a tap (``query.answer(...)``) and then does what the tap asked; when
Telegram fails that one call (a 429, a 500, a timeout, a dropped connection), aiogram raises,
the rest of the handler never runs and the update ends in the error handler. Yet an answer
only stops the spinner on one person's button, and Telegram lets it lapse by itself after a
while. So every ``answerCallbackQuery``, by any path, goes through :class:`AnswerMiddleware`:
a flood wait or a fault is retried a few times within a few seconds (a tap can be answered
for about 15 s), and a tap that still cannot be answered, or was answered already (the first
try took effect and only its reply was lost: "query is too old ... or query ID is invalid"),
is logged and reported to the handler as answered.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, cast

from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.exceptions import TelegramBadRequest, TelegramNetworkError, TelegramRetryAfter, TelegramServerError
from aiogram.methods import AnswerCallbackQuery
from aiogram.methods.base import Response, TelegramType

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import TelegramMethod

log = logging.getLogger(__name__)

ATTEMPTS = 3
PAUSE = 0.25  # seconds before the second try; doubled before the third
MAX_WAIT = 3.0  # a flood wait longer than this is not waited for: the tap would have lapsed
# Telegram's words for a tap answered already, expired, or never existed.
GONE = "query is too old"  # i18n: not shown


class AnswerMiddleware(BaseRequestMiddleware):
    async def __call__(
        self, make_request: NextRequestMiddlewareType[TelegramType], bot: Bot, method: TelegramMethod[TelegramType]
    ) -> Response[TelegramType]:
        if method.__api_method__ != AnswerCallbackQuery.__api_method__:
            return await make_request(bot, method)
        pause = PAUSE
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as error:
                if error.retry_after > MAX_WAIT or attempt == ATTEMPTS:
                    log.warning("answerCallbackQuery: flood wait %ss, not answered", error.retry_after)
                    break
                await asyncio.sleep(error.retry_after)
            except (TelegramServerError, TelegramNetworkError) as error:
                if attempt == ATTEMPTS:
                    log.warning("answerCallbackQuery: %s, not answered", type(error).__name__)
                    break
                await asyncio.sleep(pause)
                pause *= 2
            except TelegramBadRequest as error:
                if GONE not in error.message:
                    raise
                log.info("answerCallbackQuery: %s", error.message)
                break
        return cast(Response[TelegramType], Response[Any](ok=True, result=True))

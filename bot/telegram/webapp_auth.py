"""Who opened the Mini App: Telegram's ``initData``, checked with the bot token and its age.

Telegram signs what it hands the page (the person, when it was opened, the ``startapp``
parameter) with a key derived from the bot's token; the page sends it back with every
connection. :func:`verify_init_data` accepts it only when the signature is the bot's
(aiogram's ``safe_parse_webapp_init_data``) and it is not older than the allowed age, and
returns who it is. Anything else is an :class:`InitDataError` whose ``reason`` says which.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from aiogram.utils.web_app import safe_parse_webapp_init_data

MAX_LENGTH = 4096  # initData is a few hundred bytes; more is not Telegram's
CLOCK_SKEW = 60.0  # a page's auth_date may be this far ahead of our clock


class InitDataReason(StrEnum):
    MISSING = "missing"
    FORGED = "forged"
    EXPIRED = "expired"
    NO_USER = "no_user"


class InitDataError(ValueError):
    """``initData`` that does not prove who is asking."""

    def __init__(self, reason: InitDataReason) -> None:
        super().__init__(f"initData refused: {reason}")  # i18n: not shown
        self.reason = reason


@dataclass(frozen=True)
class Visitor:
    """A person Telegram vouches for, as the page's ``initData`` says."""

    user_id: int
    first_name: str
    language_code: str | None
    start_param: str | None
    auth_date: float


def verify_init_data(token: str, raw: str, *, max_age: float, now: float) -> Visitor:
    """The person behind ``raw``, or :class:`InitDataError`.

    >>> verify_init_data("1:x", "", max_age=60, now=0)
    Traceback (most recent call last):
    ...
    bot.telegram.webapp_auth.InitDataError: initData refused: missing
    """
    if not raw or len(raw) > MAX_LENGTH:
        raise InitDataError(InitDataReason.MISSING)
    try:
        data = safe_parse_webapp_init_data(token, raw)
    except ValueError:  # a wrong signature, or fields that do not parse
        raise InitDataError(InitDataReason.FORGED) from None
    auth_date = data.auth_date.timestamp()
    if now - auth_date > max_age or auth_date - now > CLOCK_SKEW:
        raise InitDataError(InitDataReason.EXPIRED)
    if data.user is None:
        raise InitDataError(InitDataReason.NO_USER)
    user = data.user
    return Visitor(user.id, user.first_name or "", user.language_code, data.start_param, auth_date)

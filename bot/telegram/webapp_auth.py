"""Who opened the Mini App: Telegram's ``initData``, checked with the bot token and its age.

Telegram signs what it hands the page (the person, when it was opened, the ``startapp``
parameter) with a key derived from the bot's token; the page sends it back with every
connection. :func:`verify_init_data` accepts it only when the signature is the bot's
(aiogram's ``check_webapp_signature``) and it is not older than the allowed age, and
returns who it is. Anything else is an :class:`InitDataError` whose ``reason`` says which, so
that the page tells a link that was never valid (garbled, or signed by someone else) from one
that merely got old.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import parse_qsl

from aiogram.utils.web_app import check_webapp_signature, parse_webapp_init_data

MAX_LENGTH = 4096  # initData is a few hundred bytes; more is not Telegram's
CLOCK_SKEW = 60.0  # a page's auth_date may be this far ahead of our clock


class InitDataReason(StrEnum):
    MISSING = "missing"  # none at all, or far longer than Telegram's
    BROKEN = "broken"  # not a query string, no signature, or signed fields that do not parse
    FORGED = "forged"  # a signature that is not the bot's: tampered with, or another bot's
    EXPIRED = "expired"  # the bot's own, but signed longer ago than the allowed age
    AHEAD = "ahead"  # the bot's own, signed later than our clock says it is now (our clock is behind)
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
    if not _has_signature(raw):
        raise InitDataError(InitDataReason.BROKEN)
    if not check_webapp_signature(token, raw):
        raise InitDataError(InitDataReason.FORGED)
    try:
        data = parse_webapp_init_data(raw)
    except ValueError:  # signed by us, yet its fields do not parse (pydantic's errors are ValueErrors)
        raise InitDataError(InitDataReason.BROKEN) from None
    auth_date = data.auth_date.timestamp()
    if now - auth_date > max_age:
        raise InitDataError(InitDataReason.EXPIRED)
    if auth_date - now > CLOCK_SKEW:
        raise InitDataError(InitDataReason.AHEAD)
    if data.user is None:
        raise InitDataError(InitDataReason.NO_USER)
    user = data.user
    return Visitor(user.id, user.first_name or "", user.language_code, data.start_param, auth_date)


def _has_signature(raw: str) -> bool:
    """Whether ``raw`` is a query string with a ``hash`` at all (what a signature check needs)."""
    try:
        fields = dict(parse_qsl(raw, strict_parsing=True))
    except ValueError:
        return False
    return bool(fields.get("hash"))

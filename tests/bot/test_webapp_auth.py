"""initData: accepted only with the bot's signature, within its age, naming a person."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest

from bot.telegram.webapp_auth import InitDataError, InitDataReason, Visitor, verify_init_data
from testkit.fake_telegram.state import User
from testkit.fake_telegram.webapp import init_data

TOKEN = "123456789:AAFakeTelegramTestTokenForDominoes1"
NOW = 1_800_000_000.0
DAY = 86_400.0
ANN = User(100000051, "Ann", language_code="uk")


def test_a_signed_fresh_init_data_names_the_person() -> None:
    raw = init_data(TOKEN, ANN, auth_date=int(NOW - 3600), start_param="g42")
    assert verify_init_data(TOKEN, raw, max_age=DAY, now=NOW) == Visitor(ANN.id, "Ann", "uk", "g42", NOW - 3600)


def _tampered(raw: str, **changes: str) -> str:
    fields = dict(parse_qsl(raw))
    fields.update(changes)
    return urlencode(fields)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("", InitDataReason.MISSING),
        ("x" * 5000, InitDataReason.MISSING),
        (init_data("987:other", ANN, auth_date=int(NOW)), InitDataReason.FORGED),
        (
            _tampered(init_data(TOKEN, ANN, auth_date=int(NOW)), user='{"id":1,"first_name":"Eve"}'),
            InitDataReason.FORGED,
        ),
        (_tampered(init_data(TOKEN, ANN, auth_date=int(NOW - 10)), auth_date=str(int(NOW))), InitDataReason.FORGED),
        (_tampered(init_data(TOKEN, ANN, auth_date=int(NOW)), hash=""), InitDataReason.FORGED),
        ("user=1&&&hash", InitDataReason.FORGED),
        (init_data(TOKEN, ANN, auth_date=int(NOW - DAY - 1)), InitDataReason.EXPIRED),
        (init_data(TOKEN, ANN, auth_date=int(NOW + 600)), InitDataReason.EXPIRED),
        (init_data(TOKEN, None, auth_date=int(NOW)), InitDataReason.NO_USER),
    ],
    ids=[
        "empty",
        "too-long",
        "other-bot",
        "other-user",
        "older-made-newer",
        "no-hash",
        "malformed",
        "expired",
        "from-the-future",
        "no-user",
    ],
)
def test_anything_else_is_refused_with_its_reason(raw: str, reason: InitDataReason) -> None:
    with pytest.raises(InitDataError) as refused:
        verify_init_data(TOKEN, raw, max_age=DAY, now=NOW)
    assert refused.value.reason is reason

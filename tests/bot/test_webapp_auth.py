"""initData: accepted only with the bot's signature, within its age, naming a person; each refusal
says why, and the page has its own words for each (a forged link is not told it expired)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest

from bot.telegram.webapp_auth import InitDataError, InitDataReason, Visitor, verify_init_data
from bot.words.i18n import speaking
from bot.words.table_texts import launch_refusals, page_words
from fake_telegram.state import User
from fake_telegram.webapp import init_data

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
        (_tampered(init_data(TOKEN, ANN, auth_date=int(NOW)), hash="0" * 64), InitDataReason.FORGED),
        (_tampered(init_data(TOKEN, ANN, auth_date=int(NOW)), hash=""), InitDataReason.BROKEN),
        ("user=1&&&hash", InitDataReason.BROKEN),
        ("%%%", InitDataReason.BROKEN),
        (init_data(TOKEN, ANN, auth_date=int(NOW), extra={"receiver": "{not json}"}), InitDataReason.BROKEN),
        (init_data(TOKEN, ANN, auth_date=int(NOW - DAY - 1)), InitDataReason.EXPIRED),
        (init_data("987:other", ANN, auth_date=int(NOW - DAY - 1)), InitDataReason.FORGED),
        (init_data(TOKEN, ANN, auth_date=int(NOW + 600)), InitDataReason.AHEAD),
        (init_data(TOKEN, None, auth_date=int(NOW)), InitDataReason.NO_USER),
    ],
    ids=[
        "empty",
        "too-long",
        "other-bot",
        "other-user",
        "older-made-newer",
        "wrong-hash",
        "no-hash",
        "malformed",
        "not-a-query",
        "signed-but-garbled",
        "expired",
        "old-and-forged",
        "from-the-future",
        "no-user",
    ],
)
def test_anything_else_is_refused_with_its_reason(raw: str, reason: InitDataReason) -> None:
    with pytest.raises(InitDataError) as refused:
        verify_init_data(TOKEN, raw, max_age=DAY, now=NOW)
    assert refused.value.reason is reason


@pytest.mark.parametrize("language", ["en", "ru", "uk"])
def test_every_refusal_has_its_own_words_on_the_page(language: str) -> None:
    with speaking(language):
        words = page_words()
        refusals = launch_refusals()
    launch = {reason.value for reason in InitDataReason} | {"foreign_page", "no_game", "not_started"}
    assert {f"launch_{reason}" for reason in launch} == set(refusals)
    assert all(words[key] == text for key, text in refusals.items())
    assert len(set(refusals.values())) == len(refusals), "two refusals share their words"

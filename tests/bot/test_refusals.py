"""Every refusal and notice has its words in every language, and the engine's illegal moves map
onto refusals a person can read."""

from __future__ import annotations

import inspect

import pytest

import engine.errors
from bot.words.i18n import DEFAULT_LANGUAGE, LANGUAGES, speaking
from bot.words.refusals import ENGINE_REFUSALS, Answer, Notice, Refusal

ANSWERS: list[Answer] = [*Refusal, *Notice]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("answer", ANSWERS, ids=lambda answer: f"{type(answer).__name__}.{answer.name}")
def test_every_answer_has_a_text_in_every_language(answer: Answer, language: str) -> None:
    with speaking(language):
        text = answer.text
    assert text.strip(), f"{answer} has no words in {language}"
    if language != DEFAULT_LANGUAGE:
        assert text != answer.value, f"{answer} is not translated into {language}"


def test_answers_are_distinct_members_with_distinct_words() -> None:
    texts = [answer.value for answer in ANSWERS]
    assert len(set(texts)) == len(texts)
    assert Refusal.BROKEN in Refusal and Notice.JOINED in Notice
    assert not set(Refusal.__members__) & set(Notice.__members__)


def illegal_move_codes() -> set[str]:
    return {
        cls.code
        for _, cls in inspect.getmembers(engine.errors, inspect.isclass)
        if issubclass(cls, engine.errors.IllegalMoveError) and cls is not engine.errors.IllegalMoveError
    }


def test_every_illegal_move_has_its_own_refusal() -> None:
    """A tap the engine refuses is told why, never the catch-all "something went wrong"."""
    missing = illegal_move_codes() - {"missing_end"} - set(ENGINE_REFUSALS)  # missing_end asks which end
    assert not missing
    for code in illegal_move_codes() - {"missing_end"}:
        assert Refusal.for_engine_code(code) is not Refusal.BROKEN


def test_an_unknown_engine_code_is_broken() -> None:
    assert Refusal.for_engine_code("no_such_code") is Refusal.BROKEN

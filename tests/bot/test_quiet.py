"""Answers to group commands that change nothing (bot/telegram/quiet.py): once a while, never at a game's expense."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from aiogram.types import Message

from bot.telegram.pacing import Pacer
from bot.telegram.quiet import QuietAnswers

GROUP, OTHER_GROUP = -100, -200
ANN, BOB = 1, 2


@dataclass
class Who:
    id: int


@dataclass
class Where:
    id: int


@dataclass
class Said:
    """What a handler answers: records the answers instead of sending them."""

    chat: Where
    from_user: Who | None
    sent: list[tuple[str, str]] = field(default_factory=list)

    async def answer(self, text: str, **options: Any) -> None:
        self.sent.append(("answer", text))

    async def reply(self, text: str, **options: Any) -> None:
        self.sent.append(("reply", text))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def said(chat: int, user: int) -> Said:
    return Said(Where(chat), Who(user))


async def answered(quiet: QuietAnswers, chat: int, user: int, *, reply: bool = False) -> bool:
    message = said(chat, user)
    await quiet.answer(cast(Message, message), "This lobby is closed.", reply=reply)
    return bool(message.sent)


async def test_one_answer_per_person_and_group_a_minute() -> None:
    clock = Clock()
    quiet = QuietAnswers(Pacer(0, 0, 0), every=60, clock=clock)
    assert await answered(quiet, GROUP, BOB)
    for _ in range(9):
        clock.now += 5
        assert not await answered(quiet, GROUP, BOB, reply=True)  # 45 s of junk, unanswered
    assert await answered(quiet, GROUP, ANN)  # someone else is answered
    assert await answered(quiet, OTHER_GROUP, BOB)  # and Bob elsewhere
    assert await answered(quiet, BOB, BOB)  # and in his private chat, always
    assert await answered(quiet, BOB, BOB)
    clock.now = 60.0
    assert await answered(quiet, GROUP, BOB)  # a minute after the answer: again


async def test_answers_only_while_the_groups_budget_is_full() -> None:
    """A refusal never takes a token the board waits for: it goes only with the whole burst there,
    and one dropped for want of budget does not count as the person's answer."""
    clock = Clock()
    pacer = Pacer(group_per_minute=20, chat_per_second=0, overall_per_second=0, clock=clock)
    quiet = QuietAnswers(pacer, every=60, clock=clock)
    pacer.spend(GROUP)  # the board, say: two of the three tokens left
    assert not await answered(quiet, GROUP, BOB)
    clock.now += pacer.groups.wait_time(GROUP, need=pacer.groups.burst)  # full again
    assert await answered(quiet, GROUP, BOB)
    assert not await answered(quiet, GROUP, BOB)  # answered already this minute
    assert await answered(quiet, BOB, BOB)  # a private chat needs no group budget


async def test_no_limit_when_turned_off() -> None:
    clock = Clock()
    pacer = Pacer(group_per_minute=20, chat_per_second=0, overall_per_second=0, clock=clock)
    for _ in range(3):
        pacer.spend(GROUP)
    quiet = QuietAnswers(pacer, every=0, clock=clock)
    assert all([await answered(quiet, GROUP, BOB) for _ in range(3)])

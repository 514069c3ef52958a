"""One person's junk does not hold up the table: refusals to commands that change nothing in a group
never take the budget the game's board and results need (about 20 messages a minute into a group).

Run against the fake's real flood limits and the bot's default budgets (``limited_fake`` and
``budgeted_bot`` in conftest.py), as test_limits.py is.
"""

from __future__ import annotations

import random

import pytest

from fake_telegram import Chat, FakeTelegram, Message
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    add_computer,
    assert_game_over_line,
    open_lobby,
    settle,
)

JUNK = 10  # commands Bob sends around Start: "/join" to a full (then closed) lobby, "/new" of no rule set
JUNK_WORD = "zzjunk"


def answers_to(fake: FakeTelegram, group: Chat, junk: set[int]) -> list[Message]:
    """The bot's answers in ``group`` to the messages ``junk`` (a reply to one, or the refusal of its rule set)."""
    return [
        m
        for m in fake.messages(group, from_bot=True, include_deleted=True)
        if m.photo is None and (m.reply_to in junk or JUNK_WORD in m.shown_text)
    ]


async def test_one_persons_junk_does_not_hold_up_the_board(
    limited_fake: FakeTelegram, budgeted_bot: BotProcess, record_property: pytest.RecordProperty
) -> None:
    """Issue 17, item 9: Bob floods the group with commands that change nothing while Ann starts
    a game; the answers to them must not spend the budget the game's first board needs."""
    fake = limited_fake
    check = Checkpoint(fake, budgeted_bot)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    group = fake.add_group("Junk", members=[ann, bob])
    fake.start_bot(ann)
    await settle(fake)
    lobby = await open_lobby(fake, ann, group, "classic")
    for level in ("easy", "medium", "hard"):
        await add_computer(fake, lobby, ann, level)

    junk: set[int] = set()

    def send_junk(count: int) -> None:
        for i in range(count):
            text = "/join" if i % 2 == 0 else f"/new {JUNK_WORD}"
            junk.add(fake.send(bob, text, chat=group).message_id)

    send_junk(JUNK // 2)
    floor = fake.last_message(group)
    query = fake.tap(ann, lobby.message, data=f"lb:{lobby.game_id}:start")
    started = fake.transcript[-1].at  # the tap, as the fake recorded it
    send_junk(JUNK - JUNK // 2)
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    board = await fake.wait_for_message(
        group, lambda m: m.photo is not None, after=floor.message_id if floor else 0, timeout=120.0
    )
    (sent,) = [
        e for e in fake.transcript if e.method == "sendPhoto" and e.ok and e.response["message_id"] == board.message_id
    ]
    delay = sent.at - started
    record_property("start_to_first_board_s", round(delay, 2))
    print(f"Start -> first board: {delay:.1f} s with {JUNK} junk commands around Start")

    table = Table(fake, [ann], results=group, rng=random.Random("junk"))
    result = await table.play_to_end()
    await settle(fake, quiet=4.0)

    answers = answers_to(fake, group, junk)
    record_property("answers_to_junk", len(answers))
    print(f"answers to {JUNK} junk commands: {len(answers)}")
    assert_game_over_line(result, "classic", 4)
    if len(answers) >= 2:
        assert board.message_id < answers[1].message_id, "the second answer to junk went before the first board"
    assert len(answers) <= 2, [m.shown_text for m in answers]  # at most one a minute, the junk came at once
    assert fake.flood_events == [], [str(e) for e in fake.flood_events]
    check.assert_clean()


async def test_junk_in_a_quiet_group_is_answered_once(limited_fake: FakeTelegram, budgeted_bot: BotProcess) -> None:
    """With no game to hold up, the first junk command is still answered (once: the rest are not)."""
    fake = limited_fake
    bob = fake.add_user("Bob")
    group = fake.add_group("Quiet", members=[bob])
    commands = ["/join", "/new", "/rules", "/top", "/stats", "/history", "/export", "/kick"]
    junk = {fake.send(bob, f"{command} {JUNK_WORD}", chat=group).message_id for command in commands}
    await settle(fake, quiet=4.0)  # longer than the group's budget takes to give one more message
    answers = answers_to(fake, group, junk)
    assert len(answers) == 1, [m.shown_text for m in answers]  # "no open game" or "no such rule set"
    assert fake.flood_events == []
    fake.assert_no_violations()

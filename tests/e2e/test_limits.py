"""Within Telegram's flood limits: the fake answers 429 as Telegram would, and the bot never earns one.

The fake enforces Telegram's documented limits (``Limits.telegram()``: 20 messages a minute into
a group, one a second into any chat after a burst of 3, 30 a second overall); the bot runs with
its default budgets and the default pause between computer moves. A person plays a four-seat
game against three computers, whose moves come faster than a group may be shown them: the board
must show only the newest table, within the budget, and the game must end with no 429 at all.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from testkit.fake_telegram import Chat, FakeTelegram, Limits, Message
from testkit.people.players import (
    TURN_TIMEOUT,
    Table,
    add_computer,
    assert_game_over_line,
    audit_group_hands,
    open_lobby,
    settle,
    start_game,
)
from tests.e2e.conftest import BotProcess, Checkpoint, running_bot

NOT_SENDING = {"getUpdates", "getMe", "setMyCommands"}


@pytest_asyncio.fixture
async def limited_fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(limits=Limits.telegram()) as server:
        yield server


@pytest_asyncio.fixture
async def budgeted_bot(limited_fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    defaults = dict.fromkeys(
        (
            "GROUP_MESSAGES_PER_MINUTE",
            "CHAT_MESSAGES_PER_SECOND",
            "MESSAGES_PER_SECOND",
            "COMPUTER_DELAY",
            "QUIET_ANSWER_SECONDS",
        )
    )
    async with running_bot(limited_fake, tmp_path, **defaults) as process:  # as a deployment runs
        yield process


async def test_a_game_with_three_computers_earns_no_429(
    limited_fake: FakeTelegram, budgeted_bot: BotProcess, record_property: pytest.RecordProperty
) -> None:
    fake = limited_fake
    check = Checkpoint(fake, budgeted_bot)
    ann = fake.add_user("Ann")
    group = fake.add_group("Flood limits", members=[ann])
    fake.start_bot(ann)
    await settle(fake)
    lobby = await open_lobby(fake, ann, group, "classic")
    for level in ("easy", "medium", "hard"):
        await add_computer(fake, lobby, ann, level)
    await start_game(fake, lobby, ann)
    started = len(fake.transcript)

    table = Table(fake, [ann], results=group, rng=random.Random("limits"))
    result = await table.play_to_end()
    await settle(fake, quiet=4.0)  # the last board waits for the group's budget

    assert_game_over_line(result, "classic", 4)
    assert fake.flood_events == [], [str(e) for e in fake.flood_events]
    check.assert_clean()
    assert audit_group_hands(fake, group, [ann]) > 0

    # What one person's move costs, for the note (no assertion on it: it depends on how
    # fast the computers play against the group's budget).
    (game,) = [g for g in budgeted_bot.games() if g.id == lobby.game_id]
    by_person = sum(1 for move in game.moves if not move[4])
    calls = Counter(e.method for e in fake.transcript[started:] if e.kind == "request" and e.method not in NOT_SENDING)
    record_property("calls_per_person_move", round(sum(calls.values()) / max(1, by_person), 2))
    record_property("calls", dict(calls))
    print(f"calls per person move: {sum(calls.values()) / max(1, by_person):.2f} over {by_person} moves: {dict(calls)}")


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

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

import pytest

from fake_telegram import FakeTelegram
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import (
    Table,
    add_computer,
    assert_game_over_line,
    audit_group_hands,
    open_lobby,
    settle,
    start_game,
)

NOT_SENDING = {"getUpdates", "getMe", "setMyCommands"}


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

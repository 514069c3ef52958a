"""Whole games in a group, every rule set, 2 to 4 people who join through the lobby and play by tapping.

Each person's hand lives in their private chat; the group sees only the board and the results.
One bot process serves the whole module (each test has its own group and people).
"""

from __future__ import annotations

import contextlib
import random

import pytest

from fake_telegram import FakeTelegram, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    assert_every_hand_shown,
    assert_game_over_line,
    assert_results_in_order,
    audit_group_hands,
    audit_hidden_tiles,
    check_stored_game,
    join,
    open_lobby,
    set_seats,
    settle,
    start_game,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

FINAL_BUTTONS = ("rm:", "rp:", "rv:")  # Rematch, Replay, Review

NAMES = [("Ann", "Lee"), ("Борис", None), ("Chloé", "Martin"), ("Dmytro", None)]

# (preset, people, seats): every preset once; free seats get computer players at Start.
GAMES = [
    ("classic", 4, 4),
    ("draw", 3, 3),
    ("block", 2, 4),
    ("fives", 3, 4),
    ("quickblock", 2, 2),
    ("duel", 2, 2),
    ("hundred", 2, 2),
]


def make_people(fake: FakeTelegram, count: int) -> list[User]:
    return [fake.add_user(first, last_name=last) for first, last in NAMES[:count]]


@pytest.mark.parametrize(("preset", "count", "seats"), GAMES, ids=[f"{p}-{n}of{s}" for p, n, s in GAMES])
async def test_group_game(
    shared_fake: FakeTelegram, shared_bot: BotProcess, preset: str, count: int, seats: int
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    people = make_people(fake, count)
    creator = people[0]
    group = fake.add_group(f"Dominoes {preset}", members=people)
    # The creator and every other even-numbered person have opened the bot before; the others
    # never have, so their Join tap is answered with a t.me link that opens the private chat.
    for index, person in enumerate(people):
        if index % 2 == 0:
            fake.start_bot(person)
    await settle(fake)

    lobby = await open_lobby(fake, creator, group, preset)
    await set_seats(fake, lobby, creator, seats)
    for index, person in enumerate(people[1:], start=1):
        query = await join(fake, lobby, person)
        if index % 2 == 1:
            assert (query.answer or {}).get("url"), f"{person.name} never opened the bot but got no link"
    await start_game(fake, lobby, creator)

    table = Table(fake, people, results=group, rng=random.Random(f"group-{preset}"))
    result = await table.play_to_end()
    await settle(fake)

    assert_game_over_line(result, preset, seats)
    assert_results_in_order(fake, group)
    check.assert_clean()
    assert_every_hand_shown(fake, people)
    assert audit_group_hands(fake, group, people) > 0

    # Once the game is over no board in the group still offers "My hand" or claims a turn (the final
    # result's Rematch, Replay and Review are the only buttons left).  The last board waits for the
    # group's budget, which may come after the bot has been quiet for a moment: wait for it rather
    # than race it.
    def stale() -> list[int]:
        return [
            m.message_id
            for m in fake.messages(group, from_bot=True)
            if m.photo
            and any(not str(b.get("callback_data", "")).startswith(FINAL_BUTTONS) for r in m.inline_keyboard for b in r)
        ]

    with contextlib.suppress(TimeoutError):
        await fake.wait_for(lambda: not stale() or None, TURN_TIMEOUT, what="the last board")
    assert stale() == [], f"boards still live after the game:\n{fake.screen(group)}"
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.preset == preset
    assert len(game.data["seats"]) == seats
    check_stored_game(game, table)
    audit_hidden_tiles(fake, group, game)
    for person in people:
        audit_hidden_tiles(fake, person, game, viewer=person, results=group)

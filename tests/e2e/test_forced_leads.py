"""A forced lead is placed by itself: in a group `goat` game the holder of 1-1 is never asked to find
and tap it (a scripted player gave up on the starred tile); the board and the hands say it was forced."""

from __future__ import annotations

import pytest

from fake_telegram import FakeTelegram
from tests.e2e.conftest import BotProcess
from tests.kit.people.players import (
    TURN_TIMEOUT,
    hand_message,
    join,
    open_lobby,
    settle,
    shown_texts,
    start_game,
    tile_buttons,
)

FORCED = "led [1|1] (forced)"

pytestmark = pytest.mark.asyncio


async def test_a_group_goat_game_places_the_forced_1_1_by_itself(fake: FakeTelegram, bot: BotProcess) -> None:
    people = [fake.add_user(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    ann, bob, cat, dan = people
    group = fake.add_group("Goats", members=people)
    for person in people:
        fake.start_bot(person)
    await settle(fake)
    lobby = await open_lobby(fake, ann, group, "goat")
    await join(fake, lobby, bob, team=1)
    await join(fake, lobby, cat, team=0)
    await join(fake, lobby, dan, team=1)
    await start_game(fake, lobby, ann)

    await fake.wait_for(
        lambda: any(FORCED in text for text in shown_texts(fake, group)) or None, TURN_TIMEOUT, what="the forced lead"
    )
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    first = game.moves[0]
    holder = first[1]
    assert first[:4] == (0, holder, "1-1", None), game.moves
    assert game.data["seats"][holder].get("user_id") == people[holder].id  # a person's seat, placed for them
    # Everyone is told, in their own hand's caption; the holder's hand never offered the 1-1 to tap.
    for person in people:
        await fake.wait_for(
            lambda person=person: any(FORCED in text for text in shown_texts(fake, person)) or None,
            TURN_TIMEOUT,
            what=f"{person.name}'s hand saying the lead was forced",
        )
    hand = hand_message(fake, people[holder])
    assert hand is not None
    labels = [button.text for button in tile_buttons(hand.inline_keyboard)]
    assert not any(label.startswith("⭐") for label in labels), labels
    assert "11" not in {button.tile for button in tile_buttons(hand.inline_keyboard)}, labels
    # The turn went on to the next seat: their hand is the one that asks.
    after = people[(holder + 1) % 4]
    await fake.wait_for(
        lambda: any("Your turn" in text for text in shown_texts(fake, after)) or None,
        TURN_TIMEOUT,
        what=f"{after.name}'s turn",
    )

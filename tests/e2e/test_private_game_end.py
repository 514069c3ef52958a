"""Once a game is over, no message in a player's private chat offers a button that can do nothing.

A private game against the computer is one message: the hand as a photo with a button per tile,
💡 Hint on the player's turn and the computers' level row.  When the match ends, the result is
posted and that message must lose those buttons (a tap on them could only be refused); the
result keeps its own (🎬 Replay, 📈 Review).  A group game's hand messages live in the players'
private chats too and are frozen after each move: they must end with no buttons as well.
"""

from __future__ import annotations

import contextlib
import random

import pytest

from fake_telegram import FakeTelegram, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import (
    Table,
    data_of,
    final_result,
    level_buttons,
    open_private_game,
    play_group_game,
    settle,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

# Callback data of the buttons that only work while the game runs: a tile, 💡 Hint, a computer level.
PLAYING_BUTTONS = ("t:", "hi:", "lv:")
FINAL_BUTTONS = ("rp:", "rv:")  # under the final result: 🎬 Replay, 📈 Review
SETTLE_TIMEOUT = 5.0  # the last edit may still be on its way when the bot falls quiet for a moment


def playing_buttons(fake: FakeTelegram, user: User) -> list[str]:
    """ "#message: data" of every button in the user's private chat that only a running game can take."""
    return [
        f"#{message.message_id}: {button['callback_data']}"
        for message in fake.messages(user, from_bot=True)
        for row in message.inline_keyboard
        for button in row
        if str(button.get("callback_data") or "").startswith(PLAYING_BUTTONS)
    ]


async def assert_no_playing_buttons(fake: FakeTelegram, user: User) -> None:
    with contextlib.suppress(TimeoutError):
        await fake.wait_for(lambda: not playing_buttons(fake, user) or None, SETTLE_TIMEOUT, what="the last edit")
    assert playing_buttons(fake, user) == [], f"buttons of a finished game:\n{fake.screen(user)}"


# quickblock is one round; block against one computer is a match of several rounds to 100.
@pytest.mark.parametrize("preset", ["quickblock", "block"])
async def test_a_finished_private_game_leaves_no_tile_hint_or_level_buttons(
    shared_fake: FakeTelegram, shared_bot: BotProcess, preset: str
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann = fake.add_user(f"Ann {preset}")
    hand = await open_private_game(fake, ann, preset, 1)
    assert level_buttons(hand), f"no level row under the running game:\n{fake.screen(ann)}"

    result = await Table(fake, [ann], results=ann, rng=random.Random(f"end-{preset}")).play_to_end()
    await settle(fake)

    await assert_no_playing_buttons(fake, ann)
    final = final_result(fake, ann)
    assert final is not None and final.message_id == result.message_id
    assert all(data_of(final, prefix) for prefix in FINAL_BUTTONS), fake.screen(ann)
    # "Play again" stays under the last hand: it opens the menu, which works whatever became of the game.
    assert any(data_of(m, "s:menu") for m in fake.messages(ann, from_bot=True) if m.photo), fake.screen(ann)
    check.assert_clean()


async def test_a_finished_group_game_leaves_no_buttons_in_the_private_chats(
    shared_fake: FakeTelegram, shared_bot: BotProcess
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    people = [fake.add_user("Bea"), fake.add_user("Cyd")]
    await play_group_game(fake, people, "Dominoes at the end", "end-group")

    for person in people:
        await assert_no_playing_buttons(fake, person)
    check.assert_clean()

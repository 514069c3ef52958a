"""A person's own move shows in their hand at once, even when only computers play before their next turn.

The hand message they tapped is frozen before anything else happens to it: the picture without the
tile just played, a caption that no longer says it is their turn, and no buttons left to tap.
"""

from __future__ import annotations

import random
from pathlib import Path

from testkit.fake_telegram import FakeTelegram, Message
from testkit.people.players import Table, add_computer, open_lobby, settle, start_game
from tests.e2e.conftest import Checkpoint, running_bot

YOUR_TURN = "Your turn!"


def _picture(message: Message) -> str:
    assert message.photo, message
    return str(message.photo[-1]["file_unique_id"])


async def test_your_own_move_shows_in_your_hand_before_your_next_turn(fake: FakeTelegram, tmp_path: Path) -> None:
    # The computers take a second a move (as a deployment's pause does), so the next turn is seconds away.
    async with running_bot(fake, tmp_path, COMPUTER_DELAY="1") as bot:
        check = Checkpoint(fake, bot)
        ann = fake.add_user("Ann")
        group = fake.add_group("Own moves", members=[ann])
        fake.start_bot(ann)
        await settle(fake)
        lobby = await open_lobby(fake, ann, group, "classic")
        for _ in range(3):
            await add_computer(fake, lobby, ann, "easy")
        await start_game(fake, lobby, ann)

        table = Table(fake, [ann], results=group, rng=random.Random("own moves"))
        for _ in range(2):  # two of her turns
            turn = await table.next_turn()
            if isinstance(turn, Message):
                break
            user, hand, playable = turn
            assert YOUR_TURN in hand.shown_text
            before = _picture(hand)
            await table.play_turn(user, hand, playable)  # returns at her next turn (or the end)
            tapped = fake.world.message(ann.id, hand.message_id)
            assert tapped is not None
            # What the message she tapped showed last, whether it was then replaced by her next hand or not:
            assert YOUR_TURN not in tapped.shown_text, tapped.shown_text
            assert tapped.inline_keyboard == [], tapped.inline_keyboard
            assert _picture(tapped) != before, "the picture still shows the tile she played"
        await settle(fake)
        check.assert_clean()

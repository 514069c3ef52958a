"""A person's own move shows in their hand at once, even when only computers play before their next turn.

The hand message they tapped is frozen before anything else happens to it: the picture without the
tile just played, a caption that no longer says it is their turn, and no buttons left to tap.
"""

from __future__ import annotations

import random
from pathlib import Path

from fake_telegram import Chat, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint, running_bot
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    add_computer,
    answer_text,
    forge_tap,
    is_alert,
    open_lobby,
    settle,
    start_game,
    tile_buttons,
)

YOUR_TURN = "Your turn!"


def _picture(message: Message) -> str:
    assert message.photo, message
    return str(message.photo[-1]["file_unique_id"])


async def _ann_against_three_computers(fake: FakeTelegram, title: str) -> tuple[User, Chat]:
    """Ann and three easy computers at a ``classic`` table in a group called ``title``, dealt."""
    ann = fake.add_user("Ann")
    group = fake.add_group(title, members=[ann])
    fake.start_bot(ann)
    await settle(fake)
    lobby = await open_lobby(fake, ann, group, "classic")
    for _ in range(3):
        await add_computer(fake, lobby, ann, "easy")
    await start_game(fake, lobby, ann)
    return ann, group


async def test_your_own_move_shows_in_your_hand_before_your_next_turn(fake: FakeTelegram, tmp_path: Path) -> None:
    # The computers take a second a move (as a deployment's pause does), so the next turn is seconds away.
    async with running_bot(fake, tmp_path, COMPUTER_DELAY="1") as bot:
        check = Checkpoint(fake, bot)
        ann, group = await _ann_against_three_computers(fake, "Own moves")

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


NOT_YOUR_TURN = "It is not your turn yet."
STALE = "That was an older view of the game — here is the current one."


async def test_a_tap_on_the_hand_before_it_is_frozen_is_answered_with_the_current_one(
    limited_fake: FakeTelegram, budgeted_bot: BotProcess
) -> None:
    """Under Telegram's limits the freeze of the hand just tapped may wait for the chat's budget
    (a second a message). A second tap on that message meanwhile, on the view the person still
    sees, is told that it is not their turn (a toast: a double tap needs no alert box; "here is the
    current one" should every computer have passed back to them) and the message then shows the
    game as it is: the tile played gone, no turn of theirs left on it."""
    fake = limited_fake
    check = Checkpoint(fake, budgeted_bot)
    ann, group = await _ann_against_three_computers(fake, "Stale views")

    table = Table(fake, [ann], results=group, rng=random.Random("stale views"))
    turn = await table.next_turn()
    assert not isinstance(turn, Message), "the game ended before Ann's turn"
    _user, hand, playable = turn
    first = await fake.wait_answered(fake.tap(ann, hand, data=playable[0].data))
    played = playable[0]
    if "choose" in answer_text(first):  # it fits two ends: the first
        ends = await fake.wait_for(
            lambda: [b for b in tile_buttons(_live(fake, hand).inline_keyboard) if b.is_end_choice], 5, what="ends"
        )
        await fake.wait_answered(fake.tap(ann, hand, data=ends[0].data))
    # The view she saw before it changed: another tile of the same turn, tapped on that message.
    others = [b for b in tile_buttons(hand.inline_keyboard) if b.tile != played.tile] or [played]
    second = await fake.wait_answered(forge_tap(fake, ann, hand, others[0].data))
    assert answer_text(second) in (NOT_YOUR_TURN, STALE) and not is_alert(second), second.answer

    def current() -> bool:
        """The message she tapped shows the game as it is (even if her next hand replaced it since:
        what it showed last): not her turn, nothing left to tap."""
        tapped = _live(fake, hand)
        return not tapped.inline_keyboard and YOUR_TURN not in tapped.shown_text

    await fake.wait_for(current, TURN_TIMEOUT, what="the current game on Ann's hand after 'here is the current one'")
    await settle(fake)
    check.assert_clean()


def _live(fake: FakeTelegram, message: Message) -> Message:
    live = fake.world.message(message.chat_id, message.message_id)
    assert live is not None
    return live

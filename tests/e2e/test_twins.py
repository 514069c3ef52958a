"""A picture Telegram sent whose answer was lost: the bot sends it again, and the copy it never
learned of must not stay on screen with live buttons (a second hand still "to play", a board
still offering "My hand", a result nobody will update).

Telegram has no idempotency key, so the bot cannot avoid the copy; it puts the buttons on only
once it knows the message (``bot/telegram/twins.py``), so the copy is a plain picture. Here the
first ``sendPhoto`` of the board, of one of Ann's hands and of the final result take effect and
lose their connection before the answer, under Telegram's real limits.
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
    open_lobby,
    result_messages,
    set_seats,
    settle,
    start_game,
)
from tests.kit.scenarios.faults import live_game_messages


def lose_answer_of_next_photo(fake: FakeTelegram, chat: Chat | User) -> None:
    """The next ``sendPhoto`` into ``chat`` takes effect, then its connection closes without an answer."""
    fake.inject("drop", method="sendPhoto", chat=chat.id, apply_before_hang=True)


def photos_dropped(fake: FakeTelegram, chat: Chat | User) -> int:
    return len([e for e in fake.transcript if e.method == "sendPhoto" and e.fault == "drop" and e.chat_id == chat.id])


def live(fake: FakeTelegram, chat: Chat | User, kind: str) -> int:
    """The bot's messages in ``chat`` with live buttons under a game's ``kind`` ("hand", "board", "result")."""
    return sum(count for (shown, _), count in live_game_messages(fake, chat).items() if shown == kind)


async def test_a_photo_whose_answer_was_lost_leaves_no_second_live_copy(
    limited_fake: FakeTelegram, tmp_path: Path
) -> None:
    # Telegram's budgets as deployed; the computers move at once, to keep the game short.
    budgets = dict.fromkeys(("GROUP_MESSAGES_PER_MINUTE", "CHAT_MESSAGES_PER_SECOND", "MESSAGES_PER_SECOND"))
    async with running_bot(limited_fake, tmp_path, **budgets) as bot:
        await play_with_lost_answers(limited_fake, bot)


async def play_with_lost_answers(fake: FakeTelegram, bot: BotProcess) -> None:
    check = Checkpoint(fake, bot)
    ann = fake.add_user("Ann")
    group = fake.add_group("Lost answers", members=[ann])
    fake.start_bot(ann)
    await settle(fake)
    lobby = await open_lobby(fake, ann, group, "classic")
    await set_seats(fake, lobby, ann, 2)
    await add_computer(fake, lobby, ann, "easy")
    lose_answer_of_next_photo(fake, group)  # the board
    await start_game(fake, lobby, ann)

    table = Table(fake, [ann], results=group, rng=random.Random("twins"))
    lose_answer_of_next_photo(fake, ann)  # one of her hands: the next one sent
    while not photos_dropped(fake, ann):
        over = await table.play_turns(1)
        assert over is None, "the game ended before a hand of Ann's was sent again"
    assert not isinstance(await table.next_turn(), Message), "the game ended before Ann's turn"
    assert photos_dropped(fake, group) == 1, "the board was not sent twice"
    # Its "My hand" comes as the group's budget allows (about 20 messages a minute).
    await fake.wait_for(lambda: live(fake, group, "board") > 0, TURN_TIMEOUT, what="the board's My hand")
    await settle(fake)
    assert live(fake, group, "board") == 1, fake.screen(group)
    assert live(fake, ann, "hand") == 1, fake.screen(ann)

    lose_answer_of_next_photo(fake, group)  # the final result
    await table.play_to_end()

    def shown_over() -> bool:
        """The result and its copy are in, and the board the bot knows shows the end: no buttons."""
        (game,) = [g for g in bot.games() if g.id == lobby.game_id]
        board = fake.world.message(group.id, game.data["board_message"])
        results = result_messages(fake, group)
        return len(results) == 2 and live(fake, group, "result") > 0 and board is not None and not board.reply_markup

    await fake.wait_for(shown_over, TURN_TIMEOUT, what="the final result, its copy and the final board")
    await settle(fake)
    assert photos_dropped(fake, group) == 2, "the result was not sent twice"
    # Over: no hand nor board left to tap, one result with its Rematch, 🎬 and 📈.
    assert live(fake, ann, "hand") == 0, fake.screen(ann)
    assert live(fake, group, "board") == 0, fake.screen(group)
    assert live(fake, group, "result") == 1, fake.screen(group)
    check.assert_clean()

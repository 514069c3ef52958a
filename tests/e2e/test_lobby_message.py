"""The lobby's message shows every seat taken, however the taps and Telegram's answers interleave.

Found by the two-instance run (tests/e2e/test_instances.py): a Join tapped the moment the lobby
appeared, while the bot still waited for Telegram's answer to the message it had sent, was
seated and told "You joined", but the lobby never showed the name. And two joins at once showed
whichever edit reached Telegram last, the older one included.
"""

from __future__ import annotations

import pytest

from fake_telegram import Chat, FakeTelegram, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import TURN_TIMEOUT, Lobby, is_alert, lobby_text, open_lobby, settle

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _people(fake: FakeTelegram, title: str, *names: str) -> tuple[list[User], Chat]:
    people = [fake.add_user(name) for name in names]
    group = fake.add_group(title, members=people)
    for person in people:
        fake.start_bot(person)
    await settle(fake)
    return people, group


def _edits(fake: FakeTelegram, group: Chat) -> int:
    """The lobby edits Telegram has answered (the slow one is there once it has taken effect)."""
    return sum(1 for e in fake.transcript if e.method == "editMessageText" and e.chat_id == group.id)


def _seated(bot: BotProcess, game_id: int) -> set[str]:
    (game,) = [g for g in bot.games() if g.id == game_id]
    return {seat["name"] for seat in game.data["seats"] if seat and seat.get("user_id")}


async def test_a_join_tapped_while_the_lobby_is_being_sent_shows_in_it(
    shared_fake: FakeTelegram, shared_bot: BotProcess
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    (ann, bob), group = await _people(fake, "Quick join", "Ann", "Bob")
    # The lobby appears in the group at once; Telegram's answer to the bot comes 1.5 s later.
    fake.inject("slow", method="sendMessage", chat=group, delay=1.5, apply_before_hang=True)
    fake.send(ann, "/new classic", chat=group)
    message = await fake.wait_for_message(group, lambda m: "Join" in str(m.inline_keyboard), timeout=TURN_TIMEOUT)
    game_id = int(next(b["callback_data"] for row in message.inline_keyboard for b in row).split(":")[1])
    query = fake.tap(bob, message, data=f"lb:{game_id}:join")
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    assert not is_alert(query), query.answer
    lobby = Lobby(group, message, game_id)
    await fake.wait_for(lambda: "Bob" in lobby_text(fake, lobby), TURN_TIMEOUT, what="Bob in the lobby")
    assert "Bob" in _seated(bot, game_id)
    check.assert_clean()


async def test_two_joins_at_once_both_show_whatever_order_the_edits_arrive_in(
    shared_fake: FakeTelegram, shared_bot: BotProcess
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    (ann, bob, cat), group = await _people(fake, "Two at once", "Ann", "Bob", "Cat")
    lobby = await open_lobby(fake, ann, group, "classic")
    # The first edit after Bob's Join is slow to reach Telegram: Cat's lobby gets there first.
    fake.inject("slow", method="editMessageText", chat=group, delay=1.5)
    first = fake.tap(bob, lobby.message, data=f"lb:{lobby.game_id}:join")
    await fake.wait_answered(first, timeout=TURN_TIMEOUT)
    second = fake.tap(cat, lobby.message, data=f"lb:{lobby.game_id}:join")
    await fake.wait_answered(second, timeout=TURN_TIMEOUT)
    assert not is_alert(first) and not is_alert(second), (first.answer, second.answer)
    await fake.wait_for(lambda: _seated(bot, lobby.game_id) >= {"Bob", "Cat"}, TURN_TIMEOUT, what="both seated")
    await fake.wait_for(lambda: _edits(fake, group) >= 2, TURN_TIMEOUT, what="the slow edit arrived")
    await settle(fake)
    text = lobby_text(fake, lobby)
    assert "Bob" in text and "Cat" in text, text
    check.assert_clean()

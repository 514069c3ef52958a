"""When a group game is over, each player's private chat says so, not only the group.

A group game's board and results live in the group; each player's hand is a photo in their
private chat with the bot, frozen (no buttons, "not your turn") after each of their moves.  When
the match ends, the result is posted in the group only, so the last hand message in a private chat
must say that the game is over and where its result is (the group's title), in the player's own
language, with no buttons, and as an edit of that message (the end of a game is busy enough
without a new message into every private chat).
"""

from __future__ import annotations

import contextlib
import random

import pytest

import tests.e2e.test_languages as languages
from fake_telegram import FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import Table, join, open_lobby, play_group_game, set_seats, settle, start_game

pytestmark = pytest.mark.asyncio(loop_scope="module")

SETTLE_TIMEOUT = 15.0  # the last edit may still be on its way when the bot falls quiet for a moment (a busy machine)
# The end line in each language, as the player reads it, with the group's title.
GAME_OVER = {
    "en": "🏁 The game is over: the result is in {group}",
    "ru": "🏁 Игра окончена: результат в группе «{group}»",
    "uk": "🏁 Гру закінчено: результат у групі «{group}»",
}


def last_private(fake: FakeTelegram, person: User) -> Message:
    message = fake.last_message(person)
    assert message is not None, f"nothing from the bot:\n{fake.screen(person)}"
    return message


async def wait_for_end_line(fake: FakeTelegram, person: User, line: str) -> Message:
    """The person's last private message once it says the game is over (or as it is after a while)."""
    with contextlib.suppress(TimeoutError):
        await fake.wait_for(
            lambda: line in last_private(fake, person).shown_text or None, SETTLE_TIMEOUT, what="the end line"
        )
    return last_private(fake, person)


async def test_each_players_last_private_message_says_the_group_game_is_over(
    shared_fake: FakeTelegram, shared_bot: BotProcess
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    people = [fake.add_user("Dee"), fake.add_user("Eli")]
    game_id = await play_group_game(fake, people, "Dominoes on Friday", "group-end")

    for person in people:
        line = GAME_OVER["en"].format(group="Dominoes on Friday")
        hand = await wait_for_end_line(fake, person, line)
        print(fake.screen(person))  # what the player sees at the end, for a person to read with -s
        assert hand.shown_text.splitlines()[-1] == line, fake.screen(person)
        assert hand.photo and not hand.inline_keyboard, fake.screen(person)  # the frozen hand, still no buttons
        # The hand message as stored was edited: nothing new came into the private chat for the end.
        assert hand.edit_date is not None, fake.screen(person)
    (game,) = [g for g in bot.games() if g.id == game_id]
    hands = game.data["hands"]
    for seat, person in enumerate(people):
        message_id, key = hands[str(seat)]
        assert message_id == last_private(fake, person).message_id and key.endswith(":over"), hands
    check.assert_clean()


@pytest.mark.parametrize("language", ["ru", "uk"])
async def test_the_end_line_is_in_each_players_language(
    shared_fake: FakeTelegram, shared_bot: BotProcess, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    # The creator reads English (so the group's result is found in English); the other player reads ``language``.
    creator = fake.add_user("Fay", language_code="en")  # not a namesake of the other player
    (friend,) = languages.people(fake, language, [language])
    title = f"Доміно {language}"
    group = fake.add_group(title, members=[creator, friend])
    for person in (creator, friend):
        fake.start_bot(person)
    await settle(fake)
    lobby = await open_lobby(fake, creator, group, "quickblock")
    languages.end_by_status(monkeypatch, bot, lobby.game_id)
    await set_seats(fake, lobby, creator, 2)
    await join(fake, lobby, friend)
    await start_game(fake, lobby, creator)
    await Table(fake, [creator, friend], results=group, rng=random.Random(f"end-{language}")).play_to_end()
    await settle(fake)

    for person, code in ((creator, "en"), (friend, language)):
        line = GAME_OVER[code].format(group=title)
        hand = await wait_for_end_line(fake, person, line)
        assert hand.shown_text.splitlines()[-1] == line, fake.screen(person)
        assert not hand.inline_keyboard, fake.screen(person)
    check.assert_clean()

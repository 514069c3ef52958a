"""🎬 Replay and 📈 Review asked for again and again, under Telegram's real limits (issue 31, item 4).

The bot runs with its default budgets against a fake with Telegram's flood limits
(``budgeted_bot``): taps are answered at once whatever the group's queue holds, and nothing is
sent twice.
"""

from __future__ import annotations

from fake_telegram import FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.e2e.test_replay import animations
from tests.kit.people.players import TURN_TIMEOUT, answer_text, data_of, final_result, is_alert, play_group_game, settle


async def test_a_group_gets_one_replay_and_each_player_one_review_however_often_they_tap(
    limited_fake: FakeTelegram, budgeted_bot: BotProcess
) -> None:
    """Issue 31: four people tapping 🎬 Replay got 9 animations into their group in 17 s, and one
    person the same review three times. Now one replay per game per chat, one review per person;
    the other taps are answered (being drawn, or where it is), which costs the group nothing.
    Each person taps both buttons three times at once, and once more after both were sent."""
    fake, bot = limited_fake, budgeted_bot
    check = Checkpoint(fake, bot)
    people = [fake.add_user(name) for name in ("Gus", "Hal")]  # quick block: two seats
    game_id = await play_group_game(fake, people, "Replays once", seed="replays once")
    group = [chat for chat in fake.world.chats.values() if chat.title == "Replays once"][-1]  # a deal again: a new one

    def offered() -> Message | None:  # the buttons may come in an edit after the result, as the budget allows
        result = final_result(fake, group)
        return result if result is not None and data_of(result, "rv:") is not None else None

    result = await fake.wait_for(offered, 90.0, what="the result's Replay and Review buttons")
    replay, review = data_of(result, "rp:"), data_of(result, "rv:")
    assert replay == f"rp:{game_id}" and review is not None
    taps = [fake.tap(person, result, data=data) for _ in range(3) for person in people for data in (replay, review)]
    for query in taps:
        await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    (sent,) = await fake.wait_for(lambda: animations(fake, group) or None, 90.0, what="the group's replay")

    def headings(person: User) -> list[Message]:
        return [m for m in fake.messages(person, from_bot=True) if m.shown_text.startswith(f"📈 Game #{game_id} ")]

    await fake.wait_for(lambda: all(headings(person) for person in people) or None, 90.0, what="their reviews")
    await settle(fake, quiet=2.0)  # each review's pages, a second apart
    late = [fake.tap(person, result, data=data) for person in people for data in (replay, review)]
    for query in late:
        await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    await settle(fake, quiet=1.0)
    assert animations(fake, group) == [sent]
    assert all(len(headings(person)) == 1 for person in people)
    said = [answer_text(query) for query in taps + late]
    assert all(not is_alert(query) for query in taps + late)
    replays_said = said[0::2]
    assert sum("being drawn; it comes" in words for words in replays_said) >= 1
    assert all(
        "being drawn" in words or f"Game #{game_id}'s replay is in this chat already" in words for words in replays_said
    ), replays_said
    assert all("private chat" in words for words in said[1::2])  # the reviews: said in the group
    assert [answer_text(query) for query in late[1::2]] == [
        f"📈 Your review of game #{game_id} is in our private chat already."
    ] * len(people)
    check.assert_clean()

"""Rematch in a group: every person who played confirms under the final result, and the same
table plays again; an outsider's tap is refused; a new game in the chat calls the request off.

(A friend room's rematch is played in test_rooms.py.)
"""

from __future__ import annotations

import random

import pytest

from fake_telegram import Chat, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint, results_after
from tests.kit.people.friends import button_texts, final_results, live, rematch_button, tap
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    add_computer,
    answer_text,
    assert_game_over_line,
    check_stored_game,
    is_alert,
    join,
    open_lobby,
    set_seats,
    settle,
    start_game,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


def people(fake: FakeTelegram, tag: str) -> tuple[User, User, User, Chat]:
    ann = fake.add_user("Ann", last_name=tag)
    bob = fake.add_user("Bob", last_name=tag)
    carol = fake.add_user("Carol", last_name=tag)  # in the group, never seated
    group = fake.add_group(f"Rematch {tag}", members=[ann, bob, carol])
    for person in (ann, bob, carol):
        fake.start_bot(person)
    return ann, bob, carol, group


async def played_game(
    fake: FakeTelegram, ann: User, bob: User, group: Chat, preset: str, seats: int, computer: str | None
) -> tuple[int, Message]:
    """Ann opens, Bob joins (and a computer of level ``computer``), they play to the end."""
    await settle(fake)
    lobby = await open_lobby(fake, ann, group, preset)
    await set_seats(fake, lobby, ann, seats)
    await join(fake, lobby, bob)
    if computer is not None:
        await add_computer(fake, lobby, ann, computer)
    await start_game(fake, lobby, ann)
    table = Table(fake, [ann, bob], results=group, rng=random.Random(f"rematch-{preset}"))
    result = await table.play_to_end()
    await settle(fake)
    assert_game_over_line(result, preset, seats)
    return lobby.game_id, result


async def test_rematch_with_the_same_seats(
    shared_fake: FakeTelegram, shared_bot: BotProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann, bob, carol, group = people(fake, "Again")
    game_id, result = await played_game(fake, ann, bob, group, "classic", 3, "hard")
    data = rematch_button(fake, result)
    assert data == f"rm:{game_id}", fake.screen(group)
    (finished,) = [g for g in bot.games() if g.id == game_id]

    # Carol did not play: a polite alert, nothing changes.
    query = await tap(fake, carol, result, data)
    assert is_alert(query) and "Only the players" in answer_text(query), query.answer
    # Ann confirms: the result says so.
    query = await tap(fake, ann, result, data)
    assert not is_alert(query), query.answer
    await fake.wait_for(
        lambda: "Rematch: Ann Again ✓, Bob Again …" in live(fake, result).shown_text or None,
        TURN_TIMEOUT,
        what="Ann's confirmation on the result",
    )
    assert button_texts(fake, result) == ["🔁 Rematch (1/2)", "🎬 Replay", "📈 Review"]
    # A second tap by Ann changes nothing.
    await settle(fake)
    caption, stored = live(fake, result).shown_text, [g.version for g in bot.games() if g.id == game_id]
    query = await tap(fake, ann, result, data)
    assert "already" in answer_text(query), query.answer
    await settle(fake)
    assert live(fake, result).shown_text == caption
    assert [g.version for g in bot.games() if g.id == game_id] == stored
    assert len(bot.games()) == len([g for g in bot.games() if g.id <= game_id])

    # Bob confirms: a new game, same seats (people and the hard computer) and options.
    await tap(fake, bob, result, data)
    new = await fake.wait_for(
        lambda: next((g for g in bot.games() if g.id > game_id), None), TURN_TIMEOUT, what="the new game"
    )
    assert new.preset == finished.preset
    assert new.data["seats"] == finished.data["seats"]
    assert [s["level"] for s in new.data["seats"] if s["user_id"] is None] == ["hard"]
    assert new.data["computer_level"] == finished.data["computer_level"]
    await fake.wait_for(
        lambda: "the new game has started" in live(fake, result).shown_text or None,
        TURN_TIMEOUT,
        what="the result to say the rematch started",
    )
    assert button_texts(fake, result) == ["🎬 Replay", "📈 Review"]  # the old game can still be replayed

    # The rematch is played to its end like any game.
    results_after(monkeypatch, {group.id: result.message_id})
    table = Table(fake, [ann, bob], results=group, rng=random.Random("rematch-again"))
    second = await table.play_to_end()
    await settle(fake)
    assert second.message_id > result.message_id
    assert_game_over_line(second, "classic", 3)
    (played,) = [g for g in bot.games() if g.id == new.id]
    check_stored_game(played, table)
    assert final_results(fake, group)[-1].message_id == second.message_id
    assert rematch_button(fake, second) == f"rm:{new.id}"
    check.assert_clean()


async def test_new_game_cancels_the_rematch(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann, bob, _carol, group = people(fake, "Off")
    game_id, result = await played_game(fake, ann, bob, group, "duel", 2, None)
    data = rematch_button(fake, result)
    assert data is not None

    await tap(fake, ann, result, data)
    await fake.wait_for(
        lambda: "Ann Off ✓" in live(fake, result).shown_text or None, TURN_TIMEOUT, what="Ann's confirmation"
    )
    # Bob types /new before confirming: the request is off, and the button says so.
    fake.send(bob, "/new duel", chat=group)
    await fake.wait_for(
        lambda: "no longer open" in " ".join(button_texts(fake, result)) or None,
        TURN_TIMEOUT,
        what="the Rematch button to say it is no longer open",
    )
    assert "no longer open" in live(fake, result).shown_text
    query = await tap(fake, bob, result, data)
    assert is_alert(query) and "no longer open" in answer_text(query), query.answer
    await settle(fake)
    newer = [g for g in bot.games() if g.id > game_id]
    assert [g.status for g in newer] == ["lobby"], "only Bob's /new opened a game"
    (finished,) = [g for g in bot.games() if g.id == game_id]
    assert finished.data["rematch"]["state"] == "cancelled"
    check.assert_clean()

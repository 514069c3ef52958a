"""💡 Hints (issue 21): under a hand on one's turn, the hard player's move and a reason, as an alert.

A private game against the computer always offers them; a group game only when its creator
turned them on in the lobby. A game in which someone asked is marked on its result and in
/history, and changes no rating.
"""

from __future__ import annotations

import random
import re
import sqlite3
from dataclasses import dataclass

import pytest

from fake_telegram import CallbackQuery, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.friends import button_texts, live, open_room, tap
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    TableStuck,
    TileButton,
    answer_text,
    data_of,
    forge_tap,
    hand_message,
    is_alert,
    join,
    lobby_text,
    open_lobby,
    open_private_game,
    settle,
    start_game,
    tile_buttons,
    tile_key,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

HINTED = re.compile(r"^💡 (?:Lead|Play) \[(\d)\|(\d)\](?: (?:\S )?(left|right|up|down)(?: \S)?)?: \S.+$")
END_CODES = {"left": "l", "right": "r", "up": "u", "down": "d"}


@dataclass
class HintedTable(Table):
    """Someone who asks for a hint on every turn and plays what it says."""

    hints: int = 0

    async def play_turn(self, user: User, message: Message, playable: list[TileButton]) -> None:
        data = data_of(self._live(message), "hi:")
        assert data is not None, f"no 💡 under {user.name}'s hand: {message.inline_keyboard}"
        query = self.fake.tap(user, self._live(message), data=data)
        await self.fake.wait_answered(query, timeout=TURN_TIMEOUT)
        text = answer_text(query)
        found = HINTED.match(text)
        assert is_alert(query) and found, f"the hint was answered {query.answer}"
        self.hints += 1
        tile = tile_key(found[1], found[2])
        (button,) = [b for b in playable if b.tile == tile]  # the hint names a playable tile
        tapped = await self.tap(user, message, button)
        outcome = await self._settle(user, message, button, tapped)
        if outcome == "ends":
            assert found[3], f"{tile} fits two ends, and the hint named none: {text}"
            (choice,) = [b for b in tile_buttons(self._live(message).inline_keyboard) if b.end == END_CODES[found[3]]]
            tapped = await self.tap(user, message, choice)
            outcome = await self._settle(user, message, choice, tapped)
            button = choice
        if outcome != "played":
            raise TableStuck(f"{user.name}: playing the hinted {tile} was answered {tapped.answer}")
        self.version = button.version
        self.plays.append((user.id, button.tile, button.end))


def stored_results(bot: BotProcess) -> list[tuple[int, int, float | None]]:
    """(game id, hinted, Ann's overall rating mu) per stored result."""
    connection = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True, timeout=10)
    try:
        return connection.execute(
            "SELECT r.game_id, r.hinted, s.mu FROM results r JOIN result_seats s ON s.result_id = r.id"
            " WHERE s.user_id IS NOT NULL ORDER BY r.id"
        ).fetchall()
    finally:
        connection.close()


async def test_a_private_game_played_by_the_hints_is_marked_and_not_rated(
    shared_fake: FakeTelegram, shared_bot: BotProcess
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann = fake.add_user("Ann")
    await open_private_game(fake, ann, "fives", 1, level="easy")
    table = HintedTable(fake, [ann], results=ann, rng=random.Random(3))
    result = await table.play_to_end()
    await settle(fake)
    assert table.hints >= 3
    assert "💡 Hints were used in this game, so it changes no rating." in result.shown_text, result.shown_text
    (game,) = [g for g in bot.games() if g.data["seats"][0]["user_id"] == ann.id]
    assert game.data["hinted"] == [0]
    assert stored_results(bot)[-1][1:] == (1, None)  # hinted, and no rating stored for Ann
    fake.send(ann, "/history")
    history = await fake.wait_for_message(ann, lambda m: "recent games" in m.shown_text, timeout=TURN_TIMEOUT)
    assert "💡 with hints, not rated" in history.shown_text, history.shown_text
    check.assert_clean()


async def test_a_hint_is_given_only_on_ones_turn_and_for_the_current_one(
    shared_fake: FakeTelegram, shared_bot: BotProcess
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    cat = fake.add_user("Cat")
    message = await open_private_game(fake, cat, "draw", 1, level="easy")
    table = Table(fake, [cat], results=cat, rng=random.Random(5))
    turn = await table.next_turn()
    assert not isinstance(turn, Message)
    _, hand, playable = turn
    data = data_of(hand, "hi:")
    assert data is not None
    game_id, version = (int(part) for part in data.split(":")[1:3])
    # A hint for another turn (a forged or old button) is refused and the current hand shown.
    stale = forge_tap(fake, cat, hand, f"hi:{game_id}:{version - 1}")
    await fake.wait_answered(stale, timeout=TURN_TIMEOUT)
    assert "older view" in answer_text(stale) and not is_alert(stale)
    # Someone else's game: refused, nothing marked.
    dan = fake.add_user("Dan")
    fake.start_bot(dan)
    await settle(fake)
    welcome = fake.messages(dan, from_bot=True)[-1]
    other = forge_tap(fake, dan, welcome, data)
    await fake.wait_answered(other, timeout=TURN_TIMEOUT)
    assert is_alert(other) and "not playing in this game" in answer_text(other)
    (game,) = [g for g in bot.games() if g.id == game_id]
    assert "hinted" not in game.data
    # Asked twice at one turn: the same answer.
    first, second = await _hint(fake, cat, hand, data), await _hint(fake, cat, hand, data)
    assert answer_text(first) == answer_text(second) and HINTED.match(answer_text(first))
    assert tile_key(*HINTED.match(answer_text(first)).group(1, 2)) in {b.tile for b in playable}  # type: ignore[union-attr]
    del message
    check.assert_clean()


async def _hint(fake: FakeTelegram, user: User, hand: Message, data: str) -> CallbackQuery:
    query = fake.tap(user, fake.world.message(hand.chat_id, hand.message_id), data=data)  # type: ignore[arg-type]
    return await fake.wait_answered(query, timeout=TURN_TIMEOUT)


@pytest.mark.parametrize("hints_on", [False, True], ids=["hints-off", "hints-on"])
async def test_a_group_game_has_hints_only_when_its_lobby_turned_them_on(
    shared_fake: FakeTelegram, shared_bot: BotProcess, hints_on: bool
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    group = fake.add_group(f"Hints {'on' if hints_on else 'off'}", members=[ann, bob])
    for person in (ann, bob):
        fake.start_bot(person)
    await settle(fake)
    lobby = await open_lobby(fake, ann, group, "block")
    if hints_on:
        refused = fake.tap(bob, lobby.message, data=f"lb:{lobby.game_id}:hints")
        await fake.wait_answered(refused, timeout=TURN_TIMEOUT)
        assert is_alert(refused) and "opened the game" in answer_text(refused)
        query = fake.tap(ann, lobby.message, data=f"lb:{lobby.game_id}:hints")
        await fake.wait_answered(query, timeout=TURN_TIMEOUT)
        await fake.wait_for(
            lambda: "Hints are on" in lobby_text(fake, lobby), TURN_TIMEOUT, what="the lobby saying hints are on"
        )
    await join(fake, lobby, bob)
    await start_game(fake, lobby, ann)
    table = Table(fake, [ann, bob], results=group, rng=random.Random(1))
    turn = await table.next_turn()
    assert not isinstance(turn, Message)
    person, hand, _ = turn
    data = data_of(hand, "hi:")

    def hinted() -> object:
        return next(g for g in bot.games() if g.id == lobby.game_id).data.get("hinted")

    if not hints_on:
        assert data is None, hand.inline_keyboard
        version = tile_buttons(hand.inline_keyboard)[0].version
        forged = forge_tap(fake, person, hand, f"hi:{lobby.game_id}:{version}")
        await fake.wait_answered(forged, timeout=TURN_TIMEOUT)
        assert is_alert(forged) and answer_text(forged) == "Hints are off in this game."
        assert hinted() is None
        check.assert_clean()
        return
    assert data is not None
    other = bob if person is ann else ann
    waiting = hand_message(fake, other)
    assert waiting is not None and data_of(waiting, "hi:") is None  # not their turn: no 💡
    early = forge_tap(fake, other, waiting, data)
    await fake.wait_answered(early, timeout=TURN_TIMEOUT)
    assert is_alert(early) and "not your turn" in answer_text(early)
    answer = await _hint(fake, person, hand, data)
    assert is_alert(answer) and HINTED.match(answer_text(answer)), answer.answer
    seat = 0 if person is ann else 1
    await fake.wait_for(lambda: hinted() == [seat], TURN_TIMEOUT, what="the game marked as hinted")
    check.assert_clean()


async def test_a_friend_room_has_hints_when_its_creator_turns_them_on(
    shared_fake: FakeTelegram, shared_bot: BotProcess
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    gus, hal = fake.add_user("Gus"), fake.add_user("Hal")
    room, link = await open_room(fake, gus, "duel")
    switch = data_of(live(fake, room), "ro:hints:")
    assert switch is not None and "💡 Hints: off" in button_texts(fake, room), button_texts(fake, room)
    query = await tap(fake, gus, room, switch)
    assert not is_alert(query), query.answer
    await fake.wait_for(lambda: "Hints are on" in live(fake, room).shown_text or None, TURN_TIMEOUT, what="hints on")
    fake.start_bot(hal)
    await settle(fake)
    fake.open_link(hal, link)
    table = Table(fake, [gus, hal], results=gus, rng=random.Random("room hints"))
    turn = await table.next_turn()
    assert not isinstance(turn, Message)
    person, hand, _ = turn
    data = data_of(hand, "hi:")
    assert data is not None, hand.inline_keyboard
    answer = await _hint(fake, person, hand, data)
    assert is_alert(answer) and HINTED.match(answer_text(answer)), answer.answer
    check.assert_clean()

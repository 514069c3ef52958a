"""The "which end?" question is asked only when its answers lead to different games, and its buttons
say something a person can tell apart: never "⬅ left: 2 / right ➡: 2"."""

from __future__ import annotations

import random

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.display import keyboards
from bot.display.table_frame import table_frame
from bot.model.game import Game, GameState, Seat, TableDoc, record_of, turn_number
from bot.table import lobbies
from bot.table import service as service_module
from bot.table.service import GameService
from bot.telegram.callbacks import TileTap
from bot.telegram.people import Person
from engine import End, Match, Rules, Tile
from storage import GameRow, GameStatus
from tests.engine.helpers import match_from, move

ANN, BOB = Person(7, "Ann"), Person(8, "Bob")
PEOPLE = (ANN, BOB)


def _lone_double_deal(seed_from: int = 0) -> tuple[int, Tile, Tile]:
    """A block deal (as the service deals it) whose leader holds a double and the other seat a tile
    that fits it: the seed, the double, and the tile."""
    for seed in range(seed_from, 5000):
        state = Match.new(Rules.preset("block"), 2, random.Random(seed)).round
        leader, other = state.turn, 1 - state.turn
        for double in (t for t in state.hands[leader] if t.is_double):
            fitting = [t for t in state.hands[other] if double.high in t and not t.is_double]
            if fitting:
                return seed, double, fitting[0]
    raise AssertionError("no such deal")


async def test_a_tile_on_a_lone_double_is_played_without_a_question(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, double, follower = _lone_double_deal()
    monkeypatch.setattr(service_module, "_dealer", lambda: random.Random(seed))
    lobby = await lobbies.open_lobby(service, -800, ANN, "block", seats=2)
    await lobbies.join(service, lobby.id, BOB)
    game = await lobbies.deal_lobby(service, lobby.id, ANN)
    assert game.match is not None
    leader = game.match.round.turn
    await service.tap_tile(game.id, PEOPLE[leader].user_id, turn_number(game.match), double, None)
    async with service.locked(game.id) as led:
        assert led.match is not None
        assert [m.end for m in led.match.round.legal_moves() if m.tile == follower] == [End.LEFT, End.RIGHT]
        version = turn_number(led.match)
        frame = table_frame(led, 1 - leader)  # the table page offers it one way: a tap plays it
        (entry,) = [e for e in frame["hand"] if e["tile"] == [follower.high, follower.low]]
        assert entry["ends"] == ["left"], entry
    outcome = await service.tap_tile(game.id, PEOPLE[1 - leader].user_id, version, follower, None)
    assert outcome.played and not outcome.choose_ends
    assert outcome.game.match is not None
    played = outcome.game.match.round.plays()[-1]
    assert (played.seat, played.tile, played.end) == (1 - leader, follower, End.LEFT)
    moves = await service.db.games.moves(game.id)
    assert moves[-1].side == "left"  # the record names the end, as RECORD.md asks


def _fives_game(hands: list[str], plays: list[str]) -> tuple[Game, Match]:
    """A two-person ``fives`` group game dealt ``hands``, seat 0 leading, after ``plays``."""
    match = match_from("fives", hands, first=0)
    for play in plays:
        match = match.apply(move(play))
    seats = (Seat("Ann", user_id=ANN.user_id), Seat("Bob", user_id=BOB.user_id))
    row = GameRow(1, -800, "group", GameStatus.PLAYING, "fives", ANN.user_id, 1, {}, 0.0, 0.0)
    return Game(row, TableDoc(seats=seats, game=GameState(record=record_of(match))), match), match


def _end_labels(markup: InlineKeyboardMarkup) -> list[str]:
    return [b.text for row in markup.inline_keyboard for b in row if TileTap.unpack(b.callback_data or "").end]


def test_ends_showing_the_same_number_are_told_apart_by_side_only() -> None:
    # 6-3 leads, 3-3 goes right (the spinner), 6-5 left, 5-3 left: both ends show 3, and 3-0 on
    # the right would open the spinner: two different games, so the question stands, and its
    # buttons name the sides, without a number that is the same on both.
    hands = ["6-3 6-5 3-0 6-6 6-4 6-2 6-1", "3-3 5-3 1-1 2-2 4-4 5-5 0-0"]
    game, match = _fives_game(hands, ["6-3", "3-3 right", "6-5 left", "5-3 left"])
    assert match.round.line.open_ends() == {End.LEFT: 3, End.RIGHT: 3}
    markup = keyboards.end_choice_markup(game, match, Tile(3, 0), [End.LEFT, End.RIGHT])
    assert _end_labels(markup) == ["⬅ left", "right ➡"]


def test_different_numbers_stay_on_the_buttons_and_mirror_image_ends_are_one_choice() -> None:
    # 6-6 leads (the spinner), 6-5 right, 6-4 left: the spinner is open, ends 4 | 5 | 6 | 6.
    hands = ["6-6 6-4 3-3 3-2 3-1 3-0 1-0", "6-5 5-4 6-2 2-2 2-1 1-1 0-0"]
    game, match = _fives_game(hands, ["6-6", "6-5 right", "6-4 left"])
    assert match.round.line.open_ends() == {End.LEFT: 4, End.RIGHT: 5, End.UP: 6, End.DOWN: 6}
    markup = keyboards.end_choice_markup(game, match, Tile(5, 4), [End.LEFT, End.RIGHT])
    assert _end_labels(markup) == ["⬅ left: 4", "right ➡: 5"]
    # 6-2 fits up and down, mirror images of each other: nothing to ask.
    assert match.round.distinct_ends(Tile(6, 2)) == [End.UP]
    assert _end_labels(keyboards.end_choice_markup(game, match, Tile(6, 2), [End.UP, End.DOWN])) == ["⬆ up"]

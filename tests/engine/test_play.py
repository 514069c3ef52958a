"""Leads, legal moves, ends, and every way a move can be refused (RULES.md "Common ground", RECORD.md ends)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from engine import (
    End,
    EndNotOpenError,
    EndRequiredError,
    ForcedLeadError,
    GameOverError,
    IllegalMoveError,
    Move,
    Played,
    RoundEnd,
    RoundState,
    TileDoesNotFitError,
    TileNotInHandError,
    WrongSeatError,
)
from tests.engine.helpers import CHAIN_FROM_6_6, CHAIN_FROM_6_6_PLAYS, match_from, move, play, start, tile

LEFT, RIGHT, UP, DOWN = End.LEFT, End.RIGHT, End.UP, End.DOWN


def refused(attempt: Callable[[], object], error: type[IllegalMoveError], code: str) -> None:
    """The attempt raises ``error``, a ValueError carrying ``code``."""
    with pytest.raises(error) as caught:
        attempt()
    assert isinstance(caught.value, ValueError)
    assert caught.value.code == code


# Block, 2 seats, S0 first. After "0: 6-5" (L6 R5) and "1: 5-3" (R3) the ends are 6 and 3;
# S0 then holds 6-3 (fits both ends), 6-1 (fits the left end only) and four tiles that fit nothing.
HANDS = ["6-5 6-3 6-1 4-4 2-2 0-0 1-0", "5-3 3-3 2-1 4-2 5-0 4-0 3-0"]


def six_three_position() -> RoundState:
    state = play(start("block", HANDS, first=0), "0: 6-5", "1: 5-3")
    assert (state.turn, state.line.open_ends()) == (0, {LEFT: 6, RIGHT: 3})
    return state


# --- the lead --------------------------------------------------------------------------------


def test_lead_lies_with_its_higher_half_at_the_left_end() -> None:
    state = start("block", HANDS, first=0).apply(move("5-6"))
    assert state.line.lead == tile("6-5")
    assert state.line.open_ends() == {LEFT: 6, RIGHT: 5}
    assert state.events[0] == Played(0, tile("6-5"), None, 0)


def test_lead_moves_have_no_end() -> None:
    state = start("block", HANDS, first=0)
    assert all(choice.end is None for choice in state.legal_moves())
    assert len(state.legal_moves()) == 7


# --- legal moves and ends --------------------------------------------------------------------


def test_only_tiles_that_fit_are_offered_each_once_per_end_it_fits() -> None:
    # Ends 6 and 3: 6-3 fits both (two moves), 6-1 fits the left end; 4-4 2-2 0-0 1-0 fit nothing.
    moves = six_three_position().legal_moves()
    assert Counter(moves) == Counter([Move(tile("6-3"), LEFT), Move(tile("6-3"), RIGHT), Move(tile("6-1"), LEFT)])


def test_after_the_lead_the_next_seat_is_offered_only_what_fits() -> None:
    # Ends 6 and 5: of S1's tiles only 5-3 and 5-0 fit, both on the right.
    state = play(start("block", HANDS, first=0), "0: 6-5")
    assert Counter(state.legal_moves()) == Counter([Move(tile("5-3"), RIGHT), Move(tile("5-0"), RIGHT)])


def test_tile_fitting_two_ends_requires_an_end() -> None:
    state = six_three_position()
    refused(lambda: state.apply(move("6-3")), EndRequiredError, "missing_end")


@pytest.mark.parametrize(("end", "ends"), [("left", (3, 3)), ("right", (6, 6))])
def test_tile_fitting_two_ends_goes_on_the_end_named(end: str, ends: tuple[int, int]) -> None:
    # 6-3 on the left covers the 6 and shows 3; on the right it covers the 3 and shows 6.
    state = six_three_position().apply(move(f"6-3 {end}"))
    assert state.line.end_values() == ends


def test_ends_showing_the_same_number_still_require_an_end() -> None:
    # S0 leads 4-4 (L4 R4); S1's 4-2 fits both ends although they show the same number.
    hands = ["4-4 6-6 6-5 6-4 5-5 5-4 4-3", "4-2 6-3 6-2 5-3 5-2 3-1 1-0"]
    state = play(start("block", hands, first=0), "0: 4-4")
    assert Counter(state.legal_moves()) == Counter([Move(tile("4-2"), LEFT), Move(tile("4-2"), RIGHT)])
    refused(lambda: state.apply(move("4-2")), EndRequiredError, "missing_end")
    assert state.apply(move("4-2 right")).line.end_values() == (4, 2)


def test_end_may_be_omitted_when_only_one_end_fits() -> None:
    state = six_three_position().apply(move("6-1"))
    assert state.line.end_values() == (1, 3)
    assert state.events[-1] == Played(0, tile("6-1"), LEFT, 0)


def test_tile_on_an_end_it_does_not_match_is_refused() -> None:
    state = six_three_position()
    refused(lambda: state.apply(move("6-1 right")), TileDoesNotFitError, "does_not_fit")


def test_tile_that_fits_no_end_is_refused() -> None:
    state = six_three_position()
    refused(lambda: state.apply(move("4-4")), TileDoesNotFitError, "does_not_fit")


@pytest.mark.parametrize("end", ["up", "down"])
def test_end_that_is_not_open_is_refused(end: str) -> None:
    state = six_three_position()
    refused(lambda: state.apply(move(f"6-1 {end}")), EndNotOpenError, "end_not_open")


def test_move_by_a_seat_whose_turn_it_is_not_is_refused() -> None:
    state = six_three_position()
    refused(lambda: state.apply(move("3-3"), seat=1), WrongSeatError, "out_of_turn")
    refused(lambda: state.apply(move("6-1"), seat=1), WrongSeatError, "out_of_turn")


@pytest.mark.parametrize("text", ["5-0", "6-5", "6-6"], ids=["opponent's", "on the line", "asleep"])
def test_tile_not_in_the_hand_of_the_seat_to_play_is_refused(text: str) -> None:
    state = six_three_position()
    refused(lambda: state.apply(move(text)), TileNotInHandError, "not_in_hand")


def test_refused_move_leaves_the_round_unchanged() -> None:
    state = six_three_position()
    before = state
    with pytest.raises(IllegalMoveError):
        state.apply(move("6-3"))
    assert state == before


def test_block_domino_then_every_move_is_refused_as_game_over() -> None:
    # CHAIN_FROM_6_6: S0 leads 6-6 and S1 answers along a chain on the right; S0's 4-4 empties its hand.
    state = play(start("block", CHAIN_FROM_6_6, first=0), *CHAIN_FROM_6_6_PLAYS)
    assert state.end is RoundEnd.DOMINO
    assert state.legal_moves() == []
    refused(lambda: state.apply(move("5-3")), GameOverError, "game_over")
    refused(lambda: state.apply(move("5-3"), seat=1), GameOverError, "game_over")


def test_fish_then_every_move_is_refused_as_game_over() -> None:
    # Block: S0 leads 6-6 and nobody holds another 6 -> S1 passes, S0 passes: fish.
    hands = ["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "5-4 5-3 5-2 5-1 5-0 4-3 4-2"]
    game = match_from("block", hands, first=0).apply(move("6-6"))
    assert game.round.end is RoundEnd.FISH
    assert game.round.legal_moves() == []
    refused(lambda: game.round.apply(move("5-5")), GameOverError, "game_over")
    refused(lambda: game.apply(move("5-4")), GameOverError, "game_over")


# --- forced and auto-placed leads --------------------------------------------------------------

FORCED = [
    ("classic", ["6-6 5-5 0-0 6-5 6-4 6-3 6-2", "1-1 2-2 5-4 5-3 5-2 5-1 5-0"], 1, "1-1", "2-2"),
    ("quickblock", ["6-6 6-4 6-3 6-2 6-1 6-0 5-4", "5-5 4-4 3-3 2-2 1-1 0-0 6-5"], 0, "6-6", "6-4"),
    ("duel", ["6-6 6-4 6-3 6-2 6-1 6-0 5-4", "5-5 4-4 3-3 2-2 1-1 0-0 6-5"], 0, "6-6", "6-4"),
    ("hundred", ["6-6 6-4 6-3 6-2 6-1 6-0 5-4", "5-5 4-4 3-3 2-2 1-1 0-0 6-5"], 0, "6-6", "6-4"),
]


@pytest.mark.parametrize(("preset", "hands", "seat", "forced", "other"), FORCED, ids=[row[0] for row in FORCED])
def test_forced_lead_is_the_only_legal_move(preset: str, hands: list[str], seat: int, forced: str, other: str) -> None:
    state = start(preset, hands)
    assert (state.turn, state.legal_moves()) == (seat, [Move(tile(forced))])


@pytest.mark.parametrize(("preset", "hands", "seat", "forced", "other"), FORCED, ids=[row[0] for row in FORCED])
def test_leading_another_tile_than_the_forced_one_is_refused(
    preset: str, hands: list[str], seat: int, forced: str, other: str
) -> None:
    state = start(preset, hands)
    refused(lambda: state.apply(move(other)), ForcedLeadError, "forced_lead")
    assert state.apply(move(forced)).line.lead == tile(forced)


@pytest.mark.parametrize("preset", ["quickblock", "duel", "hundred"])
def test_every_forced_lead_is_offered_as_auto_move(preset: str) -> None:
    state = start(preset, ["6-6 6-4 6-3 6-2 6-1 6-0 5-4", "5-5 4-4 3-3 2-2 1-1 0-0 6-5"])
    automatic = state.auto_move()
    assert automatic == Move(tile("6-6"))
    after = state.apply(automatic)
    assert after.line.lead == tile("6-6")
    assert after.auto_move() is None  # only the lead is ever placed by itself


def test_classic_forced_lead_is_auto_placed_too() -> None:
    state = start("classic", ["6-6 5-5 0-0 6-5 6-4 6-3 6-2", "1-1 2-2 5-4 5-3 5-2 5-1 5-0"])
    assert state.forced == tile("1-1")
    assert state.auto_move() == Move(tile("1-1")) and state.legal_moves() == [Move(tile("1-1"))]


@pytest.mark.parametrize("preset", ["draw", "block", "fives"])
def test_match_starter_lead_is_neither_forced_nor_auto_placed(preset: str) -> None:
    state = start(preset, HANDS, first=0)
    assert (state.forced, state.auto_move()) == (None, None)


def test_only_the_leading_seat_sees_its_forced_lead() -> None:
    game = match_from("duel", ["6-6 6-4 6-3 6-2 6-1 6-0 5-4", "5-5 4-4 3-3 2-2 1-1 0-0 6-5"])
    assert game.observe(0).forced == tile("6-6")
    assert game.observe(0).legal_moves() == [Move(tile("6-6"))]
    assert game.observe(1).forced is None
    assert game.observe(1).legal_moves() == []

"""The fives spinner and how open ends are counted (RULES.md "fives" and "The spinner").

Two scripted fives lines, each checked step by step:

LEAD_SPINNER (S0 first): 1-1 is led, so it is the spinner.
    0: 1-1          lone double: 1+1 = 2
    1: 4-1 right    spinner still an end, both halves: 2 + 4 = 6 (counting it once would give 5)
    0: 6-1 left     both long sides covered -> up/down open at 1, unplayed: 6 + 4 = 10, S0 +10
    1: 5-1 up       fits up and down: 6 + 4 + 5 = 15 (down unplayed), S1 +15
    0: 1-0 down     6 + 4 + 5 + 0 = 15, S0 +15
    1: 5-5 up       a later double at an end counts both halves: 6 + 4 + 10 + 0 = 20, S1 +20
    0: 5-3 up       covers the 5-5, which opens nothing: 6 + 4 + 3 + 0 = 13, no score

LATE_SPINNER (S0 first): 6-2 is led; 2-2, the first double, is the spinner.
    0: 6-2          6 + 2 = 8
    1: 2-2          at the right end, both halves: 6 + 4 = 10, S1 +10; up/down still closed
    0: 4-2          on its outer side -> up/down open at 2 at once: 6 + 4 = 10, S0 +10
    1: 5-2 up       6 + 4 + 5 = 15, S1 +15
    0: 2-0 down     6 + 4 + 5 + 0 = 15, S0 +15
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import End, EndNotOpenError, EndRequiredError, Move, Placed, Played, RoundState, SpinnerAt
from tests.engine.helpers import move, play, start, tile

LEFT, RIGHT, UP, DOWN = End.LEFT, End.RIGHT, End.UP, End.DOWN

LEAD_SPINNER_HANDS = ["1-1 6-1 1-0 5-3 6-6 2-2 3-0", "4-1 5-1 5-5 4-4 3-3 6-2 2-0"]
LEAD_SPINNER = ["0: 1-1", "1: 4-1 right", "0: 6-1 left", "1: 5-1 up", "0: 1-0 down", "1: 5-5 up", "0: 5-3 up"]

LATE_SPINNER_HANDS = ["6-2 4-2 2-0 6-6 5-5 3-3 1-0", "2-2 5-2 6-5 4-4 3-1 1-1 0-0"]
LATE_SPINNER = ["0: 6-2", "1: 2-2", "0: 4-2", "1: 5-2 up", "0: 2-0 down"]


def lead_spinner(steps: int) -> RoundState:
    return play(start("fives", LEAD_SPINNER_HANDS, first=0), *LEAD_SPINNER[:steps])


def late_spinner(steps: int) -> RoundState:
    return play(start("fives", LATE_SPINNER_HANDS, first=0), *LATE_SPINNER[:steps])


def last_scored(state: RoundState) -> int:
    return state.plays()[-1].scored


# --- leads --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lead", "count", "scored"),
    [("5-5", 10, 10), ("2-2", 4, 0), ("0-0", 0, 0), ("6-4", 10, 10), ("3-2", 5, 5), ("6-5", 11, 0)],
    ids=["5-5 scores 10 not 20", "2-2", "0-0 is not a positive multiple", "6-4", "3-2", "6-5"],
)
def test_lone_lead_counts_both_halves_once(lead: str, count: int, scored: int) -> None:
    hands = [f"{lead} 6-6 1-1 6-1 1-0 4-1 3-1", "4-4 4-3 4-0 3-3 3-0 2-0 5-0"]
    state = play(start("fives", hands, first=0), f"0: {lead}")
    assert state.line.fives_count() == count
    assert state.plays()[0] == Played(0, tile(lead), None, scored)
    assert state.fives == (scored, 0)


def test_lead_spinner_is_the_first_double() -> None:
    assert lead_spinner(1).line.spinner == SpinnerAt(None, 0)


# --- the lead spinner ---------------------------------------------------------------------------


def test_spinner_with_one_side_played_counts_both_halves_and_the_other_end() -> None:
    state = lead_spinner(2)
    assert state.line.fives_count() == 6  # 1+1 + 4
    assert (last_scored(state), state.fives) == (0, (0, 0))


def test_spinner_stays_closed_until_both_long_sides_are_played() -> None:
    state = lead_spinner(2)
    assert state.line.open_ends() == {LEFT: 1, RIGHT: 4}
    with pytest.raises(EndNotOpenError):
        state.apply(move("6-1 up"))


def test_spinner_covered_on_both_long_sides_opens_up_and_down() -> None:
    state = lead_spinner(3)
    assert state.line.open_ends() == {LEFT: 6, RIGHT: 4, UP: 1, DOWN: 1}


def test_unplayed_spinner_sides_do_not_count() -> None:
    state = lead_spinner(3)
    assert state.line.fives_count() == 10  # 6 + 4; up and down not counted
    assert (last_scored(state), state.fives) == (10, (10, 0))


def test_tile_fitting_up_and_down_requires_an_end() -> None:
    state = lead_spinner(3)
    assert Counter(m for m in state.legal_moves() if m.tile == tile("5-1")) == Counter(
        [Move(tile("5-1"), UP), Move(tile("5-1"), DOWN)]
    )
    with pytest.raises(EndRequiredError):
        state.apply(move("5-1"))


def test_played_up_side_counts_and_the_unplayed_down_side_does_not() -> None:
    state = lead_spinner(4)
    assert state.line.arm(UP) == (Placed(tile("5-1"), 1, 5),)
    assert state.line.fives_count() == 15  # 6 + 4 + 5
    assert (last_scored(state), state.fives) == (15, (10, 15))


def test_all_four_arms_count() -> None:
    state = lead_spinner(5)
    assert state.line.open_ends() == {LEFT: 6, RIGHT: 4, UP: 5, DOWN: 0}
    assert (last_scored(state), state.fives) == (15, (25, 15))


def test_double_at_an_end_counts_both_halves() -> None:
    state = lead_spinner(6)
    assert state.line.fives_count() == 20  # 6 + 4 + (5+5) + 0
    assert (last_scored(state), state.fives) == (20, (25, 35))


def test_later_double_is_not_a_spinner_and_opens_nothing() -> None:
    state = lead_spinner(7)
    assert state.line.spinner == SpinnerAt(None, 0)
    assert state.line.open_ends() == {LEFT: 6, RIGHT: 4, UP: 3, DOWN: 0}
    assert state.line.fives_count() == 13
    assert (last_scored(state), state.fives) == (0, (25, 35))  # 13 is not a multiple of 5


# --- a spinner played after the lead ------------------------------------------------------------


def test_first_double_after_the_lead_is_the_spinner_and_counts_both_halves_at_the_end() -> None:
    state = late_spinner(2)
    assert state.line.spinner == SpinnerAt(RIGHT, 0)
    assert state.line.fives_count() == 10  # 6 + (2+2)
    assert (last_scored(state), state.fives) == (10, (0, 10))


def test_late_spinner_is_closed_until_its_outer_side_is_played() -> None:
    state = late_spinner(2)
    assert state.line.open_ends() == {LEFT: 6, RIGHT: 2}
    with pytest.raises(EndNotOpenError):
        state.apply(move("4-2 up"))


def test_late_spinner_stays_closed_while_only_the_other_arm_grows() -> None:
    # 6-6 on the left covers nothing of the spinner: still two ends. It counts 12 + 4 = 16.
    state = play(late_spinner(2), "0: 6-6 left")
    assert state.line.open_ends() == {LEFT: 6, RIGHT: 2}
    assert state.line.fives_count() == 16


def test_late_spinner_opens_as_soon_as_its_outer_side_is_played() -> None:
    state = late_spinner(3)
    assert state.line.open_ends() == {LEFT: 6, RIGHT: 4, UP: 2, DOWN: 2}
    assert state.line.fives_count() == 10  # 6 + 4, up and down unplayed
    assert (last_scored(state), state.fives) == (10, (10, 10))


def test_late_spinner_up_and_down_arms_grow_from_the_spinner() -> None:
    state = late_spinner(5)
    assert state.line.arm(UP) == (Placed(tile("5-2"), 2, 5),)
    assert state.line.arm(DOWN) == (Placed(tile("2-0"), 2, 0),)
    assert state.line.open_ends() == {LEFT: 6, RIGHT: 4, UP: 5, DOWN: 0}
    assert state.fives == (25, 25)  # S0 10 + 15, S1 10 + 15


# --- no spinner outside fives -------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "draw", "block", "quickblock", "duel", "hundred"])
def test_non_fives_presets_never_open_up_or_down(preset: str) -> None:
    # 5-5 is the only double dealt (the forced lead wherever there is one); both its long sides
    # get covered, yet the line keeps two ends, and nothing is scored during play.
    hands = ["5-5 5-0 6-4 6-3 6-2 6-1 6-0", "5-3 5-4 4-3 4-2 4-1 4-0 3-2"]
    first = 0 if preset in ("draw", "block") else None
    state = play(start(preset, hands, first=first), "0: 5-5", "1: 5-3 right", "0: 5-0 left")
    assert state.line.spinner is None
    assert state.line.open_ends() == {LEFT: 0, RIGHT: 3}
    assert all(played.scored == 0 for played in state.plays())
    assert state.fives == (0, 0)
    with pytest.raises(EndNotOpenError):
        state.apply(move("5-4 up"))

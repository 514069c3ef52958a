"""Automatic draws and passes, the hundred reserve, and when passing blocks the round.

Draws and passes are never chosen: ``apply`` performs them after each play and
reports them as events, so that the bot can say "S1 drew 4 and passed".
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Drew, End, Move, Passed, Played, RoundEnd, RoundState
from tests.engine.helpers import SIXES_OUT, play, start, tile, tiles

LEFT, RIGHT = End.LEFT, End.RIGHT

# Draw, 2 seats, S0 first. S1 holds no 6; the boneyard holds 5-3 and 4-3 (no 6) before 6-1 and 6-0.
DRAW_HANDS = ["6-6 6-5 6-4 6-3 6-2 5-2 5-1", "5-5 4-4 3-3 2-2 1-1 0-0 5-4"]
DRAW_BONEYARD = "5-3 4-3 6-1 6-0 5-0 4-2 4-1 4-0 3-2 3-1 3-0 2-1 2-0 1-0"


def test_seat_without_a_playable_tile_draws_until_the_first_playable_one() -> None:
    # Ends 6/6: S1 draws 5-3 (no), 4-3 (no), 6-1 (fits) and stops although 6-0 would fit too.
    state = play(start("draw", DRAW_HANDS, DRAW_BONEYARD, first=0), "0: 6-6")
    assert state.events[-1] == Drew(1, 3, (6, 6), tiles("5-3 4-3 6-1"))
    assert state.boneyard == tiles("6-0 5-0 4-2 4-1 4-0 3-2 3-1 3-0 2-1 2-0 1-0")
    assert state.draws == (0, 3)
    assert state.hands[1] == tiles("5-5 4-4 3-3 2-2 1-1 0-0 5-4 5-3 4-3 6-1")


def test_after_drawing_the_seat_keeps_the_turn_and_must_play_the_drawn_tile() -> None:
    state = play(start("draw", DRAW_HANDS, DRAW_BONEYARD, first=0), "0: 6-6")
    assert state.turn == 1
    assert Counter(state.legal_moves()) == Counter([Move(tile("6-1"), LEFT), Move(tile("6-1"), RIGHT)])


def test_seat_with_a_playable_tile_never_draws() -> None:
    # After 6-1 on the right (L6 R1) S0 holds 6-5 6-4 6-3 6-2 (fit L6) and 5-1 (fits R1): no draw.
    state = play(start("draw", DRAW_HANDS, DRAW_BONEYARD, first=0), "0: 6-6", "1: 6-1 right")
    assert state.turn == 0
    assert state.events[-1] == Played(1, tile("6-1"), RIGHT, 0)
    assert state.draws == (0, 3)


# Draw, 4 seats (6 tiles each, 4 in the boneyard), S0 first. After S0's 6-6 S1 (all 5s) draws
# the whole boneyard (2-0 1-1 1-0 0-0, no 6) and passes; S2 plays 6-5; S3 (3s and 2s) has
# nothing for 6/5 and, the boneyard being empty, passes without drawing; S0 is to play.
FOUR_HANDS = [
    "6-6 6-4 6-3 6-2 6-1 6-0",
    "5-5 5-4 5-3 5-2 5-1 5-0",
    "6-5 4-4 4-3 4-2 4-1 4-0",
    "3-3 3-2 3-1 3-0 2-2 2-1",
]
FOUR_BONEYARD = "2-0 1-1 1-0 0-0"


def test_draws_and_passes_are_reported_in_order() -> None:
    state = play(start("draw", FOUR_HANDS, FOUR_BONEYARD, first=0), "0: 6-6", "2: 6-5 right")
    assert state.events == (
        Played(0, tile("6-6"), None, 0),
        Drew(1, 4, (6, 6), tiles("2-0 1-1 1-0 0-0")),
        Passed(1, (6, 6)),
        Played(2, tile("6-5"), RIGHT, 0),
        Passed(3, (6, 5)),
    )
    assert state.turn == 0


def test_seat_passes_only_once_the_boneyard_is_empty() -> None:
    state = play(start("draw", FOUR_HANDS, FOUR_BONEYARD, first=0), "0: 6-6")
    assert state.boneyard == ()
    assert state.draws == (0, 4, 0, 0)
    assert state.turn == 2


def test_passes_in_a_row_are_counted_until_the_next_play() -> None:
    state = play(start("draw", FOUR_HANDS, FOUR_BONEYARD, first=0), "0: 6-6")
    assert state.passes == 1
    state = play(state, "2: 6-5 right")
    assert (state.passes, state.end) == (1, None)  # S3's pass; S2's play reset S1's


# --- hundred: the last two tiles are never drawn -------------------------------------------------

# Hundred, the SIXES_OUT line. S1 (5-5 5-3 4-4 left) lacks 0 and 6 at its last turn and draws
# 5-2 4-3 3-1, then 6-0, which it plays. Then S0 (3-3 2-2) draws while more than two tiles remain:
# 5-1 4-2 4-1 2-1 1-1 5-0 4-0 3-0 (8, no 6), and passes with 2-0 0-0 left; S1 passes without drawing.
HUNDRED_HANDS = ["6-6 5-4 6-3 6-2 1-0 3-3 2-2", "6-5 6-4 3-2 6-1 5-5 5-3 4-4"]
HUNDRED_BONEYARD = "5-2 4-3 3-1 6-0 5-1 4-2 4-1 2-1 1-1 5-0 4-0 3-0 2-0 0-0"


def hundred_blocked() -> RoundState:
    return play(start("hundred", HUNDRED_HANDS, HUNDRED_BONEYARD), *SIXES_OUT)


def test_hundred_draw_stops_at_the_first_playable_tile_like_any_draw() -> None:
    state = play(start("hundred", HUNDRED_HANDS, HUNDRED_BONEYARD), *SIXES_OUT[:-1])
    assert state.events[-1] == Drew(1, 4, (0, 6), tiles("5-2 4-3 3-1 6-0"))
    assert state.turn == 1


def test_hundred_seat_draws_down_to_two_tiles_then_passes() -> None:
    state = hundred_blocked()
    assert state.events[-3:-1] == (
        Drew(0, 8, (6, 6), tiles("5-1 4-2 4-1 2-1 1-1 5-0 4-0 3-0")),
        Passed(0, (6, 6)),
    )
    assert state.boneyard == tiles("2-0 0-0")


def test_hundred_seat_passes_without_drawing_when_two_tiles_are_left() -> None:
    state = hundred_blocked()
    assert state.events[-1] == Passed(1, (6, 6))
    assert state.draws == (8, 4)
    assert state.drawable == 0
    assert state.end is RoundEnd.FISH


@pytest.mark.parametrize(("preset", "drawable"), [("draw", 14), ("hundred", 12), ("block", 0), ("quickblock", 0)])
def test_drawable_tiles_at_the_start_of_a_two_seat_round(preset: str, drawable: int) -> None:
    hands = ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4"]
    state = start(preset, hands, first=0 if preset in ("draw", "block") else None)
    assert (len(state.boneyard), state.drawable) == (14, drawable)


# --- block presets: nobody ever draws ------------------------------------------------------------


@pytest.mark.parametrize("preset", ["block", "quickblock"])
def test_block_presets_pass_instead_of_drawing(preset: str) -> None:
    # S0 leads 6-6; S1 holds no 6 and passes at once although 6-5 sleeps in the boneyard;
    # S0 (no other 6) passes too -> fish, with nothing drawn.
    hands = ["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "5-4 5-3 5-2 5-1 5-0 4-3 4-2"]
    state = start(preset, hands, first=0 if preset == "block" else None)
    boneyard = state.boneyard
    assert tile("6-5") in boneyard
    state = play(state, "0: 6-6")
    assert state.events == (Played(0, tile("6-6"), None, 0), Passed(1, (6, 6)), Passed(0, (6, 6)))
    assert (state.boneyard, state.draws, state.end) == (boneyard, (0, 0), RoundEnd.FISH)


# --- when passes block the round ------------------------------------------------------------------


def test_fewer_passes_in_a_row_than_seats_do_not_block_the_round() -> None:
    # Block, 3 seats: S1 and S2 hold only tiles of 3..6; after S0's 2-1 lead both pass
    # (2 passes < 3 seats) and S0 plays again.
    hands = ["2-1 2-2 1-1 2-0 1-0", "6-6 6-5 6-4 6-3 5-5", "5-4 5-3 4-4 4-3 3-3"]
    state = play(start("block", hands, first=0), "0: 2-1")
    assert state.events[1:] == (Passed(1, (2, 1)), Passed(2, (2, 1)))
    assert (state.end, state.turn, state.passes) == (None, 0, 2)
    state = play(state, "0: 2-2")
    assert state.passes == 2  # a play resets the count, then S1 and S2 pass again
    assert state.events[-3:] == (Played(0, tile("2-2"), LEFT, 0), Passed(1, (2, 1)), Passed(2, (2, 1)))


def test_every_seat_passing_in_turn_blocks_the_round() -> None:
    # Block, 3 seats: S0 leads 6-6, nobody (S0 included) holds another 6: S1, S2, S0 pass -> fish.
    hands = ["6-6 5-5 5-4 5-3 4-4", "5-2 4-3 5-1 4-2 3-3", "5-0 4-1 3-2 2-1 0-0"]
    state = play(start("block", hands, first=0), "0: 6-6")
    assert state.events[1:] == (Passed(1, (6, 6)), Passed(2, (6, 6)), Passed(0, (6, 6)))
    assert state.end is RoundEnd.FISH

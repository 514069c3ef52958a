"""``RoundState.resume``: a round in progress from its parts, the same round as the one they came from."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import ALL_TILES, PRESETS, Deal, DealError, PositionError, RoundEnd, RoundState
from tests.engine.helpers import play, start, tile, tiles


def parts(state: RoundState) -> dict[str, Any]:
    """Everything ``resume`` takes, read from ``state``."""
    return {
        "rules": state.rules,
        "hands": state.hands,
        "boneyard": state.boneyard,
        "line": state.line,
        "turn": state.turn,
        "starter": state.starter,
        "forced": state.forced,
        "passes": state.passes,
        "fives": state.fives,
        "draws": state.draws,
        "end": state.end,
    }


def resumed(state: RoundState, **changes: Any) -> RoundState:
    return RoundState.resume(**{**parts(state), **changes})


def positions(seed: int) -> list[RoundState]:
    """Every position of a random round of every preset and seat count, from the deal to the end."""
    rng = random.Random(seed)
    found = []
    for rules in PRESETS.values():
        for seats in range(rules.min_seats, rules.max_seats + 1):
            state = RoundState.deal(rules, seats, rng)
            found.append(state)
            while not state.is_over:
                state = state.apply(rng.choice(state.legal_moves()))
                found.append(state)
    return found


def test_every_position_resumes_as_itself_less_its_history() -> None:
    for state in positions(1):
        copy = resumed(state)
        # Every field but the deal and the events is the original's: a new field must be resumed too.
        assert copy == state._replace(deal_=Deal(state.hands, state.boneyard, state.starter), events=())
        assert copy.legal_moves() == state.legal_moves() and copy.outcome() == state.outcome()


def test_a_resumed_round_plays_on_like_the_original() -> None:
    rng = random.Random(2)
    for state in positions(2)[::7]:
        copy = resumed(state)
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            state, copy = state.apply(move), copy.apply(move)
            assert (copy.hands, copy.boneyard, copy.line, copy.turn) == (
                state.hands,
                state.boneyard,
                state.line,
                state.turn,
            )
            assert copy.events == state.events[-len(copy.events) :]
        assert copy.outcome() == state.outcome()


def test_defaults_and_any_sequences() -> None:
    state = start("draw", ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4"], first=0)
    copy = RoundState.resume(
        state.rules, [list(hand) for hand in state.hands], list(state.boneyard), state.line, 0, starter=0
    )
    assert copy == state
    assert copy.fives == copy.draws == (0, 0) and copy.passes == 0 and copy.forced is None and copy.end is None


def _fives_position() -> RoundState:
    return play(
        start("fives", ["5-5 6-4 3-2 1-1 0-0 6-1 2-1", "5-0 4-4 6-6 2-2 1-0 3-3 4-3"], first=0),
        "0: 5-5",
        "1: 5-0 right",
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"boneyard": ()}, "missing"),
        ({"boneyard": (tile("6-6"),)}, "more than one place"),
        ({"turn": 2}, "seat to play 2"),
        ({"starter": -1}, "starter -1"),
        ({"fives": (0,)}, "fives must be 2 counts"),
        ({"draws": (0, -1)}, "draws must be 2 counts"),
        ({"passes": 2}, "2 passes"),
        ({"forced": tile("6-4")}, "forced lead"),
        ({"end": RoundEnd.DOMINO}, "domino"),
        ({"end": RoundEnd.FISH}, "fish"),
    ],
)
def test_parts_no_round_is_made_of(changes: dict[str, Any], message: str) -> None:
    state = _fives_position()
    assert resumed(state) is not None
    with pytest.raises(PositionError, match=message) as raised:
        resumed(state, **changes)
    assert isinstance(raised.value, DealError) and raised.value.code == "bad_position"


def test_scores_and_draws_only_where_the_rules_have_them() -> None:
    state = play(start("block", ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4"], first=0), "0: 6-5")
    with pytest.raises(PositionError, match="no points during play"):
        resumed(state, fives=(5, 0))
    with pytest.raises(PositionError, match="nobody draws"):
        resumed(state, draws=(1, 0))


def test_the_seat_to_play_must_have_a_move_and_an_empty_hand_ends_the_round() -> None:
    state = play(start("block", ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4"], first=0), "0: 6-5")
    assert state.turn == 1 and state.line.end_values() == (6, 5)
    no_six_or_five = (tiles("6-6 6-4 6-3 6-2 6-1 6-0"), tiles("4-4 3-3 2-2 1-1 0-0 3-0 2-0"))
    rest = tuple(t for t in ALL_TILES if t not in {*no_six_or_five[0], *no_six_or_five[1], tile("6-5")})
    with pytest.raises(PositionError, match="has no tile that fits"):
        resumed(state, hands=no_six_or_five, boneyard=rest)
    with pytest.raises(PositionError, match="seat 0 has no tiles left"):
        resumed(state, hands=((), state.hands[1]), boneyard=state.boneyard + state.hands[0])

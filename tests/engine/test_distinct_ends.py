"""Which ends make a difference (``RoundState.distinct_ends``): a person is asked "which end?" only
when the answers lead to different games; ends that are mirror images of each other (the two
sides of a lone double) are one choice."""

from __future__ import annotations

import random

import pytest

from engine import End, Match, Move, RoundState, Rules
from engine.rules import PRESETS
from tests.engine.helpers import start, tile

LEFT, RIGHT, UP, DOWN = End.LEFT, End.RIGHT, End.UP, End.DOWN
HANDS = ["2-2 6-4 6-3 6-1 4-4 0-0 1-0", "5-2 3-3 2-1 4-2 5-0 4-0 3-0"]


@pytest.mark.parametrize("preset", ["block", "draw", "fives"])
def test_a_lone_double_is_one_choice(preset: str) -> None:
    state = start(preset, HANDS, first=0).apply(Move(tile("2-2")))
    assert [m.end for m in state.legal_moves() if m.tile == tile("5-2")] == [LEFT, RIGHT]  # a record names one
    assert state.distinct_ends(tile("5-2")) == [LEFT]


def test_equal_numbers_with_a_double_at_one_end_differ_where_the_ends_are_counted() -> None:
    # 6-3 leads, 3-3 goes right (fives: the spinner), 6-5 left, 5-3 left: both ends show 3, but a
    # double lies on the right. fives: 3-0 on the left leaves 0 + 3·2 = 6 and the spinner shut; on
    # the right it opens the spinner and leaves 3 + 0 = 3: two games. block counts nothing: one.
    hands = ["6-3 6-5 3-0 6-6 6-4 6-2 6-1", "3-3 5-3 1-1 2-2 4-4 5-5 0-0"]
    plays = [Move(tile("6-3")), Move(tile("3-3"), RIGHT), Move(tile("6-5"), LEFT), Move(tile("5-3"), LEFT)]
    for preset, expected in (("fives", [LEFT, RIGHT]), ("block", [LEFT])):
        state = start(preset, hands, first=0)
        for move in plays:
            state = state.apply(move)
        assert state.line.open_ends() == {LEFT: 3, RIGHT: 3}
        assert state.distinct_ends(tile("3-0")) == expected, preset


def _mirror(end: End, twin: End) -> dict[End, End]:
    """The renaming of ends that swaps ``end`` and ``twin`` (left and right, or up and down)."""
    return {end: twin, twin: end} if end != twin else {}


def _same_games(first: RoundState, second: RoundState, mirror: dict[End, End], rng: random.Random) -> None:
    """Played on with the same choices (ends renamed by ``mirror``), both give the same game: the
    same ends showing, the same counts and scores, the same outcome."""
    counted = first.rules.spinner or first.rules.in_play.value != "none"
    while True:
        assert {mirror.get(end, end): value for end, value in first.line.open_ends().items()} == second.line.open_ends()
        assert first.fives == second.fives and first.turn == second.turn and first.end == second.end
        assert not counted or first.line.fives_count() == second.line.fives_count()
        if first.end is not None:
            break
        move = rng.choice(first.legal_moves())
        renamed = Move(move.tile, None if move.end is None else mirror.get(move.end, move.end))
        assert renamed in second.legal_moves(), (move, second.legal_moves())
        first, second = first.apply(move), second.apply(renamed)
    assert second.outcome() == first.outcome()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_ends_called_one_choice_lead_to_the_same_game(preset: str) -> None:
    """Over many positions of random games: every end left out plays exactly like an end kept
    (the two sides renamed), to the end of the round, whatever is played after."""
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    merged = 0
    for _ in range(30):
        state = Match.new(rules, rules.min_seats, rng, None if rules.forced_lead else 0).round
        while state.end is None:
            for chosen in {m.tile for m in state.legal_moves() if m.end is not None}:
                ends = [m.end for m in state.legal_moves() if m.tile == chosen]
                kept = state.distinct_ends(chosen)
                assert kept and kept == [end for end in ends if end in kept], (ends, kept)
                for end in ends:
                    if end in kept:
                        continue
                    merged += 1
                    twin = next(k for k in kept if {k, end} in ({LEFT, RIGHT}, {UP, DOWN}))
                    left_out, played = state.apply(Move(chosen, end)), state.apply(Move(chosen, twin))
                    _same_games(left_out, played, _mirror(end, twin), random.Random(merged))
            state = state.apply(rng.choice(state.legal_moves()))
    assert merged > 0

"""The search's model of a round (engine/players/sim.py) against the engine's public API.

Both are views of one core (engine/core.py), so this checks the views: that a Sim taken
from any state, and played on by itself, stays the state that RoundState reaches (the
rules themselves are checked against an independent reference in test_core_reference.py
and against the anchors). Random games of every preset and seat count, move by move:
hands, ends, turn, passes, fives, draws, the boneyard, the legal moves, the
fives count, what a move would score, and the outcome must agree throughout.
"""

from __future__ import annotations

import random

import pytest

from engine import PRESETS, Played, RoundState, Rules
from engine.players.sim import INDEX, Sim, from_move, mask_of, to_move

CASES = [(preset, seats) for preset, rules in PRESETS.items() for seats in range(rules.min_seats, rules.max_seats + 1)]


def _check_same(state: RoundState, sim: Sim) -> None:
    assert sim.hands == [mask_of(hand) for hand in state.hands]
    assert sim.ends == [-1 if value is None else value for value in state.line.ends]
    assert (sim.turn, sim.passes) == (state.turn, state.passes)
    assert sim.fives == list(state.fives)
    assert sim.draws == list(state.draws)
    assert sim.over == state.is_over
    if sim.tracks:  # the count is kept only where the rules read it (fives, the spinner)
        assert sim.count() == state.line.fives_count()
    assert sim.boneyard[sim.bone_at :] == [INDEX[tile] for tile in state.boneyard]
    assert sim.drawable == state.drawable


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_sim_plays_exactly_like_the_engine(preset: str, seats: int) -> None:
    rng = random.Random(f"sim {preset} {seats}")
    rules = Rules.preset(preset)
    for _ in range(150):
        state = RoundState.deal(rules, seats, rng)
        sim = state.to_core()
        while True:
            _check_same(state, sim)
            rebuilt = state.to_core()  # the model can start from any point of a round
            assert (rebuilt.ends, rebuilt.double_end, rebuilt.spin_state) == (sim.ends, sim.double_end, sim.spin_state)
            if state.is_over:
                break
            moves = state.legal_moves()
            assert sorted(map(from_move, moves)) == sorted(sim.moves())
            assert {to_move(move) for move in sim.moves()} == set(moves)
            move = moves[rng.randrange(len(moves))]
            would_score = sim.score_of(from_move(move))
            state = state.apply(move)
            sim.play(from_move(move))
            last_play = [event for event in state.events if type(event) is Played][-1]
            assert would_score == last_play.scored
        outcome = state.outcome()
        assert outcome is not None
        end, winners, points, pips = sim.result()
        assert (end, winners, points, pips) == (
            outcome.end.value,
            outcome.winners,
            list(outcome.points),
            list(outcome.pips),
        )


def test_copies_are_independent() -> None:
    state = RoundState.deal(Rules.preset("fives"), 3, random.Random(1), first=0)
    sim = state.to_core()
    twin = sim.copy()
    sim.play(sim.moves()[0])
    assert twin.hands == [mask_of(hand) for hand in state.hands]
    assert twin.lead == -1 and sim.lead >= 0


def test_distinct_moves_drop_only_mirror_images() -> None:
    rng = random.Random(5)
    for _ in range(300):
        state = RoundState.deal(Rules.preset("draw"), 2, rng, first=0)
        while not state.is_over:
            sim = state.to_core()
            distinct = sim.distinct_moves()
            everything = sim.moves()
            assert set(distinct) <= set(everything)
            if sim.lead >= 0 and sim.ends[0] == sim.ends[1]:
                assert {tile for tile, _ in distinct} == {tile for tile, _ in everything}
            else:
                assert sorted(distinct) == sorted(everything)
            state = state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("preset", ["classic", "draw", "block", "fives", "quickblock", "duel", "hundred"])
def test_sim_deals_as_the_engine_deals(preset: str) -> None:
    rules = Rules.preset(preset)
    for seats in range(rules.min_seats, rules.max_seats + 1):
        for seed in range(50):
            direct = Sim.deal(rules, seats, random.Random(seed))
            via_state = RoundState.deal(rules, seats, random.Random(seed)).to_core()
            assert (direct.hands, direct.boneyard, direct.turn, direct.forced) == (
                via_state.hands,
                via_state.boneyard,
                via_state.turn,
                via_state.forced,
            )

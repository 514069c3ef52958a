"""Differential test against OpenSpiel's ``python_block_dominoes``: 2 seats, block, 7 tiles each.

Our deal is fed to OpenSpiel as its chance outcomes (seat 0's seven tiles,
then seat 1's), then both engines play the same random legal moves; at every
step they must agree on whose turn it is, the open end numbers, the hands, the
legal moves and whether the game is over, and at the end on the pips and the
returns as far as the rules agree.

Conventions of OpenSpiel that differ from ours, normalised below:

- An action names the number it covers (``edge``), not an end: a tile that fits
  both ends when they show the same number is one action, a double is one
  action. We compare (tile, number covered) sets; the lead covers nothing.
- There is no pass action: after a play, the player moves again when the
  opponent cannot move, and the game is over when neither can. Our engine
  reports a pass instead; both give the turn to the same seat, and a fish in
  ours (both seats passing after the last play) is OpenSpiel's terminal block.
- Seat 0 always leads, with any tile: our block rules with ``first=0``.
- ``returns()`` decide the winner by pips alone and give the winner the
  loser's pips, in a block too. Ours (RULES.md, ``block``): a domino wins
  outright, a fish goes to the lower count, and the winner scores the others'
  pips minus their own; a fish tie scores nothing in both. So we compare the
  winner and the loser's pips, and the score only where both formulas agree
  (a domino). The one corner where the winners differ: a domino against a
  lone 0-0 (0 pips each) is a win for us and a 0-0 draw for OpenSpiel, worth 0
  points either way.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pyspiel
import pytest
from open_spiel.python.games import block_dominoes  # registers the game

from engine import ENDS, Move, Passed, Played, RoundEnd, RoundState, Tile, tile_of
from tests.engine.anchors import (
    BLOCK_2X7,
    last_player,
    moves_by_value,
    random_move,
    seed_chunks,
    trailing_passes,
    turn_order_problems,
)

SEATS = 2
FIRST = 0  # OpenSpiel's player 0 always moves first
GAME = pyspiel.load_game("python_block_dominoes")


def _tile(pair: tuple[float, float]) -> Tile:
    """OpenSpiel's tiles are (low, high) pairs of floats."""
    return tile_of(int(pair[0]), int(pair[1]))


DEAL_ACTION: dict[Tile, int] = {_tile(pair): index for index, pair in enumerate(block_dominoes._DECK)}
"""Our tile -> the chance outcome that deals it."""

PLAY_ACTION: dict[tuple[int, Tile, int | None], int] = {
    (action.player, _tile(action.tile), None if action.edge is None else int(action.edge)): index
    for index, action in enumerate(block_dominoes._ACTIONS)
}
"""(seat, tile, number covered or None for the lead) -> OpenSpiel's action id."""


def _deal(state: Any, ours: RoundState, where: str) -> None:
    """Give OpenSpiel our deal through its chance nodes: seat 0's tiles first, then seat 1's."""
    for tile in ours.hands[0] + ours.hands[1]:
        assert state.is_chance_node(), f"{where}: OpenSpiel stopped dealing early"
        action = DEAL_ACTION[tile]
        assert action in {outcome for outcome, _ in state.chance_outcomes()}, f"{where}: {tile} cannot be dealt"
        state.apply_action(action)
    assert not state.is_chance_node(), f"{where}: OpenSpiel deals more than 14 tiles"


def _their_action(state: RoundState, move: Move) -> int:
    """Our move as OpenSpiel's action: the tile and the number on the end it covers."""
    covered = None if move.end is None else state.line.ends[ENDS.index(move.end)]
    return PLAY_ACTION[(state.turn, move.tile, covered)]


def _their_moves(spiel: Any) -> set[tuple[Tile, int | None]]:
    """OpenSpiel's legal actions for the player to move as (tile, number covered)."""
    moves = set()
    for index in spiel.legal_actions():
        action = block_dominoes._ACTIONS[index]
        assert action.player == spiel.current_player(), f"action {action} is not for the player to move"
        moves.add((_tile(action.tile), None if action.edge is None else int(action.edge)))
    return moves


def _compare(spiel: Any, state: RoundState, where: str) -> None:
    assert spiel.is_terminal() == state.is_over, f"{where}: end of game"
    assert [sorted(_tile(pair) for pair in hand) for hand in spiel.hands] == [sorted(hand) for hand in state.hands], (
        f"{where}: hands"
    )
    assert sorted(int(edge) for edge in spiel.open_edges) == sorted(state.line.end_values()), f"{where}: open ends"
    if not state.is_over:
        assert spiel.current_player() == state.turn, f"{where}: turn"
        assert _their_moves(spiel) == moves_by_value(state), f"{where}: legal moves"


def _expected_returns(state: RoundState) -> list[int]:
    """OpenSpiel's returns for our final position, by its convention: the lower pips win the loser's pips."""
    pips = [sum(tile.pips for tile in hand) for hand in state.hands]
    if pips[0] == pips[1]:
        return [0, 0]
    winner = 0 if pips[0] < pips[1] else 1
    loser = 1 - winner
    returns = [0, 0]
    returns[winner], returns[loser] = pips[loser], -pips[loser]
    return returns


def _compare_end(spiel: Any, state: RoundState, where: str) -> None:
    outcome = state.outcome()
    assert outcome is not None, f"{where}: our round is not over"
    returns = [int(value) for value in spiel.returns()]
    assert returns == _expected_returns(state), f"{where}: returns {returns} for pips {outcome.pips}"
    if outcome.end is RoundEnd.DOMINO:
        (winner,) = outcome.winners
        assert not state.hands[winner], f"{where}: the winner's hand is not empty"
        assert winner == last_player(state.events) == state.turn, f"{where}: who went out"
        assert returns[winner] == outcome.points[winner], f"{where}: domino points"
    else:
        # OpenSpiel: neither seat had a move after the last play; ours: both passed, in turn.
        assert trailing_passes(state.events) == SEATS, f"{where}: a fish ends with both seats passing"
        for hand in state.hands:
            assert not any(state.line.ends_for(tile) for tile in hand), f"{where}: fish with a playable tile"
        lowest = min(outcome.pips)
        low_seats = tuple(seat for seat in range(SEATS) if outcome.pips[seat] == lowest)
        assert outcome.winners == (low_seats if len(low_seats) == 1 else ()), f"{where}: fish winner"
        if outcome.winners:
            (winner,) = outcome.winners
            assert returns[winner] > 0, f"{where}: fish winner"
            # OpenSpiel: the loser's pips; RULES.md block: the loser's pips minus the winner's own.
            assert outcome.points[winner] == returns[winner] - outcome.pips[winner], f"{where}: fish points"
        else:
            assert returns == [0, 0], f"{where}: fish tie"


def _passes_between_plays(state: RoundState) -> list[int]:
    """For each play after the lead, how many passes came just before it."""
    counts = []
    passes = 0
    for event in state.events[1:]:
        if type(event) is Passed:
            passes += 1
        elif type(event) is Played:
            counts.append(passes)
            passes = 0
    return counts


def play_one(seed: int) -> RoundState:
    """Play one seeded random game in both engines, comparing them after every move."""
    rng = random.Random(seed)
    state = RoundState.deal(BLOCK_2X7, SEATS, rng, first=FIRST)
    spiel = GAME.new_initial_state()
    _deal(spiel, state, f"seed {seed}, deal")
    _compare(spiel, state, f"seed {seed}, deal")
    movers: list[int] = []
    plays = 0
    while not state.is_over:
        move = random_move(rng, state)
        movers.append(spiel.current_player())  # OpenSpiel's own view, for its implicit passes below
        spiel.apply_action(_their_action(state, move))
        state = state.apply(move)
        plays += 1
        _compare(spiel, state, f"seed {seed}, play {plays} ({move} by seat {movers[-1]})")
    _compare_end(spiel, state, f"seed {seed}, end")
    assert turn_order_problems(state.events, FIRST, SEATS) == [], f"seed {seed}: turn order"
    # OpenSpiel's implicit pass: the same player moving twice in a row is exactly one pass of ours in between.
    implicit = [int(before == after) for before, after in itertools.pairwise(movers)]
    assert implicit == _passes_between_plays(state), f"seed {seed}: passes"
    return state


@pytest.mark.anchors
@pytest.mark.parametrize("seeds", seed_chunks(), ids=lambda seeds: f"seeds{seeds.start}-{seeds.stop - 1}")
def test_random_games_agree_with_openspiel(seeds: range) -> None:
    for seed in seeds:
        play_one(seed)


@pytest.mark.anchors
def test_both_endings_and_passes_are_exercised() -> None:
    """The seeds reach a domino, a fish with a winner, a fish tie and a pass in mid-game."""
    seen: set[object] = set()
    for seed in range(300):
        state = play_one(seed)
        outcome = state.outcome()
        assert outcome is not None
        seen.add((outcome.end, bool(outcome.winners)))
        if any(_passes_between_plays(state)):
            seen.add("pass")
    assert seen >= {(RoundEnd.DOMINO, True), (RoundEnd.FISH, True), (RoundEnd.FISH, False), "pass"}

"""Differential test against PyPI ``dominoes`` 6.1.0: 4 seats, block, the whole set dealt, 6-6 leads.

Both engines get the same deal (dealt by ``dominoes.Game.new`` itself, read back
into :meth:`RoundState.start`) and the same random legal moves; after every
move they must agree on the line (tile by tile, left to right), the hands,
whose turn it is, every play and pass so far, the legal moves and the end.

Conventions of ``dominoes`` that differ from ours, normalised below:

- A tile that fits both ends because they show the same number is listed once,
  on the left (``game._update_valid_moves``); we list it for both ends, since
  RULES.md lets the player choose the end (and RECORD.md requires the end even
  then). We compare their list plus the mirrored right-end move with ours.
- The lead is a move ``(6-6, True)`` ("left"); ours has no end.
- When the game gets stuck, ``dominoes`` drops the passes of the final lap from
  ``game.moves``; we report them (every seat passes once, ending with the seat
  that played last, which is also whose "turn" it is in both engines).
- Scoring is by partnership (seats 0+2 against 1+3); we compare only what the
  rules share: who went out or that the game was stuck, the hands and pips
  left, and in a domino the points (both count every other hand's pips).
"""

from __future__ import annotations

import importlib.metadata
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import dominoes
import pytest

from engine import End, Move, Passed, Played, RoundEnd, RoundState, Tile, tile_of
from tests.engine.anchors import (
    BLOCK_4X7,
    chain,
    last_player,
    random_move,
    seed_chunks,
    trailing_passes,
    turn_order_problems,
)

# The conventions normalised here are those of 6.1.0 (the package has no __version__ of its own);
# the test extra pins it, so another version is a broken install, not a reason to skip.
DOMINOES_VERSION = importlib.metadata.version("dominoes")
assert DOMINOES_VERSION == "6.1.0", f"written against dominoes 6.1.0, not {DOMINOES_VERSION}"

SEATS = 4
SIX_SIX = Tile(6, 6)


@contextmanager
def _global_random_seeded(seed: int) -> Iterator[None]:
    """``dominoes`` shuffles with the global ``random``: seed it for one deal and put its state back."""
    saved = random.getstate()
    random.seed(seed)
    try:
        yield
    finally:
        random.setstate(saved)


def _tile(domino: Any) -> Tile:
    return tile_of(domino.first, domino.second)


def _new_game(seed: int) -> tuple[Any, RoundState]:
    """A ``dominoes`` game dealt by its own ``Game.new`` and our round from the same deal, before the lead."""
    with _global_random_seeded(seed):
        game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
    # Game.new has already played 6-6; give it back to its holder to recover the deal.
    hands = [[_tile(domino) for domino in hand] for hand in game.hands]
    hands[game.starting_player].append(_tile(game.moves[0][0]))
    return game, RoundState.start(BLOCK_4X7, hands, ())


def _their_move(move: Move) -> tuple[Any, bool]:
    """Our move as ``dominoes`` takes it: (domino, on the left?); the lead goes "left"."""
    return dominoes.Domino(move.tile.high, move.tile.low), move.end is not End.RIGHT


def _their_moves_normalised(game: Any, state: RoundState) -> set[Move]:
    """Their legal moves in our terms, with the right-end twin they leave out when both ends show one number."""
    left, right = state.line.ends[0], state.line.ends[1]
    moves = set()
    for domino, on_left in game.valid_moves:
        tile = _tile(domino)
        moves.add(Move(tile, End.LEFT if on_left else End.RIGHT))
        if on_left and left == right:
            moves.add(Move(tile, End.RIGHT))
    return moves


def _our_history(state: RoundState) -> list[tuple[Tile, bool] | None]:
    """Our plays and passes as ``dominoes`` records them in ``game.moves``."""
    events = state.events
    if state.end is RoundEnd.FISH:
        events = events[: len(events) - trailing_passes(events)]
    history: list[tuple[Tile, bool] | None] = []
    for event in events:
        if type(event) is Played:
            history.append((event.tile, event.end is not End.RIGHT))
        else:
            assert type(event) is Passed, event
            history.append(None)
    return history


def _compare(game: Any, state: RoundState, where: str) -> None:
    """Everything the two engines must agree on after the same moves."""
    assert game.turn == state.turn, f"{where}: turn"
    assert [sorted(_tile(d) for d in hand) for hand in game.hands] == [sorted(hand) for hand in state.hands], (
        f"{where}: hands"
    )
    assert [(d.first, d.second) for d in game.board.board] == chain(state.line), f"{where}: line"
    theirs = [None if move is None else (_tile(move[0]), move[1]) for move in game.moves]
    assert theirs == _our_history(state), f"{where}: plays and passes"
    assert (game.result is not None) == state.is_over, f"{where}: end of game"
    if not state.is_over:
        assert _their_moves_normalised(game, state) == set(state.legal_moves()), f"{where}: legal moves"
        # Each (tile, end) once in ours: no duplicates hidden by the set comparison.
        assert len(state.legal_moves()) == len(set(state.legal_moves())), f"{where}: duplicate legal moves"


def _compare_end(game: Any, state: RoundState, where: str) -> None:
    outcome = state.outcome()
    assert outcome is not None, f"{where}: our round is not over"
    result = game.result
    assert result.won == (outcome.end is RoundEnd.DOMINO), f"{where}: domino or stuck"
    # result.player is the last seat to play in both cases; ours is whose turn it was left at.
    assert result.player == state.turn == last_player(state.events), f"{where}: last player"
    assert list(outcome.pips) == [sum(d.first + d.second for d in hand) for hand in game.hands], f"{where}: pips"
    if outcome.end is RoundEnd.DOMINO:
        assert outcome.winners == (result.player,), f"{where}: winner"
        assert not state.hands[result.player], f"{where}: the winner's hand is not empty"
        # Both count every other hand's pips (the winner has none left to take off).
        assert outcome.points[result.player] == abs(result.points), f"{where}: domino points"
    else:
        assert trailing_passes(state.events) == SEATS, f"{where}: a fish ends with every seat passing once"
        for hand in state.hands:
            assert not any(state.line.ends_for(tile) for tile in hand), f"{where}: fish with a playable tile"


def play_one(seed: int) -> tuple[RoundState, bool]:
    """Play one seeded random game in both engines, comparing them after every move.

    Returns our final state and whether some tile fitted both ends while they showed the same number.
    """
    rng = random.Random(seed)
    game, state = _new_game(seed)
    where = f"seed {seed}, deal"
    assert state.turn == game.starting_player, f"{where}: the 6-6 holder leads"
    assert state.legal_moves() == [Move(SIX_SIX)], f"{where}: the lead is forced"
    assert state.auto_move() == Move(SIX_SIX), f"{where}: the forced lead is placed automatically"
    state = state.apply(Move(SIX_SIX))
    _compare(game, state, f"seed {seed}, after the lead")
    plays = 1
    same_number_choice = False
    while not state.is_over:
        left, right = state.line.ends[0], state.line.ends[1]
        moves = state.legal_moves()
        if left == right and any(move.end is End.RIGHT for move in moves):
            same_number_choice = True
        move, mover = random_move(rng, state), state.turn
        game.make_move(*_their_move(move))
        state = state.apply(move)
        plays += 1
        _compare(game, state, f"seed {seed}, play {plays} ({move} by seat {mover})")
    _compare_end(game, state, f"seed {seed}, end")
    assert turn_order_problems(state.events, state.starter, SEATS) == [], f"seed {seed}: turn order"
    return state, same_number_choice


@pytest.mark.anchors
@pytest.mark.parametrize("seeds", seed_chunks(), ids=lambda seeds: f"seeds{seeds.start}-{seeds.stop - 1}")
def test_random_games_agree_with_dominoes(seeds: range) -> None:
    for seed in seeds:
        play_one(seed)


@pytest.mark.anchors
def test_both_endings_are_exercised() -> None:
    """The seeds reach a domino, a stuck game and a choice between two ends showing one number."""
    ends = set()
    same_number_choice = False
    for seed in range(200):
        state, same_number = play_one(seed)
        ends.add(state.end)
        same_number_choice = same_number_choice or same_number
    assert ends == {RoundEnd.DOMINO, RoundEnd.FISH}
    assert same_number_choice

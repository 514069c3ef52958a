"""A hint: the move the ``hard`` player would make from one seat's own information, and why.

The move is :class:`~engine.players.hard.Hard`'s choice for the seat's
:class:`~engine.observation.Observation` (so a hint can see no more than the
seat does). The reason is one a person understands, read off the position the
move leaves, the first of these that holds:

- ``only``: no other tile fits;
- ``domino``: it is the seat's last tile;
- ``scores``: it makes the open ends a multiple of five (``fives``), ``points`` of them;
- ``blocks``: it leaves the next seat nothing it is known to hold (it passed or drew at
  ``number`` before), so it must draw or pass;
- ``double``: it sheds a heavy double (4|4 and up), which fits only one number;
- ``long``: it puts ``number``, the number the seat holds most of, on an open end;
- ``heavy``: it is the heaviest tile the seat can play (fewest pips left if the round blocks);
- ``options``: it leaves the seat the most tiles that fit next turn.

>>> import random
>>> from engine.match import Match
>>> from engine.rules import Rules
>>> game = Match.new(Rules.preset("duel"), 2, random.Random(7))
>>> hint(game.observe(game.round.turn), random.Random(1))
Hint(move=Move(tile=Tile(high=5, low=5), end=None), reason=<Reason.ONLY: 'only'>, points=0, number=None)
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from typing import NamedTuple

from engine.line import Line
from engine.observation import Observation
from engine.players.base import distinct_moves, missing_numbers
from engine.players.hard import Hard
from engine.rules import InPlay
from engine.state import Move, distinct_ends, line_after, play_shape
from engine.tiles import Tile

HEAVY_DOUBLE = 4
"""Doubles from 4|4 up are "heavy": worth shedding before they are stuck."""


class Reason(enum.StrEnum):
    ONLY = "only"
    DOMINO = "domino"
    SCORES = "scores"
    BLOCKS = "blocks"
    DOUBLE = "double"
    LONG = "long"
    HEAVY = "heavy"
    OPTIONS = "options"


class Hint(NamedTuple):
    move: Move
    reason: Reason
    points: int = 0  # ``scores``: the points the move scores
    number: int | None = None  # ``blocks``: the number the next seat lacks; ``long``: the seat's long number


def hint(observation: Observation, rng: random.Random, player: Hard | None = None) -> Hint:
    """The hard player's move for ``observation`` (its turn), with its reason.

    Raises :class:`ValueError` when the seat is not to play."""
    if not observation.is_my_turn:
        raise ValueError(f"it is not seat {observation.seat}'s turn")
    move = (player or Hard()).choose(observation, rng)
    return explain(observation, as_offered(observation, move))


def as_offered(observation: Observation, move: Move) -> Move:
    """``move`` with the end a person is offered for it: of two ends that make the same game (the
    two sides of a lone double), :func:`~engine.state.distinct_ends` offers only the first, so a hint
    names that one, never a side the hand's buttons leave out."""
    if move.end is None:
        return move
    table = observation.table
    line, rules = table.line, table.rules
    fits = [legal.end for legal in observation.legal_moves() if legal.tile == move.tile and legal.end is not None]
    offered = distinct_ends(line, rules, move.tile, fits)
    if move.end in offered:
        return move
    shape = play_shape(line.place(move.tile, move.end, spinner=rules.spinner), rules)
    for end in offered:
        if play_shape(line.place(move.tile, end, spinner=rules.spinner), rules) == shape:
            return Move(move.tile, end)
    return move


def explain(observation: Observation, move: Move) -> Hint:
    """Why ``move`` (a legal move of the seat to play) is a good one, in the terms listed above."""
    table = observation.table
    line = table.line
    choices = distinct_moves(observation, observation.legal_moves())
    if len(choices) == 1:
        return Hint(move, Reason.ONLY)
    hand = [tile for tile in observation.hand if tile != move.tile]
    if not hand:
        return Hint(move, Reason.DOMINO)
    after = line_after(line, move, spinner=table.rules.spinner)
    if table.rules.in_play is InPlay.FIVES:
        count = after.fives_count()
        if count and count % 5 == 0:
            return Hint(move, Reason.SCORES, points=count)
    ends = after.end_values()
    following = (observation.seat + 1) % table.seats
    lacks = missing_numbers(observation)[following]
    if following != observation.seat and lacks and ends and all(value in lacks for value in ends):
        placed = ends[0] if line.is_empty else _new_end(line, after)
        return Hint(move, Reason.BLOCKS, number=placed)
    tile = move.tile
    if tile.is_double and tile.high >= HEAVY_DOUBLE:
        return Hint(move, Reason.DOUBLE)
    long_number = _long_number(hand)
    if long_number is not None and long_number in ends:
        return Hint(move, Reason.LONG, number=long_number)
    if tile.pips == max(choice.tile.pips for choice in choices):
        return Hint(move, Reason.HEAVY)
    return Hint(move, Reason.OPTIONS)


def _new_end(before: Line, after: Line) -> int:
    """The number the move put on the table: the open end that changed."""
    for old, new in zip(before.ends, after.ends, strict=True):
        if new is not None and new != old:
            return new
    return after.end_values()[0]


def _long_number(hand: list[Tile]) -> int | None:
    """The number the hand holds most of, when it holds at least three of it (a double counts once)."""
    counts: Counter[int] = Counter()
    for tile in hand:
        counts.update({tile.high, tile.low})
    if not counts:
        return None
    number, count = max(counts.items(), key=lambda item: (item[1], item[0]))
    return number if count >= 3 else None

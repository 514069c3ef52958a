"""The search's model of a round: :class:`engine.core.Core`, the engine's one copy of the rules, mutable.

:meth:`engine.state.RoundState.apply` is exact and immutable: it copies. The
search plays hundreds of thousands of moves a second in sampled worlds, so it
plays on the core in place: tiles are numbers 0..27 (the order of
:data:`~engine.tiles.ALL_TILES`), a hand is a 28-bit mask, the line is four
open-end values plus what ``fives`` needs to count them. No events are kept.
Every RoundState holds a core; :meth:`~engine.state.RoundState.to_core` is a
copy of it to play on.

>>> import random
>>> from engine.rules import Rules
>>> from engine.state import RoundState
>>> state = RoundState.deal(Rules.preset("fives"), 2, random.Random(4), first=0)
>>> sim = state.to_core()
>>> while not sim.over:
...     sim.play(sim.moves()[0])
>>> sim.result()[0] in ("domino", "fish")
True
"""

from __future__ import annotations

import random

from engine.core import (
    BIT,
    DOMINO,
    DOUBLE,
    FISH,
    FULL_MASK,
    HIGH,
    INDEX,
    LEAD,
    LOW,
    NOT_OVER,
    NUMBER_MASK,
    OUTER,
    PIPS,
    TILE_COUNT,
    Core,
    SimMove,
    mask_of,
    mask_of_indices,
    mask_pips,
    tiles_of,
)
from engine.line import ENDS, End
from engine.state import Move
from engine.tiles import ALL_TILES

__all__ = [
    "BIT",
    "DOMINO",
    "DOUBLE",
    "FISH",
    "FULL_MASK",
    "HIGH",
    "INDEX",
    "LEAD",
    "LOW",
    "NOT_OVER",
    "NUMBER_MASK",
    "OUTER",
    "PIPS",
    "TILE_COUNT",
    "Sim",
    "SimMove",
    "from_move",
    "mask_of",
    "mask_of_indices",
    "mask_pips",
    "random_playout",
    "tiles_of",
    "to_move",
]


def to_move(move: SimMove) -> Move:
    tile, end = move
    return Move(ALL_TILES[tile], None if end == LEAD else ENDS[end])


def from_move(move: Move) -> SimMove:
    return (INDEX[move.tile], LEAD if move.end is None else ENDS.index(End(move.end)))


Sim = Core
"""The search plays on the engine's core itself (compiled, where it is: one class for both)."""


def random_playout(sim: Sim, rng: random.Random) -> None:
    """Play ``sim`` to the end with uniformly random legal moves (a baseline policy)."""
    while not sim.end:
        moves = sim.moves()
        sim.play(moves[int(rng.random() * len(moves))])

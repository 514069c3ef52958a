"""The search's model of a round: :class:`engine.core.Core`, the engine's one copy of the rules, mutable.

:meth:`engine.state.RoundState.apply` is exact and immutable; the search plays
hundreds of thousands of moves a second in sampled worlds, so it plays on the
core directly: tiles are numbers 0..27 (the order of
:data:`~engine.tiles.ALL_TILES`), a hand is a 28-bit mask, the line is four
open-end values plus what ``fives`` needs to count them. No events are kept.
Every RoundState holds a core, so :meth:`Sim.from_state` is a copy.

>>> import random
>>> from engine.rules import Rules
>>> from engine.state import RoundState
>>> state = RoundState.deal(Rules.preset("fives"), 2, random.Random(4), first=0)
>>> sim = Sim.from_state(state)
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
from engine.players.base import without_mirror_images
from engine.state import Move, RoundState
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


class Sim(Core):
    """One round in play, mutable; :meth:`copy` before trying a move you want to take back."""

    __slots__ = ()

    @classmethod
    def from_state(cls, state: RoundState) -> Sim:
        """The model of ``state`` (any point of a round, even over): a copy of the core it views."""
        core = state._own_core()  # the core it views (rebuilt if a later state took it over)
        sim = cls.__new__(cls)
        for name in Core.__slots__:
            setattr(sim, name, getattr(core, name))
        sim.hands = core.hands[:]
        sim.ends = core.ends[:]
        sim.double_end = core.double_end[:]
        sim.arm_count = core.arm_count[:]
        return sim

    def distinct_moves(self) -> list[SimMove]:
        """:meth:`moves` without the mirror duplicates: without a spinner, two ends showing the
        same number lead to the same position (the line's two arms are interchangeable)."""
        ends = self.ends
        return without_mirror_images(
            self.moves(), spinner=self.spinner_rule, led=self.lead >= 0, left=ends[0], right=ends[1], right_end=1
        )


def random_playout(sim: Sim, rng: random.Random) -> None:
    """Play ``sim`` to the end with uniformly random legal moves (a baseline policy)."""
    while not sim.end:
        moves = sim.moves()
        sim.play(moves[int(rng.random() * len(moves))])

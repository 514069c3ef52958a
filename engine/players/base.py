"""What every computer player is, and facts about a position that several of them use.

A player is anything with ``level`` and ``choose(observation, rng) -> Move``. It
is given an :class:`~engine.observation.Observation` (its own hand and the public
table) and nothing else, so it cannot look at a hidden hand; ``rng`` is its only
source of chance, so the same observation and the same seed give the same move.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.core import without_mirror_images as without_mirror_images  # the rule lives with the core
from engine.errors import NotMyTurnError as NotMyTurnError  # its home was here
from engine.events import Drew, Passed, Played
from engine.line import End
from engine.observation import Observation
from engine.state import Move
from engine.tiles import ALL_TILES, Tile


class Player(Protocol):
    """A computer player of one level."""

    @property
    def level(self) -> str: ...

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        """A legal move for ``observation``'s seat, which must be the seat to play."""
        ...


def legal_moves(observation: Observation) -> list[Move]:
    """The seat's legal moves; raises :class:`NotMyTurnError` when it has none to choose from."""
    moves = observation.legal_moves()
    if not moves:
        raise NotMyTurnError(f"seat {observation.seat} is not to play")
    return moves


def distinct_moves(observation: Observation, moves: list[Move]) -> list[Move]:
    """``moves`` less the mirror images (see :func:`without_mirror_images`)."""
    line = observation.table.line
    return without_mirror_images(
        moves,
        spinner=observation.table.rules.spinner,
        led=line.lead is not None,
        left=line.ends[0],
        right=line.ends[1],
        right_end=End.RIGHT,
    )


def missing_numbers(observation: Observation) -> tuple[frozenset[int], ...]:
    """Per seat, the numbers it cannot hold now.

    A seat that passes at ends {3, 5} holds no 3 and no 5, and keeps lacking them until it
    draws again: tiles drawn later may bring them back. A draw run misses the ends it was drawn
    at (the last tile, when it fits, is played at once), so after a draw the seat lacks exactly
    those ends again.

    >>> import random
    >>> from engine.match import Match
    >>> from engine.rules import Rules
    >>> game = Match.new(Rules.preset("block"), 2, random.Random(0), first=0)
    >>> missing_numbers(game.observe(0))
    (frozenset(), frozenset())
    """
    missing: list[frozenset[int]] = [frozenset()] * observation.table.seats
    for event in observation.table.history:
        if type(event) is Drew:
            missing[event.seat] = frozenset(event.ends)
        elif type(event) is Passed:
            missing[event.seat] = missing[event.seat] | frozenset(event.ends)
    return tuple(missing)


def unseen_tiles(observation: Observation) -> list[Tile]:
    """Tiles this seat cannot see: other hands and the boneyard, in set order."""
    seen = set(observation.hand) | set(observation.table.line.tiles())
    return [tile for tile in ALL_TILES if tile not in seen]


def plays_of(observation: Observation) -> list[Played]:
    return [event for event in observation.table.history if type(event) is Played]

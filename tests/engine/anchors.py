"""Shared pieces of the differential ("anchor") tests against two independent engines.

Our engine is checked move by move against PyPI ``dominoes`` 6.1.0 (4 seats,
block, all 28 tiles dealt, the 6-6 holder leads 6-6) and OpenSpiel's
``python_block_dominoes`` (2 seats, block, 7 tiles each, 14 untouched, seat 0
leads any tile). Each foreign game is one of our :class:`Rules` *values*
below, never new engine code.

This module imports neither foreign package; the test modules import them
(both are required by the test extra).

>>> BLOCK_4X7.hand_size(4), BLOCK_4X7.starter.value, BLOCK_2X7.hand_size(2), BLOCK_2X7.starter.value
(7, 'highest', 7, 'match')
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

from engine import ENDS, Line, Move, Passed, Played, RoundState, Tile
from engine.events import Event
from engine.rules import ANCHORS

GAMES = int(os.environ.get("ANCHOR_GAMES", "1000"))
"""Seeded random games per foreign engine (``ANCHOR_GAMES=100000`` for a long local hunt)."""

CHUNK = 100
"""Seeds per test case, so that a failure names a small range and the rest still run."""

BLOCK_2X7 = ANCHORS["block-2x7"]
"""OpenSpiel's ``python_block_dominoes`` as one of our rules values (seat 0 leads: ``first=0``)."""

BLOCK_4X7 = ANCHORS["block-4x7"]
"""PyPI ``dominoes``' game as one of our rules values."""


def seed_chunks(games: int = GAMES, chunk: int = CHUNK) -> list[range]:
    """Consecutive seed ranges that together cover ``games`` seeds.

    >>> seed_chunks(250, 100)
    [range(0, 100), range(100, 200), range(200, 250)]
    """
    return [range(start, min(start + chunk, games)) for start in range(0, games, chunk)]


def random_move(rng: random.Random, state: RoundState) -> Move:
    """A random legal move of ours, the same way every anchor test and the benchmark choose one."""
    return rng.choice(state.legal_moves())


def moves_by_value(state: RoundState) -> set[tuple[Tile, int | None]]:
    """Our legal moves as (tile, number on the end it covers); None for the lead.

    Engines that do not name ends (OpenSpiel) can only be compared this way.
    """
    ends = state.line.ends
    return {(move.tile, None if move.end is None else ends[ENDS.index(move.end)]) for move in state.legal_moves()}


def chain(line: Line) -> list[tuple[int, int]]:
    """The line from its left end to its right end, each tile as (left half, right half).

    The lead lies with its higher half on the left (RECORD.md); a tile on the
    left arm shows its outer half on the left, one on the right arm its inner half.
    """
    if line.lead is None:
        return []
    left_arm, right_arm = line.arms[0], line.arms[1]
    return (
        [(placed.outer, placed.inner) for placed in reversed(left_arm)]
        + [(line.lead.high, line.lead.low)]
        + [(placed.inner, placed.outer) for placed in right_arm]
    )


def turn_order_problems(events: Sequence[Event], first: int, seats: int) -> list[str]:
    """Where our event log breaks strict rotation: every play or pass is by the seat after the previous one.

    Block games never draw, so the log is plays and passes only, starting with the lead by ``first``.

    >>> from engine import Tile
    >>> turn_order_problems([Played(0, Tile(6, 6), None), Passed(1, (6, 6)), Played(0, Tile(6, 5), None)], 0, 2)
    []
    >>> turn_order_problems([Played(0, Tile(6, 6), None), Played(0, Tile(6, 5), None)], 0, 2)
    ['event 1 is by seat 0, expected seat 1']
    """
    problems = []
    expected = first
    for index, event in enumerate(events):
        if type(event) not in (Played, Passed):
            problems.append(f"event {index} is {type(event).__name__} in a block game")
        elif event.seat != expected:
            problems.append(f"event {index} is by seat {event.seat}, expected seat {expected}")
        expected = (event.seat + 1) % seats
    return problems


def trailing_passes(events: Sequence[Event]) -> int:
    """How many passes end the log (a blocked round ends with every seat passing once)."""
    count = 0
    for event in reversed(events):
        if type(event) is not Passed:
            break
        count += 1
    return count


def last_player(events: Sequence[Event]) -> int:
    """The seat that made the last play."""
    return next(event.seat for event in reversed(events) if type(event) is Played)

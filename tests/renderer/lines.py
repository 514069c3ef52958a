"""Random legal lines of play for the renderer's tests: from real games, and built tile by tile."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.line import EMPTY_LINE, Line
from engine.rules import PRESETS, Rules
from engine.state import RoundState
from engine.tiles import ALL_TILES
from renderer import examples


def random_line(rng: random.Random, *, spinner: bool, length: int | None = None) -> Line:
    """A legal line of up to ``length`` tiles (default: until no remaining tile fits), ends chosen at random."""
    limit = len(ALL_TILES) if length is None else length
    tiles = list(ALL_TILES)
    rng.shuffle(tiles)
    line = EMPTY_LINE.place(tiles.pop(), None, spinner=spinner)
    while len(line) < limit:
        choices = [(tile, end) for tile in tiles for end in line.ends_for(tile)]
        if not choices:
            break
        tile, end = rng.choice(choices)
        tiles.remove(tile)
        line = line.place(tile, end, spinner=spinner)
    return line


def full_line(rng: random.Random) -> Line:
    """All 28 tiles in one two-ended line (a random Euler walk of the set), the lead anywhere in it."""
    return examples.full_line(rng.randrange(len(ALL_TILES)), rng)


def game_lines(rules: Rules, seats: int, rng: random.Random) -> Iterator[RoundState]:
    """Every state of one random game of ``rules``, after each move."""
    state = RoundState.deal(rules, seats, rng)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
        yield state


def preset_seats() -> Iterator[tuple[Rules, int]]:
    """Every preset with every number of seats it allows."""
    for rules in PRESETS.values():
        for seats in range(rules.min_seats, rules.max_seats + 1):
            yield rules, seats

"""Random legal lines of play for the renderer's tests: from real games, and built tile by tile."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.line import EMPTY_LINE, End, Line
from engine.rules import PRESETS, Rules
from engine.state import RoundState
from engine.tiles import ALL_TILES, Tile, tile_of


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
    """All 28 tiles in one two-ended line (an Euler circuit of the set), the lead anywhere in it."""
    unused: dict[int, list[Tile]] = {n: [t for t in ALL_TILES if t.has(n)] for n in range(7)}
    for tiles in unused.values():
        rng.shuffle(tiles)
    used: set[Tile] = set()
    stack, circuit = [rng.randrange(7)], []
    while stack:  # Hierholzer's algorithm: numbers are vertices, tiles are edges
        value = stack[-1]
        while unused[value] and unused[value][-1] in used:
            unused[value].pop()
        if unused[value]:
            tile = unused[value].pop()
            used.add(tile)
            stack.append(tile.other(value))
        else:
            circuit.append(stack.pop())
    start = rng.randrange(len(ALL_TILES))
    lead = tile_of(circuit[start], circuit[start + 1])
    forward = [tile_of(circuit[i], circuit[i + 1]) for i in range(start + 1, len(ALL_TILES))]
    backward = [tile_of(circuit[i], circuit[i + 1]) for i in range(start - 1, -1, -1)]
    if circuit[start] != lead.high:  # the lead lies high half left, so the walk runs the other way
        forward, backward = backward, forward
    line = EMPTY_LINE.place(lead, None, spinner=False)
    for tile in forward:
        line = line.place(tile, End.RIGHT, spinner=False)
    for tile in backward:
        line = line.place(tile, End.LEFT, spinner=False)
    return line


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

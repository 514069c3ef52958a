"""Deterministic example positions: for the sample pictures, the golden tests and the benchmark.

``python -m renderer FOLDER`` writes every example as a picture, for a person to look at.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from engine.events import Played
from engine.line import EMPTY_LINE, End, Line
from engine.match import Match
from engine.observation import Observation, Table
from engine.rules import Rules
from engine.tiles import ALL_TILES, Tile, tile_of
from renderer.encode import encode
from renderer.pictures import draw_private, draw_result, draw_table
from renderer.views import RoundResult

NAMES = ("Анна", "Bob", "Олександр Коваленко-Шевченко", "Zoë 🎲")


def euler_numbers(rng: random.Random | None = None) -> list[int]:
    """The numbers along a walk that uses every tile of the set once (it exists: every number has 8 halves).

    Without ``rng``, always the same walk, from 6; with it, a random walk from a random number.
    """
    unused = {n: sorted((t for t in ALL_TILES if t.has(n)), reverse=True) for n in range(7)}
    if rng is not None:
        for tiles in unused.values():
            rng.shuffle(tiles)
    used: set[Tile] = set()
    stack, walk = [6 if rng is None else rng.randrange(7)], []
    while stack:  # Hierholzer's algorithm: numbers are vertices, tiles are edges
        value = stack[-1]
        while unused[value] and unused[value][-1] in used:
            unused[value].pop()
        if unused[value]:
            tile = unused[value].pop()
            used.add(tile)
            stack.append(tile.other(value))
        else:
            walk.append(stack.pop())
    return walk


def full_line(lead_at: int = 11, rng: random.Random | None = None) -> Line:
    """All 28 tiles in one two-ended line, the lead ``lead_at`` tiles from its left end.

    The walk of :func:`euler_numbers` gives the order: with ``rng``, a random one.
    """
    walk = euler_numbers(rng)
    lead = tile_of(walk[lead_at], walk[lead_at + 1])
    right = [tile_of(walk[i], walk[i + 1]) for i in range(lead_at + 1, len(walk) - 1)]
    left = [tile_of(walk[i], walk[i + 1]) for i in range(lead_at - 1, -1, -1)]
    if walk[lead_at] != lead.high:  # the engine lays the lead high half left
        left, right = right, left
    line = EMPTY_LINE.place(lead, None, spinner=False)
    for tile in right:
        line = line.place(tile, End.RIGHT, spinner=False)
    for tile in left:
        line = line.place(tile, End.LEFT, spinner=False)
    return line


def spread_line(lead: Tile, length: int, seed: int, *, spinner: bool = True) -> Line:
    """A legal line grown by always playing on the shortest arm: with a spinner lead, four even arms."""
    rng = random.Random(seed)
    line = EMPTY_LINE.place(lead, None, spinner=spinner)
    left = [tile for tile in ALL_TILES if tile != lead]
    while len(line) < length:
        moves = [(len(line.arm(end)), rng.random(), tile, end) for tile in left for end in line.ends_for(tile)]
        if not moves:
            break
        _, _, tile, end = min(moves)
        left.remove(tile)
        line = line.place(tile, end, spinner=spinner)
    return line


def table_of(
    rules: Rules,
    line: Line,
    hand_sizes: tuple[int, ...],
    *,
    turn: int = 0,
    scores: tuple[int, ...] | None = None,
    last: Tile | None = None,
) -> Table:
    """A public table for a line built by hand (the counts are whatever the example says)."""
    seats = len(hand_sizes)
    on_table = len(line) + sum(hand_sizes)
    history = () if last is None else (Played((turn - 1) % seats, last, End.RIGHT),)
    zeros = (0,) * seats
    return Table(
        rules=rules,
        seats=seats,
        round_index=0,
        starter=0,
        line=line,
        turn=turn,
        hand_sizes=hand_sizes,
        boneyard_count=len(ALL_TILES) - on_table,
        drawable=len(ALL_TILES) - on_table,
        history=history,
        fives=zeros,
        scores=scores or zeros,
        end=None,
    )


def outermost(line: Line, end: End) -> Tile | None:
    arm = line.arm(end)
    return arm[-1].tile if arm else line.lead


def play_until(rules: Rules, seats: int, seed: int, *, plays: int, seat_to_move: int | None = None) -> Match:
    """A match of ``rules`` after random legal moves: ``plays`` tiles on the line, or the round's end."""
    rng = random.Random(seed)
    match = Match.new(rules, seats, rng)
    while not match.round.is_over and len(match.round.line) < plays:
        match = match.apply(rng.choice(match.round.legal_moves()))
    while seat_to_move is not None and not match.round.is_over and match.round.turn != seat_to_move:
        match = match.apply(rng.choice(match.round.legal_moves()))
    return match


def finish(match: Match, seed: int) -> Match:
    rng = random.Random(seed)
    while not match.round.is_over:
        match = match.apply(rng.choice(match.round.legal_moves()))
    return match


def full_table() -> Table:
    line = full_line()
    return table_of(Rules.preset("draw"), line, (0, 0), turn=1, last=outermost(line, End.LEFT))


def four_arm_table() -> Table:
    line = spread_line(tile_of(5, 5), 25, seed=3)
    return table_of(
        Rules.preset("fives"), line, (1, 1, 1, 0), turn=2, scores=(45, 30, 60, 15), last=line.arms[2][-1].tile
    )


def private_view() -> Observation:
    """Seat 0 of a two-seat ``draw`` game, to play, with some tiles it can play and some it cannot."""
    match = play_until(Rules.preset("draw"), 2, seed=11, plays=12, seat_to_move=0)
    return match.observe(0)


def forced_lead_view() -> Observation:
    """The seat that must lead a ``classic`` round with its lowest double: one tile playable."""
    match = Match.new(Rules.preset("classic"), 2, random.Random(2))
    return match.observe(match.round.turn)


EXAMPLES: dict[str, Callable[[], Image.Image]] = {
    "table_lead_only": lambda: draw_table(play_until(Rules.preset("classic"), 3, 1, plays=1).table(), NAMES),
    "table_block_2": lambda: draw_table(play_until(Rules.preset("block"), 2, 5, plays=9).table(), NAMES),
    "table_full_28": lambda: draw_table(full_table(), NAMES),
    "table_full_28_lead_first": lambda: draw_table(
        table_of(Rules.preset("duel"), full_line(0), (0, 0), turn=0, last=tile_of(6, 6)), NAMES
    ),
    "table_fives_four_arms": lambda: draw_table(four_arm_table(), NAMES),
    "table_fives_4_seats": lambda: draw_table(play_until(Rules.preset("fives"), 4, 4, plays=14).table(), NAMES),
    "table_fives_late_spinner": lambda: draw_table(
        table_of(Rules.preset("fives"), spread_line(tile_of(6, 3), 17, seed=8), (3, 2), turn=1), NAMES
    ),
    "private_my_turn": lambda: draw_private(private_view(), NAMES),
    "private_waiting": lambda: draw_private(play_until(Rules.preset("fives"), 4, 4, plays=6).observe(3), NAMES),
    "private_forced_lead": lambda: draw_private(forced_lead_view(), NAMES),
    "result_domino_4": lambda: draw_result(
        RoundResult.of_match(finish(play_until(Rules.preset("fives"), 4, 21, plays=1), 21)), NAMES
    ),
    "result_big_hand_2": lambda: draw_result(
        RoundResult.of_match(finish(play_until(Rules.preset("draw"), 2, 64, plays=1), 64)), NAMES
    ),
    "result_fish_2": lambda: draw_result(
        RoundResult.of_match(finish(play_until(Rules.preset("block"), 2, 30, plays=1), 30)), NAMES
    ),
}


def write_samples(folder: Path) -> list[Path]:
    """Every example as an encoded picture in ``folder``; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, draw in EXAMPLES.items():
        picture = encode(draw())
        path = folder / f"{name}.{picture.filename.rsplit('.', 1)[1]}"
        path.write_bytes(picture.data)
        written.append(path)
    return written


__all__ = ["EXAMPLES", "NAMES", "full_line", "spread_line", "table_of", "write_samples"]

"""Partnership play: the ``hard`` player values a partner's result as its own, and finds the
move only team thinking finds; ``medium`` does not block its own partner."""

from __future__ import annotations

import random

from engine import RoundState, Rules, Tile
from engine.line import EMPTY_LINE, ENDS, Line
from engine.observation import Observation
from engine.players import Medium
from engine.players.hard import Solver, Stakes
from engine.players.medium import _Context
from engine.players.sim import Sim, from_move
from engine.rules import ANCHORS
from engine.tiles import ALL_TILES

T = Tile.parse

# Seat 0 to play on open ends 0 and 2 with 0-1 or 2-3. After 0-1 the opponent (5-5) cannot
# follow and the partner goes out with 1-4; after 2-3 neither can, and the other opponent goes
# out with 3-4. Every other tile is on the line.
HANDS = ((T("0-1"), T("2-3")), (T("5-5"),), (T("1-4"),), (T("3-4"),))
PARTNER_OUT = T("0-1")
OPPONENT_OUT = T("2-3")


def _line_from_0_to_2(tiles: list[Tile]) -> Line:
    """A line of all ``tiles`` whose open ends are 0 and 2 (an Euler path through the numbers)."""
    edges: dict[int, list[Tile]] = {number: [] for number in range(7)}
    for tile in tiles:
        edges[tile.high].append(tile)
        if not tile.is_double:
            edges[tile.low].append(tile)
    used: set[Tile] = set()
    stack: list[tuple[int, Tile | None]] = [(0, None)]
    path: list[Tile] = []
    while stack:
        number, via = stack[-1]
        fresh = [tile for tile in edges[number] if tile not in used]
        if fresh:
            tile = fresh[0]
            used.add(tile)
            stack.append((tile.low if tile.high == number else tile.high, tile))
        else:
            stack.pop()
            if via is not None:
                path.append(via)
    # ``path`` runs from the 2 end to the 0 end: lead its first tile, then always grow the same end.
    first = path[0]
    start = 2 if 2 in (first.high, first.low) else 0
    current = first.low if first.high == start else first.high
    line = EMPTY_LINE.place(first, None, spinner=False)
    grow = ENDS[1] if line.ends[1] == current else ENDS[0]
    for tile in path[1:]:
        line = line.place(tile, grow, spinner=False)
        current = tile.low if tile.high == current else tile.high
    assert sorted(value for value in line.ends if value is not None) == [0, 2], line.ends
    return line


def _position(rules: Rules) -> RoundState:
    held = {tile for hand in HANDS for tile in hand}
    line = _line_from_0_to_2([tile for tile in ALL_TILES if tile not in held])
    return RoundState.resume(rules, HANDS, (), line, 0, starter=0)


def _values(rules: Rules, *, team_aware: bool) -> dict[Tile, float]:
    """Each of seat 0's moves, valued by an exact search of the true hands (everyone plays best)."""
    state = _position(rules)
    stakes = Stakes(Observation.of(state, 0), team_aware=team_aware)
    found = {}
    for move in state.legal_moves():
        sim = state.to_core()
        sim.play(from_move(move))
        found[move.tile] = Solver(stakes, 10_000, caution=1.0).value(sim)
    return found


def _finished(rules: Rules, tile: Tile) -> Sim:
    state = _position(rules)
    sim = state.to_core()
    sim.play(from_move(next(move for move in state.legal_moves() if move.tile == tile)))
    while not sim.end:
        sim.play(sim.moves()[0])
    return sim


def test_a_partners_domino_is_the_seats_own_win() -> None:
    rules = ANCHORS["team-4x7"]
    stakes = Stakes(Observation.of(_position(rules), 0))
    values = stakes.values(_finished(rules, PARTNER_OUT))
    assert values[0] == values[2] > 1.0  # the whole win, and a margin
    assert values[1] == values[3] < 0.0
    lost = stakes.values(_finished(rules, OPPONENT_OUT))
    assert lost[0] == lost[2] <= 0.0 < 1.0 <= lost[1] == lost[3]  # 3-4 out: team 1 wins, 0 points net


def test_in_goat_the_charges_count_against_the_side_that_carries_them() -> None:
    rules = Rules.preset("goat")
    stakes = Stakes(Observation.of(_position(rules), 0))
    won = stakes.values(_finished(rules, PARTNER_OUT))  # seats 1 and 3 are charged their pips
    assert won[0] == won[2] > 0.0 > won[1] == won[3]


def test_a_team_blind_seat_counts_a_partners_domino_as_a_loss() -> None:
    rules = ANCHORS["team-4x7"]
    stakes = Stakes(Observation.of(_position(rules), 0), team_aware=False)
    values = stakes.values(_finished(rules, PARTNER_OUT))
    assert values[0] < 0.5 < values[2]


def test_only_team_thinking_lets_the_partner_go_out() -> None:
    for rules in (ANCHORS["team-4x7"], Rules.preset("partners"), Rules.preset("goat")):
        aware = _values(rules, team_aware=True)
        assert max(aware, key=aware.__getitem__) == PARTNER_OUT, rules.id
        # The blind seat loses either way and prefers the smaller loss: the opponent's domino.
        blind = _values(rules, team_aware=False)
        assert max(blind, key=blind.__getitem__) == OPPONENT_OUT, rules.id


def test_medium_never_blocks_its_partner() -> None:
    # Seat 0's view, as if seat 1 (an opponent, next to play) had shown it lacks 5s and seat 2
    # (the partner) 1s: leaving a 5 open is good, leaving a 1 open is bad.
    observation = Observation.of(_position(Rules.preset("partners")), 0)
    context = _Context(observation)
    context.missing = (frozenset(), frozenset({5}), frozenset({1}), frozenset())
    assert context._blocking((1, 2)) < context._blocking((0, 2)) < context._blocking((5, 2))
    assert Medium().choose(observation, random.Random(1)).tile in (PARTNER_OUT, OPPONENT_OUT)

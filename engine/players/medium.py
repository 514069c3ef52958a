"""``medium``: a sound one-move heuristic, the way a decent club player thinks.

Every legal move gets a score made of the rules of thumb of the game, and the
best one is played (a tiny random term only breaks ties):

- *heavy tiles early*: pips of the tile, since whatever is left in hand counts
  against the seat when someone dominoes or the game is blocked;
- *get rid of awkward doubles*: a double can only ever go on its own number, so
  it gets a bonus, larger when few tiles of its number are still out;
- *keep variety*: how many different numbers stay in hand, and how many of the
  remaining tiles fit the ends the move leaves (so that the seat can follow);
- *score fives*: in ``fives`` the points the move scores at once, less a
  little for a count the next seat could turn into points easily;
- *block*: an end showing a number the next seat has shown it lacks (it drew
  or passed there) is worth a lot, all open ends such numbers even more; the
  other opponents count a little;
- *help the partner* (partnership presets): the partner is no opponent, so it
  is never blocked on purpose; an end showing a number the partner has shown
  it lacks costs about what blocking the next seat earns, so that among moves
  otherwise alike the one that leaves the partner a play is chosen.

>>> import random
>>> from engine.match import Match
>>> from engine.rules import Rules
>>> game = Match.new(Rules.preset("fives"), 2, random.Random(3), first=0)
>>> move = Medium().choose(game.observe(0), random.Random(1))
>>> move in game.round.legal_moves()
True
"""

from __future__ import annotations

import random

from engine.line import Line
from engine.observation import Observation
from engine.players.base import distinct_moves, legal_moves, missing_numbers, unseen_tiles
from engine.rules import InPlay
from engine.state import Move
from engine.tiles import Tile

PIP_WEIGHT = 1.0
DOUBLE_BONUS = 4.0
DEAD_DOUBLE_BONUS = 1.5  # per tile of its number that is no longer out
VARIETY_WEIGHT = 1.5
FOLLOW_WEIGHT = 2.0
FIVES_WEIGHT = 1.6  # per point scored at once
FIVES_RISK = 0.3  # per point the next seat could score at once, roughly
BLOCK_NEXT = 5.0  # per open end the next seat cannot follow
BLOCK_NEXT_ALL = 8.0  # when it cannot follow any
BLOCK_OTHER = 1.5  # per open end another opponent cannot follow
STRAND_PARTNER = 4.0  # per open end the partner cannot follow
STRAND_PARTNER_ALL = 6.0  # when it cannot follow any


class Medium:
    """One move ahead with the rules of thumb above."""

    level = "medium"

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        moves = legal_moves(observation)
        if len(moves) == 1:
            return moves[0]
        moves = distinct_moves(observation, moves)
        context = _Context(observation)
        best = moves[0]
        best_score = float("-inf")
        for move in moves:
            score = context.score(move) + rng.random() * 0.01
            if score > best_score:
                best, best_score = move, score
        return best


class _Context:
    """What every move's score needs, worked out once per decision."""

    def __init__(self, observation: Observation) -> None:
        table = observation.table
        self.observation = observation
        self.spinner = table.rules.spinner
        self.fives = table.rules.in_play is InPlay.FIVES
        self.missing = missing_numbers(observation)
        rules = table.rules
        me = observation.seat
        self.next_seat = (me + 1) % table.seats
        mine = rules.side_of(me)
        self.opponents = [seat for seat in range(table.seats) if rules.side_of(seat) != mine]
        self.partners = [seat for seat in range(table.seats) if seat != me and rules.side_of(seat) == mine]
        unseen = unseen_tiles(observation)
        self.out = [sum(1 for tile in unseen if tile.has(number)) for number in range(7)]

    def score(self, move: Move) -> float:
        observation = self.observation
        tile = move.tile
        line = observation.table.line.place(tile, move.end, spinner=self.spinner)
        rest = [t for t in observation.hand if t != tile]
        score = PIP_WEIGHT * tile.pips
        if tile.is_double:
            score += DOUBLE_BONUS + DEAD_DOUBLE_BONUS * max(0, 4 - self.out[tile.high])
        numbers = {n for t in rest for n in (t.high, t.low)}
        score += VARIETY_WEIGHT * len(numbers)
        ends = line.end_values()
        score += FOLLOW_WEIGHT * sum(1 for t in rest if _fits(t, ends))
        if self.fives:
            count = line.fives_count()
            if count and count % 5 == 0:
                score += FIVES_WEIGHT * count
            score -= FIVES_RISK * _next_scoring_chance(line, self.out)
        score += self._blocking(ends)
        return score

    def _blocking(self, ends: tuple[int, ...]) -> float:
        score = 0.0
        if self.next_seat in self.opponents:
            lacking = self.missing[self.next_seat]
            blocked = sum(1 for value in ends if value in lacking)
            score += BLOCK_NEXT * blocked
            if ends and blocked == len(ends):
                score += BLOCK_NEXT_ALL
        for seat in self.opponents:
            if seat != self.next_seat:
                score += BLOCK_OTHER * sum(1 for value in ends if value in self.missing[seat])
        for seat in self.partners:
            stranded = sum(1 for value in ends if value in self.missing[seat])
            score -= STRAND_PARTNER * stranded
            if ends and stranded == len(ends):
                score -= STRAND_PARTNER_ALL
        return score


def _fits(tile: Tile, ends: tuple[int, ...]) -> bool:
    return tile.high in ends or tile.low in ends


def _next_scoring_chance(line: Line, out: list[int]) -> float:
    """A rough size of what the next seat may score at once: for each open end, the points a tile
    of that number could make, weighted by how many such tiles are out."""
    total = line.fives_count()
    risk = 0.0
    for value in line.end_values():
        # Replacing an end showing ``value`` by the other half h changes the count by h - value.
        for other in range(7):
            count = total - value + other
            if count > 0 and count % 5 == 0:
                risk += count * min(out[value], 2) / 7
    return risk

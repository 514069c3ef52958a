"""``hard``: determinized Monte Carlo search over the hands the seat cannot see.

Draft; the docstring is completed once the algorithm is settled.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.observation import Observation
from engine.players.base import distinct_moves, legal_moves
from engine.players.sampler import beliefs_of, determinize, sample_hidden, sample_world
from engine.players.sim import (
    BIT,
    DOUBLE,
    HIGH,
    INDEX,
    LOW,
    NUMBER_MASK,
    PIPS,
    Sim,
    SimMove,
    from_move,
    mask_of,
)
from engine.state import Move

Playout = Callable[[Sim, random.Random], None]


class Stakes:
    """What the seat plays for, as one number per finished round in a sampled world.

    Matches (a target): the points the round brings the seat minus the mean of the others',
    over the target, plus ±1 when the round ends the match (won or lost). Single rounds: the
    seat's share of the win (a draw counts as an even share), plus a small margin term.
    """

    MATCH_WEIGHT = 1.0
    SINGLE_MARGIN_WEIGHT = 0.1

    def __init__(self, observation: Observation) -> None:
        table = observation.table
        self.me = observation.seat
        self.seats = table.seats
        self.target = table.rules.target(table.seats)
        self.banked = [score - fives for score, fives in zip(table.scores, table.fives, strict=True)]
        self.scale = float(self.target) if self.target else 50.0

    def value(self, sim: Sim) -> float:
        _, winners, points, _ = sim.result()
        me = self.me
        seats = self.seats
        gains = [fives + earned for fives, earned in zip(sim.fives, points, strict=True)]
        margin = (gains[me] * (seats - 1) - (sum(gains) - gains[me])) / (seats - 1)
        target = self.target
        if target is None:
            if not winners:
                share = 1.0 / seats
            elif me in winners:
                share = 1.0 / len(winners)
            else:
                share = 0.0
            return share + self.SINGLE_MARGIN_WEIGHT * margin / self.scale
        value = margin / self.scale
        totals = [banked + gain for banked, gain in zip(self.banked, gains, strict=True)]
        top = max(totals)
        if top >= target and totals.count(top) == 1:
            value += self.MATCH_WEIGHT if totals[me] == top else -self.MATCH_WEIGHT
        return value


def greedy_playout(sim: Sim, rng: random.Random) -> None:
    """Everyone plays a rule-of-thumb move: score fives, shed heavy tiles and doubles, a little noise."""
    fives = sim.fives_rule
    while not sim.end:
        moves = sim.moves()
        if len(moves) == 1:
            sim.play(moves[0])
            continue
        if rng.random() < 0.1:
            sim.play(moves[int(rng.random() * len(moves))])
            continue
        best = moves[0]
        best_key = -1.0
        for move in moves:
            tile = move[0]
            key = PIPS[tile] + (4.0 if DOUBLE[tile] else 0.0) + rng.random() * 3.0
            if fives:
                key += 1.6 * sim.score_of(move)
            if key > best_key:
                best, best_key = move, key
        sim.play(best)


def smart_playout(sim: Sim, rng: random.Random) -> None:
    """Like :func:`greedy_playout`, plus what a player who saw every hand would notice at a glance:
    a move after which the next seat cannot follow, and one after which the mover still can."""
    fives = sim.fives_rule
    seats = sim.seats
    hands = sim.hands
    while not sim.end:
        moves = sim.moves()
        if len(moves) == 1:
            sim.play(moves[0])
            continue
        if rng.random() < 0.08:
            sim.play(moves[int(rng.random() * len(moves))])
            continue
        seat = sim.turn
        following = hands[(seat + 1) % seats]
        mine = hands[seat]
        ends = sim.ends
        best = moves[0]
        best_key = -1.0
        for move in moves:
            tile, end = move
            if end < 0:
                reach = NUMBER_MASK[HIGH[tile]] | NUMBER_MASK[LOW[tile]]
            else:
                value = ends[end]
                reach = NUMBER_MASK[LOW[tile] if HIGH[tile] == value else HIGH[tile]]
                for other in range(4):
                    if other != end and ends[other] >= 0:
                        reach |= NUMBER_MASK[ends[other]]
            key = PIPS[tile] + (4.0 if DOUBLE[tile] else 0.0) + rng.random() * 3.0
            if not following & reach:
                key += 8.0
            if mine & ~BIT[tile] & reach:
                key += 3.0
            if fives:
                key += 1.6 * sim.score_of(move)
            if key > best_key:
                best, best_key = move, key
        sim.play(best)


def random_playout(sim: Sim, rng: random.Random) -> None:
    while not sim.end:
        moves = sim.moves()
        sim.play(moves[int(rng.random() * len(moves))])


class Hard:
    """Flat determinized Monte Carlo with common worlds for every candidate move."""

    level = "hard"

    def __init__(self, playouts: int = 1200, playout: Playout = greedy_playout) -> None:
        self.playouts = playouts
        self.playout = playout

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        moves = legal_moves(observation)
        if len(moves) == 1:
            return moves[0]
        moves = distinct_moves(observation, moves)
        if len(moves) == 1:
            return moves[0]
        beliefs = beliefs_of(observation, rng)
        stakes = Stakes(observation)
        candidates: list[SimMove] = [from_move(move) for move in moves]
        template = Sim.from_state(determinize(observation, sample_world(observation, rng, beliefs)))
        mine = mask_of(observation.hand)
        me = observation.seat
        totals = [0.0] * len(candidates)
        worlds = max(8, self.playouts // len(candidates))
        playout = self.playout
        for _ in range(worlds):
            hidden, boneyard = sample_hidden(beliefs, rng)
            hidden[me] = mine
            base = _with_world(template, hidden, boneyard)
            for index, move in enumerate(candidates):
                sim = base.copy()
                sim.play(move)
                playout(sim, rng)
                totals[index] += stakes.value(sim)
        best = max(range(len(candidates)), key=lambda index: totals[index])
        return moves[best]


def _with_world(template: Sim, hands: list[int], boneyard: list[int]) -> Sim:
    sim = template.copy()
    sim.hands = hands
    sim.boneyard = boneyard
    sim.bone_at = 0
    sim.reserve = template.rules.reserve if template.rules.draws else len(boneyard)
    return sim




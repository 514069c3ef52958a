"""``hard``: determinized search over the hands the seat cannot see.

The algorithm
-------------

Perfect-information Monte Carlo (determinized search, "PIMC"), the method of
strong card-game programs:

1. *Worlds.* :mod:`engine.players.sampler` deals the tiles the seat cannot see
   (other hands and the boneyard order) at random, consistently with everything
   it has seen: hand sizes, the boneyard count, and who drew or passed at which
   ends (a pass at ends 3 and 5 means no 3s and no 5s then; tiles drawn later
   may have them), plus what a forced lead proves about the deal. Where
   nothing is drawn and there is no spinner, a world also counts in
   proportion to how well it explains the others' plays
   (:func:`~engine.players.sampler.likelihood`): a seat that played a tile
   while it held few others that fitted is likelier than one that held many,
   if each picks among its fitting tiles at random (heavier ones likelier; in
   the two-seat game a sharper model, which also reads a lead of the leader's
   choice: doubles, and tiles that leave the player able to follow the number
   it opens, see :class:`~engine.players.sampler.PlayModel`). A partner's plays
   and passes are read like anyone's.
2. *Every candidate in the same worlds.* Each legal move (mirror images
   dropped) is played in every world and the rest of the round is evaluated
   there, so that the comparison between two moves is not drowned by the luck
   of the worlds (common random numbers).
3. *Exact where it is small, Monte Carlo elsewhere.* When the rest of the
   round is small (two seats: up to 11 tiles in hands with nothing left to
   draw, or 5 with draws; more seats: 12 or 6), every world is solved exactly
   by :class:`Solver`, within a node budget: each other seat plays its own
   best 60 % of the time and a random move otherwise (a world searched with
   every hand in view would otherwise credit the others with replies only a
   player who sees the seat's hand finds); the seat its best, in the two-seat
   game 70 % of the time at its later turns (it will not see their hands
   either). If too few
   worlds fit the budget the search falls back to the next step. Without a
   spinner or fives, the positions of one world that several move orders
   reach are solved once (a table per world). Otherwise
   each (world, move) is played out by :func:`greedy_playout` (everyone sheds
   heavy tiles and doubles and scores fives, with a little noise; in the
   two-seat game without fives or draws the others play on as the model the
   worlds are weighed by says, :func:`modelled_playout`), and the
   budget is spent by *sequential halving*: in rounds, each round dropping
   the worse half of the candidates, so the playouts go to the moves that
   matter.
4. *The stakes.* A finished round in a world is worth what the match makes of
   it to the seat's *side* - the seat, or in ``goat`` and ``partners`` its team,
   so that a partner's domino is the seat's own and the partner is searched as
   playing for the same value (with two teams, a two-sided zero-sum game)
   (:class:`Stakes`): in a match, the points it brings the side (fives
   scored on the table included) less the others', over the target (in
   ``goat``, where points are charges, the other way round), plus a
   full point for ending the match as its winner (minus one for ending it as a
   loser) - so near the target a fish that wins the match beats a bigger
   domino that does not; in a single round, the share of the win, with the
   margin as a tie-break.

The move with the best mean over the worlds is played.

Why this one
------------

Measured on 2-seat block single rounds with paired deals (300 games per line,
so about ±6 %): single-observer information-set MCTS (Cowling, Powley and
Whitehouse 2012) on the same simulator and time won 49 % against this search;
four times this budget won 50 %; Monte Carlo only, without the exact endgame,
51 %; random instead of greedy playouts 49 %; weighting the worlds by how well
a heavy-tiles-first player explains the others' past plays won 56.5 % against
``medium`` where the plain search wins 57.7 %. Given the true hands instead of
sampled worlds, the same search wins 71 % against ``medium``: what limits
``hard`` is the hidden information, not the search, so the simplest of the
equally strong methods was kept. The one change that helped was the cautious
model of the others in the exact search: against OpenSpiel's IS-MCTS it took
the win rate from 52 % to 54-55 % over 600 games (``bench/ai.py``, on other
deals: 56.5 % over 400).

Weighing the worlds by the others' plays was tried again against IS-MCTS (2-seat block, 400
games on the same deals, issue #20): plain 53.9 %; a blind pick (``HEAVY`` 0) 57.1 %, 57.0 %
with caution 0.4, 57.4 % squared; a pick that favours heavy tiles (``HEAVY`` 2) 58.0 %; on
other deals, the blind pick to the power 1.5, 56.8 %. Solving from 13 tiles left instead of 11
(with the table of positions) gave 54.0-55.4 % at twice the time, so the thresholds stayed.

Two seats, 1000 games a line on the same deals (seed 1; base 56.5 %): the sharper model of the
others' plays and leads alone 56.0 %; with the seat's own later moves at caution 0.85 57.0 %,
0.7 57.4 %, 0.5 56.3 %; caution 0.7 with the plain model 56.4 %; the sharper model in the exact
search too (the others' misses weighted by it instead of at random) 56.1 %, with caution 0.45
56.1 %; playouts that keep tiles to follow the number opened 55.6 %. Kept: the sharper model
and own caution 0.7, on three seeds 57.4 %, 58.1 %, 57.6 % against 56.5 %, 56.0 %, 56.7 %
(3000 games: +1.3 % ± 1.1 paired). On top of it, seed 1: the others' caution 0.5 57.4 %;
``LIKELIHOOD`` 1.5 56.6 %, 0.7 56.8 %; solving from 13 tiles left 56.9 %. Four seats keep
``HEAVY`` and no own caution, as measured.

Then (same seed, 1000 games, base 57.4 %): the exact search from 12 tiles 55.7 %; a lead picked by the
model's odds instead of searched 56.5 %; ``SINGLE_MARGIN_WEIGHT`` 0.02 57.1 %; twice the exact budget
56.8 %, twice the playouts 57.1 %, both 58.0 % (CPU p95 78 ms); the exact search's worlds resampled
from four dealt in proportion to their weight 57.0 %; playouts in which everyone plays by the model
57.2 %. Kept: only the others play by it (:func:`modelled_playout`), the seat greedy: 58.2 %, 57.8 %,
58.4 % on seeds 1-3 against 57.4 %, 58.1 %, 57.6 % (CPU p95 48-52 ms against 40-46 ms).

Time
----

Budgets are counted in playouts and search nodes, never on a clock, so that
the same observation and seed give the same move whatever the machine's load.
They are calibrated on the 2-core machine this was written on: over every
preset and seat count, 40 ms a move at the median and 55 ms at the 95th
percentile when the machine is quiet, under 100 ms when it is shared;
:attr:`Hard.effort` scales them (two seats have more since the compiled core
made their moves cheaper). The simulator is :mod:`engine.players.sim`: the
engine's core itself (compiled where ``pip install`` could), mutable, without the
immutable view that :meth:`RoundState.apply` adds.

>>> import random
>>> from engine.match import Match
>>> from engine.rules import Rules
>>> game = Match.new(Rules.preset("fives"), 2, random.Random(6), first=0)
>>> move = Hard().choose(game.observe(0), random.Random(1))
>>> move in game.round.legal_moves()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import ClassVar

from engine.observation import Observation
from engine.players.base import distinct_moves, legal_moves
from engine.players.sampler import (
    PlayModel,
    beliefs_of,
    determinize,
    likelihood,
    play_evidence,
    plays_are_readable,
    sample_hidden,
    sample_world,
)
from engine.players.sim import BIT, DOUBLE, HIGH, LEAD, LOW, NUMBER_MASK, OUTER, PIPS, Sim, SimMove, from_move, mask_of
from engine.rules import InPlay, Teams
from engine.state import Move, round_score

Playout = Callable[[Sim, random.Random], None]


class Stakes:
    """What the seat plays for, as one number per finished round in a sampled world.

    The unit is a *side*: a seat, or in a partnership preset the team (seats 0+2 against 1+3),
    whose partners share one value, so that the search plays for the team: a partner's domino is
    the seat's own. Matches (a target): the points the round brings the side minus the mean of
    the other sides', over the target, plus ±1 when the round ends the match (won or lost). Where
    the points are charges (``goat``: the side that reaches the target loses) they count against
    the side. Single rounds: the side's share of the win (a draw counts as an even share), plus a
    small margin term.

    ``team_aware=False`` is the team-blind view, kept for measuring what team play is worth: the
    seat scores the round as if everyone played for himself (the preset without its teams).
    """

    MATCH_WEIGHT = 1.0
    SINGLE_MARGIN_WEIGHT = 0.1

    def __init__(self, observation: Observation, *, match_bonus: bool = True, team_aware: bool = True) -> None:
        table = observation.table
        rules = table.rules
        seats = table.seats
        # Without the bonus (a review), a match's values are the round's margin alone: times
        # ``scale`` they are points.
        self.bonus = self.MATCH_WEIGHT if match_bonus else 0.0
        self.me = observation.seat
        self.seats = seats
        blind = rules.has_teams and not team_aware
        self.scoring = replace(rules, teams=Teams.NONE) if blind else None
        team_rules = rules if self.scoring is None else self.scoring
        self.sides = team_rules.sides(seats)
        self.side_of = tuple(team_rules.side_of(seat) for seat in range(seats))
        self.my_side = self.side_of[self.me]
        self.sign = -1.0 if rules.target_loses else 1.0  # goat's round points are charges
        self.target_loses = rules.target_loses
        self.rules = rules
        self.target = rules.target(seats)
        banked = [score - fives for score, fives in zip(table.scores, table.fives, strict=True)]
        self.banked = [banked[side[0]] for side in self.sides]
        self.scale = float(self.target) if self.target else 50.0

    def side_values(self, sim: Sim) -> list[float]:
        """Every side's value of a finished round (max-n needs them all)."""
        kind, winners, scores, pips = sim.result()
        points: Sequence[int] = scores
        if self.scoring is not None:
            winners, points = round_score(self.scoring, kind == "domino", sim.turn, pips)
        sides = self.sides
        count = len(sides)
        fives = sim.fives
        scored = [points[side[0]] + sum(fives[seat] for seat in side) for side in sides]
        sign = self.sign
        everyone = sum(scored)
        margins = [sign * (gain * count - everyone) / (count - 1) / self.scale for gain in scored]
        target = self.target
        if target is None:
            weight = self.SINGLE_MARGIN_WEIGHT
            won = {self.side_of[seat] for seat in winners}
            if not won:
                return [1.0 / count + weight * margin for margin in margins]
            share = 1.0 / len(won)
            return [(share if side in won else 0.0) + weight * margins[side] for side in range(count)]
        totals = [banked + gain for banked, gain in zip(self.banked, scored, strict=True)]
        if max(totals) >= target:
            best = min(totals) if self.target_loses else max(totals)
            if totals.count(best) == 1:
                champion = totals.index(best)
                bonus = self.bonus
                return [margins[side] + (bonus if side == champion else -bonus) for side in range(count)]
        return margins

    def values(self, sim: Sim) -> list[float]:
        """Every seat's value of a finished round: its side's."""
        by_side = self.side_values(sim)
        return [by_side[side] for side in self.side_of]

    def value(self, sim: Sim) -> float:
        """The observing seat's value of a finished round."""
        return self.side_values(sim)[self.my_side]


def greedy_playout(sim: Sim, rng: random.Random) -> None:
    """Everyone plays a rule-of-thumb move: score fives, shed heavy tiles and doubles, a little noise."""
    fives = sim.rules.in_play is InPlay.FIVES
    while not sim.end:
        moves = sim.moves()
        if len(moves) == 1:
            sim.play(moves[0])
            continue
        sim.play(_greedy_move(sim, moves, rng, fives))


def _greedy_move(sim: Sim, moves: list[SimMove], rng: random.Random, fives: bool) -> SimMove:
    if rng.random() < 0.1:
        return moves[int(rng.random() * len(moves))]
    best = moves[0]
    best_key = -1.0
    for move in moves:
        tile = move[0]
        key = PIPS[tile] + (4.0 if DOUBLE[tile] else 0.0) + rng.random() * 3.0
        if fives:
            key += 1.6 * sim.score_of(move)
        if key > best_key:
            best, best_key = move, key
    return best


def modelled_playout(model: PlayModel, me: int) -> Playout:
    """Playouts in which the seat ``me`` plays as :func:`greedy_playout` and every other seat picks
    its tile at random with the odds ``model`` gives (heavy tiles, doubles, and tiles that leave it
    able to follow the number it opens): the model the worlds are weighed by, so that the others
    play on in a world as they are believed to have played so far. For games without fives to
    score (the model knows nothing of them)."""
    odds = model.odds()

    def playout(sim: Sim, rng: random.Random) -> None:
        while not sim.end:
            moves = sim.moves()
            if len(moves) == 1:
                sim.play(moves[0])
            elif sim.turn == me:
                sim.play(_greedy_move(sim, moves, rng, False))
            else:
                sim.play(_modelled_move(sim, moves, rng, odds))

    return playout


def _modelled_move(
    sim: Sim, moves: list[SimMove], rng: random.Random, odds: tuple[tuple[float, ...], tuple[float, ...]]
) -> SimMove:
    """A move picked with the odds of :meth:`PlayModel.odds` for the seat to play."""
    base, kept = odds
    hand = sim.hands[sim.turn]
    ends = sim.ends
    weights = []
    total = 0.0
    for tile, end in moves:
        if end == LEAD:
            opened = NUMBER_MASK[HIGH[tile]] | NUMBER_MASK[LOW[tile]]
        else:
            opened = NUMBER_MASK[OUTER[ends[end]][tile]]
        weight = base[tile] * kept[(hand & ~BIT[tile] & opened).bit_count()]
        weights.append(weight)
        total += weight
    pick = rng.random() * total
    for move, weight in zip(moves, weights, strict=True):
        pick -= weight
        if pick <= 0.0:
            return move
    return moves[-1]


class _OutOfNodes(Exception):
    """The exact search ran past its node budget."""


class Solver:
    """Exact search of one sampled world to the end of the round, within a node budget.

    Every other seat is modelled as playing its best move with probability ``caution`` and any
    of its moves at random otherwise; the searching seat's own later moves (not the one being
    chosen) the same with ``own_caution``. With both 1 this is plain best play by everyone
    (alpha-beta for two sides - two seats, or two teams whose partners share one value - whose
    stakes are zero-sum; max-n for more). Below 1 they correct the flaw of searching a world with
    every hand in view: there the others would always find the reply that hurts most, which
    players who cannot see the seat's hand do not (measured: 2-3 % more wins against OpenSpiel's
    IS-MCTS); and the seat would count on finding its own best reply later, which it will have to
    find without seeing their hands (PIMC's "strategy fusion"). A partner is modelled like an
    opponent: it cannot see the seat's hand either.
    """

    def __init__(self, stakes: Stakes, limit: int, caution: float = 1.0, own_caution: float = 1.0) -> None:
        self.stakes = stakes
        self.own_caution = own_caution
        self.me = stakes.me
        self.side_of = stakes.side_of
        self.my_side = stakes.my_side
        self.nodes = 0
        self.limit = limit
        self.caution = caution
        rules = stakes.rules
        # Without a spinner or fives, a position's future is its hands, the two open numbers (in
        # either order), the seat to play and the boneyard's next tile: many move orders meet there.
        self.memo: dict[tuple[int, ...], list[float]] | None = (
            {} if not rules.spinner and rules.in_play is InPlay.NONE else None
        )

    def new_world(self) -> None:
        """Forget the positions of the last world (the table is per world: other hands, other values)."""
        if self.memo is not None:
            self.memo.clear()

    def value(self, sim: Sim) -> float:
        """The seat's value of ``sim`` (which the search consumes)."""
        if len(self.stakes.sides) == 2 and self.caution >= 1.0 and self.own_caution >= 1.0:
            return self._two(sim, -1e9, 1e9)
        return self._many(sim)[self.me]

    def _two(self, sim: Sim, alpha: float, beta: float) -> float:
        while True:
            self.nodes += 1
            if self.nodes > self.limit:
                raise _OutOfNodes
            if sim.end:
                return self.stakes.value(sim)
            moves = sim.distinct_moves()
            if len(moves) > 1:
                break
            sim.play(moves[0])
        moves.sort(key=_heavy_first)
        if self.side_of[sim.turn] == self.my_side:
            best = -1e9
            for move in moves:
                child = sim.copy()
                child.play(move)
                value = self._two(child, alpha, beta)
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
            return best
        best = 1e9
        for move in moves:
            child = sim.copy()
            child.play(move)
            value = self._two(child, alpha, beta)
            if value < best:
                best = value
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
        return best

    def _many(self, sim: Sim) -> list[float]:
        while True:
            self.nodes += 1
            if self.nodes > self.limit:
                raise _OutOfNodes
            if sim.end:
                return self.stakes.values(sim)
            moves = sim.distinct_moves()
            if len(moves) > 1:
                break
            sim.play(moves[0])
        memo = self.memo
        key: tuple[int, ...] = ()
        if memo is not None:
            # A branching position: the seat to play plays, so the passes before it do not matter.
            low, high = sim.ends[0], sim.ends[1]
            if low > high:
                low, high = high, low
            key = (*sim.hands, low, high, sim.turn, sim.bone_at)
            known = memo.get(key)
            if known is not None:
                return known
        seat = sim.turn
        best: list[float] = []
        outcomes: list[list[float]] = []
        for move in moves:
            child = sim.copy()
            child.play(move)
            values = self._many(child)
            outcomes.append(values)
            if not best or values[seat] > best[seat]:
                best = values
        # A partner, like an opponent, cannot see the seat's hand: it too misses its best move at times;
        # and so does the seat itself, later in the round (below the move being chosen).
        caution = self.own_caution if seat == self.me else self.caution
        if caution >= 1.0:
            if memo is not None:
                memo[key] = best
            return best
        share = (1.0 - caution) / len(outcomes)
        mixed = [caution * value for value in best]
        for values in outcomes:
            for index, value in enumerate(values):
                mixed[index] += share * value
        if memo is not None:
            memo[key] = mixed
        return mixed


def _heavy_first(move: SimMove) -> int:
    return -PIPS[move[0]]


class Hard:
    """Determinized search: exact per world when the rest of the round is small, else Monte Carlo."""

    level = "hard"

    PLAYOUT_UNITS: ClassVar[dict[int, int]] = {2: 38400, 3: 24000, 4: 24000}
    """Monte Carlo budget by seat count: a playout costs about the tiles left in hands, plus a fixed part."""
    NODE_BUDGETS: ClassVar[dict[int, int]] = {2: 12800, 3: 10000, 4: 7500}
    """Exact-search budget in positions visited over all worlds (a position costs more with more seats).
    Two seats have 1.6 times the budgets they had before the core was compiled: the time it saves, spent
    on more worlds (2-seat block against IS-MCTS, 1000 games on the same deals: 55.4 % before, 56.5 % at
    1.6 and at 2), still within the time a move took before."""
    MIN_EXACT_WORLDS = 12
    MAX_EXACT_WORLDS = 400
    CAUTION = 0.6
    """How often the exact search expects another seat to find its best reply (see :class:`Solver`)."""
    LIKELIHOOD = 1.0
    """How much a world counts for explaining the others' plays (:func:`~engine.players.sampler.likelihood`;
    0 weighs all worlds alike)."""
    HEAVY = 2.0
    """The model of the others behind those weights: a fitting tile is played with odds 1 + HEAVY x pips / 12
    (a 6-6 three times as often as a 0-0; 0 would be a blind pick); where :attr:`PLAY_MODELS` has none."""
    PLAY_MODELS: ClassVar[dict[int, tuple[PlayModel, PlayModel]]] = {
        2: (PlayModel(pips=3.5, double=0.4, keeps=4.5), PlayModel(pips=4.0, double=2.0, keeps=4.0))
    }
    """By seat count, a sharper model of the same (:class:`~engine.players.sampler.PlayModel`), for a play
    and for a lead of the leader's choice: heavy tiles, doubles, and tiles that leave the seat able to
    follow the number it opens. Fitted (and rounded) to 2,600 decisions of OpenSpiel's IS-MCTS in
    2-seat block: per decision it explains a play 0.09 nats and a lead 0.49 nats better than ``HEAVY``.
    Where the game has no fives, spinner or draws, the others also play on by the first in the playouts."""
    OWN_CAUTION: ClassVar[dict[int, float]] = {2: 0.7}
    """By seat count (else 1), how often the exact search expects the seat itself to find its best move
    later in the round (see :class:`Solver`)."""

    def __init__(
        self,
        effort: float = 1.0,
        *,
        exact: bool = True,
        caution: float = CAUTION,
        playout: Playout | None = None,
        team_aware: bool = True,
    ) -> None:
        self.effort = effort
        self.exact = exact
        self.caution = caution
        self.playout = playout
        """None: :func:`greedy_playout`, or where :attr:`PLAY_MODELS` has a model and there are no fives, no
        spinner and nothing to draw, :func:`modelled_playout`."""
        self.team_aware = team_aware
        """False: value the seat's own result alone in a partnership preset (a baseline for the bench)."""

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        moves = legal_moves(observation)
        if len(moves) == 1:
            return moves[0]
        moves = distinct_moves(observation, moves)
        if len(moves) == 1:
            return moves[0]
        stakes = Stakes(observation, team_aware=self.team_aware)
        candidates = [from_move(move) for move in moves]
        search = self._search(observation, rng, candidates, stakes)
        means = self._means(search, observation, flat=False)
        best = max(range(len(moves)), key=lambda index: means[index])
        return moves[best]

    def _search(
        self, observation: Observation, rng: random.Random, candidates: list[SimMove], stakes: Stakes
    ) -> _Search:
        models = self.PLAY_MODELS.get(observation.table.seats)
        return _Search(observation, rng, candidates, stakes, self.LIKELIHOOD, self.HEAVY, models)

    def _means(self, search: _Search, observation: Observation, *, flat: bool) -> list[float]:
        """Each candidate's mean value: exact where the rest of the round is small enough, else by
        playouts (``flat``: every candidate alike, for judging; else sequential halving, for choosing)."""
        table = observation.table
        left = sum(table.hand_sizes)
        spent = 0.0
        if self.exact and _small_enough(table.seats, left, table.drawable):
            budget = int(self.NODE_BUDGETS[table.seats] * self.effort)
            own_caution = self.OWN_CAUTION.get(table.seats, 1.0)
            means, spent = search.exact(budget, self.MIN_EXACT_WORLDS, self.MAX_EXACT_WORLDS, self.caution, own_caution)
            if means is not None:
                return means
        playouts = int(self.PLAYOUT_UNITS[table.seats] * self.effort) // (left + min(table.drawable, 8) // 2 + 6)
        playout = self._playout(observation)
        if flat:
            return search.flat(max(len(search.candidates) * 8, playouts), playout)
        playouts = int(playouts * max(0.3, 1.0 - spent))  # what a failed exact attempt left of the time
        return search.monte_carlo(playouts, playout)

    def _playout(self, observation: Observation) -> Playout:
        if self.playout is not None:
            return self.playout
        rules = observation.table.rules
        models = self.PLAY_MODELS.get(observation.table.seats)
        if models is None or not plays_are_readable(rules) or rules.in_play is not InPlay.NONE:
            return greedy_playout
        return modelled_playout(models[0], observation.seat)

    def evaluate(
        self, observation: Observation, rng: random.Random, *, margin_only: bool = False
    ) -> list[tuple[Move, float]]:
        """Every legal move with its value (the mean of :class:`Stakes` over the same sampled worlds),
        for judging a move made: unlike :meth:`choose`, every move is played out alike (no halving),
        so each has a value to compare. One move alone is worth 0: there was nothing to choose.
        ``margin_only``: a match's round margin alone, without the bonus for ending the match
        (values then times ``Stakes.scale`` are points)."""
        moves = legal_moves(observation)
        if len(moves) == 1:
            return [(moves[0], 0.0)]
        stakes = Stakes(observation, match_bonus=not margin_only, team_aware=self.team_aware)
        candidates = [from_move(move) for move in moves]
        search = self._search(observation, rng, candidates, stakes)
        return list(zip(moves, self._means(search, observation, flat=True), strict=True))


def _small_enough(seats: int, left: int, drawable: int) -> bool:
    """Whether an exact search of enough worlds may fit the node budget."""
    if seats == 2:
        return left <= (11 if drawable == 0 else 5)
    return left <= (12 if drawable == 0 else 6)


class _Search:
    """The worlds of one decision and the candidate moves' values in them."""

    WORLD_NODES = 8
    """Sampling and setting up a world cost about as much as this many positions."""

    def __init__(
        self,
        observation: Observation,
        rng: random.Random,
        candidates: list[SimMove],
        stakes: Stakes | None = None,
        likelihood_power: float = 0.0,
        heavy: float = 0.0,
        models: tuple[PlayModel, PlayModel] | None = None,
    ) -> None:
        self.rng = rng
        self.candidates = candidates
        self.stakes = stakes or Stakes(observation)
        self.beliefs = beliefs_of(observation, rng)
        self.me = observation.seat
        self.mine = mask_of(observation.hand)
        self.template = determinize(observation, sample_world(observation, rng, self.beliefs)).to_core()
        self.power = likelihood_power
        self.heavy = heavy
        self.models = models
        self.evidence = play_evidence(observation, leads=models is not None) if likelihood_power else ()
        self.weight = 1.0
        """The last world's weight: how well it explains the others' plays (see :func:`likelihood`)."""

    def world(self) -> Sim:
        """The round in a freshly sampled world (its weight in :attr:`weight`)."""
        hands, boneyard = sample_hidden(self.beliefs, self.rng)
        hands[self.me] = self.mine
        self.weight = likelihood(self.evidence, hands, self.power, self.heavy, self.models) if self.evidence else 1.0
        sim = self.template.copy()
        sim.hands = hands
        sim.boneyard = boneyard
        sim.bone_at = 0
        sim.reserve = sim.rules.reserve if sim.rules.draws else len(boneyard)
        return sim

    def exact(
        self, budget: int, min_worlds: int, max_worlds: int, caution: float, own_caution: float = 1.0
    ) -> tuple[list[float] | None, float]:
        """Mean exact values over as many worlds as ``budget`` nodes solve, and the share of the budget
        spent. None instead of values when fewer than ``min_worlds`` worlds fit: the first world alone
        may use only its share of the budget, so a hopeless search gives up early."""
        totals = [0.0] * len(self.candidates)
        solver = Solver(self.stakes, budget // min_worlds, caution, own_caution)
        worlds = 0
        weights = 0.0
        while worlds < max_worlds:
            solver.nodes += self.WORLD_NODES
            solver.new_world()
            base = self.world()
            values = []
            try:
                for move in self.candidates:
                    sim = base.copy()
                    sim.play(move)
                    values.append(solver.value(sim))
            except _OutOfNodes:
                break
            worlds += 1
            solver.limit = budget
            weight = self.weight
            weights += weight
            for index, value in enumerate(values):
                totals[index] += weight * value
        spent = min(1.0, solver.nodes / budget)
        if worlds < min_worlds:
            return None, spent
        return [total / weights for total in totals], spent

    def flat(self, playouts: int, playout: Playout) -> list[float]:
        """Mean playout values of every candidate over the same worlds, ``playouts`` in all."""
        totals = [0.0] * len(self.candidates)
        worlds = max(8, playouts // len(self.candidates))
        value = self.stakes.value
        weights = 0.0
        for _ in range(worlds):
            base = self.world()
            weight = self.weight
            weights += weight
            for index, move in enumerate(self.candidates):
                sim = base.copy()
                sim.play(move)
                playout(sim, self.rng)
                totals[index] += weight * value(sim)
        return [total / weights for total in totals]

    def monte_carlo(self, playouts: int, playout: Playout) -> list[float]:
        """Mean playout values, the same worlds for every candidate still in the running. The budget is
        spent in rounds; after each one the worse half of the candidates stops (sequential halving)."""
        count = len(self.candidates)
        totals = [0.0] * count
        tries = [0.0] * count  # the weights of the worlds tried
        alive = list(range(count))
        rounds = max(1, (count - 1).bit_length())
        value = self.stakes.value
        for round_number in range(rounds):
            worlds = max(4, playouts // (rounds * len(alive)))
            for _ in range(worlds):
                base = self.world()
                weight = self.weight
                for index in alive:
                    sim = base.copy()
                    sim.play(self.candidates[index])
                    playout(sim, self.rng)
                    totals[index] += weight * value(sim)
                    tries[index] += weight
            if round_number < rounds - 1:
                alive.sort(key=lambda index: -totals[index] / tries[index])
                alive = sorted(alive[: (len(alive) + 1) // 2])
        return [totals[index] / tries[index] if index in alive else float("-inf") for index in range(count)]

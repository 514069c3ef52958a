"""A whole game: rounds, running scores, who starts next, and the end of the match.

>>> import random
>>> from engine.rules import Rules
>>> rng = random.Random(3)
>>> game = Match.new(Rules.preset("hundred"), 2, rng)
>>> while not game.is_over:
...     if game.round.is_over:
...         game = game.deal_next(rng)
...     game = game.apply(game.round.legal_moves()[0])
>>> max(game.scores) >= 100, game.winner in (0, 1)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from engine.errors import GameOverError, RoundNotOverError, WrongFirstError
from engine.line import End
from engine.observation import Observation, Table
from engine.rules import LaterStarter, Rules, Starter
from engine.state import Move, Outcome, RoundState
from engine.tiles import Tile


class Match(NamedTuple):
    """The rounds played so far (the last one may be under way) and the scores they made."""

    rules: Rules
    seats: int
    rounds: tuple[RoundState, ...]
    banked: tuple[int, ...]  # every point of every finished round

    @staticmethod
    def new(rules: Rules, seats: int, rng: random.Random, first: int | None = None) -> Match:
        rules.check_seats(seats)
        return Match(rules, seats, (RoundState.deal(rules, seats, rng, first),), (0,) * seats)

    @staticmethod
    def from_deal(
        rules: Rules, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile], first: int | None = None
    ) -> Match:
        seats = len(hands)
        return Match(rules, seats, (RoundState.start(rules, hands, boneyard, first),), (0,) * seats)

    @property
    def round(self) -> RoundState:
        """The current (or, between rounds, the last) round."""
        return self.rounds[-1]

    @property
    def scores(self) -> tuple[int, ...]:
        """Running totals, with the points scored during play in a round under way."""
        current = self.rounds[-1]
        if current.end is not None:
            return self.banked
        return tuple(total + fives for total, fives in zip(self.banked, current.fives, strict=True))

    @property
    def target(self) -> int | None:
        return self.rules.target(self.seats)

    @property
    def is_over(self) -> bool:
        """Whether the whole game is over (a single-round game ends with its round)."""
        if self.rounds[-1].end is None:
            return False
        if not self.rules.is_match:
            return True
        return self._match_winner() is not None

    @property
    def side_scores(self) -> tuple[int, ...]:
        """The running totals side by side: per seat, or once per team in a partnership preset."""
        scores = self.scores
        return tuple(scores[side[0]] for side in self.rules.sides(self.seats))

    def _match_winner(self) -> int | None:
        """The side that won the finished match, once a side's banked total has reached the target
        with a single side on top (or, where reaching it loses, a single side at the bottom)."""
        target = self.target
        totals = [self.banked[side[0]] for side in self.rules.sides(self.seats)]
        if target is None or max(totals) < target:
            return None
        best = min(totals) if self.rules.target_loses else max(totals)
        if totals.count(best) != 1:
            return None
        return totals.index(best)

    @property
    def winner(self) -> int | None:
        """The side that won the game: a seat, or in a partnership preset the team's number (its lower
        seat). None while it goes on, and for a draw or a shared win."""
        if not self.is_over:
            return None
        if self.rules.is_match:
            return self._match_winner()
        winners = self.rounds[-1].outcome().winners  # type: ignore[union-attr]
        sides = {self.rules.side_of(seat) for seat in winners}
        return sides.pop() if len(sides) == 1 else None

    def outcomes(self) -> list[Outcome]:
        return [outcome for state in self.rounds if (outcome := state.outcome()) is not None]

    def check(self, move: Move, seat: int | None = None) -> End | None:
        """Check ``move`` in the current round without playing it (see :meth:`RoundState.check`)."""
        return self.rounds[-1].check(move, seat)

    def apply(self, move: Move, seat: int | None = None) -> Match:
        """Play ``move`` in the current round (see :meth:`RoundState.apply`)."""
        state = self.rounds[-1].apply(move, seat)
        banked = self.banked
        outcome = state.outcome()
        if outcome is not None:
            banked = tuple(
                total + fives + points
                for total, fives, points in zip(banked, outcome.fives, outcome.points, strict=True)
            )
        return self._replace(rounds=self.rounds[:-1] + (state,), banked=banked)

    def next_first(self) -> int | None:
        """The seat that leads the next round, where the match decides it (None where the deal does)."""
        rules = self.rules
        last = self.rounds[-1]
        outcome = last.outcome()
        if rules.later_starter is LaterStarter.OWN and rules.starter is not Starter.MATCH:
            return None
        if outcome is None:
            raise RoundNotOverError("the round is still being played")
        if rules.later_starter is LaterStarter.NEXT_SEAT:
            return (last.starter + 1) % self.seats
        if rules.later_starter is LaterStarter.LAST_TILE:
            return last.plays()[-1].seat
        if len(outcome.winners) == 1:
            return outcome.winners[0]
        return (last.starter + 1) % self.seats

    def next_round(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile], first: int | None = None) -> Match:
        """Start the next round from an explicit deal; ``first``, if given, must be the rules' choice."""
        self._check_next()
        expected = self.next_first()
        if expected is not None:
            if first is not None and first != expected:
                raise WrongFirstError(f"seat {expected} leads this round under the rules, not seat {first}")
            first = expected
        state = RoundState.start(self.rules, hands, boneyard, first, later=True)
        return self._replace(rounds=self.rounds + (state,))

    def deal_next(self, rng: random.Random) -> Match:
        """Shuffle with ``rng`` and start the next round."""
        self._check_next()
        state = RoundState.deal(self.rules, self.seats, rng, self.next_first(), later=True)
        return self._replace(rounds=self.rounds + (state,))

    def _check_next(self) -> None:
        if self.rounds[-1].end is None:
            raise RoundNotOverError("the round is still being played")
        if self.is_over:
            raise GameOverError("the game is over")

    def table(self) -> Table:
        """The public view of the current round, for spectators and the group's picture."""
        return Table.of(self.round, scores=self.scores, round_index=len(self.rounds) - 1)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know of the current round."""
        return Observation.of(self.round, seat, scores=self.scores, round_index=len(self.rounds) - 1)

"""What a picture may show, as types: a round's result is built only once the round is over.

The public table (:class:`engine.observation.Table`) and one seat's view
(:class:`engine.observation.Observation`) come from the engine; this module
adds :class:`RoundResult`, the one value that carries every hand, and which
can only be made from a finished round.

>>> import random
>>> from engine.rules import Rules
>>> from engine.state import RoundState
>>> state = RoundState.deal(Rules.preset("duel"), 2, random.Random(7))
>>> RoundResult.of(state)
Traceback (most recent call last):
...
engine.errors.RoundNotOverError: the round is still being played: its hands are not shown
>>> while not state.is_over:
...     state = state.apply(state.legal_moves()[0])
>>> result = RoundResult.of(state)
>>> result.outcome.end.value, [len(hand) for hand in result.hands]
('domino', [0, 3])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import RoundNotOverError
from engine.events import Event, Played
from engine.line import Line
from engine.match import Match
from engine.rules import Rules
from engine.state import Outcome, RoundState
from engine.tiles import Tile, pip_count


@dataclass(frozen=True)
class RoundResult:
    """A finished round: the line, every hand as it was left, the outcome and the match totals."""

    rules: Rules
    line: Line
    hands: tuple[tuple[Tile, ...], ...]
    outcome: Outcome
    last: Tile | None  # the tile played last
    scores: tuple[int, ...] | None = None  # the match's totals after this round, for match play
    round_index: int = 0

    def __post_init__(self) -> None:
        if len(self.hands) != len(self.outcome.pips):
            raise ValueError(f"{len(self.hands)} hands for {len(self.outcome.pips)} seats")
        if tuple(pip_count(hand) for hand in self.hands) != self.outcome.pips:
            raise ValueError("the hands are not the ones the round ended with")

    @property
    def seats(self) -> int:
        return len(self.hands)

    @staticmethod
    def of(state: RoundState, *, scores: Sequence[int] | None = None, round_index: int = 0) -> RoundResult:
        """The result of ``state``; raises ``RoundNotOverError`` while the round is being played."""
        outcome = state.outcome()
        if outcome is None:
            raise RoundNotOverError("the round is still being played: its hands are not shown")
        totals = None if scores is None else tuple(scores)
        return RoundResult(
            state.rules, state.line, state.hands, outcome, last_played(state.events), totals, round_index
        )

    @staticmethod
    def of_match(match: Match, round_index: int = -1) -> RoundResult:
        """The result of one finished round of ``match`` (the last by default) with the totals after it."""
        index = round_index % len(match.rounds)
        totals = [0] * match.seats
        for state in match.rounds[: index + 1]:
            outcome = state.outcome()
            if outcome is None:
                raise RoundNotOverError("the round is still being played: its hands are not shown")
            totals = [t + f + p for t, f, p in zip(totals, outcome.fives, outcome.points, strict=True)]
        scores = tuple(totals) if match.rules.is_match else None
        return RoundResult.of(match.rounds[index], scores=scores, round_index=index)


def last_played(history: Sequence[Event]) -> Tile | None:
    """The tile of the last play in ``history``, None before the first."""
    for event in reversed(history):
        if type(event) is Played:
            return event.tile
    return None

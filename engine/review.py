"""A review of one seat's moves in a finished game: the three choices that cost the most.

Each of the seat's moves that had an alternative is judged as the ``hard`` player judges
(:meth:`~engine.players.hard.Hard.evaluate`): from the seat's own
:class:`~engine.observation.Observation` at that moment, never with hindsight, every legal move
played out in the same sampled worlds; a move the hard player itself makes there is never one.
The cost of a move is how much less it was worth than
the best one: in a match, in points of the round's expected margin (the match's stakes, see
:class:`~engine.players.hard.Stakes`); in a single round, in the chance to win it. Costs below
:data:`CLEAR_POINTS` / :data:`CLEAR_CHANCE` are not mistakes anyone should be told about.

>>> import random
>>> from engine.match import Match
>>> from engine.players import Hard
>>> from engine.record import write_record
>>> from engine.rules import Rules
>>> game = Match.new(Rules.preset("quickblock"), 2, random.Random(3))
>>> while not game.is_over:  # the hard player's own choices, asked with the review's seeds
...     seed = choice_seed(1, len(game.rounds) - 1, len(game.round.plays()))
...     game = game.apply(Hard().choose(game.observe(game.round.turn), random.Random(seed + ":choose")))
>>> review(write_record(game), 0, seed=1)
[]
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from engine.match import Match
from engine.observation import Observation
from engine.players.hard import Hard, Stakes
from engine.record import read_record, replay
from engine.rules import Rules
from engine.state import Move, line_after

CLEAR_POINTS = 3.0  # a match: at least this many points of expected margin
CLEAR_CHANCE = 0.05  # a single round: at least this much chance to win it
MISTAKES = 3


class Mistake(NamedTuple):
    round_index: int
    move_number: int  # the seat's own moves in that round, counted from 1
    observation: Observation  # what the seat saw before the move (for the picture)
    played: Move
    better: Move
    points: float | None  # a match: expected points lost
    chance: float | None  # a single round: chance to win lost (0..1)

    @property
    def cost(self) -> float:
        """Points or chance (a game's mistakes are all of one kind): what they are ordered by."""
        return self.points if self.points is not None else self.chance or 0.0


def review(record: dict[str, Any], seat: int, *, seed: int = 0, effort: float = 1.0) -> list[Mistake]:
    """The (at most three) costliest clear mistakes of ``seat`` in ``record``, costliest first.

    Raises :class:`~engine.errors.RecordError` for a record that does not replay."""
    parsed = read_record(record)
    replay(parsed)
    rules = Rules.preset(parsed.preset)
    judge = Hard(effort)
    found: list[tuple[float, Mistake]] = []
    match: Match | None = None
    for index, round_record in enumerate(parsed.rounds):
        if match is None:
            match = Match.from_deal(rules, round_record.hands, round_record.boneyard, round_record.first)
        else:
            match = match.next_round(round_record.hands, round_record.boneyard, round_record.first)
        mine = 0
        for number, play in enumerate(round_record.plays):
            move = Move(play.tile, play.end)
            if play.seat == seat:
                mine += 1
                mistake = _judge(judge, match.observe(seat), move, index, mine, choice_seed(seed, index, number))
                if mistake is not None:
                    found.append((mistake.cost, mistake))
            match = match.apply(move, seat=play.seat)
    found.sort(key=lambda item: -item[0])
    return [mistake for _, mistake in found[:MISTAKES]]


def _same_position(observation: Observation, one: Move, other: Move) -> bool:
    """Whether two moves leave the same tiles in hand and the same numbers open, scoring alike."""
    if one.tile != other.tile:
        return False
    line, spinner = observation.table.line, observation.table.rules.spinner
    after = [line_after(line, move, spinner=spinner) for move in (one, other)]
    return sorted(after[0].end_values()) == sorted(after[1].end_values()) and (
        after[0].fives_count() == after[1].fives_count()
    )


def choice_seed(seed: int, round_index: int, play_index: int) -> str:
    """The seed the hard player's own choice is asked with at a play (the ``play_index``-th of its
    round, every seat's counted): a move equal to that choice is never called a mistake."""
    return f"{seed}:{round_index}:{play_index}"


def _judge(
    judge: Hard, observation: Observation, played: Move, round_index: int, number: int, seed: str
) -> Mistake | None:
    if _same_position(observation, judge.choose(observation, random.Random(seed + ":choose")), played):
        return None  # what the hard player itself plays here is no mistake, whatever the sampling says
    values = judge.evaluate(observation, random.Random(seed), margin_only=True)
    if len(values) < 2:
        return None
    worth = dict(values)
    mine = worth.get(played)
    if mine is None:  # the record names an end where only one fits: the same move
        mine = next((value for move, value in values if move.tile == played.tile), None)
    if mine is None:
        return None
    better, best = max(values, key=lambda item: item[1])
    if _same_position(observation, better, played):
        return None  # a mirror image (the spinner's up or down, say): no choice at all
    stakes = Stakes(observation)
    if stakes.target is not None:
        points = (best - mine) * stakes.scale
        if points < CLEAR_POINTS:
            return None
        return Mistake(round_index, number, observation, played, better, round(points, 1), None)
    chance = best - mine
    if chance < CLEAR_CHANCE:
        return None
    return Mistake(round_index, number, observation, played, better, None, round(chance, 3))

"""``easy``: a beginner's game, legal and plausible, with no plan.

Half of the time it plays its heaviest playable tile (the one thing every
beginner learns: do not get caught holding big tiles); otherwise any legal move
at random. In ``fives`` it notices a play that scores at once about half of the
time. It never looks at what the others lack, never keeps variety, never counts.

>>> import random
>>> from engine.match import Match
>>> from engine.rules import Rules
>>> game = Match.new(Rules.preset("draw"), 2, random.Random(1), first=0)
>>> move = Easy().choose(game.observe(0), random.Random(2))
>>> move in game.round.legal_moves()
True
"""

from __future__ import annotations

import random

from engine.observation import Observation
from engine.players.base import legal_moves
from engine.rules import InPlay
from engine.state import Move


class Easy:
    """A beginner: heavy tiles half of the time, otherwise whatever fits."""

    level = "easy"

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        moves = legal_moves(observation)
        if len(moves) == 1:
            return moves[0]
        table = observation.table
        if table.rules.in_play is InPlay.FIVES and rng.random() < 0.5:
            scoring = [move for move in moves if _scores(observation, move)]
            if scoring:
                return scoring[int(rng.random() * len(scoring))]
        if rng.random() < 0.5:
            heaviest = max(move.tile.pips for move in moves)
            moves = [move for move in moves if move.tile.pips == heaviest]
        return moves[int(rng.random() * len(moves))]


def _scores(observation: Observation, move: Move) -> bool:
    line = observation.table.line.place(move.tile, move.end, spinner=observation.table.rules.spinner)
    count = line.fives_count()
    return count > 0 and count % 5 == 0

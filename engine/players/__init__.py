"""Computer players: ``easy``, ``medium`` and ``hard``, for every preset and seat count.

Each decides from the :class:`~engine.observation.Observation` of its own seat
only (its hand, the line, the counts, who drew or passed at which ends) and a
``random.Random`` that makes it reproducible:

>>> import random
>>> from engine.match import Match
>>> from engine.rules import Rules
>>> game = Match.new(Rules.preset("block"), 3, random.Random(8), first=1)
>>> move = player_for("medium").choose(game.observe(1), random.Random(0))
>>> move in game.round.legal_moves()
True
"""

from __future__ import annotations

from engine.errors import NotMyTurnError, UnknownLevelError
from engine.players.base import Player
from engine.players.easy import Easy
from engine.players.hard import Hard
from engine.players.medium import Medium

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


def player_for(level: str) -> Player:
    """The player of ``level`` (``easy``, ``medium`` or ``hard``)."""
    if level == "easy":
        return Easy()
    if level == "medium":
        return Medium()
    if level == "hard":
        return Hard()
    raise UnknownLevelError(f"unknown level {level!r} (known: {', '.join(LEVELS)})")


__all__ = ["LEVELS", "Easy", "Hard", "Medium", "NotMyTurnError", "Player", "UnknownLevelError", "player_for"]

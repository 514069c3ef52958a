"""Errors of the rules engine.

Every error is a :class:`ValueError` with a ``code``: a short, stable key that a
record checker prints and that the bot turns into a translated, polite message.
"""

from __future__ import annotations


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in this position."""

    code = "illegal_move"


class WrongSeatError(IllegalMoveError):
    code = "out_of_turn"


class TileNotInHandError(IllegalMoveError):
    code = "not_in_hand"


class TileDoesNotFitError(IllegalMoveError):
    code = "does_not_fit"


class EndNotOpenError(TileDoesNotFitError):
    code = "end_not_open"


class EndRequiredError(IllegalMoveError):
    """The tile fits more than one open end and the move did not say which."""

    code = "missing_end"


class ForcedLeadError(IllegalMoveError):
    """The round must be led with one particular tile."""

    code = "forced_lead"


class GameOverError(IllegalMoveError):
    """The round (or the whole game) is over: nothing more can be played."""

    code = "game_over"


class RoundNotOverError(ValueError):
    """A new round was asked for while the current one is still being played."""

    code = "round_not_over"


class DealError(ValueError):
    """Hands and boneyard that are not a deal of the double-six set under these rules."""

    code = "bad_deal"


class MissingFirstError(DealError):
    """The match starter's random draw is not in the record: it must name the first seat."""

    code = "missing_first"


class WrongFirstError(DealError):
    """The record names a first seat other than the one the rules determine."""

    code = "wrong_first"


class PositionError(DealError):
    """The parts of a round in progress that do not fit together (see ``RoundState.resume``)."""

    code = "bad_position"

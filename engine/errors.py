"""Errors of the rules engine: every one of them, in one place.

Every error is an :class:`EngineError`, a :class:`ValueError` with a ``code``: a
short, stable key that a record checker prints and that the bot turns into a
translated, polite message. Catch :class:`EngineError` for anything the engine
refuses; the modules that raise an error also re-export it (``engine.tiles.TileError``
is this module's :class:`TileError`).

>>> issubclass(TileDoesNotFitError, EngineError), TileDoesNotFitError.code
(True, 'does_not_fit')

This module imports nothing from the engine, so that every other module can import it.
"""

from __future__ import annotations

from enum import StrEnum


class EngineError(ValueError):
    """Anything the engine refuses; ``code`` says what, in a short, stable key."""

    code: str = "engine_error"


# --- moves ------------------------------------------------------------------------


class IllegalMoveError(EngineError):
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
    """The tile fits more than one open end and the move did not say which.

    ``ends`` are the :class:`~engine.line.End` values it fits, in the line's order of
    ends, for a player to choose from.
    """

    code = "missing_end"

    def __init__(self, message: str, ends: tuple[StrEnum, ...] = ()) -> None:
        super().__init__(message)
        self.ends = ends

    def __reduce__(self) -> tuple[type[EndRequiredError], tuple[str, tuple[StrEnum, ...]]]:
        return (type(self), (str(self), self.ends))


class ForcedLeadError(IllegalMoveError):
    """The round must be led with one particular tile."""

    code = "forced_lead"


class GameOverError(IllegalMoveError):
    """The round (or the whole game) is over: nothing more can be played."""

    code = "game_over"


class RoundNotOverError(EngineError):
    """A new round was asked for while the current one is still being played."""

    code = "round_not_over"


# --- deals ------------------------------------------------------------------------


class DealError(EngineError):
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


# --- values: tiles, rules, levels ---------------------------------------------------


class TileError(EngineError):
    """A string that is not a tile of the double-six set."""

    code = "bad_tile"


class UnknownPresetError(EngineError):
    """A preset id that is not one of the presets."""

    code = "unknown_preset"


class SeatCountError(EngineError):
    """A number of seats that the rules are not played by."""

    code = "bad_seats"


class UnknownLevelError(EngineError):
    """A computer player's level that is not ``easy``, ``medium`` or ``hard``."""

    code = "unknown_level"


class NotMyTurnError(EngineError):
    """A player was asked to move for a seat that is not to play (or in a finished round)."""

    code = "not_your_turn"


# --- records and requests -----------------------------------------------------------


class RecordError(EngineError):
    """A record that cannot be replayed; ``where`` names the round and play.

    Its ``code`` is the code of what went wrong there (``bad_tile``, ``out_of_turn``, ...);
    the class's own is ``bad_record``.
    """

    code = "bad_record"

    def __init__(self, code: str, where: str, message: str) -> None:
        super().__init__(f"{where}: {code}: {message}")
        self.code = code
        self.where = where
        self.message = message


class RequestError(EngineError):
    """A request to ``python -m engine suggest`` that cannot be answered; its message is the answer's ``error``."""

    code = "bad_request"

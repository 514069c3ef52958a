"""The rules of dominoes (docs/rules.md describes them): pure Python, no I/O.

The vocabulary is small: a :class:`Match` of :class:`RoundState` rounds under
one :class:`Rules` preset; ``legal_moves()``, ``apply(move)``, ``outcome()``;
an :class:`Observation` of one seat; records that ``replay``.

>>> import random
>>> game = Match.new(Rules.preset("classic"), 3, random.Random(5))
>>> move = game.round.legal_moves()[0]
>>> game = game.apply(move)
>>> len(game.round.line)
1
"""

import engine._core_loader  # noqa: F401 - first: it chooses the compiled core or its source
from engine.errors import (
    DealError,
    EndNotOpenError,
    EndRequiredError,
    EngineError,
    ForcedLeadError,
    GameOverError,
    IllegalMoveError,
    MissingFirstError,
    NotMyTurnError,
    PositionError,
    RecordError,
    RequestError,
    RoundNotOverError,
    SeatCountError,
    TileDoesNotFitError,
    TileError,
    TileNotInHandError,
    UnknownLevelError,
    UnknownPresetError,
    WrongFirstError,
    WrongSeatError,
)
from engine.events import Drew, Event, Passed, Played
from engine.line import ENDS, End, Line, Placed, SpinnerAt
from engine.match import Match
from engine.observation import Observation, Table
from engine.record import Record, loads, read_record, replay, summary, write_record
from engine.rules import (
    PRESETS,
    Boneyard,
    FishTie,
    InPlay,
    RoundScoring,
    Rules,
    Starter,
)
from engine.state import Deal, Move, Outcome, RoundEnd, RoundState, distinct_ends, legal_moves_for, round_to_five
from engine.tiles import ALL_TILES, Tile, tile_of

__all__ = [
    "ALL_TILES",
    "ENDS",
    "PRESETS",
    "Boneyard",
    "Deal",
    "DealError",
    "Drew",
    "End",
    "EndNotOpenError",
    "EndRequiredError",
    "EngineError",
    "Event",
    "FishTie",
    "ForcedLeadError",
    "GameOverError",
    "IllegalMoveError",
    "InPlay",
    "Line",
    "Match",
    "MissingFirstError",
    "Move",
    "NotMyTurnError",
    "Observation",
    "Outcome",
    "Passed",
    "Placed",
    "Played",
    "PositionError",
    "Record",
    "RecordError",
    "RequestError",
    "RoundEnd",
    "RoundNotOverError",
    "RoundScoring",
    "RoundState",
    "Rules",
    "SeatCountError",
    "SpinnerAt",
    "Starter",
    "Table",
    "Tile",
    "TileDoesNotFitError",
    "TileError",
    "TileNotInHandError",
    "UnknownLevelError",
    "UnknownPresetError",
    "WrongFirstError",
    "WrongSeatError",
    "distinct_ends",
    "legal_moves_for",
    "loads",
    "read_record",
    "replay",
    "round_to_five",
    "summary",
    "tile_of",
    "write_record",
]

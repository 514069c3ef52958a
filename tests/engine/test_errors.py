"""Engine errors: one family under EngineError, each with its own code, and ``check`` that raises them."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
import random

import pytest

import engine
from engine import (
    ALL_TILES,
    ENDS,
    End,
    EndNotOpenError,
    EndRequiredError,
    EngineError,
    ForcedLeadError,
    GameOverError,
    IllegalMoveError,
    Match,
    Move,
    Observation,
    RecordError,
    RoundState,
    Rules,
    TileDoesNotFitError,
    TileNotInHandError,
    WrongSeatError,
    errors,
)
from engine.players.base import distinct_moves, without_mirror_images
from engine.players.sim import INDEX, LEAD
from tests.engine.helpers import play, start, tile

LEFT, RIGHT, UP, DOWN = End.LEFT, End.RIGHT, End.UP, End.DOWN


def _error_classes() -> list[type[BaseException]]:
    return [
        value
        for value in vars(errors).values()
        if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == errors.__name__
    ]


def _engine_modules() -> list[str]:
    return [engine.__name__] + [
        info.name for info in pkgutil.walk_packages(engine.__path__, prefix=f"{engine.__name__}.")
    ]


# --- the family ------------------------------------------------------------------------------


def test_every_error_is_an_engine_error_and_a_value_error_with_its_own_code() -> None:
    classes = _error_classes()
    assert len(classes) >= 21  # the thirteen of the moves and deals, the eight gathered from other modules
    for cls in classes:
        assert issubclass(cls, EngineError), cls
        assert issubclass(cls, ValueError), cls
        assert isinstance(cls.code, str) and cls.code, cls
    codes = [cls.code for cls in classes]  # type: ignore[attr-defined]
    assert len(set(codes)) == len(codes), sorted(codes)


def test_codes_that_records_and_the_bot_rely_on_are_unchanged() -> None:
    assert {
        cls.__name__: cls.code  # type: ignore[attr-defined]
        for cls in _error_classes()
    } == {
        "EngineError": "engine_error",
        "IllegalMoveError": "illegal_move",
        "WrongSeatError": "out_of_turn",
        "TileNotInHandError": "not_in_hand",
        "TileDoesNotFitError": "does_not_fit",
        "EndNotOpenError": "end_not_open",
        "EndRequiredError": "missing_end",
        "ForcedLeadError": "forced_lead",
        "GameOverError": "game_over",
        "RoundNotOverError": "round_not_over",
        "DealError": "bad_deal",
        "MissingFirstError": "missing_first",
        "WrongFirstError": "wrong_first",
        "PositionError": "bad_position",
        "TileError": "bad_tile",
        "UnknownPresetError": "unknown_preset",
        "SeatCountError": "bad_seats",
        "UnknownLevelError": "unknown_level",
        "NotMyTurnError": "not_your_turn",
        "RecordError": "bad_record",
        "RequestError": "bad_request",
    }


def test_no_module_of_the_engine_defines_an_error_of_its_own() -> None:
    """Private signals that never leave their module (the hard player's ``_OutOfNodes``) are not errors."""
    found = set()
    for name in _engine_modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__.startswith("engine"):
                found.add(value)
                if not value.__name__.startswith("_"):
                    assert value.__module__ == errors.__name__, f"{name} defines {value.__name__}"
    assert set(_error_classes()) <= found


def test_errors_import_nothing_from_the_engine() -> None:
    source = inspect.getsource(errors)
    assert "import engine" not in source and "from engine" not in source


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("engine.tiles", "TileError"),
        ("engine.rules", "UnknownPresetError"),
        ("engine.rules", "SeatCountError"),
        ("engine.record", "RecordError"),
        ("engine.suggest", "RequestError"),
        ("engine.players", "UnknownLevelError"),
        ("engine.players", "NotMyTurnError"),
        ("engine.players.base", "NotMyTurnError"),
        ("engine", "EngineError"),
        ("engine", "RecordError"),
        ("engine", "TileError"),
    ],
)
def test_old_import_paths_still_give_the_same_class(module: str, name: str) -> None:
    assert getattr(importlib.import_module(module), name) is getattr(errors, name)


def test_players_export_their_errors() -> None:
    players = importlib.import_module("engine.players")
    assert {"NotMyTurnError", "UnknownLevelError"} <= set(players.__all__)


def test_engine_exports_every_error() -> None:
    assert {cls.__name__ for cls in _error_classes()} <= set(engine.__all__)


def test_record_error_keeps_its_message_and_its_code_per_instance() -> None:
    error = RecordError("bad_tile", "round 0", "not a tile: '7-1'")
    assert str(error) == "round 0: bad_tile: not a tile: '7-1'"
    assert (error.code, error.where, error.message) == ("bad_tile", "round 0", "not a tile: '7-1'")
    assert RecordError.code == "bad_record"
    assert isinstance(error, EngineError)


# --- check -----------------------------------------------------------------------------------

# Block, 2 seats, S0 first. After "0: 6-5" (L6 R5) and "1: 5-3" (R3) the ends are 6 and 3;
# S0 then holds 6-3 (fits both ends), 6-1 (fits the left end only) and four tiles that fit nothing.
HANDS = ["6-5 6-3 6-1 4-4 2-2 0-0 1-0", "5-3 3-3 2-1 4-2 5-0 4-0 3-0"]


def forced_lead() -> RoundState:
    """Duel: S0 holds 6-6, the highest double, and must lead it."""
    return start("duel", ["6-6 6-4 6-3 6-2 6-1 6-0 5-4", "5-5 4-4 3-3 2-2 1-1 0-0 6-5"])


def fished() -> RoundState:
    """Block: S0 leads 6-6 and nobody holds another 6 -> S1 passes, S0 passes: fish."""
    state = play(start("block", ["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "5-4 5-3 5-2 5-1 5-0 4-3 4-2"], first=0), "0: 6-6")
    assert state.is_over
    return state


def six_three() -> RoundState:
    state = play(start("block", HANDS, first=0), "0: 6-5", "1: 5-3")
    assert (state.turn, state.line.open_ends()) == (0, {LEFT: 6, RIGHT: 3})
    return state


def _code_of_check(state: RoundState, move: Move, seat: int | None = None) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        state.check(move, seat=seat)
    return caught.value.code


def test_check_returns_the_end_the_move_goes_on() -> None:
    state = six_three()
    assert state.check(Move(tile("6-1")), seat=0) is LEFT
    assert state.check(Move(tile("6-3"), RIGHT), seat=0) is RIGHT
    assert state.check(Move(tile("6-3"), LEFT)) is LEFT
    assert start("block", HANDS, first=0).check(Move(tile("6-5")), seat=0) is None


def test_check_raises_each_code_in_its_situation() -> None:
    state = six_three()
    assert _code_of_check(state, Move(tile("6-1")), seat=1) == "out_of_turn"
    assert _code_of_check(state, Move(tile("3-3"))) == "not_in_hand"
    assert _code_of_check(state, Move(tile("4-4"))) == "does_not_fit"
    assert _code_of_check(state, Move(tile("6-1"), RIGHT)) == "does_not_fit"
    assert _code_of_check(state, Move(tile("6-1"), UP)) == "end_not_open"
    assert _code_of_check(state, Move(tile("6-3"))) == "missing_end"
    assert _code_of_check(forced_lead(), Move(tile("6-4")), seat=0) == "forced_lead"
    assert _code_of_check(fished(), Move(tile("5-4")), seat=1) == "game_over"
    assert _code_of_check(fished(), Move(tile("5-4"))) == "game_over"


@pytest.mark.parametrize(
    ("move", "seat", "error"),
    [
        (Move(tile("6-1")), 1, WrongSeatError),
        (Move(tile("3-3")), None, TileNotInHandError),
        (Move(tile("4-4")), None, TileDoesNotFitError),
        (Move(tile("6-1"), UP), None, EndNotOpenError),
        (Move(tile("6-3")), None, EndRequiredError),
    ],
)
def test_check_raises_the_error_classes(move: Move, seat: int | None, error: type[IllegalMoveError]) -> None:
    with pytest.raises(error):
        six_three().check(move, seat=seat)


def test_the_classes_of_the_lead_and_of_the_end() -> None:
    with pytest.raises(ForcedLeadError):
        forced_lead().check(Move(tile("6-4")), seat=0)
    with pytest.raises(GameOverError):
        fished().check(Move(tile("5-4")))


def test_end_required_carries_the_ends_the_tile_fits() -> None:
    with pytest.raises(EndRequiredError) as caught:
        six_three().check(Move(tile("6-3")))
    assert caught.value.ends == (LEFT, RIGHT)
    assert str(caught.value) == "6-3 fits more than one end (left, right); say which"
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (type(copy), copy.ends, str(copy)) == (EndRequiredError, (LEFT, RIGHT), str(caught.value))


def test_end_required_names_the_spinner_arms() -> None:
    hands = ["1-1 6-1 1-0 5-3 6-6 2-2 3-0", "4-1 5-1 5-5 4-4 3-3 6-2 2-0"]
    state = play(start("fives", hands, first=0), "0: 1-1", "1: 4-1 right", "0: 6-1 left")
    assert state.line.open_ends() == {LEFT: 6, RIGHT: 4, UP: 1, DOWN: 1}
    with pytest.raises(EndRequiredError) as caught:
        state.check(Move(tile("5-1")))
    assert caught.value.ends == (UP, DOWN)


def test_match_checks_its_current_round() -> None:
    game = Match.new(Rules.preset("duel"), 2, random.Random(7))
    lead = game.round.legal_moves()[0]
    assert game.check(lead, seat=game.round.turn) is None
    with pytest.raises(WrongSeatError):
        game.check(lead, seat=1 - game.round.turn)


def _every_attempt(state: RoundState) -> list[tuple[Move, int | None]]:
    moves = [Move(t, end) for t in ALL_TILES for end in (None, *ENDS)]
    return [(move, seat) for move in moves for seat in (None, *range(state.seats))]


@pytest.mark.parametrize("preset", ["classic", "draw", "block", "fives", "quickblock", "duel", "hundred"])
def test_apply_refuses_exactly_what_check_refuses(preset: str) -> None:
    """``apply`` makes the checks of ``check``: the same error, or the tile placed at the end it returns."""
    rng = random.Random(preset)
    rules = Rules.preset(preset)
    for _ in range(3):
        state = RoundState.deal(rules, rng.randint(rules.min_seats, rules.max_seats), rng)
        while True:
            for move, seat in rng.sample(_every_attempt(state), 40) + [(m, state.turn) for m in state.legal_moves()]:
                try:
                    end = state.check(move, seat=seat)
                except IllegalMoveError as error:
                    with pytest.raises(type(error)) as caught:
                        state.apply(move, seat=seat)
                    assert (caught.value.code, str(caught.value)) == (error.code, str(error))
                else:
                    after = state.apply(move, seat=seat)
                    assert after.plays()[-1].end == end and after.plays()[-1].tile == move.tile
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_moves()))


# --- one mirror-image filter ------------------------------------------------------------------


def test_mirror_images_are_dropped_only_when_the_arms_are_alike() -> None:
    moves = [(1, "l"), (1, "r"), (2, "r")]
    assert without_mirror_images(moves, spinner=False, led=True, left=4, right=4, right_end="r") == [(1, "l")]
    assert without_mirror_images(moves, spinner=True, led=True, left=4, right=4, right_end="r") == moves
    assert without_mirror_images(moves, spinner=False, led=False, left=4, right=4, right_end="r") == moves
    assert without_mirror_images(moves, spinner=False, led=True, left=4, right=5, right_end="r") == moves


@pytest.mark.parametrize("preset", ["draw", "fives", "block"])
def test_players_and_simulator_drop_the_same_mirror_images(preset: str) -> None:
    rng = random.Random(preset)
    for _ in range(100):
        state = RoundState.deal(Rules.preset(preset), 2, rng, first=0)
        while not state.is_over:
            observation = Observation.of(state, state.turn)
            players = distinct_moves(observation, state.legal_moves())
            simulator = state.to_core().distinct_moves()
            as_sim = {(INDEX[m.tile], LEAD if m.end is None else ENDS.index(m.end)) for m in players}
            assert as_sim == set(simulator) and len(simulator) == len(players)
            if not state.rules.spinner and state.line.lead is not None and state.line.ends[0] == state.line.ends[1]:
                assert all(move.end is not RIGHT for move in players)
            state = state.apply(rng.choice(state.legal_moves()))

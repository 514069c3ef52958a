"""Game records (docs/record.md): read, validate, write and replay.

>>> import json, random
>>> from engine.rules import Rules
>>> game = Match.new(Rules.preset("block"), 2, random.Random(1))
>>> data = write_record(game)
>>> replay(read_record(data)) == game
True
>>> summary(game)["finished"]
False
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from engine.errors import DealError, IllegalMoveError, SeatCountError, TileError, UnknownPresetError
from engine.errors import RecordError as RecordError  # its home was here
from engine.line import End
from engine.match import Match
from engine.rules import Rules
from engine.state import Move, RoundState
from engine.tiles import Tile

FORMAT = "dominoes-record/1"


class PlayRecord(NamedTuple):
    seat: int
    tile: Tile
    end: End | None


class RoundRecord(NamedTuple):
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    first: int | None
    plays: tuple[PlayRecord, ...]


class Record(NamedTuple):
    preset: str
    seats: int
    rounds: tuple[RoundRecord, ...]
    extra: Mapping[str, Any]  # fields this engine does not use, kept as they were


# --- reading ------------------------------------------------------------------------


def loads(text: str) -> Record:
    """Parse and validate the shape of a record given as JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError("bad_json", "record", f"not JSON: {error}") from None
    return read_record(data)


def read_record(data: Any) -> Record:
    """Validate the shape of a parsed record (the rules are checked by :func:`replay`)."""
    if not isinstance(data, dict):
        raise RecordError("bad_record", "record", "a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError("bad_format", "record", f"format must be {FORMAT!r}, not {data.get('format')!r}")
    preset = data.get("preset")
    if not isinstance(preset, str):
        raise RecordError("unknown_preset", "record", "preset must be a preset id")
    seats = _integer(data.get("seats"), "record", "seats")
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("bad_record", "record", "rounds must be a non-empty list")
    extra = {key: value for key, value in data.items() if key not in {"format", "preset", "seats", "rounds", "teams"}}
    return Record(preset, seats, tuple(_read_round(r, item) for r, item in enumerate(rounds)), extra)


def _read_round(r: int, data: Any) -> RoundRecord:
    where = f"round {r}"
    if not isinstance(data, dict):
        raise RecordError("bad_record", where, "a round is a JSON object")
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(hand, list) for hand in hands):
        raise RecordError("bad_deal", where, "hands must be a list of lists of tiles")
    boneyard = data.get("boneyard", [])
    if not isinstance(boneyard, list):
        raise RecordError("bad_deal", where, "boneyard must be a list of tiles")
    first = data.get("first")
    if first is not None:
        first = _integer(first, where, "first")
    plays = data.get("plays", [])
    if not isinstance(plays, list):
        raise RecordError("bad_record", where, "plays must be a list")
    return RoundRecord(
        hands=tuple(tuple(_tile(t, where) for t in hand) for hand in hands),
        boneyard=tuple(_tile(t, where) for t in boneyard),
        first=first,
        plays=tuple(_read_play(f"{where} play {p}", play) for p, play in enumerate(plays)),
    )


def _read_play(where: str, data: Any) -> PlayRecord:
    if not isinstance(data, dict):
        raise RecordError("bad_record", where, "a play is a JSON object")
    seat = _integer(data.get("seat"), where, "seat")
    tile = _tile(data.get("tile"), where)
    end = data.get("end")
    if end is not None:
        try:
            end = End(end)
        except ValueError:
            raise RecordError("bad_end", where, f"end must be left, right, up or down, not {end!r}") from None
    return PlayRecord(seat, tile, end)


def _integer(value: Any, where: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError("bad_record", where, f"{name} must be a whole number, not {value!r}")
    return value


def _tile(value: Any, where: str) -> Tile:
    if not isinstance(value, str):
        raise RecordError("bad_tile", where, f'a tile is a string like "6-4", not {value!r}')
    try:
        return Tile.parse(value)
    except TileError as error:
        raise RecordError(error.code, where, str(error)) from None


# --- replaying ------------------------------------------------------------------------


def replay(record: Record) -> Match:
    """Play the record through the rules; raises :class:`RecordError` at the first illegal step."""
    try:
        rules = Rules.preset(record.preset)
        rules.check_seats(record.seats)
    except (UnknownPresetError, SeatCountError) as error:
        raise RecordError(error.code, "record", str(error)) from None
    match: Match | None = None
    for r, round_record in enumerate(record.rounds):
        where = f"round {r}"
        if len(round_record.hands) != record.seats:
            raise RecordError("bad_deal", where, f"{len(round_record.hands)} hands for {record.seats} seats")
        try:
            if match is None:
                match = Match.from_deal(rules, round_record.hands, round_record.boneyard, round_record.first)
            else:
                if not match.round.is_over:
                    raise RecordError(
                        "round_not_over", where, f"round {r - 1} is still being played when round {r} begins"
                    )
                if match.is_over:
                    raise RecordError("game_over", where, "the game was over before this round")
                match = match.next_round(round_record.hands, round_record.boneyard, round_record.first)
        except DealError as error:
            raise RecordError(error.code, where, str(error)) from None
        for p, play in enumerate(round_record.plays):
            try:
                match = match.apply(Move(play.tile, play.end), seat=play.seat)
            except IllegalMoveError as error:
                raise RecordError(error.code, f"{where} play {p}", str(error)) from None
    assert match is not None
    return match


# --- writing --------------------------------------------------------------------------


def write_record(match: Match, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``match`` as a JSON-ready dict; ``extra`` adds fields such as names."""
    data: dict[str, Any] = {"format": FORMAT, "preset": match.rules.id, "seats": match.seats}
    if match.rules.has_teams:  # for people reading the file; readers take the teams from the preset
        data["teams"] = [list(side) for side in match.rules.sides(match.seats)]
    data["rounds"] = [_write_round(state) for state in match.rounds]
    if extra:
        data.update({key: value for key, value in extra.items() if key not in data})
    return data


def _write_round(state: RoundState) -> dict[str, Any]:
    plays = []
    for event in state.plays():
        play: dict[str, Any] = {"seat": event.seat, "tile": str(event.tile)}
        if event.end is not None:
            play["end"] = event.end.value
        plays.append(play)
    return {
        "hands": [[str(tile) for tile in hand] for hand in state.deal_.hands],
        "boneyard": [str(tile) for tile in state.deal_.boneyard],
        "first": state.deal_.first,
        "plays": plays,
    }


def summary(match: Match) -> dict[str, Any]:
    """The JSON that ``python -m engine replay`` prints for a match."""
    rounds = []
    for state in match.rounds:
        outcome = state.outcome()
        if outcome is None:
            zeros = [0] * state.seats
            rounds.append(
                {
                    "end": "unfinished",
                    "winners": [],
                    "points": zeros,
                    "fives": list(state.fives),
                    "pips": [tile_sum(hand) for hand in state.hands],
                    "draws": list(state.draws),
                }
            )
        else:
            rounds.append(
                {
                    "end": outcome.end.value,
                    "winners": list(outcome.winners),
                    "points": list(outcome.points),
                    "fives": list(outcome.fives),
                    "pips": list(outcome.pips),
                    "draws": list(outcome.draws),
                }
            )
    result: dict[str, Any] = {"rounds": rounds, "scores": list(match.scores)}
    if match.rules.has_teams:
        result["team_scores"] = list(match.side_scores)
    result.update(finished=match.is_over, winner=match.winner)
    return result


def tile_sum(hand: tuple[Tile, ...]) -> int:
    return sum(tile.high + tile.low for tile in hand)

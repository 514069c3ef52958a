"""``python -m engine suggest``: a computer player's move for a game record (docs/record.md, "Asking a
computer player for a move").

One JSON request a line in, one JSON answer a line out, flushed at once, so a
benchmark or the bot can keep one process open for a whole match::

    {"record": {...}, "seat": 1, "level": "hard", "seed": 7}
    {"tile": "5-3", "end": "left"}

The record is replayed by the engine, and the player is given the
:class:`~engine.observation.Observation` of ``seat`` only, with
``random.Random(seed)``: two records that differ only in what that seat cannot
see get the same answer. The answer names the end for every move but the lead,
which has none (``{"tile": "6-6"}``), just as a play in a record does: add
``"seat"`` and it can be appended to the record's plays. A line that cannot be
answered gets ``{"error": "..."}`` and the process goes on.

>>> import json, random
>>> from engine.match import Match
>>> from engine.record import write_record
>>> from engine.rules import Rules
>>> game = Match.new(Rules.preset("duel"), 2, random.Random(7))
>>> request = {"record": write_record(game), "seat": game.round.turn, "level": "easy", "seed": 1}
>>> answer(request)
{'tile': '5-5'}
>>> answer({"record": write_record(game), "seat": 1 - game.round.turn, "level": "easy", "seed": 1})["error"]
'it is seat 0 to play, not seat 1'
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from engine.errors import RecordError
from engine.errors import RequestError as RequestError  # its home was here
from engine.players import LEVELS, player_for
from engine.record import read_record, replay


def answer(request: Any) -> dict[str, Any]:
    """The answer to one parsed request: ``{"tile": ..., "end": ...}`` or ``{"error": ...}``."""
    try:
        return _suggest(request)
    except RequestError as error:
        return {"error": str(error)}
    except RecordError as error:
        return {"error": f"record: {error}"}


def _suggest(request: Any) -> dict[str, Any]:
    if not isinstance(request, dict):
        raise RequestError("a request is a JSON object with record, seat, level and seed")
    level = request.get("level")
    if level not in LEVELS:
        raise RequestError(f"unknown level {level!r} (known: {', '.join(LEVELS)})")
    seat = request.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RequestError(f"seat must be a whole number, not {seat!r}")
    seed = request.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RequestError(f"seed must be a whole number, not {seed!r}")
    if "record" not in request:
        raise RequestError("the request has no record")
    match = replay(read_record(request["record"]))
    state = match.round
    if not 0 <= seat < match.seats:
        raise RequestError(f"seat {seat} is not one of the {match.seats} seats")
    if state.is_over:
        raise RequestError("the record's last round is over: there is no move to make")
    if state.turn != seat:
        raise RequestError(f"it is seat {state.turn} to play, not seat {seat}")
    move = player_for(level).choose(match.observe(seat), random.Random(seed))
    reply: dict[str, Any] = {"tile": str(move.tile)}
    if move.end is not None:
        reply["end"] = move.end.value
    return reply


def answer_line(line: str) -> dict[str, Any]:
    """The answer to one line of input."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"not JSON: {error}"}
    try:
        return answer(request)
    except Exception as error:  # one bad request must not end a match-long session
        return {"error": f"internal error: {type(error).__name__}: {error}"}


def serve(lines: Iterable[str], out: TextIO) -> None:
    """Answer every line of ``lines`` on ``out``, one JSON line each, flushed at once."""
    for line in lines:
        out.write(json.dumps(answer_line(line)) + "\n")
        out.flush()


def main() -> int:
    serve(iter(sys.stdin.readline, ""), sys.stdout)
    return 0

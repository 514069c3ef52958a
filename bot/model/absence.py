"""People away from the table: a computer plays their seat until they take it back.

A seat goes *away* when its person ran out of time twice in a row, typed /leave, was replaced
with /kick, or blocked the bot (their hand cannot be sent).  The seat keeps its person (their
``user_id``, name and place), so the game, its pictures and its results read as before; only
who decides the moves changes.  These are pure functions of the document; the flows that use
them (locks, messages) are in :mod:`bot.table.manners`.
"""

from __future__ import annotations

from dataclasses import replace

from bot.model.game import Seat, TableDoc
from engine import Match

# Why a seat is away (``Seat.away``).
TIMEOUT = "timeout"
LEFT = "left"
KICKED = "kicked"
BLOCKED = "blocked"
# The reasons a person may undo with "Take my seat back" (a kick is the table's decision).
RETURNABLE = (TIMEOUT, LEFT, BLOCKED)
# Clock run-outs in a row after which a computer takes the seat.
TIMEOUTS_TO_AWAY = 2
# The level a computer plays an away person's seat at.
AWAY_LEVEL = "medium"


def person_at(doc: TableDoc, index: int) -> Seat | None:
    seat = doc.seats[index]
    return seat if seat is not None and seat.user_id is not None else None


def away(doc: TableDoc, index: int, reason: str) -> TableDoc:
    """The person at ``index`` away for ``reason`` (their timeouts counted afresh when they return)."""
    seat = person_at(doc, index)
    if seat is None:
        return doc
    return doc.with_seat(index, replace(seat, away=reason, timeouts=0))


def back(doc: TableDoc, index: int) -> TableDoc:
    """The person at ``index`` plays their seat again."""
    seat = person_at(doc, index)
    if seat is None or (seat.away is None and not seat.timeouts):
        return doc
    return doc.with_seat(index, replace(seat, away=None, timeouts=0))


def everyone_back(doc: TableDoc) -> TableDoc:
    """Every person present and no timeouts counted: a new game (a rematch) starts this way."""
    for index in range(len(doc.seats)):
        doc = back(doc, index)
    return doc


def timed_out(doc: TableDoc, index: int) -> tuple[TableDoc, bool]:
    """Count one run-out of the clock for the person at ``index``; whether a computer now takes the seat."""
    seat = person_at(doc, index)
    if seat is None or seat.away is not None:
        return doc, False
    count = seat.timeouts + 1
    if count >= TIMEOUTS_TO_AWAY:
        return away(doc, index, TIMEOUT), True
    return doc.with_seat(index, replace(seat, timeouts=count)), False


def moved(doc: TableDoc, index: int) -> TableDoc:
    """A move by the person themselves: their run-outs in a row start again from zero."""
    seat = person_at(doc, index)
    if seat is None or not seat.timeouts:
        return doc
    return doc.with_seat(index, replace(seat, timeouts=0))


def away_names(doc: TableDoc) -> list[str]:
    return [seat.name for seat in doc.seats if seat is not None and seat.user_id is not None and seat.away]


def to_move(doc: TableDoc, match: Match, index: int) -> bool:
    """Whether the person at ``index`` is to play now (an away seat's turn belongs to its computer)."""
    state = match.round
    if state.is_over or state.turn != index:
        return False
    seat = doc.seats[index]
    return seat is None or seat.away is None


def present(doc: TableDoc, index: int) -> bool:
    """Whether the seat at ``index`` is played by whoever sits there (not away)."""
    seat = doc.seats[index]
    return seat is None or seat.away is None

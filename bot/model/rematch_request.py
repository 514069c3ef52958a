"""Rematch after a finished game (groups and friend rooms): the request, and how it looks.

The final result message carries a Rematch button.  Every person who played taps it to
confirm; once all have, a new game starts with the same seats and options.  The request lives
in the finished game's document (``GameState.rematch``: :class:`bot.model.game.RematchRequest`), so
it survives a restart; it is cancelled when another game begins in that chat.  The flow (taps,
cancelling, the new game) is :mod:`bot.table.rematch`; this module holds the views of the request
and the rematch's new document, so the presenter can use them.
"""

from __future__ import annotations

from dataclasses import replace

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

import bot.model.absence as absence
from bot.model.game import CANCELLED, STARTED, Game, GameState, RematchRequest, Seat, TableDoc, computer_name
from bot.telegram.callbacks import RematchTap
from bot.words import room_texts

# The kinds of game whose final result offers a rematch (a private game has "Play again").
KINDS = ("group", "room")
CAPTION_LIMIT = 1024


def offered(game: Game) -> bool:
    return game.row.kind in KINDS


def with_request(doc: TableDoc, request: RematchRequest) -> TableDoc:
    return replace(doc, game=replace(doc.game, rematch=request))


def people(doc: TableDoc) -> list[tuple[int, str]]:
    """(user id, name) of every person still at the table: those who must confirm.

    Someone whose seat was given to a computer by the table (/kick) or who blocked the bot is not
    asked; the rematch gives their seat to a computer player."""
    return [
        (seat.user_id, seat.name)
        for seat in doc.seats
        if seat is not None and seat.user_id is not None and _stays(seat)
    ]


def _stays(seat: Seat) -> bool:
    return seat.user_id is not None and seat.away not in (absence.KICKED, absence.BLOCKED)


def everyone_confirmed(doc: TableDoc, request: RematchRequest) -> bool:
    return all(user_id in request.confirmed for user_id, _ in people(doc))


def fresh_doc(doc: TableDoc) -> TableDoc:
    """The same seats and options for a new game, which starts with a fresh :class:`GameState`."""
    level = doc.options.computer_level
    # Everyone who confirmed sits down present again; a seat whose person is gone gets a computer.
    seats: list[Seat | None] = []
    computers = sum(1 for seat in doc.seats if seat is not None and seat.is_computer)
    for seat in doc.seats:
        if seat is None or seat.is_computer:
            seats.append(seat)
        elif _stays(seat):
            seats.append(replace(seat, away=None, timeouts=0))
        else:
            computers += 1
            seats.append(Seat(computer_name(computers, level), level=level))
    return replace(doc, seats=tuple(seats), game=GameState())


def markup(game_id: int, doc: TableDoc, request: RematchRequest) -> InlineKeyboardMarkup | None:
    """Under the final result: Rematch (with how many are in), "no longer open", or nothing once started."""
    if request.state == STARTED:
        return None
    if request.state == CANCELLED:
        text = room_texts.rematch_closed_button()
    else:
        everyone = people(doc)
        text = room_texts.rematch_button(
            sum(1 for user_id, _ in everyone if user_id in request.confirmed), len(everyone)
        )
    button = InlineKeyboardButton(text=text, callback_data=RematchTap(game=game_id).pack())
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def status_line(doc: TableDoc, request: RematchRequest) -> str | None:
    """The caption's last line: who has confirmed, or what became of the request (None: nobody yet)."""
    everyone = people(doc)
    if request.state == STARTED:
        return room_texts.rematch_started_line([name for _, name in everyone])
    if request.state == CANCELLED:
        return room_texts.rematch_closed_line()
    if not request.confirmed:
        return None
    return room_texts.rematch_line([(name, user_id in request.confirmed) for user_id, name in everyone])


def caption(base: str, doc: TableDoc, request: RematchRequest) -> str:
    """The final result's caption with the rematch line under it, within Telegram's limit."""
    line = status_line(doc, request)
    if line is None:
        return base
    room = CAPTION_LIMIT - len(line) - 1
    lines = base.split("\n")
    while len("\n".join(lines)) > room and len(lines) > 1:
        lines.pop()
    return "\n".join(lines)[:room] + "\n" + line

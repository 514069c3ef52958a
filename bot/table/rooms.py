"""Play with a friend without a group: a room (a game of kind "room") and its invitation link.

The creator sits in seat 0 and gets a link ``t.me/<bot>?start=r<game>_<code>``; the code is
random (:func:`new_code`), so nobody finds a room by counting game ids.  The first other
person to open the link takes the second seat and the game is dealt at once; both play in
their private chats, where each hand message shows the table (there is no group board).
While the seat is free the creator may make a new code (the old link then stops working) or
close the room.  The room belongs to the creator's private chat (its ``chat_id``): one game
at a time there, as for a game against the computer.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.model.documents import load_game
from bot.model.game import Game, GameState, Seat, TableDoc
from bot.table.needs import Table
from bot.table.service import TableError, chat_free, short_name
from bot.telegram.callbacks import RoomAction, RoomTap
from bot.telegram.people import Person
from bot.words import hint_texts, room_texts, table_texts, texts
from bot.words.refusals import Notice, Refusal
from engine import Rules
from storage import GameStatus

KIND = "room"
SEATS = 2
PREFIX = "r"
# "r<game id>_<code>": within a deep link's [A-Za-z0-9_-]{1,64}.
PAYLOAD = re.compile(r"^r(\d{1,18})_([A-Za-z0-9_-]{8,40})$")
CODE_BYTES = 12  # 16 characters of base64url
FOLLOW_REMATCHES = 20  # how far an old link follows a chain of rematches to the game now played


def new_code() -> str:
    return secrets.token_urlsafe(CODE_BYTES)


def payload(game: Game) -> str:
    code = game.doc.game.room_code
    assert code is not None
    return f"{PREFIX}{game.id}_{code}"


def parse(text: str) -> tuple[int, str] | None:
    found = PAYLOAD.fullmatch(text)
    return (int(found.group(1)), found.group(2)) if found else None


def presets() -> list[str]:
    """The rule sets a room can be played with: every one that seats two."""
    return [preset for preset in texts.PRESET_TITLES if Rules.preset(preset).min_seats <= SEATS]


# --- views -----------------------------------------------------------------------------------


def presets_markup() -> InlineKeyboardMarkup:
    choices = presets()
    rows = [
        [
            InlineKeyboardButton(
                text=texts.preset_title(preset), callback_data=RoomTap(action=RoomAction.PRESET, preset=preset).pack()
            )
            for preset in choices[i : i + 2]
        ]
        for i in range(0, len(choices), 2)
    ]
    rows.append(
        [InlineKeyboardButton(text=table_texts.back_button(), callback_data=RoomTap(action=RoomAction.BACK).pack())]
    )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def room_markup(game: Game, link: str) -> InlineKeyboardMarkup:
    share = "https://t.me/share/url?" + urlencode({"url": link, "text": room_texts.room_share_text()})
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=room_texts.room_share_button(), url=share)],
            [
                InlineKeyboardButton(
                    text=hint_texts.lobby_hints_button(game.doc.options.hints),
                    callback_data=RoomTap(action=RoomAction.HINTS, game=game.id).pack(),
                )
            ],
            [
                InlineKeyboardButton(
                    text=room_texts.room_new_link_button(),
                    callback_data=RoomTap(action=RoomAction.RESET, game=game.id).pack(),
                ),
                InlineKeyboardButton(
                    text=room_texts.room_cancel_button(),
                    callback_data=RoomTap(action=RoomAction.CANCEL, game=game.id).pack(),
                ),
            ],
        ]
    )


# --- the room's life ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Opened:
    game: Game
    closed: Game | None  # a waiting room of the creator's that the new one replaces


@dataclass(frozen=True)
class Entered:
    """What opening a room link did: ``answer`` is JOINED (the game was dealt: show it),
    SEAT_BACK (the hand was sent again) or ROOM_SEAT_FREE (the creator's own room still waits)."""

    answer: Notice
    game: Game


async def open_room(service: Table, person: Person, preset: str) -> Opened:
    if preset not in presets():  # a partnership preset seats four: a room seats two
        raise TableError(Refusal.ROOM_TWO_SEATS)
    chat_id = person.user_id
    closed = None
    active = await service.db.games.active_in_chat(chat_id)
    if active is not None:
        async with service.locked(active.id) as old:
            if old.row.kind == KIND and old.row.status is GameStatus.PLAYING:
                raise TableError(Refusal.ROOM_RUNNING)
            if old.row.status in (GameStatus.LOBBY, GameStatus.PLAYING):
                row = await service.db.games.save(old.row, status=GameStatus.CANCELLED)
                closed = Game(row, old.doc, old.match) if old.row.kind == KIND else None
    doc = TableDoc(seats=(Seat(short_name(person.name), person.user_id), None), game=GameState(room_code=new_code()))
    with chat_free():
        row = await service.db.games.create(
            chat_id=chat_id,
            kind=KIND,
            status=GameStatus.LOBBY,
            preset=preset,
            creator_id=person.user_id,
            data=doc.to_json(),
        )
    return Opened(load_game(row), closed)


async def enter(service: Table, person: Person, game_id: int, code: str) -> Entered:
    """Someone opened ``r<game_id>_<code>``: the guest takes the free seat, a player gets their seat back."""
    for _ in range(FOLLOW_REMATCHES):
        async with service.locked(game_id) as game:
            if game.row.kind != KIND:
                raise TableError(Refusal.ROOM_UNKNOWN)
            seat = game.doc.seat_of(person.user_id)
            if seat is None:
                return await _take_seat(service, game, person, code)
            if game.row.status is GameStatus.PLAYING:
                await service.presenter.resend_hand(game, seat, person.user_id)
                return Entered(Notice.SEAT_BACK, game)
            if game.row.status is GameStatus.LOBBY:
                return Entered(Notice.ROOM_SEAT_FREE, game)
            if game.row.status is GameStatus.CANCELLED:
                raise TableError(Refusal.ROOM_CLOSED)
            request = game.doc.game.rematch
            if request is None or request.game is None:
                raise TableError(Refusal.ROOM_OWN_GAME_OVER)
            game_id = request.game  # that game's rematch: the seat is there now
    raise TableError(Refusal.ROOM_OWN_GAME_OVER)


async def _take_seat(service: Table, game: Game, person: Person, code: str) -> Entered:
    if game.row.status is GameStatus.CANCELLED:
        raise TableError(Refusal.ROOM_CLOSED)
    room_code = game.doc.game.room_code
    if room_code is None or not secrets.compare_digest(code, room_code):
        raise TableError(Refusal.ROOM_OLD_LINK)
    free = [index for index, seat in enumerate(game.doc.seats) if seat is None]
    if game.row.status is not GameStatus.LOBBY or not free:
        raise TableError(Refusal.ROOM_TAKEN)
    doc = game.doc.with_seat(free[0], Seat(short_name(person.name), person.user_id))
    return Entered(Notice.JOINED, await service.deal(Game(game.row, doc, None)))


async def reset(service: Table, person: Person, game_id: int) -> Game:
    """A new code while the second seat is free: the old link stops working."""
    async with service.locked(game_id) as game:
        _require_waiting(game, person)
        state = replace(game.doc.game, room_code=new_code())
        return await service.documents.save(game, replace(game.doc, game=state))


async def switch_hints(service: Table, person: Person, game_id: int) -> Game:
    """💡 on the room's message (its creator, while the second seat is free): hints on or off."""
    async with service.locked(game_id) as game:
        _require_waiting(game, person)
        options = replace(game.doc.options, hints=not game.doc.options.hints)
        return await service.documents.save(game, replace(game.doc, options=options))


async def close(service: Table, person: Person, game_id: int) -> Game:
    async with service.locked(game_id) as game:
        _require_waiting(game, person)
        row = await service.db.games.save(game.row, status=GameStatus.CANCELLED)
        return Game(row, game.doc, None)


def _require_waiting(game: Game, person: Person) -> None:
    if game.row.kind != KIND:
        raise TableError(Refusal.ROOM_UNKNOWN)
    if person.user_id != game.row.creator_id:
        raise TableError(Refusal.CREATOR_ONLY)
    if game.row.status is not GameStatus.LOBBY or all(seat is not None for seat in game.doc.seats):
        raise TableError(Refusal.LOBBY_CLOSED)

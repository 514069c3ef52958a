"""A private game against the computer: dealing it at once, its computers' names and seats, and
the level row under it, which changes the computers' level mid-game.

Like the other satellites it gets the game service as a :class:`~bot.table.needs.Table`.
"""

from __future__ import annotations

from dataclasses import replace

from bot.model.game import DEFAULT_LEVEL, Game, Seat, TableDoc, TableOptions
from bot.table.needs import Table
from bot.table.service import TableError, chat_free, require_level, short_name
from bot.telegram.people import Person
from bot.words import texts
from bot.words.refusals import Refusal
from engine import Rules
from storage import GameStatus

KIND = "private"


def solo_computer_name(index: int, opponents: int) -> str:
    """A private game's computer seat: "🤖 Computer", or "🤖 Computer 2" among several."""
    return f"🤖 {texts.COMPUTER_WORD}" if opponents == 1 else f"🤖 {texts.COMPUTER_WORD} {index}"


def solo_team_seats(level: str) -> list[Seat]:
    """A private partnership game's computers: opponent, partner (opposite the person, seat 2), opponent."""
    partner = Seat(texts.PARTNER_NAME, level=level)  # shown as its level: "Your partner: 🤖 Medium"
    return [Seat(solo_computer_name(1, 2), level=level), partner, Seat(solo_computer_name(2, 2), level=level)]


def with_computer_level(doc: TableDoc, level: str) -> TableDoc:
    """Every computer seat at ``level``; names, people and the record stay as they are."""
    seats = tuple(replace(seat, level=level) if seat and seat.is_computer else seat for seat in doc.seats)
    return replace(doc, seats=seats, options=replace(doc.options, computer_level=level))


async def open_solo(
    table: Table, chat_id: int, person: Person, preset: str, opponents: int, level: str = DEFAULT_LEVEL
) -> Game:
    """Deal a game of ``person`` against ``opponents`` computers of ``level`` in their private chat,
    and show it. The chat's open game gives way, unless a friend is playing its room."""
    require_level(level)
    rules = Rules.preset(preset)
    seats_count = opponents + 1
    rules.check_seats(seats_count)
    active = await table.db.games.active_in_chat(chat_id)
    if active is not None:
        async with table.locked(active.id) as old:
            if old.row.kind == "room" and old.row.status is GameStatus.PLAYING:
                raise TableError(Refusal.ROOM_RUNNING)
            if old.row.status in (GameStatus.LOBBY, GameStatus.PLAYING):
                await table.db.games.save(old.row, status=GameStatus.CANCELLED)
    seats = [Seat(short_name(person.name), person.user_id)] + [
        Seat(solo_computer_name(i, opponents), level=level) for i in range(1, seats_count)
    ]
    if rules.has_teams:  # a computer partner opposite the person, two computer opponents
        seats = [seats[0], *(solo_team_seats(level))]
    with chat_free():
        row = await table.db.games.create(
            chat_id=chat_id,
            kind=KIND,
            status=GameStatus.LOBBY,
            preset=preset,
            creator_id=person.user_id,
            data=TableDoc(seats=tuple(seats), options=TableOptions(computer_level=level)).to_json(),
        )
    async with table.locked(row.id) as game:
        game = await table.deal(game)
    return await table.show(game)


async def set_computer_level(table: Table, game_id: int, user_id: int, level: str) -> Game | None:
    """In a private game, every computer plays at ``level`` from its next move on.

    Only the seats change: hands, line, scores and the record stay exactly as they were.
    Returns the committed game, or None when the computers already play at ``level``;
    call the service's ``refresh_hand`` afterwards to show it.
    """
    require_level(level)
    async with table.locked(game_id) as game:
        if game.doc.seat_of(user_id) is None:
            raise TableError(Refusal.NOT_YOUR_GAME)
        if game.row.kind != KIND:
            raise TableError(Refusal.LEVEL_PRIVATE_ONLY)
        if game.row.status is not GameStatus.PLAYING or game.match is None or game.match.is_over:
            raise TableError(Refusal.NO_GAME)
        computers = [seat for seat in game.doc.seats if seat and seat.is_computer]
        if all(seat.level == level for seat in computers):
            return None
        # The game keeps its wake-up (none on a turn without a clock): this instance shows the
        # change at once, and no other is to take the game over for it.
        return await table.documents.save(game, with_computer_level(game.doc, level), wake_at=game.row.wake_at)

"""A group's lobby: opening it, its verbs (sit down, change teams, leave, computers, seats, clock,
hints, cancel, start) and keeping its message in step with it.

Each verb follows the table's one path: the game under its lock, checked, committed (version-checked);
the caller shows it (:func:`refresh_lobby`). It is given the game service as a
:class:`~bot.table.needs.Table`: what the table's satellites use of it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.display import captions, keyboards
from bot.display.names import shown_names
from bot.model.clock import clock_seconds, next_clock
from bot.model.documents import load_game
from bot.model.game import DEFAULT_LEVEL, Game, Seat, TableDoc, TableOptions, computer_name
from bot.table.needs import Table
from bot.table.service import TableError, chat_free, require_level, short_name
from bot.telegram.people import Person
from bot.words import team_texts, texts
from bot.words.refusals import Refusal
from engine import Rules
from engine.players import LEVELS
from storage import GameRow, GameStatus

log = logging.getLogger(__name__)


class GameRunning(TableError):
    """/new where a game is open already: ``running`` is that game, to point at."""

    def __init__(self, running: GameRow) -> None:
        super().__init__(Refusal.GAME_RUNNING)
        self.running = running


# --- the lobby's verbs -----------------------------------------------------------------------


async def open_lobby(
    table: Table,
    chat_id: int,
    creator: Person,
    preset: str,
    *,
    seats: int | None = None,
    level: str = DEFAULT_LEVEL,
    clock: int | None = None,
) -> Game:
    """A group lobby with ``seats`` seats (default: as many as the rules allow), free seats
    for ``level`` computers and ``clock`` seconds a move (None: the default; 0: no clock),
    as the chat's defaults say (bot/model/chat_defaults.py)."""
    running = await table.db.games.active_in_chat(chat_id)
    if running is not None:
        raise GameRunning(running)
    require_level(level)
    rules = Rules.preset(preset)
    count = rules.max_seats if seats is None else min(max(seats, rules.min_seats), rules.max_seats)
    places: list[Seat | None] = [None] * count
    if creator.private_ok:
        places[0] = Seat(short_name(creator.name), creator.user_id)
    options = TableOptions(computer_level=level, clock=clock, creator=short_name(creator.name))
    doc = TableDoc(seats=tuple(places), options=options)
    with chat_free():
        row = await table.db.games.create(
            chat_id=chat_id,
            kind="group",
            status=GameStatus.LOBBY,
            preset=preset,
            creator_id=creator.user_id,
            data=doc.to_json(),
        )
    return load_game(row)


async def set_lobby_message(table: Table, game: Game, message_id: int) -> Game:
    """``message_id`` stored as the message showing the lobby (a friend room's too)."""
    async with table.locked(game.id) as fresh:
        state = replace(fresh.doc.game, lobby_message=message_id)
        return await table.documents.save(fresh, replace(fresh.doc, game=state))


async def join(table: Table, game_id: int, person: Person, team: int | None = None) -> Game:
    """Seat ``person`` at the first free seat; in a partnership lobby, with ``team`` (0 or 1) when
    given: a person already seated with the other team moves over to a free seat of this one."""
    game, _ = await join_team(table, game_id, person, team)
    return game


async def join_team(table: Table, game_id: int, person: Person, team: int | None) -> tuple[Game, bool]:
    """:func:`join`, and whether the person changed teams (rather than sat down)."""
    async with table.locked(game_id) as game:
        require_lobby(game)
        rules = Rules.preset(game.row.preset)
        seats = game.doc.seats
        if team is not None and (not rules.has_teams or len(seats) != rules.max_seats):
            raise TableError(Refusal.NO_TEAMS)
        current = game.doc.seat_of(person.user_id)
        if current is not None and (team is None or rules.side_of(current) == team):
            raise TableError(Refusal.SEAT_TAKEN if team is None else Refusal.SAME_TEAM)
        if current is None and not person.private_ok:
            raise TableError(Refusal.NEED_PRIVATE)
        wanted = range(len(seats)) if team is None else rules.sides(len(seats))[team]
        free = [i for i in wanted if seats[i] is None]
        if not free:
            raise TableError(Refusal.LOBBY_FULL if team is None else Refusal.TEAM_FULL)
        doc = game.doc
        if current is not None:  # changing teams: the seat keeps its person, name and all
            seat = seats[current]
            doc = doc.with_seat(current, None)
        else:
            seat = Seat(short_name(person.name), person.user_id)
        return await table.documents.save(game, doc.with_seat(free[0], seat)), current is not None


async def leave(table: Table, game_id: int, person: Person) -> Game:
    async with table.locked(game_id) as game:
        require_lobby(game)
        seat = game.doc.seat_of(person.user_id)
        if seat is None:
            raise TableError(Refusal.NOT_SEATED)
        return await table.documents.save(game, game.doc.with_seat(seat, None))


async def add_computer(table: Table, game_id: int, person: Person, level: str | None = None) -> Game:
    """Seat a computer of ``level`` (default: the lobby's last choice), which Start then uses too."""
    async with table.locked(game_id) as game:
        require_lobby(game)
        require_creator(game, person)
        level = game.doc.options.computer_level if level is None else level
        require_level(level)
        free = [i for i, seat in enumerate(game.doc.seats) if seat is None]
        if not free:
            raise TableError(Refusal.LOBBY_FULL)
        computers = sum(1 for seat in game.doc.seats if seat and seat.is_computer)
        doc = game.doc.with_seat(free[0], Seat(computer_name(computers + 1, level), level=level))
        return await table.documents.save(game, replace(doc, options=replace(doc.options, computer_level=level)))


async def change_options(
    table: Table, game_id: int, person: Person, change: Callable[[TableDoc], TableOptions]
) -> Game:
    """A lobby button that sets an option (the clock, hints): its creator only, while it is open.
    ``change`` gives the table's new options from its document."""
    async with table.locked(game_id) as game:
        require_lobby(game)
        require_creator(game, person)
        return await table.documents.save(game, replace(game.doc, options=change(game.doc)))


async def cycle_clock(table: Table, game_id: int, person: Person) -> Game:
    """The lobby's clock button (creator only): off -> 30 -> 60 -> 120 s -> off."""
    return await change_options(
        table, game_id, person, lambda doc: replace(doc.options, clock=next_clock(clock_seconds(doc, "group")))
    )


async def switch_hints(table: Table, game_id: int, person: Person) -> Game:
    """The lobby's 💡 button (its creator only): hints on or off for the game about to start."""
    return await change_options(table, game_id, person, lambda doc: replace(doc.options, hints=not doc.options.hints))


async def cycle_seats(table: Table, game_id: int, person: Person) -> Game:
    """Seats 2 -> 3 -> 4 -> 2 within the preset's range; a seat is removed only when it is free."""
    async with table.locked(game_id) as game:
        require_lobby(game)
        require_creator(game, person)
        rules = Rules.preset(game.row.preset)
        seats = list(game.doc.seats)
        if rules.min_seats == rules.max_seats == len(seats):
            return game  # a fixed table (duel, goat): nothing to change, and nobody moves seat
        count = len(seats) + 1 if len(seats) < rules.max_seats else rules.min_seats
        taken = [seat for seat in seats if seat is not None]
        if count < len(taken):
            count = len(taken) if len(taken) >= rules.min_seats else rules.min_seats
        new = taken + [None] * (count - len(taken))
        return await table.documents.save(game, replace(game.doc, seats=tuple(new)))


async def cancel(table: Table, game_id: int, person: Person) -> Game:
    async with table.locked(game_id) as game:
        require_lobby(game)
        require_creator(game, person)
        row = await table.db.games.save(game.row, status=GameStatus.CANCELLED)
        return Game(row, game.doc, None)


async def start(
    table: Table, game_id: int, person: Person, *, answered: Callable[[], Awaitable[object]] | None = None
) -> Game:
    """Start: the lobby dealt (:func:`deal_lobby`; a refusal raises before anything changes), then
    ``answered`` (the tap's answer goes before the pictures are drawn and sent), then shown."""
    game = await deal_lobby(table, game_id, person)
    if answered is not None:
        await answered()
    return await table.show(game)


async def deal_lobby(table: Table, game_id: int, person: Person) -> Game:
    """Fill the free seats with computers and deal (committed, not shown yet)."""
    async with table.locked(game_id) as game:
        require_lobby(game)
        require_creator(game, person)
        if not any(seat and not seat.is_computer for seat in game.doc.seats):
            raise TableError(Refusal.NOT_SEATED)
        doc = game.doc
        level = doc.options.computer_level if doc.options.computer_level in LEVELS else DEFAULT_LEVEL
        computers = sum(1 for seat in doc.seats if seat and seat.is_computer)
        seats = list(doc.seats)
        for index, seat in enumerate(seats):
            if seat is None:
                computers += 1
                seats[index] = Seat(computer_name(computers, level), level=level)
        return await table.deal(Game(game.row, replace(doc, seats=tuple(seats)), None))


def require_lobby(game: Game) -> None:
    # A group's lobby only: a friend room waiting for its friend is entered with its secret
    # link (bot/table/rooms.py), never with a lobby button or "/start j<id>" naming its id.
    if game.row.status is not GameStatus.LOBBY or game.row.kind != "group":
        raise TableError(Refusal.LOBBY_CLOSED)


def require_creator(game: Game, person: Person) -> None:
    if person.user_id != game.row.creator_id:
        raise TableError(Refusal.CREATOR_ONLY)


# --- its message -----------------------------------------------------------------------------


async def refresh_lobby(table: Table, game: Game) -> None:
    """Show the lobby of ``game`` as it is stored now.

    An open lobby is read and shown under its lock: two changes made at once (Bob and Cat tap
    Join together, on two instances) are then shown in the order they were committed, so an
    edit carrying the older lobby cannot land last and hide a seat. A lobby that has ended
    (started, cancelled) is shown as it is: its text no longer changes."""
    if game.row.status is GameStatus.LOBBY:
        try:
            async with table.locked(game.id) as fresh:
                await _show_if_known(table, fresh)
        except TableError:
            return  # gone or closed meanwhile: whoever ended it shows it
        return
    await _show_if_known(table, game)


async def remember_lobby_message(table: Table, drawn: Game, message_id: int) -> Game:
    """Store ``message_id`` as the lobby's message, drawn from ``drawn``. A change that came while
    it was being sent (a Join tapped the moment the message appeared) found no message to show
    itself in, so the message is brought up to date."""
    saved = await set_lobby_message(table, drawn, message_id)
    if saved.row.version > drawn.row.version + 1:  # one save is ours: any other came in between
        await refresh_lobby(table, saved)
    return saved


async def _show_if_known(table: Table, game: Game) -> None:
    message_id = game.doc.game.lobby_message
    if message_id is None:
        return  # its message is being sent: remember_lobby_message shows the change
    async with table.presenter.languages.speaking_to(game.row.chat_id):
        await _show_lobby(table, game, message_id)


async def _show_lobby(table: Table, game: Game, message_id: int) -> None:
    outbox = table.outbox
    if game.row.status is GameStatus.LOBBY:
        await outbox.edit_text(game.row.chat_id, message_id, captions.lobby_text(game), keyboards.lobby_markup(game))
    elif game.row.status is GameStatus.CANCELLED:
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(texts.game_cancelled()))
    elif game.row.status is GameStatus.CLOSED:
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(Refusal.IDLE_CLOSED.text))
    elif (rules := Rules.preset(game.row.preset)).has_teams and len(game.doc.seats) == rules.max_seats:
        names = shown_names(game.doc.seats)  # who plays with whom
        started = team_texts.game_started([[names[seat] for seat in side] for side in rules.sides(len(names))])
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(started))
    else:
        started = texts.game_started(shown_names(game.doc.seats))
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(started))


# Lobbies changed this long before a start-up are shown again by it (older ones are as they were).
RECENT_LOBBY_SECONDS = 3600.0


async def show_recent_lobbies(table: Table, now: float) -> int:
    """At start-up: every lobby changed lately is shown as stored, since a change committed just
    before the bot stopped (a seat, a computer, the clock) may not have reached its message, and
    that tap, delivered again, changes nothing more (bot/telegram/middlewares.py). Returns how many."""
    shown = 0
    for row in await table.db.games.with_status(GameStatus.LOBBY):
        if row.updated_at < now - RECENT_LOBBY_SECONDS:
            continue
        try:
            await refresh_lobby(table, load_game(row))
            shown += 1
        except Exception:
            log.exception("lobby %s could not be shown", row.id)
    return shown

"""A stored game as the bot sees it: the table (its options and seats), the game being played at it,
and the engine record that game is rebuilt from.

The JSON document in ``games.data`` is this module's :class:`TableDoc`: the table's options
(:class:`TableOptions`), its seats, and the state of one game (:class:`GameState`: the record, the
Telegram messages that show it, its clock and its rematch request).  A rematch is the same options
and seats with a fresh :class:`GameState`.  The match itself is rebuilt from the engine record
(records are the single source of truth for play).

The stored shape is one flat JSON object, as it has always been: ``"v"`` (the shape's version),
``"seats"``, and the keys of :class:`TableOptions` and :class:`GameState` side by side.  Keeping it
flat lets every reader of the JSON (an older instance during a deploy, the tests and benches that
read the database, a query by hand) find its keys where they always were.  A document without
``"v"`` was written before there was one (version 1) and is migrated as it is loaded
(:data:`MIGRATIONS`).  A key this code does not know is ignored, as it always was, so a key added
with a default needs no new version; a key whose meaning changes does, with a migration.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass as plain_dataclass
from dataclasses import field, fields, replace
from typing import Any, Final, Literal, NamedTuple

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.dataclasses import dataclass

from engine import Match, write_record
from storage import GameRow

# The level of a computer seat nobody chose one for (engine.players.LEVELS).
DEFAULT_LEVEL = "medium"

# The stored document's shape: written into every document as "v".
VERSION: Final = 2

# Every part of the stored document: frozen (changed with dataclasses.replace, which validates
# again), and a key this code does not know is left out rather than refused (see the docstring).
STORED = ConfigDict(extra="ignore")


class DocumentError(ValueError):
    """A stored game document that cannot be read: not a table's document, or of an unknown version."""


@dataclass(frozen=True, config=STORED)
class Seat:
    """A person (``user_id``) or a computer player (``level``) at the table.

    A person's seat can be *away* (bot/model/absence.py): a computer plays it, the seat stays theirs.
    ``away`` says why ("timeout", "left", "kicked", "blocked"); ``timeouts`` counts the turns in
    a row the clock ran out on them.  The name a reader sees is the display's
    (:func:`bot.display.names.shown_name`): a computer's made-up name is said in their language.
    """

    name: str
    user_id: int | None = None
    level: str | None = None
    # Stored only when set, as before: most seats are present and have never run out of time.
    away: str | None = Field(default=None, exclude_if=lambda value: value is None)
    timeouts: int = Field(default=0, exclude_if=lambda value: value == 0)

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def computer_plays(self) -> bool:
        """A computer player, or a person's seat a computer plays while they are away."""
        return self.user_id is None or self.away is not None


class HandMessage(NamedTuple):
    """A player's hand message in their private chat, and the turn it was sent new for.

    Stored as ``[message_id, turn_key]``."""

    message_id: int
    turn_key: str


class EndQuestion(NamedTuple):
    """A "which end?" question a seat was asked and has not answered: the tile (its button's code,
    "63") and the turn (:func:`turn_number`) it was asked at. Stored as ``[turn, tile]``."""

    turn: int
    tile: str


# What became of a rematch request (bot/model/rematch_request.py).
RematchState = Literal["open", "started", "cancelled"]
OPEN: Final = "open"
STARTED: Final = "started"
CANCELLED: Final = "cancelled"


@dataclass(frozen=True, config=STORED)
class RematchRequest:
    """A finished game's rematch: who has confirmed, where the result messages are, what became of it."""

    messages: tuple[tuple[int, int], ...] = ()  # (chat id, message id) of each final result
    confirmed: tuple[int, ...] = ()  # user ids, in the order they tapped
    state: RematchState = OPEN
    game: int | None = None  # the new game, once started

    @property
    def is_open(self) -> bool:
        return self.state == OPEN


@dataclass(frozen=True, config=STORED)
class TableOptions:
    """How the table plays, whichever game is on it: a rematch keeps these."""

    # The level last chosen for a computer here: Start gives it to the free seats.
    computer_level: str = DEFAULT_LEVEL
    # Seconds a person has per move (bot/model/clock.py): 0 is off, None the default for the kind of game.
    clock: int | None = None
    # The name of whoever set the table up, as Telegram gave it with their /new: the lobby says who
    # started it even while they have no seat (they have not opened the bot yet).  None in documents
    # written before it was kept, and then not stored: such a document is saved as it was.
    creator: str | None = Field(default=None, exclude_if=lambda value: value is None)
    # Hints (💡 under a hand) in a group or friend game, as its creator chose in the lobby; a
    # private game against the computer always has them. Not stored while off, as before.
    hints: bool = Field(default=False, exclude_if=lambda value: not value)


# A run-out of the clock to tell its person of: (seat, turn, the seat went away).
Notice = tuple[int, int, bool]


@dataclass(frozen=True, config=STORED)
class GameState:
    """One game at the table, from its lobby to its result: a rematch starts with a fresh one.

    A new per-game field (a message, a counter, a deadline) belongs here; a new option in
    :class:`TableOptions`."""

    # The engine record (engine.write_record), once dealt.
    record: dict[str, Any] | None = None
    lobby_message: int | None = None
    board_message: int | None = None
    board_round: int = -1
    hands: dict[int, HandMessage] = field(default_factory=dict)
    results_posted: int = 0
    # The chats (chat id, message id) that already have the result of round ``results_posted``,
    # while it goes out to several (a friend room's two private chats): each is stored as soon as
    # it is sent, so a restart in the middle sends it only to the chats still without it.  Not
    # stored when empty, as documents before it had none.
    results_sent: tuple[tuple[int, int], ...] = Field(default=(), exclude_if=lambda value: not value)
    # A friend room's invitation code (kind "room"; bot/table/rooms.py), while its second seat is free.
    room_code: str | None = None
    # The finished game's rematch request (bot/model/rematch_request.py).
    rematch: RematchRequest | None = None
    # When the person to move runs out of time (epoch seconds), and the turn (turn_number) it is for.
    deadline: float | None = None
    deadline_turn: int | None = None
    # Ended with /kill (its status is then "cancelled").
    killed: bool = False
    # Run-outs of the clock whose notices are not sent yet, as (seat, turn, the seat went away):
    # committed with the clock's move, so that another instance sends them should this one die.
    owed: tuple[Notice, ...] = ()
    # Until when a payer (bot/table/manners.py pay_owed) is sending them: nobody else sends them meanwhile.
    owed_claimed_until: float | None = None
    # The seats that asked for a hint: the game is marked so and rated nowhere (bot/table/hints.py).
    hinted: tuple[int, ...] = Field(default=(), exclude_if=lambda value: not value)
    # The "which end?" question each seat was asked and has not answered: every redraw of that hand
    # (a wake-up, a restart) asks it again until it is answered, "back" is tapped or the turn moves
    # on (bot/display/keyboards.py current_hand_markup). Not stored when empty.
    asked: dict[int, EndQuestion] = Field(default_factory=dict, exclude_if=lambda value: not value)


@dataclass(frozen=True, config=STORED)
class TableDoc:
    """A table: its seats and options, and the game being played at it."""

    seats: tuple[Seat | None, ...]
    options: TableOptions = field(default_factory=TableOptions)
    game: GameState = field(default_factory=GameState)

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> TableDoc:
        """The document stored in ``games.data``, of any version (migrated); :class:`DocumentError` if broken."""
        if not isinstance(data, Mapping):
            raise DocumentError(f"a game document is a JSON object, not {type(data).__name__}")  # i18n: not shown
        version = data.get("v", 1)
        if version != VERSION:
            data = migrate(data, version)
        nested = {
            "seats": data.get("seats"),
            "options": {key: data[key] for key in _OPTION_KEYS if key in data},
            "game": {key: data[key] for key in _GAME_KEYS if key in data},
        }
        try:
            return _DOC.validate_python(nested)
        except ValidationError as error:
            raise DocumentError(f"not a readable game document: {_problems(error)}") from error  # i18n: not shown

    def to_json(self) -> dict[str, Any]:
        """The document to store: flat, with its version (see the module's docstring)."""
        # The record is JSON already (engine.write_record, or as it was read): stored as it is, as
        # before, rather than walked through on every save.
        dumped = _DOC.dump_python(self, mode="json", exclude=_RECORD)
        return {
            "v": VERSION,
            "seats": dumped["seats"],
            **dumped["options"],
            "record": self.game.record,
            **dumped["game"],
        }

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id:
                return index
        return None

    def with_seat(self, index: int, seat: Seat | None) -> TableDoc:
        seats = list(self.seats)
        seats[index] = seat
        return replace(self, seats=tuple(seats))


_DOC = TypeAdapter(TableDoc)
_RECORD: Final = {"game": {"record"}}
_OPTION_KEYS = tuple(item.name for item in fields(TableOptions))
_GAME_KEYS = tuple(item.name for item in fields(GameState))


def _problems(error: ValidationError) -> str:
    """What is wrong, by the stored keys ("seats.0.name", "hands.1"), without the values (names of people)."""
    found = []
    for problem in error.errors(include_url=False, include_input=False):
        where = [str(part) for part in problem["loc"]]
        if where and where[0] in ("options", "game"):  # stored side by side with the seats
            where = where[1:]
        found.append(f"{'.'.join(where) or 'the document'}: {problem['msg']}")  # i18n: not shown
    return "; ".join(found)


def _from_v1(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """Version 1 (no "v"; written until the document had typed parts): the same keys as version 2.

    Its seats store ``away`` and ``timeouts`` only when set, its hands as ``[message_id, turn_key]``,
    its rematch request as an object, its owed notices as ``[seat, turn, went_away]``: all as
    version 2 does.  A key that a document from before rooms, rematches, levels or clocks lacks
    gets its default."""
    return data


# How a document of each older version becomes one of the next version.
MIGRATIONS: dict[int, Callable[[Mapping[str, Any]], Mapping[str, Any]]] = {1: _from_v1}


def migrate(data: Mapping[str, Any], version: object) -> Mapping[str, Any]:
    """A document of an older ``version`` brought up to :data:`VERSION`, one version at a time."""
    if type(version) is not int or not 1 <= version < VERSION:
        readable = f"this code reads 1 to {VERSION}"  # i18n: not shown
        raise DocumentError(f"a game document of version {version!r}: {readable}")  # i18n: not shown
    for step in range(version, VERSION):
        data = MIGRATIONS[step](data)
    return data


@plain_dataclass(frozen=True)
class Game:
    """A game row, its document and (once dealt) its match."""

    row: GameRow
    doc: TableDoc
    match: Match | None

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def offers_hints(self) -> bool:
        """💡 under a hand: always against the computer in private, else as the lobby chose."""
        return self.row.kind == "private" or self.doc.options.hints


def record_of(match: Match) -> dict[str, Any]:
    return write_record(match)


def turn_number(match: Match) -> int:
    """Changes with every play and every new round: what a tile button's ``version`` must match."""
    return sum(len(state.plays()) for state in match.rounds) + len(match.rounds)


def turn_key(match: Match) -> str:
    return f"{len(match.rounds) - 1}:{turn_number(match)}"


def computer_name(index: int, level: str) -> str:
    """A group's computer seat, named with its level ("🤖 Hard 2"), which is fixed in the lobby.

    A name is given once and kept for the whole game: captions, pictures and round results
    all say it, so it may only carry what cannot change.  A private game's level can change
    mid-game, so its computers are named without it (:func:`solo_computer_name`) and the level
    is shown on a row of buttons under the game instead.
    """
    return f"🤖 {level.capitalize()} {index}"

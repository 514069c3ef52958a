"""A stored game as the bot sees it: seats, the engine record, and the Telegram messages that show it.

The JSON document in ``games.data`` is this module's :class:`TableDoc`; the match itself is
rebuilt from the engine record it holds (records are the single source of truth for play).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine import Match, read_record, replay, write_record
from storage import GameRow

# The level of a computer seat nobody chose one for (engine.players.LEVELS).
DEFAULT_LEVEL = "medium"


@dataclass(frozen=True)
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
    away: str | None = None
    timeouts: int = 0

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def computer_plays(self) -> bool:
        """A computer player, or a person's seat a computer plays while they are away."""
        return self.user_id is None or self.away is not None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "user_id": self.user_id, "level": self.level}
        if self.away is not None:
            data["away"] = self.away
        if self.timeouts:
            data["timeouts"] = self.timeouts
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        return Seat(
            name=str(data["name"]),
            user_id=data.get("user_id"),
            level=data.get("level"),
            away=data.get("away"),
            timeouts=int(data.get("timeouts", 0)),
        )


@dataclass(frozen=True)
class HandMessage:
    """A player's hand message in their private chat, and the turn it was sent new for."""

    message_id: int
    turn_key: str


@dataclass(frozen=True)
class TableDoc:
    seats: tuple[Seat | None, ...]
    record: dict[str, Any] | None = None
    lobby_message: int | None = None
    board_message: int | None = None
    board_round: int = -1
    hands: dict[int, HandMessage] = field(default_factory=dict)
    results_posted: int = 0
    # The level last chosen for a computer here: Start gives it to the free seats.
    computer_level: str = DEFAULT_LEVEL
    # A friend room's invitation code (kind "room"; bot/table/rooms.py), while its second seat is free.
    room_code: str | None = None
    # A finished game's rematch request (bot/model/rematch_request.py: RematchRequest as JSON).
    rematch: dict[str, Any] | None = None
    # Seconds a person has per move (bot/model/clock.py): 0 is off, None the default for the kind of game.
    clock: int | None = None
    # When the person to move runs out of time (epoch seconds), and the turn (turn_number) it is for.
    deadline: float | None = None
    deadline_turn: int | None = None
    # Ended with /kill (its status is then "cancelled").
    killed: bool = False
    # Run-outs of the clock whose notices are not sent yet, as (seat, turn, the seat went away):
    # committed with the clock's move, so that another instance sends them should this one die.
    owed: tuple[tuple[int, int, bool], ...] = ()
    # Until when a payer (bot/table/manners.py pay_owed) is sending them: nobody else sends them meanwhile.
    owed_claimed_until: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": [seat.to_json() if seat else None for seat in self.seats],
            "record": self.record,
            "lobby_message": self.lobby_message,
            "board_message": self.board_message,
            "board_round": self.board_round,
            "hands": {str(seat): [hand.message_id, hand.turn_key] for seat, hand in self.hands.items()},
            "results_posted": self.results_posted,
            "computer_level": self.computer_level,
            "room_code": self.room_code,
            "rematch": self.rematch,
            "clock": self.clock,
            "deadline": self.deadline,
            "deadline_turn": self.deadline_turn,
            "killed": self.killed,
            "owed": [list(notice) for notice in self.owed],
            "owed_claimed_until": self.owed_claimed_until,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> TableDoc:
        return TableDoc(
            seats=tuple(Seat.from_json(seat) if seat else None for seat in data["seats"]),
            record=data.get("record"),
            lobby_message=data.get("lobby_message"),
            board_message=data.get("board_message"),
            board_round=data.get("board_round", -1),
            hands={int(seat): HandMessage(int(value[0]), str(value[1])) for seat, value in data["hands"].items()},
            results_posted=data.get("results_posted", 0),
            computer_level=data.get("computer_level", DEFAULT_LEVEL),
            room_code=data.get("room_code"),
            rematch=data.get("rematch"),
            clock=data.get("clock"),
            deadline=data.get("deadline"),
            deadline_turn=data.get("deadline_turn"),
            killed=bool(data.get("killed", False)),
            owed=tuple((int(seat), int(turn), bool(away)) for seat, turn, away in data.get("owed", ())),
            owed_claimed_until=data.get("owed_claimed_until"),
        )

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id:
                return index
        return None

    def with_seat(self, index: int, seat: Seat | None) -> TableDoc:
        seats = list(self.seats)
        seats[index] = seat
        return replace(self, seats=tuple(seats))


# The TableDoc fields that belong to one game being played, not to the table's set-up (its
# options): a rematch starts these afresh and copies every other field.  A new per-game field
# (a message, a counter, a deadline) belongs here; a new option does not.
GAME_STATE_FIELDS = frozenset(
    {"record", "lobby_message", "board_message", "board_round", "hands", "results_posted", "room_code", "rematch"}
    | {"deadline", "deadline_turn", "killed", "owed", "owed_claimed_until"}
)


@dataclass(frozen=True)
class Game:
    """A game row, its document and (once dealt) its match."""

    row: GameRow
    doc: TableDoc
    match: Match | None

    @property
    def id(self) -> int:
        return self.row.id


# The last match of each game, by version: a move then costs no replay of the record.
_MATCH_CACHE: dict[tuple[int, int], Match] = {}


def load_game(row: GameRow) -> Game:
    """Rebuild the match from the stored record, unless this very version was just saved."""
    doc = TableDoc.from_json(row.data)
    match = None
    if doc.record is not None:
        match = _MATCH_CACHE.get((row.id, row.version))
        if match is None:
            match = replay(read_record(doc.record))
    return Game(row, doc, match)


def remember(row: GameRow, match: Match | None) -> None:
    """Cache the match of a version that has just been written."""
    if match is None:
        return
    if len(_MATCH_CACHE) > 4096:
        _MATCH_CACHE.clear()
    _MATCH_CACHE[(row.id, row.version)] = match


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

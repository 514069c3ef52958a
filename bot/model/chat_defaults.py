"""A chat's defaults for new games, which its administrators set with /settings.

Stored in the chat's row (``chats.settings`` JSON and ``chats.language``; storage/chats.py).
What is stored is checked on the way out: an unknown or out-of-date value falls back to the
default, so an old row can never break /new.

Readers use :func:`chat_defaults`: ``/new`` takes the rule set, seats and computer level from it,
the lobby its turn clock (``turn_seconds``; 0 means no clock).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.model.game import DEFAULT_LEVEL
from bot.words import texts
from engine import Rules
from engine.players import LEVELS
from storage import ChatRow, Database

DEFAULT_PRESET = "draw"
TURN_CHOICES: tuple[int, ...] = (0, 30, 60, 120)  # seconds a turn; 0: no clock
DEFAULT_TURN_SECONDS = 60
LANGUAGES: tuple[str, ...] = ("en", "ru", "uk")
DEFAULT_LANGUAGE = "en"

# The settings a tap can change: the name in callback data -> the key in ``chats.settings``.
KEYS = ("preset", "seats", "level", "clock", "lang")
# The settings kept in ``chats.settings``: the name in callback data -> the key there (= the field of ChatDefaults).
STORED_FIELDS = {"preset": "preset", "seats": "seats", "level": "level", "clock": "turn_seconds"}


@dataclass(frozen=True)
class ChatDefaults:
    """What a new game in the chat starts with."""

    preset: str = DEFAULT_PRESET
    seats: int | None = None  # None: as many as the rule set allows
    level: str = DEFAULT_LEVEL  # of the computer players on free seats
    turn_seconds: int = DEFAULT_TURN_SECONDS  # 0: no turn clock
    language: str = DEFAULT_LANGUAGE

    def seats_for(self, preset: str) -> int:
        """The number of seats a new ``preset`` lobby gets: the chosen one, within what the rules allow."""
        rules = Rules.preset(preset)
        if self.seats is None:
            return rules.max_seats
        return min(max(self.seats, rules.min_seats), rules.max_seats)

    @staticmethod
    def from_row(row: ChatRow | None) -> ChatDefaults:
        if row is None:
            return ChatDefaults()
        stored = row.settings
        preset = stored.get("preset")
        seats = stored.get("seats")
        level = stored.get("level")
        turn = stored.get("turn_seconds")
        return ChatDefaults(
            preset=preset if preset in texts.PRESET_TITLES else DEFAULT_PRESET,
            seats=seats if isinstance(seats, int) and not isinstance(seats, bool) and 1 < seats <= 8 else None,
            level=level if level in LEVELS else DEFAULT_LEVEL,
            turn_seconds=turn if turn in TURN_CHOICES and not isinstance(turn, bool) else DEFAULT_TURN_SECONDS,
            language=row.language if row.language in LANGUAGES else DEFAULT_LANGUAGE,
        )


async def chat_defaults(db: Database, chat_id: int) -> ChatDefaults:
    """The chat's defaults for a new game (the built-in ones where nothing is set)."""
    return ChatDefaults.from_row(await db.chats.get(chat_id))


def parse(defaults: ChatDefaults, key: str, value: str) -> ChatDefaults:
    """The defaults with one setting changed by a tap; ValueError for a key or value that is not offered."""
    if key == "preset" and value in texts.PRESET_TITLES:
        return replace(defaults, preset=value)
    if key == "seats" and value.isdigit():
        rules = Rules.preset(defaults.preset)
        if rules.min_seats <= int(value) <= rules.max_seats:
            return replace(defaults, seats=int(value))
    if key == "level" and value in LEVELS:
        return replace(defaults, level=value)
    if key == "clock" and value.isdigit() and int(value) in TURN_CHOICES:
        return replace(defaults, turn_seconds=int(value))
    if key == "lang" and value in LANGUAGES:
        return replace(defaults, language=value)
    raise ValueError(f"no setting {key}={value}")


async def change(db: Database, chat_id: int, chat_type: str, key: str, value: str) -> tuple[ChatDefaults, bool]:
    """Apply one tap; returns the chat's defaults now and whether anything changed."""
    before = await chat_defaults(db, chat_id)
    after = parse(before, key, value)
    if after == before:
        return before, False
    # Only the tapped setting is written: two admins tapping at once each keep their change.
    if key == "lang":
        row = await db.chats.update(chat_id, chat_type=chat_type, language=after.language)
    else:
        field = STORED_FIELDS[key]
        row = await db.chats.update(chat_id, chat_type=chat_type, settings={field: getattr(after, field)})
    return ChatDefaults.from_row(row), True

"""Callback data of every inline button; short prefixes keep each within Telegram's 64 bytes."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from aiogram.filters.callback_data import CallbackData
from pydantic import Field

# A game id as SQLite stores it (a signed 64-bit integer): forged data with a bigger number is
# refused when it is unpacked, before any query could overflow.
GameId = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]


class LobbyAction(StrEnum):
    """What a lobby button does. ``add-<level>`` seats a computer of that level; a bare ``add``
    (keyboards from before the levels) one of the lobby's last chosen level."""

    JOIN = "join"
    LEAVE = "leave"
    ADD = "add"
    ADD_EASY = "add-easy"
    ADD_MEDIUM = "add-medium"
    ADD_HARD = "add-hard"
    SEATS = "seats"
    CLOCK = "clock"
    CANCEL = "cancel"
    START = "start"
    HINTS = "hints"
    # A partnership lobby (goat, partners): sit down with team A (seats 1 and 3) or B (2 and 4), or
    # move over to a free seat of that team.
    TEAM_A = "team-a"
    TEAM_B = "team-b"

    @classmethod
    def join_team(cls, team: int) -> LobbyAction:
        """The button that seats its tapper with ``team`` (0 or 1)."""
        return (cls.TEAM_A, cls.TEAM_B)[team]

    @property
    def team(self) -> int | None:
        """The team a join-team button names (None for every other action)."""
        return {"team-a": 0, "team-b": 1}.get(self.value)

    @classmethod
    def add(cls, level: str) -> LobbyAction:
        """The button that seats a computer of ``level``."""
        return cls(f"add-{level}")

    @property
    def level(self) -> str | None:
        """The level an ``add-<level>`` button names (None for every other action, bare ``add`` too)."""
        return self.value.removeprefix("add-") if self.value.startswith("add-") else None


class EndCode(StrEnum):
    """An open end in a tile button (empty: not chosen yet)."""

    NONE = ""
    LEFT = "l"
    RIGHT = "r"
    UP = "u"
    DOWN = "d"


class SoloStep(StrEnum):
    MENU = "menu"
    PRESET = "preset"
    GO = "go"  # from older keyboards: deal with the preset's default opponents


class RoomAction(StrEnum):
    MENU = "menu"
    BACK = "back"
    PRESET = "preset"
    RESET = "reset"
    CANCEL = "cancel"
    HINTS = "hints"


class LobbyTap(CallbackData, prefix="lb"):
    """A lobby button: join, leave, add-easy / add-medium / add-hard (a computer of that level),
    seats (cycle the seat count), start, cancel, team-a / team-b (a partnership lobby's sides).
    A bare "add" (older keyboards) adds one of the
    lobby's last chosen level."""

    game: GameId
    action: LobbyAction


class TileTap(CallbackData, prefix="t"):
    """A tile in a hand; ``version`` is the game's version when the keyboard was drawn.

    ``end`` is empty for the first tap and names the end (l, r, u, d) once chosen.
    """

    game: GameId
    version: int
    tile: str  # two digits, high half first: "64"
    end: EndCode = EndCode.NONE


class HintTap(CallbackData, prefix="hi"):
    """💡 under a hand: the move the hard player would make, for the turn ``version`` names."""

    game: GameId
    version: int


class ReplayTap(CallbackData, prefix="rp"):
    """🎬 under a game's final result: the whole game as an animation, into the chat tapped in."""

    game: GameId


class ReviewTap(CallbackData, prefix="rv"):
    """📈 under a game's final result: the tapper's costliest moves, sent to their private chat."""

    game: GameId


class HandTap(CallbackData, prefix="h"):
    """ "My hand" under the group's board: send the tapping player's hand to their private chat."""

    game: GameId


class SoloTap(CallbackData, prefix="s"):
    """The private menu: choose a preset (then :class:`SoloGo`); "go" is from older keyboards."""

    step: SoloStep
    preset: str = ""
    opponents: int = 0


class SoloGo(CallbackData, prefix="sg"):
    """Deal a private game: the number of computer opponents and their level, in one tap.

    A class of its own, so that the menus already in people's chats keep their meaning."""

    preset: str
    opponents: int
    level: str


class LevelTap(CallbackData, prefix="lv"):
    """The level row under a private game: every computer plays at ``level`` from now on.

    It names the level rather than "next", so a double tap or an old keyboard cannot overshoot.
    """

    game: GameId
    level: str


class RulesTap(CallbackData, prefix="r"):
    preset: str


class RematchTap(CallbackData, prefix="rm"):
    """Rematch under a finished game's result: the tapping player confirms."""

    game: GameId


class RoomTap(CallbackData, prefix="ro"):
    """Play with a friend: "menu" (the rule sets), "preset" (open a room with ``preset``),
    "back" (to the private menu); on the room message: "reset" (a new link), "cancel"."""

    action: RoomAction
    preset: str = ""
    game: GameId = 0


class SettingsTap(CallbackData, prefix="cs"):
    """A button under a group's /settings message: set ``key`` (preset, seats, level, clock, lang)
    to ``value``.  It names the value, so a double tap or an old keyboard sets the same thing."""

    key: str
    value: str


class AwayTap(CallbackData, prefix="aw"):
    """ "Take my seat back" (bot/table/manners.py): the person plays their away seat again."""

    game: GameId


class LanguageTap(CallbackData, prefix="lg"):
    """A button of /language: the language the person wants the bot to speak with them."""

    language: str


class TopTap(CallbackData, prefix="tp"):
    """A button under /top: the same chat's leaderboard ordered by rating ("r") or by wins ("w").

    The chat is the message's own, never the button's, so no button can show another chat's."""

    board: str

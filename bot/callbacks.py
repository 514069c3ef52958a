"""Callback data of every inline button; short prefixes keep each within Telegram's 64 bytes."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData


class LobbyTap(CallbackData, prefix="lb"):
    """A lobby button: join, leave, add (a computer), seats (cycle the seat count), start, cancel."""

    game: int
    action: str


class TileTap(CallbackData, prefix="t"):
    """A tile in a hand; ``version`` is the game's version when the keyboard was drawn.

    ``end`` is empty for the first tap and names the end (l, r, u, d) once chosen.
    """

    game: int
    version: int
    tile: str  # two digits, high half first: "64"
    end: str = ""


class HandTap(CallbackData, prefix="h"):
    """ "My hand" under the group's board: send the tapping player's hand to their private chat."""

    game: int


class SoloTap(CallbackData, prefix="s"):
    """The private menu: choose a preset, then the number of computer opponents."""

    step: str  # "menu", "preset", "go"
    preset: str = ""
    opponents: int = 0


class RulesTap(CallbackData, prefix="r"):
    preset: str

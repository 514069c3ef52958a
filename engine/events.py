"""What happened during a round, in order: plays, automatic draws and passes.

Draws and passes are never chosen; the engine performs them and reports them so
that the bot can say "Ann drew 2 and passed". ``ends`` is the numbers showing
on the open ends at that moment: what a seat lacked when it drew or passed.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.line import End
from engine.tiles import Tile


class Played(NamedTuple):
    seat: int
    tile: Tile
    end: End | None  # None for the lead
    scored: int = 0  # points scored at once (fives)


class Drew(NamedTuple):
    seat: int
    number: int
    ends: tuple[int, ...]
    tiles: tuple[Tile, ...] = ()  # known to the drawing seat only; empty in others' observations


class Passed(NamedTuple):
    seat: int
    ends: tuple[int, ...]


Event = Played | Drew | Passed

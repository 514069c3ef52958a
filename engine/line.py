"""The line of play: where tiles lie and which ends are open.

The lead lies with its higher half at the left end. In ``fives`` the first
double played is the spinner; once both of its long sides are covered its
``up`` and ``down`` sides open too.

>>> from engine.tiles import Tile
>>> line = EMPTY_LINE.place(Tile(5, 5), None, spinner=True)
>>> line.open_ends(), line.fives_count()
({<End.LEFT: 'left'>: 5, <End.RIGHT: 'right'>: 5}, 10)
>>> line = line.place(Tile(5, 3), End.RIGHT, spinner=True).place(Tile(5, 0), End.LEFT, spinner=True)
>>> line.open_ends(), line.fives_count()
({<End.LEFT: 'left'>: 0, <End.RIGHT: 'right'>: 3, <End.UP: 'up'>: 5, <End.DOWN: 'down'>: 5}, 3)
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from engine.tiles import Tile


class End(enum.StrEnum):
    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"


ENDS: tuple[End, ...] = (End.LEFT, End.RIGHT, End.UP, End.DOWN)
_INDEX = {end: index for index, end in enumerate(ENDS)}
LEFT, RIGHT, UP, DOWN = range(4)
# Building tuples directly skips NamedTuple's keyword handling on the hot path.
_new_tuple = tuple.__new__


class Placed(NamedTuple):
    """A tile on the table: ``inner`` faces the line, ``outer`` faces the open end."""

    tile: Tile
    inner: int
    outer: int


class SpinnerAt(NamedTuple):
    """Where the spinner lies: on the lead (``arm`` None) or at ``index`` of an arm."""

    arm: End | None
    position: int


class Line(NamedTuple):
    """Tiles on the table, arm by arm, going outward from the lead (or the spinner)."""

    lead: Tile | None
    arms: tuple[tuple[Placed, ...], tuple[Placed, ...], tuple[Placed, ...], tuple[Placed, ...]]
    spinner: SpinnerAt | None
    ends: tuple[int | None, int | None, int | None, int | None]  # open end values, None when closed

    @property
    def is_empty(self) -> bool:
        return self.lead is None

    def __len__(self) -> int:
        return (self.lead is not None) + sum(len(arm) for arm in self.arms)

    def arm(self, end: End) -> tuple[Placed, ...]:
        return self.arms[_INDEX[end]]

    def open_ends(self) -> dict[End, int]:
        """Open ends and the number each shows, in the order left, right, up, down."""
        return {ENDS[i]: value for i, value in enumerate(self.ends) if value is not None}

    def end_values(self) -> tuple[int, ...]:
        return tuple(value for value in self.ends if value is not None)

    def ends_for(self, tile: Tile) -> list[End]:
        """The open ends that ``tile`` can be played on."""
        high, low = tile
        return [ENDS[i] for i, value in enumerate(self.ends) if value is not None and value in (high, low)]

    def tiles(self) -> list[Tile]:
        """Every tile on the table (lead first, then arm by arm)."""
        if self.lead is None:
            return []
        return [self.lead, *(placed.tile for arm in self.arms for placed in arm)]

    def place(self, tile: Tile, end: End | None, *, spinner: bool) -> Line:
        """The line with ``tile`` added; the caller has checked that it fits ``end``."""
        if self.lead is None:
            at = SpinnerAt(None, 0) if spinner and tile.high == tile.low else None
            return Line(tile, self.arms, at, (tile.high, tile.low, None, None))
        if end is None:
            raise ValueError("a tile after the lead needs an end")
        index = _INDEX[end]
        value = self.ends[index]
        if value is None or not (tile.high == value or tile.low == value):
            raise ValueError(f"{tile} does not fit the {end.value} end")
        outer = tile.low if tile.high == value else tile.high
        arm = self.arms[index] + (_new_tuple(Placed, (tile, value, outer)),)
        arms = self.arms[:index] + (arm,) + self.arms[index + 1 :]
        if not spinner:  # the usual case: two ends, nothing to open
            ends_now = self.ends[:index] + (outer,) + self.ends[index + 1 :]
            return _new_tuple(Line, (self.lead, arms, None, ends_now))
        ends = list(self.ends)
        ends[index] = outer
        at = self.spinner
        if at is None and tile.high == tile.low:
            at = SpinnerAt(end, len(arm) - 1)
        if at is not None and ends[UP] is None and _spinner_opens(at, arms):
            spin = self.lead.high if at.arm is None else arms[_INDEX[at.arm]][at.position].tile.high
            ends[UP] = ends[DOWN] = spin
        return Line(self.lead, arms, at, (ends[0], ends[1], ends[2], ends[3]))  # type: ignore[arg-type]

    def fives_count(self) -> int:
        """The open ends added up as ``fives`` counts them.

        A double at an end counts both halves; a lone double lead counts once;
        spinner sides nobody has played on do not count.
        """
        lead = self.lead
        if lead is None:
            return 0
        arms = self.arms
        if not arms[LEFT] and not arms[RIGHT]:
            total = lead.high + lead.low
        else:
            total = _end_count(arms[LEFT], lead.high, lead.is_double)
            total += _end_count(arms[RIGHT], lead.low, lead.is_double)
        if arms[UP]:
            total += _end_count(arms[UP], 0, False)
        if arms[DOWN]:
            total += _end_count(arms[DOWN], 0, False)
        return total


def _end_count(arm: tuple[Placed, ...], lead_half: int, lead_double: bool) -> int:
    if not arm:
        return 2 * lead_half if lead_double else lead_half
    last = arm[-1]
    return 2 * last.outer if last.tile.high == last.tile.low else last.outer


def _spinner_opens(at: SpinnerAt, arms: tuple[tuple[Placed, ...], ...]) -> bool:
    if at.arm is None:
        return bool(arms[LEFT]) and bool(arms[RIGHT])
    return len(arms[_INDEX[at.arm]]) > at.position + 1


EMPTY_LINE = Line(None, ((), (), (), ()), None, (None, None, None, None))

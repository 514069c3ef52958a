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

from engine.core import DOUBLE, INDEX, LEAD, Core, SpinnerPart, empty_line_core
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
        """The line with ``tile`` added; the caller has checked that it fits ``end``.

        Where the tile lies is this module's business; which ends it opens (the spinner's
        sides among them) is the rules', asked of a :class:`~engine.core.Core` built from the line.
        """
        core = core_of(self, spinner)
        if self.lead is None:
            core.place(INDEX[tile], LEAD)
            return self.grown(tile, LEAD, core.ends, spinner_opened=core.spin_state != 0)
        if end is None:
            raise ValueError("a tile after the lead needs an end")
        index = _INDEX[end]
        value = self.ends[index]
        if value is None or not (tile.high == value or tile.low == value):
            raise ValueError(f"{tile} does not fit the {end.value} end")
        before = core.spin_state
        core.place(INDEX[tile], index)
        return self.grown(tile, index, core.ends, spinner_opened=before == 0 and core.spin_state != 0)

    def grown(self, tile: Tile, index: int, ends: list[int], *, spinner_opened: bool) -> Line:
        """The line with ``tile`` laid at end ``index`` (-1 for the lead), showing ``ends`` (-1 closed)
        as the rules say it does; ``spinner_opened``: this tile became the spinner."""
        ends_now = (
            None if ends[0] < 0 else ends[0],
            None if ends[1] < 0 else ends[1],
            None if ends[2] < 0 else ends[2],
            None if ends[3] < 0 else ends[3],
        )
        if index < 0:
            return _new_tuple(Line, (tile, self.arms, _ON_LEAD if spinner_opened else None, ends_now))
        value = self.ends[index]
        outer = tile.low if tile.high == value else tile.high
        arm = self.arms[index] + (_new_tuple(Placed, (tile, value, outer)),)
        arms = self.arms[:index] + (arm,) + self.arms[index + 1 :]
        at = SpinnerAt(ENDS[index], len(arm) - 1) if spinner_opened else self.spinner
        return _new_tuple(Line, (self.lead, arms, at, ends_now))

    def fives_count(self) -> int:
        """The open ends added up as ``fives`` counts them (see :meth:`engine.core.Core.count`).

        A double at an end counts both halves; a lone double lead counts once;
        spinner sides nobody has played on do not count.
        """
        return core_of(self, self.spinner is not None).count()

    def core_parts(self) -> tuple[int, list[int], list[int], list[bool], SpinnerPart]:
        """The line as :meth:`engine.core.Core.set_line` takes it: the lead's tile index, the open
        ends' numbers (-1: closed), the tiles on each arm, whether each end shows a double, and the
        spinner (arm index or LEAD, its number)."""
        lead = self.lead
        assert lead is not None  # an empty line is the core's own (see core_of)
        ends = [-1 if value is None else value for value in self.ends]
        arm_counts = [len(arm) for arm in self.arms]
        lone = DOUBLE[INDEX[lead]]  # what the lead's own two sides show until something is played there
        doubles = [arm[-1].tile.is_double if arm else index < 2 and lone for index, arm in enumerate(self.arms)]
        spinner: SpinnerPart = None
        if self.spinner is not None:
            if self.spinner.arm is None:
                spinner = (LEAD, lead.high)
            else:
                arm_index = _INDEX[self.spinner.arm]
                spinner = (arm_index, self.arms[arm_index][self.spinner.position].tile.high)
        return INDEX[lead], ends, arm_counts, doubles, spinner


_ON_LEAD = SpinnerAt(None, 0)


def core_of(line: Line, spinner: bool) -> Core:
    """A :class:`~engine.core.Core` holding ``line`` (and nothing else of a round) under the spinner rule
    given: what :meth:`Line.place`, :meth:`Line.fives_count` and :func:`engine.state.legal_moves_for` ask."""
    core = empty_line_core(spinner)
    if line.lead is not None:
        core.set_line(*line.core_parts())
    return core


EMPTY_LINE = Line(None, ((), (), (), ()), None, (None, None, None, None))

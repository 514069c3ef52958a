"""Where every tile of a line of play lies: pure geometry, as data, without pixels.

Coordinates are whole *half-units*: a tile is 4 x 2, each of its halves a
2 x 2 square, and the picture's x range is ``-half_width .. half_width``.
The centre tile (the spinner if there is one, else the lead) lies at the
origin and each arm snakes away from it in rows that turn at the picture's
edges, so the picture only ever grows downwards and upwards:

- without a spinner, the left arm runs west and then fills rows above, the
  right arm runs east and then fills rows below, each row the full width;
- with a spinner the four arms make a pinwheel, each in its own quarter:
  left -> rows above on the left, up -> rows above on the right, right ->
  rows below on the right, down -> rows below on the left.

An arm turns with one *corner* tile laid across the row's end, half a square
below the row (so rows are 5 half-units apart and never touch), and the next
row starts under the corner's outer half. A double is laid crosswise; it is
never a corner: when the next double would not fit in the row the arm turns
one tile early, and a double right after a corner stands beside it.

>>> from engine.line import EMPTY_LINE, End
>>> from engine.tiles import Tile
>>> line = EMPTY_LINE.place(Tile(6, 4), None, spinner=False).place(Tile(4, 4), End.RIGHT, spinner=False)
>>> board = lay_out(line, half_width=20)
>>> [(str(spot.tile), spot.rect) for spot in board.spots]
[('6-4', Rect(x0=-2, y0=-1, x1=2, y1=1)), ('4-4', Rect(x0=2, y0=-2, x1=4, y1=2))]
>>> [(badge.end.value, badge.value, badge.rect) for badge in board.badges]
[('left', 6, Rect(x0=-4, y0=-1, x1=-2, y1=1)), ('right', 4, Rect(x0=4, y0=-1, x1=6, y1=1))]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.line import ENDS, End, Line, Placed
from engine.tiles import Tile

TILE_LONG = 4  # half-units along a tile
TILE_SHORT = 2  # half-units across a tile
ROW_PITCH = 5  # half-units between the axes of two rows of one arm
BADGE = 2  # side of the square that holds an open end's number
MIN_HALF_WIDTH = 14  # narrower rows could leave a double no room after a corner


class Rect(NamedTuple):
    """An axis-aligned rectangle ``[x0, x1] x [y0, y1]`` in half-units."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    def overlaps(self, other: Rect) -> bool:
        """Whether the two interiors meet (sharing an edge is not overlapping)."""
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def touches(self, other: Rect) -> bool:
        """Whether the two share a stretch of edge of positive length without overlapping."""
        if self.overlaps(other):
            return False
        if self.x1 == other.x0 or other.x1 == self.x0:
            return min(self.y1, other.y1) - max(self.y0, other.y0) > 0
        if self.y1 == other.y0 or other.y1 == self.y0:
            return min(self.x1, other.x1) - max(self.x0, other.x0) > 0
        return False

    def inside(self, other: Rect) -> bool:
        return other.x0 <= self.x0 and self.x1 <= other.x1 and other.y0 <= self.y0 and self.y1 <= other.y1

    def moved(self, dx: int, dy: int) -> Rect:
        return Rect(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)


class Spot(NamedTuple):
    """One tile on the board: where it lies and which number shows on which half."""

    tile: Tile
    rect: Rect
    first: int  # the number on the left half (lying) or the top half (standing)
    second: int  # the number on the right or bottom half
    parent: int | None  # index of the spot this tile is joined to; None for the centre tile
    inner: int | None  # the number that faces the parent; None for the centre tile
    heading: tuple[int, int]  # unit step pointing away from the centre where this tile lies

    @property
    def vertical(self) -> bool:
        return self.rect.height > self.rect.width

    def halves(self) -> tuple[tuple[Rect, int], tuple[Rect, int]]:
        """The two 2 x 2 halves with the number each shows, first (left or top) half first."""
        x0, y0, x1, y1 = self.rect
        if self.vertical:
            return (Rect(x0, y0, x1, y0 + 2), self.first), (Rect(x0, y0 + 2, x1, y1), self.second)
        return (Rect(x0, y0, x0 + 2, y1), self.first), (Rect(x0 + 2, y0, x1, y1), self.second)


class Badge(NamedTuple):
    """The square beside an open end where its number is shown."""

    end: End
    value: int
    rect: Rect
    spot: int  # index of the spot whose end this is


class BoardLayout(NamedTuple):
    spots: tuple[Spot, ...]
    badges: tuple[Badge, ...]
    bounds: Rect  # everything lies inside; x spans exactly -half_width .. half_width
    spinner: int | None  # index of the spinner's spot, when the line has one

    def spot_of(self, tile: Tile) -> int | None:
        for index, spot in enumerate(self.spots):
            if spot.tile == tile:
                return index
        return None


class _Link(NamedTuple):
    """A tile of an arm as seen walking away from the centre."""

    tile: Tile
    inner: int
    outer: int


class _Canon(NamedTuple):
    """A tile placed in an arm's own frame, where rows run along x and the arm advances along +y."""

    link: _Link
    rect: Rect
    inner_half: Rect  # the half that faces the previous tile (a double: its first half)
    heading: tuple[int, int]


class _Arm(NamedTuple):
    """How one arm is laid: its frame, where it starts, and the rows it may use."""

    end: End
    flip: int  # 1: the arm's frame is the picture's; -1: rotated half a turn
    start: int  # x where the first tile starts (in the arm's frame)
    axis: int  # y of the first row's axis, or of the centre's edge for an arm that starts with a corner
    first_hi: int  # how far east the first row may reach
    lo: int  # x range of every later row
    hi: int
    corner_first: bool  # up and down arms leave the spinner's short side with a corner tile


def lay_out(line: Line, half_width: int) -> BoardLayout:
    """Lay the whole line out inside ``-half_width .. half_width``; see the module's docstring."""
    if half_width < MIN_HALF_WIDTH:
        raise ValueError(f"half_width must be at least {MIN_HALF_WIDTH}, not {half_width}")
    if line.lead is None:
        return BoardLayout((), (), Rect(-half_width, -TILE_SHORT, half_width, TILE_SHORT), None)
    center_tile, chains = _chains(line)
    width = half_width
    arms: tuple[_Arm, ...]
    if line.spinner is not None:
        center = Spot(center_tile, Rect(-1, -2, 1, 2), center_tile.high, center_tile.high, None, None, (0, 0))
        arms = (
            _Arm(End.LEFT, -1, 1, 0, width, 2, width, False),
            _Arm(End.RIGHT, 1, 1, 0, width, 2, width, False),
            _Arm(End.UP, -1, -1, 2, width, -width, 1, True),
            _Arm(End.DOWN, 1, -1, 2, width, -width, 1, True),
        )
    else:
        if center_tile.is_double:
            rect, start = Rect(-1, -2, 1, 2), 1
        else:
            rect, start = Rect(-2, -1, 2, 1), 2
        # The lead lies with its higher half at the left end, as the engine keeps it.
        center = Spot(center_tile, rect, center_tile.high, center_tile.low, None, None, (0, 0))
        arms = (
            _Arm(End.LEFT, -1, start, 0, width, -width, width, False),
            _Arm(End.RIGHT, 1, start, 0, width, -width, width, False),
        )
    spots: list[Spot] = [center]
    terminals: dict[End, tuple[int, tuple[int, int]]] = {}
    for arm in arms:
        heading = _world_heading(arm, (0, 1) if arm.corner_first else (1, 0))
        terminals[arm.end] = (0, heading)
        parent = 0
        for canon in _snake(chains[ENDS.index(arm.end)], arm):
            spot = _to_world(canon, arm, parent)
            spots.append(spot)
            parent = len(spots) - 1
            terminals[arm.end] = (parent, spot.heading)
    badges = _badges(line, spots, terminals, width)
    rects = [spot.rect for spot in spots] + [badge.rect for badge in badges]
    bounds = Rect(-width, min(r.y0 for r in rects), width, max(r.y1 for r in rects))
    return BoardLayout(tuple(spots), tuple(badges), bounds, 0 if line.spinner is not None else None)


def _chains(line: Line) -> tuple[Tile, tuple[tuple[_Link, ...], ...]]:
    """The centre tile and the four arms (left, right, up, down) walking away from it.

    With a spinner that lies in an arm, the line is re-rooted at the spinner:
    the tiles between it and the lead, the lead and the far arm become one arm.
    """
    lead = line.lead
    assert lead is not None
    left, right, up, down = (tuple(_Link(p.tile, p.inner, p.outer) for p in arm) for arm in line.arms)
    spinner = line.spinner
    if spinner is None or spinner.arm is None:
        return lead, (left, right, up, down)
    position = spinner.position
    side = line.arm(spinner.arm)
    between = _walk_back(side[:position])
    if spinner.arm is End.RIGHT:
        back = (*between, _Link(lead, lead.low, lead.high), *left)
        return side[position].tile, (back, right[position + 1 :], up, down)
    back = (*between, _Link(lead, lead.high, lead.low), *right)
    return side[position].tile, (left[position + 1 :], back, up, down)


def _walk_back(placed: Sequence[Placed]) -> tuple[_Link, ...]:
    return tuple(_Link(p.tile, p.outer, p.inner) for p in reversed(placed))


def _snake(links: Sequence[_Link], arm: _Arm) -> list[_Canon]:
    """Place an arm's tiles in its own frame: rows along x, turning with a corner tile."""
    placed: list[_Canon] = []
    direction = 1
    edge = arm.start  # the free edge of the last tile, in the direction of travel
    axis = arm.axis
    lo, hi = -(10**9), arm.first_hi
    index = 0
    count = len(links)

    def fits(far: int) -> bool:
        return far <= hi - TILE_SHORT if direction > 0 else far >= lo + TILE_SHORT

    while index < count:
        link = links[index]
        double = link.tile.is_double
        if not (arm.corner_first and index == 0):
            far = edge + direction * (TILE_SHORT if double else TILE_LONG)
            room = fits(far)
            if room and not double and index + 1 < count and links[index + 1].tile.is_double:
                # A double never turns a corner: turn one tile early so it opens the next row.
                room = fits(far + direction * TILE_SHORT)
            if room:
                placed.append(_in_row(link, edge, axis, direction))
                edge = far
                index += 1
                continue
        if double:  # only in rows too short to turn in, which MIN_HALF_WIDTH rules out
            raise AssertionError("a double reached a corner")
        column = edge if direction > 0 else edge - TILE_SHORT
        placed.append(
            _Canon(
                link,
                Rect(column, axis, column + 2, axis + 4),
                Rect(column, axis, column + 2, axis + 2),
                (0, 1),
            )
        )
        index += 1
        direction, axis, lo, hi = -direction, axis + ROW_PITCH, arm.lo, arm.hi
        if index < count:
            placed.append(_after_corner(links[index], column, axis, direction))
            edge = placed[-1].rect.x0 if direction < 0 else placed[-1].rect.x1
            index += 1
    return placed


def _in_row(link: _Link, edge: int, axis: int, direction: int) -> _Canon:
    if link.tile.is_double:  # crosswise, centred on the row's axis
        x0 = edge if direction > 0 else edge - 2
        rect = Rect(x0, axis - 2, x0 + 2, axis + 2)
        return _Canon(link, rect, Rect(x0, axis - 2, x0 + 2, axis), (direction, 0))
    x0 = edge if direction > 0 else edge - 4
    rect = Rect(x0, axis - 1, x0 + 4, axis + 1)
    inner_x = x0 if direction > 0 else x0 + 2
    return _Canon(link, rect, Rect(inner_x, axis - 1, inner_x + 2, axis + 1), (direction, 0))


def _after_corner(link: _Link, column: int, axis: int, direction: int) -> _Canon:
    """The first tile of a new row: under the corner's outer half, or a double standing beside it."""
    if link.tile.is_double:
        x0 = column - 2 if direction < 0 else column + 2
        rect = Rect(x0, axis - 2, x0 + 2, axis + 2)
        return _Canon(link, rect, Rect(x0, axis - 2, x0 + 2, axis), (direction, 0))
    x0 = column - 2 if direction < 0 else column
    rect = Rect(x0, axis - 1, x0 + 4, axis + 1)
    return _Canon(link, rect, Rect(column, axis - 1, column + 2, axis + 1), (direction, 0))


def _flip_rect(rect: Rect, flip: int) -> Rect:
    if flip > 0:
        return rect
    return Rect(-rect.x1, -rect.y1, -rect.x0, -rect.y0)


def _world_heading(arm: _Arm, heading: tuple[int, int]) -> tuple[int, int]:
    return heading[0] * arm.flip, heading[1] * arm.flip


def _to_world(canon: _Canon, arm: _Arm, parent: int) -> Spot:
    rect = _flip_rect(canon.rect, arm.flip)
    inner_half = _flip_rect(canon.inner_half, arm.flip)
    link = canon.link
    inner_first = inner_half.x0 == rect.x0 and inner_half.y0 == rect.y0
    first, second = (link.inner, link.outer) if inner_first else (link.outer, link.inner)
    return Spot(link.tile, rect, first, second, parent, link.inner, _world_heading(arm, canon.heading))


def _badges(
    line: Line, spots: list[Spot], terminals: dict[End, tuple[int, tuple[int, int]]], width: int
) -> list[Badge]:
    """A 2 x 2 square beside each open end, in free space, for its number."""
    badges: list[Badge] = []
    taken = [spot.rect for spot in spots]
    for end, value in line.open_ends().items():
        index, heading = terminals[end]
        spot = spots[index]
        for rect in _badge_candidates(spot, heading):
            if -width <= rect.x0 and rect.x1 <= width and not any(rect.overlaps(other) for other in taken):
                break
        else:  # every candidate blocked: never seen, but the number must still be shown
            rect = next(iter(_badge_candidates(spot, heading)))
        badges.append(Badge(end, value, rect, index))
        taken.append(rect)
    return badges


def _badge_candidates(spot: Spot, heading: tuple[int, int]) -> list[Rect]:
    """Squares beside the end of ``spot`` that faces ``heading``: straight ahead first, then aside."""
    x0, y0, x1, y1 = spot.rect
    dx, dy = heading
    if dx:
        mid = (y0 + y1) // 2
        front = x1 if dx > 0 else x0 - BADGE
        outer_x = x1 - 2 if dx > 0 else x0
        return [
            Rect(front, mid - 1, front + 2, mid + 1),
            Rect(outer_x, y0 - BADGE, outer_x + 2, y0),
            Rect(outer_x, y1, outer_x + 2, y1 + BADGE),
            Rect(front, y0 - 1, front + 2, y0 + 1),
            Rect(front, y1 - 1, front + 2, y1 + 1),
        ]
    mid = (x0 + x1) // 2
    front = y1 if dy > 0 else y0 - BADGE
    outer_y = y1 - 2 if dy > 0 else y0
    return [
        Rect(mid - 1, front, mid + 1, front + 2),
        Rect(x0 - BADGE, outer_y, x0, outer_y + 2),
        Rect(x1, outer_y, x1 + BADGE, outer_y + 2),
    ]

"""The line of play as text, for captions and screen readers.

Two styles: ``brackets`` (``[6|4]``, readable everywhere) and ``unicode``
(the domino tiles U+1F030-U+1F093, which screen readers name: "domino tile
horizontal-06-04"). The main line reads from its left end to its right end,
each tile with the number that touches its left neighbour first; doubles
stand crosswise (a vertical tile in the ``unicode`` style); a spinner's up
and down arms follow, outward from the spinner.

>>> from engine.line import EMPTY_LINE, End
>>> from engine.tiles import Tile
>>> line = EMPTY_LINE.place(Tile(6, 4), None, spinner=False)
>>> line = line.place(Tile(4, 4), End.RIGHT, spinner=False).place(Tile(6, 1), End.LEFT, spinner=False)
>>> line_text(line)
'[1|6][6|4][4|4]'
>>> line_text(line, "unicode") == "\\U0001f03e\\U0001f05f\\U0001f083"
True
>>> ends_text(line)
'1 · 4'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from engine.line import DOWN, LEFT, RIGHT, UP, Line, Placed
from engine.tiles import Tile

Style = Literal["brackets", "unicode"]

HORIZONTAL_BACK = 0x1F030  # U+1F031 is horizontal 00-00, then 00-01 ... 06-06
VERTICAL_BACK = 0x1F062  # U+1F063 is vertical 00-00, in the same order


def domino_char(first: int, second: int, *, vertical: bool = False) -> str:
    """The Unicode domino tile with ``first`` on its left (top) half.

    >>> import unicodedata
    >>> unicodedata.name(domino_char(6, 4)), unicodedata.name(domino_char(3, 3, vertical=True))
    ('DOMINO TILE HORIZONTAL-06-04', 'DOMINO TILE VERTICAL-03-03')
    """
    if not (0 <= first <= 6 and 0 <= second <= 6):
        raise ValueError(f"not a double-six tile: {first}-{second}")
    base = VERTICAL_BACK if vertical else HORIZONTAL_BACK
    return chr(base + 1 + 7 * first + second)


def tile_text(first: int, second: int, style: Style = "brackets") -> str:
    """One tile, ``first`` half first: ``[6|4]`` or its Unicode character (a double standing)."""
    if style == "unicode":
        return domino_char(first, second, vertical=first == second)
    return f"[{first}|{second}]"


def hand_text(tiles: Iterable[Tile], style: Style = "brackets") -> str:
    """A hand, higher half first: ``[6|4][3|3]``."""
    return "".join(tile_text(tile.high, tile.low, style) for tile in tiles)


def _outward(arm: Iterable[Placed], style: Style) -> str:
    return "".join(tile_text(placed.inner, placed.outer, style) for placed in arm)


def line_text(line: Line, style: Style = "brackets") -> str:
    """The whole line as text (empty before the lead)."""
    if line.lead is None:
        return ""
    left = "".join(tile_text(p.outer, p.inner, style) for p in reversed(line.arms[LEFT]))
    lead = tile_text(line.lead.high, line.lead.low, style)
    text = left + lead + _outward(line.arms[RIGHT], style)
    for arrow, arm in (("↑", line.arms[UP]), ("↓", line.arms[DOWN])):
        if arm:
            text += f" {arrow}{_outward(arm, style)}"
    return text


def ends_text(line: Line, separator: str = " · ") -> str:
    """The numbers showing on the open ends, left, right, up, down: ``6 · 3``."""
    return separator.join(str(value) for value in line.end_values())

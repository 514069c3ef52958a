"""Tiles of the double-six set.

>>> Tile.parse("4-6")
Tile(high=6, low=4)
>>> str(Tile(6, 4)), Tile(6, 4).pips, Tile(3, 3).is_double
('6-4', 10, True)
>>> len(ALL_TILES)
28
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.errors import TileError as TileError  # its home was here

_TILE_TEXT = re.compile(r"^\s*([0-6])\s*-\s*([0-6])\s*$")


class Tile(NamedTuple):
    """One tile, stored with its higher half first so that equal tiles compare equal."""

    high: int
    low: int

    @staticmethod
    def parse(text: str) -> Tile:
        """Read ``"a-b"`` (either order) into the set's single instance of that tile."""
        tile = _BY_TEXT.get(text)
        if tile is not None:
            return tile
        match = _TILE_TEXT.match(text) if isinstance(text, str) else None
        if match is None:
            raise TileError(f"not a tile: {text!r}")
        return tile_of(int(match.group(1)), int(match.group(2)))

    @property
    def pips(self) -> int:
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    def has(self, number: int) -> bool:
        return self.high == number or self.low == number

    def other(self, number: int) -> int:
        """The half that is left when ``number`` is matched against an end."""
        return self.low if self.high == number else self.high

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"


ALL_TILES: tuple[Tile, ...] = tuple(Tile(high, low) for high in range(6, -1, -1) for low in range(high, -1, -1))
_BY_HALVES: dict[tuple[int, int], Tile] = {}
for _tile in ALL_TILES:
    _BY_HALVES[(_tile.high, _tile.low)] = _tile
    _BY_HALVES[(_tile.low, _tile.high)] = _tile
_BY_TEXT: dict[str, Tile] = {f"{a}-{b}": tile for (a, b), tile in _BY_HALVES.items()}


def tile_of(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b`` in any order."""
    try:
        return _BY_HALVES[(a, b)]
    except KeyError:
        raise TileError(f"not a tile: {a}-{b}") from None


def pip_count(tiles: tuple[Tile, ...] | list[Tile]) -> int:
    return sum(tile.high + tile.low for tile in tiles)


def heaviness(tile: Tile) -> tuple[int, int]:
    """Sort key for "the heaviest tile": the highest pip sum, then the higher half."""
    return (tile.high + tile.low, tile.high)

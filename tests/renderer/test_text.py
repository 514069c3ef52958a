"""The line as text: ``[6|4]`` notation and the Unicode domino tiles."""

from __future__ import annotations

import itertools
import random
import re
import unicodedata

import pytest

from engine.line import EMPTY_LINE, End
from engine.tiles import ALL_TILES, Tile
from renderer.text import domino_char, ends_text, hand_text, line_text, tile_text
from tests.renderer.lines import random_line


def test_every_tile_has_its_own_unicode_character_in_the_block() -> None:
    seen = set()
    for first in range(7):
        for second in range(7):
            for vertical in (False, True):
                char = domino_char(first, second, vertical=vertical)
                assert 0x1F030 <= ord(char) <= 0x1F093
                way = "VERTICAL" if vertical else "HORIZONTAL"
                assert unicodedata.name(char) == f"DOMINO TILE {way}-{first:02d}-{second:02d}"
                seen.add(char)
    assert len(seen) == 98
    with pytest.raises(ValueError):
        domino_char(7, 0)


def test_the_line_reads_left_to_right_with_matching_neighbours() -> None:
    rng = random.Random(3)
    for _ in range(300):
        line = random_line(rng, spinner=False)
        text = line_text(line)
        pairs = [(int(a), int(b)) for a, b in re.findall(r"\[(\d)\|(\d)\]", text)]
        assert len(pairs) == len(line)
        assert all(left[1] == right[0] for left, right in itertools.pairwise(pairs))
        assert pairs[0][0] == line.ends[0] and pairs[-1][1] == line.ends[1]
        assert len(line_text(line, "unicode")) == len(line)


def test_spinner_arms_follow_the_main_line() -> None:
    line = EMPTY_LINE.place(Tile(5, 5), None, spinner=True)
    for tile, end in ((Tile(5, 3), End.RIGHT), (Tile(5, 0), End.LEFT), (Tile(5, 1), End.UP), (Tile(6, 5), End.DOWN)):
        line = line.place(tile, end, spinner=True)
    assert line_text(line) == "[0|5][5|5][5|3] ↑[5|1] ↓[5|6]"
    assert ends_text(line) == "0 · 3 · 1 · 6"
    unicode = line_text(line, "unicode")
    assert unicodedata.name(unicode[1]) == "DOMINO TILE VERTICAL-05-05"  # the double stands crosswise


def test_hands_and_single_tiles() -> None:
    assert hand_text([Tile(6, 4), Tile(3, 3)]) == "[6|4][3|3]"
    assert tile_text(2, 5) == "[2|5]"
    assert tile_text(2, 2, "unicode") == domino_char(2, 2, vertical=True)
    assert line_text(EMPTY_LINE) == "" and ends_text(EMPTY_LINE) == ""
    assert len(hand_text(ALL_TILES, "unicode")) == 28

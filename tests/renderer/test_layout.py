"""The board's geometry over thousands of legal lines: inside the picture, no overlaps, halves that match."""

from __future__ import annotations

import random

import pytest

from engine.line import EMPTY_LINE, End, Line
from engine.rules import Rules
from engine.tiles import Tile, tile_of
from renderer.layout import MIN_HALF_WIDTH, BoardLayout, Rect, lay_out
from tests.renderer.lines import full_line, game_lines, preset_seats, random_line

# The half-widths the pictures use at 1080 pixels (see Sizes.half_units), and the narrowest allowed.
WIDTHS = (MIN_HALF_WIDTH, 17, 19, 21, 24, 27, 30, 34)


def check(line: Line, half_width: int) -> BoardLayout:
    """Every promise the layout makes, checked for one line."""
    board = lay_out(line, half_width)
    spots = board.spots
    bounds = board.bounds
    assert bounds.x0 == -half_width and bounds.x1 == half_width
    assert sorted(spot.tile for spot in spots) == sorted(line.tiles())
    for index, spot in enumerate(spots):
        assert spot.rect.inside(bounds), f"tile {spot.tile} leaves the picture"
        assert {spot.rect.width, spot.rect.height} == {2, 4}
        assert sorted((spot.first, spot.second)) == sorted(spot.tile)
        for other in spots[:index]:
            assert not spot.rect.overlaps(other.rect), f"{spot.tile} overlaps {other.tile}"
        dx, dy = spot.heading
        if spot.tile.is_double:  # crosswise to the way the line runs
            assert spot.vertical == (dy == 0), f"double {spot.tile} is not crosswise"
        elif spot.parent is not None:  # lengthwise
            assert spot.vertical == (dx == 0), f"{spot.tile} is not along the line"
        if spot.parent is None:
            assert index == 0
            continue
        parent = spots[spot.parent]
        # The half of this tile that shows the shared number touches a half of the parent showing it.
        value = spot.inner
        assert value is not None and spot.tile.has(value)
        touching = [
            (mine, theirs)
            for mine, mine_value in spot.halves()
            for theirs, their_value in parent.halves()
            if mine.touches(theirs) and mine_value == value and their_value == value
        ]
        assert touching, f"{spot.tile} does not touch {parent.tile} at matching halves"
        if not spot.tile.is_double:  # and it is the inner half that touches, not the outer one
            inner_half = next(rect for rect, shown in spot.halves() if shown == value)
            assert any(mine == inner_half for mine, _ in touching)
    assert {(badge.end, badge.value) for badge in board.badges} == set(line.open_ends().items())
    for index, badge in enumerate(board.badges):
        assert badge.rect.inside(bounds)
        assert badge.rect.width == badge.rect.height == 2
        assert not any(badge.rect.overlaps(spot.rect) for spot in spots), f"badge {badge.end} covers a tile"
        assert not any(badge.rect.overlaps(other.rect) for other in board.badges[:index])
        # The badge sits by the end it names: touching (or diagonally beside) that end's tile.
        end_rect = spots[badge.spot].rect
        grown = Rect(end_rect.x0 - 1, end_rect.y0 - 1, end_rect.x1 + 1, end_rect.y1 + 1)
        assert badge.rect.overlaps(grown)
    if line.spinner is not None:
        assert board.spinner == 0 and spots[0].tile.is_double
    return board


@pytest.mark.parametrize(("rules", "seats"), list(preset_seats()), ids=lambda v: getattr(v, "id", str(v)))
def test_every_line_of_random_games(rules: Rules, seats: int) -> None:
    rng = random.Random(f"{rules.id}-{seats}")
    lines = 0
    for _ in range(20):
        for state in game_lines(rules, seats, rng):
            check(state.line, rng.choice(WIDTHS))
            lines += 1
    assert lines > 100


@pytest.mark.parametrize("spinner", [False, True], ids=["two-ended", "spinner"])
def test_random_lines_of_any_length(spinner: bool) -> None:
    rng = random.Random(spinner)
    longest = 0
    for _ in range(1000):
        line = random_line(rng, spinner=spinner)
        longest = max(longest, len(line))
        check(line, rng.choice(WIDTHS))
    assert longest >= 24


def test_every_tile_in_one_line() -> None:
    rng = random.Random(28)
    for _ in range(200):
        line = full_line(rng)
        assert len(line) == 28
        for width in (MIN_HALF_WIDTH, rng.choice(WIDTHS)):
            check(line, width)


def test_four_long_arms_make_a_pinwheel() -> None:
    from renderer.examples import spread_line

    line = spread_line(tile_of(5, 5), 25, seed=3)
    assert all(len(arm) >= 5 for arm in line.arms)
    board = check(line, 17)
    by_arm: dict[End, list[Rect]] = {}
    for spot in board.spots[1:]:
        x = (spot.rect.x0 + spot.rect.x1) / 2
        y = (spot.rect.y0 + spot.rect.y1) / 2
        by_arm.setdefault(_quarter(x, y), []).append(spot.rect)
    assert len(by_arm) == 4


def _quarter(x: float, y: float) -> End:
    if y <= 2 and x < 0 and y > -3:
        return End.LEFT
    if x >= 0 and y < 0:
        return End.UP
    if x > 0:
        return End.RIGHT
    return End.DOWN


def test_the_lead_lies_in_the_middle_high_half_left() -> None:
    line = EMPTY_LINE.place(Tile(6, 2), None, spinner=False)
    board = check(line, 20)
    (spot,) = board.spots
    assert spot.rect == Rect(-2, -1, 2, 1) and (spot.first, spot.second) == (6, 2)
    assert [badge.value for badge in board.badges] == [6, 2]


def test_a_spinner_played_later_becomes_the_centre() -> None:
    line = EMPTY_LINE.place(Tile(6, 3), None, spinner=True)
    line = line.place(Tile(3, 3), End.RIGHT, spinner=True).place(Tile(3, 1), End.RIGHT, spinner=True)
    line = line.place(Tile(3, 2), End.UP, spinner=True).place(Tile(6, 6), End.LEFT, spinner=True)
    board = check(line, 20)
    assert board.spots[0].tile == Tile(3, 3) and board.spots[0].rect == Rect(-1, -2, 1, 2)
    ends = {badge.end: badge.value for badge in board.badges}
    assert ends == {End.LEFT: 6, End.RIGHT: 1, End.UP: 2, End.DOWN: 3}


def test_the_same_line_gives_the_same_layout() -> None:
    line = random_line(random.Random(5), spinner=True)
    assert lay_out(line, 20) == lay_out(line, 20)


def test_an_empty_line_and_a_too_narrow_picture() -> None:
    assert lay_out(EMPTY_LINE, 20).spots == ()
    with pytest.raises(ValueError, match="half_width"):
        lay_out(EMPTY_LINE.place(tile_of(1, 1), None, spinner=False), MIN_HALF_WIDTH - 1)


def test_rect_helpers() -> None:
    a = Rect(0, 0, 2, 2)
    assert a.touches(Rect(2, 1, 4, 3)) and not a.touches(Rect(2, 2, 4, 4))  # a corner is no contact
    assert not a.overlaps(Rect(2, 0, 4, 2)) and a.overlaps(Rect(1, 1, 3, 3))
    assert a.moved(1, -1) == Rect(1, -1, 3, 1)

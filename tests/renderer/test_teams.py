"""Partnership games in the pictures: each seat card and result row carries its team's colour, the
header's right box holds the two team totals, and the replay's last frame shows them."""

from __future__ import annotations

import dataclasses
import random

import pytest
from PIL import Image

from engine import Match, Rules, write_record
from renderer import RoundResult, palette, theme
from renderer.compose import header_layout, team_strip_height
from renderer.pictures import draw_private, draw_result, draw_table
from renderer.replay import steps
from renderer.theme import Sizes

NAMES = ["Ann", "Bob", "Cat", "Dan"]
WIDTH = 720


def _played(preset: str, seats: int, seed: int, plays: int | None = None) -> Match:
    rng = random.Random(seed)
    match = Match.new(Rules.preset(preset), seats, rng)
    done = 0
    while not match.is_over and (plays is None or done < plays):
        if match.round.is_over:
            match = match.deal_next(rng)
        match = match.apply(rng.choice(match.round.legal_moves()))
        done += 1
    return match


def _count(image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None) -> int:
    """Pixels of ``colour`` (as its palette entry) in ``box`` of a palette picture."""
    part = image.crop(box) if box is not None else image
    return part.histogram()[palette.index(colour)]


def test_the_team_colours_are_in_the_palette_after_every_older_entry() -> None:
    entries = [tuple(theme.PALETTE[i : i + 3]) for i in range(0, 768, 3)]
    for colour in theme.TEAM_COLOURS:
        assert palette.index(colour) == entries.index(colour)
    assert entries.index(theme.TEAM_COLOURS[0]) > entries.index(theme.YOU)


@pytest.mark.parametrize("preset", ["goat", "partners"])
def test_each_seat_card_has_its_teams_colour(preset: str) -> None:
    match = _played(preset, 4, seed=3, plays=6)
    image = draw_table(match.table(), NAMES, width=WIDTH)
    layout = header_layout(4, Sizes(WIDTH))
    for seat, (x, y, width, height) in enumerate(layout.cards):
        box = (x, y, x + width, y + height)
        mine, other = theme.TEAM_COLOURS[seat % 2], theme.TEAM_COLOURS[1 - seat % 2]
        assert _count(image, mine, box) > 50, seat
        assert _count(image, other, box) == 0, seat
    # The right box: a square of each team's colour beside its total, where the boneyard would be.
    right = (layout.box.x, 0, WIDTH, layout.height)
    assert all(_count(image, colour, right) > 20 for colour in theme.TEAM_COLOURS)


def test_a_game_without_teams_has_no_team_colour() -> None:
    for preset, seats in (("draw", 4), ("fives", 2), ("classic", 3)):
        match = _played(preset, seats, seed=2, plays=5)
        for image in (
            draw_table(match.table(), NAMES, width=WIDTH),
            draw_private(match.observe(0), NAMES, width=WIDTH),
        ):
            assert all(_count(image, colour) == 0 for colour in theme.TEAM_COLOURS), preset


def test_the_team_totals_are_drawn_and_change_with_the_scores() -> None:
    match = _played("partners", 4, seed=5)
    table = match.table()
    assert table.rules.has_teams and max(match.side_scores) >= 200
    scored = draw_table(table, NAMES, width=WIDTH)
    nil = draw_table(table._replace(scores=(0, 0, 0, 0)), NAMES, width=WIDTH)
    layout = header_layout(4, Sizes(WIDTH))
    right = (layout.box.x, 0, WIDTH, layout.height)
    assert scored.crop(right).tobytes() != nil.crop(right).tobytes()
    # Only the box changed: a team's total is not repeated on its seats' cards.
    left = (0, 0, right[0] - 1, layout.height)
    assert scored.crop(left).tobytes() == nil.crop(left).tobytes()


@pytest.mark.parametrize("preset", ["goat", "partners"])
def test_the_result_rows_carry_the_team_colours_and_totals(preset: str) -> None:
    match = _played(preset, 4, seed=8)
    result = RoundResult.of_match(match)
    assert result.scores is not None and result.scores[0] == result.scores[2]
    image = draw_result(result, NAMES, width=WIDTH)
    assert all(_count(image, colour) > 100 for colour in theme.TEAM_COLOURS)
    plain = draw_result(RoundResult.of_match(_played("draw", 4, seed=8)), NAMES, width=WIDTH)
    assert all(_count(plain, colour) == 0 for colour in theme.TEAM_COLOURS)


def test_the_replays_last_frame_is_the_final_result_with_the_teams() -> None:
    match = _played("goat", 4, seed=11)
    frames = steps(write_record(match), NAMES, width=360)
    last = frames[-1].image
    final = draw_result(RoundResult.of_match(match), NAMES, width=360)
    assert all(_count(last, colour) == _count(final, colour) > 0 for colour in theme.TEAM_COLOURS)


def test_a_team_result_shows_the_team_totals_above_the_rows() -> None:
    result = RoundResult.of_match(_played("goat", 4, seed=8))
    assert result.scores is not None
    totals = draw_result(result, NAMES, width=WIDTH)
    bare = draw_result(dataclasses.replace(result, scores=None), NAMES, width=WIDTH)
    strip = team_strip_height(Sizes(WIDTH))
    assert totals.height == bare.height + strip
    top = totals.crop((0, 0, WIDTH, strip))
    assert all(_count(top, colour) > 20 for colour in theme.TEAM_COLOURS)
    other = draw_result(dataclasses.replace(result, scores=tuple(s + 1 for s in result.scores)), NAMES, width=WIDTH)
    assert other.crop((0, 0, WIDTH, strip)).tobytes() != top.tobytes()

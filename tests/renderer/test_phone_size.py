"""The group picture read on a phone: a picture is shown about 390 px wide, so its names and tiles are
measured there. Capitals of a seat's name at least 11 px tall (the chat's own text is about as tall),
a tile of a late round at least 39 px long; the seats' names cut so that no two read alike."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops

from engine import Match, Rules
from renderer.compose import choose_board
from renderer.fonts import fit_names, font_file, text_font
from renderer.pictures import draw_table
from renderer.theme import Sizes

PHONE = 390  # CSS px of a phone's chat, where a photo is shown as wide as it goes
MIN_CAPITALS = 11  # px on the phone: the height of a name's capital letters
MIN_TILE = 39  # px on the phone: the long side of a tile


def _late_round(preset: str, seats: int, seed: int, plays: int) -> Match:
    rng = random.Random(seed)
    match = Match.new(Rules.preset(preset), seats, rng)
    while not match.round.is_over and len(match.round.line) < plays:
        match = match.apply(rng.choice(match.round.legal_moves()))
    return match


def _on_phone(image: Image.Image) -> Image.Image:
    rgb = image.convert("RGB")
    return rgb.resize((PHONE, round(rgb.height * PHONE / rgb.width)), Image.Resampling.LANCZOS)


def _bands(rows: list[bool]) -> list[int]:
    """The lengths of the runs of True in ``rows``."""
    runs, length = [], 0
    for row in [*rows, False]:
        if row:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    return runs


@pytest.mark.skipif(font_file() is None, reason="no font: the pictures carry no names")
@pytest.mark.parametrize(("preset", "seats"), [("goat", 4), ("fives", 4), ("draw", 3), ("block", 2)])
def test_the_seat_names_are_as_tall_as_the_chats_text_on_a_phone(preset: str, seats: int) -> None:
    """Two pictures of one late round whose names differ only in letters of the same height ("EEEE" and
    "HHHH"), scaled to a phone's width: the rows where they differ are the names' capitals."""
    table = _late_round(preset, seats, seed=7, plays=22).table()
    one = _on_phone(draw_table(table, [f"EEEE {seat + 1}" for seat in range(seats)]))
    other = _on_phone(draw_table(table, [f"HHHH {seat + 1}" for seat in range(seats)]))
    difference = ImageChops.difference(one, other).convert("L")
    rows = [difference.crop((0, y, PHONE, y + 1)).getextrema()[1] > 64 for y in range(difference.height)]
    heights = _bands(rows)
    assert heights and min(heights) >= MIN_CAPITALS, f"names {heights} px tall on a {PHONE} px phone"


def test_a_late_rounds_tiles_stay_wide_on_a_phone() -> None:
    """A long line makes the board taller rather than every tile smaller, on the table and the private view."""
    sizes = Sizes()
    for preset, seats in (("fives", 2), ("fives", 4), ("draw", 2)):
        for seed in range(60):
            line = _late_round(preset, seats, seed, plays=28).round.line
            for most in (sizes.board_max, sizes.board_max_private):
                tile = 4 * choose_board(line, None, sizes, most).half * PHONE / sizes.width
                assert tile >= MIN_TILE, f"{preset} seed {seed}: tiles {tile:.0f} px long on a phone"


@pytest.mark.skipif(font_file() is None, reason="no font: the pictures carry no names")
@pytest.mark.parametrize(
    "names",
    [
        ["Компьютер 1", "Компьютер 2", "Компьютер 3"],
        ["🤖 Комп'ютер 1", "🤖 Комп'ютер 2", "🤖 Комп'ютер 3"],
        ["🤖 Середній 1", "Олександр Коваленко", "🤖 Середній 2", "Олександр Шевченко"],
        ["Alexander Petrov", "Alexander Smirnov", "Alexander", "Alexandra"],
        ["Ann", "Ann", "Bob"],
        ["Константинопольский1987", "Константинопольский1990"],
        ["🎲", "🎲🎲", "Zoë 🎲"],
    ],
)
def test_no_two_seats_of_a_picture_read_alike(names: list[str]) -> None:
    sizes = Sizes()
    font = text_font(sizes.name_font)
    assert font is not None
    for room in (120, 200, 330):  # narrower than any card, a result row, a card
        shown = fit_names(tuple(names), font, room)
        assert len(set(shown)) == len(names), shown
        assert all(font.getlength(name) <= room for name in shown), shown

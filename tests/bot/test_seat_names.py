"""Seat names stay apart wherever they are cut: the table page's short names for ru/uk/en computers
and for people with one first name (the pictures' are checked in tests/renderer/test_phone_size.py)."""

from __future__ import annotations

import pytest

from bot.display.names import PAGE_NAME_CHARACTERS, page_short_names, shown_names
from bot.model.game import Seat
from bot.words.i18n import speaking


@pytest.mark.parametrize("language", ["en", "ru", "uk"])
@pytest.mark.parametrize(
    "seats",
    [
        [Seat("Ann", 1), Seat("🤖 Computer 1", level="medium"), Seat("🤖 Computer 2", level="medium")],
        [Seat("🤖 Medium 1", level="medium"), Seat("🤖 Medium 2", level="medium"), Seat("🤖 Hard 3", level="hard")],
        [Seat("Alexander Petrov", 1), Seat("Alexander Smirnov", 2), Seat("Alexander", 3), Seat("Alexandra", 4)],
        [Seat("Олександр", 1), Seat("Олександр", 2), Seat("🤖 Easy 1", level="easy")],
    ],
)
def test_the_table_pages_short_names_keep_every_seat_apart(language: str, seats: list[Seat]) -> None:
    with speaking(language):
        short = page_short_names(shown_names(seats))
    assert len(set(short)) == len(seats), short
    assert all(len(name) <= PAGE_NAME_CHARACTERS for name in short), short

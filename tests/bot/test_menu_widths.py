"""The private menus fit a narrow phone in every language: no label is cut short with "…"."""

from __future__ import annotations

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.display import keyboards
from bot.words.i18n import LANGUAGES, speaking
from engine.rules import PRESETS

LIMITS = {3: keyboards.ROW_OF_THREE_LABEL_LIMIT, 2: keyboards.ROW_OF_TWO_LABEL_LIMIT}


def too_long(markup: InlineKeyboardMarkup) -> list[list[str]]:
    """The rows with a label longer than a button of a row that full keeps (no row holds more than three)."""
    return [
        [button.text for button in row]
        for row in markup.inline_keyboard
        if len(row) > 3 or (len(row) in LIMITS and any(len(button.text) > LIMITS[len(row)] for button in row))
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rule_set_and_opponent_button_fits_its_row(language: str) -> None:
    with speaking(language):
        menus = [keyboards.solo_menu_markup(), keyboards.rules_markup()]
        menus += [keyboards.opponents_markup(preset) for preset in PRESETS]
        assert [row for menu in menus for row in too_long(menu)] == []


def test_a_long_rule_set_name_is_caught() -> None:
    with speaking("uk"):
        three_a_row = keyboards.preset_rows(lambda preset: preset)
        flat = [button for row in three_a_row for button in row]
        crowded = InlineKeyboardMarkup(inline_keyboard=[flat[i : i + 3] for i in range(0, len(flat), 3)])
        assert ["П’ятірки", "Швидке блокове", "Дуель"] in too_long(crowded)

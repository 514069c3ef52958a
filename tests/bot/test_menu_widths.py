"""The menus and the group lobby fit a narrow phone in every language: no label is cut short with "…"."""

from __future__ import annotations

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.display import keyboards
from bot.model.game import Game, GameState, TableDoc
from bot.words.i18n import LANGUAGES, speaking
from engine.rules import PRESETS
from storage import GameRow, GameStatus

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


def lobby(preset: str, seats: int) -> Game:
    row = GameRow(1, -(10**13), "group", GameStatus.LOBBY, preset, 7, 3, {}, 0.0, 0.0)
    return Game(row, TableDoc(seats=(None,) * seats, game=GameState()), None)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_lobby_button_fits_its_row(language: str) -> None:
    with speaking(language):
        lobbies = [
            keyboards.lobby_markup(lobby(preset, seats))
            for preset, rules in PRESETS.items()
            for seats in range(rules.min_seats, rules.max_seats + 1)
        ]
        assert [row for markup in lobbies for row in too_long(markup)] == []


def test_the_add_computer_row_drops_its_space_only_where_it_does_not_fit() -> None:
    with speaking("en"):
        assert keyboards.add_computer_labels() == ["+🤖 Easy", "+🤖 Medium", "+🤖 Hard"]
    with speaking("uk"):
        assert keyboards.add_computer_labels() == ["+🤖Легкий", "+🤖Середній", "+🤖Складний"]  # "+🤖 Середній" was cut


def test_a_long_rule_set_name_is_caught() -> None:
    with speaking("uk"):
        three_a_row = keyboards.preset_rows(lambda preset: preset)
        flat = [button for row in three_a_row for button in row]
        crowded = InlineKeyboardMarkup(inline_keyboard=[flat[i : i + 3] for i in range(0, len(flat), 3)])
        assert ["П’ятірки", "Швидке блокове", "Дуель"] in too_long(crowded)

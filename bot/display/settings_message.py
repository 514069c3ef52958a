"""The /settings message of a group: its text and the buttons that change each setting.

Every button names the value it sets (the current one ticked), like the level row under a
private game: a double tap or an old keyboard sets the same thing twice, never something else.
"""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.model.chat_defaults import LANGUAGES, TURN_CHOICES, ChatDefaults
from bot.telegram.callbacks import SettingsTap
from bot.words import room_texts, settings_texts, texts
from engine import Rules
from engine.players import LEVELS

PRESETS_PER_ROW = 4


def settings_text(defaults: ChatDefaults, *, admin: bool) -> str:
    return settings_texts.settings_text(
        defaults.preset,
        defaults.seats_for(defaults.preset),
        defaults.level,
        defaults.turn_seconds,
        defaults.language,
        admin=admin,
    )


def saved_text(defaults: ChatDefaults, key: str) -> str:
    return settings_texts.setting_saved(
        key,
        defaults.preset,
        defaults.seats_for(defaults.preset),
        defaults.level,
        defaults.turn_seconds,
        defaults.language,
    )


def settings_markup(defaults: ChatDefaults) -> InlineKeyboardMarkup:
    def button(label: str, key: str, value: str, current: bool) -> InlineKeyboardButton:
        text = f"{label} {settings_texts.SETTINGS_MARK}" if current else label
        return InlineKeyboardButton(text=text, callback_data=SettingsTap(key=key, value=value).pack())

    presets = [
        button(texts.preset_title(preset), "preset", preset, preset == defaults.preset)
        for preset in texts.PRESET_TITLES
    ]
    rows = [presets[i : i + PRESETS_PER_ROW] for i in range(0, len(presets), PRESETS_PER_ROW)]
    rules = Rules.preset(defaults.preset)
    seats = defaults.seats_for(defaults.preset)
    if rules.max_seats > rules.min_seats:  # a choice only where the rules leave one
        rows.append(
            [
                button(settings_texts.seats_button(count), "seats", str(count), count == seats)
                for count in range(rules.min_seats, rules.max_seats + 1)
            ]
        )
    rows.append([button(f"🤖 {texts.level_title(level)}", "level", level, level == defaults.level) for level in LEVELS])
    rows.append(
        [
            button(settings_texts.clock_button(seconds), "clock", str(seconds), seconds == defaults.turn_seconds)
            for seconds in TURN_CHOICES
        ]
    )
    rows.append(
        [
            button(room_texts.LANGUAGE_NAMES[language], "lang", language, language == defaults.language)
            for language in LANGUAGES
        ]
    )
    return InlineKeyboardMarkup(inline_keyboard=rows)

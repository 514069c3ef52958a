"""The words of a group's /settings, of /language, of idle games and of /new while a game runs."""

from __future__ import annotations

from bot.words.i18n import _, ngettext
from bot.words.room_texts import LANGUAGE_NAMES
from bot.words.texts import level_title, preset_title

SETTINGS_MARK = "✓"


def settings_private() -> str:
    return _(
        "Settings belong to a group: type /settings there. The group's administrators choose the rule set "
        "and options of new games, the turn clock and the language."
    )


def seats_button(count: int) -> str:
    return ngettext("{count} seat", "{count} seats", count).format(count=count)


def clock_button(seconds: int) -> str:
    return _("⏱ Off") if seconds <= 0 else _("⏱ {seconds} s").format(seconds=seconds)


def settings_text(preset: str, seats: int, level: str, turn_seconds: int, language: str, *, admin: bool) -> str:
    if turn_seconds <= 0:
        clock = _("Turn clock: none.")
    else:
        clock = _("Turn clock: {seconds} s a turn.").format(seconds=turn_seconds)
    games = ngettext(
        "New games (/new): <b>{preset}</b>, {count} seat; free seats get 🤖 {level} computer players.",
        "New games (/new): <b>{preset}</b>, {count} seats; free seats get 🤖 {level} computer players.",
        seats,
    ).format(preset=preset_title(preset), count=seats, level=level_title(level))
    note = _("Tap a button to change a setting.") if admin else _("Only the chat's administrators can change these.")
    speaks = _("Language: {language}.").format(language=LANGUAGE_NAMES.get(language, language))
    return _("<b>Settings of this chat</b>") + f"\n{games}\n{clock}\n{speaks}\n\n{note}"


def setting_saved(key: str, preset: str, seats: int, level: str, turn_seconds: int, language: str) -> str:
    """The answer to a settings tap that changed something."""
    if key == "preset":
        return _("New games will be {preset}.").format(preset=preset_title(preset))
    if key == "seats":
        return ngettext(
            "New {preset} games will have {count} seat.", "New {preset} games will have {count} seats.", seats
        ).format(preset=preset_title(preset), count=seats)
    if key == "level":
        return _("Free seats will get {level} computer players.").format(level=level_title(level))
    if key == "clock":
        if turn_seconds <= 0:
            return _("New games will have no turn clock.")
        return _("A turn will last {seconds} s.").format(seconds=turn_seconds)
    return _("Language: {language}.").format(language=LANGUAGE_NAMES.get(language, language))


def language_prompt() -> str:
    return _("Choose the language I speak to you in:")


def language_chosen(language: str) -> str:
    return _("I will speak {language} with you.").format(language=LANGUAGE_NAMES.get(language, language))


def game_running_here(lobby: bool) -> str:
    """The reply to /new while a game is open: it answers the lobby or board message it points to."""
    if lobby:
        return _("A game is already open in this chat (this one): tap Join to play in it.")
    return _("A game is being played in this chat (this one); a new one can start when it is over.")

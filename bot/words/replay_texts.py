"""The words of 🎬 Replay: the button, the animation's caption and round titles, the refusals."""

from __future__ import annotations

from bot.words.i18n import _
from bot.words.texts import preset_title


def replay_button() -> str:
    return _("🎬 Replay")


def round_title(number: int) -> str:
    """Drawn under a round's deal in the animation."""
    return _("Round {number}").format(number=number)


def replay_caption(number: int, preset: str, date: str) -> str:
    return _("🎬 Game #{number} ({preset}, {date}), move by move.").format(
        number=number, preset=preset_title(preset), date=date
    )


def replay_coming() -> str:
    return _("🎬 The replay is being drawn; it comes in a moment.")


def replay_busy() -> str:
    return _("A replay is being drawn for this chat already; it comes in a moment.")


def replay_sent_before(number: int) -> str:
    """A tap's answer (no message: it costs the chat nothing) once the replay is in the chat."""
    return _("🎬 Game #{number}'s replay is in this chat already: scroll up to it.").format(number=number)


def replay_here(number: int) -> str:
    """A reply to the replay sent before, to /replay for the same game."""
    return _("🎬 Here it is: game #{number}'s replay, sent to this chat before (tap the quote to go to it).").format(
        number=number
    )


def replay_how() -> str:
    return _("Type /replay followed by a game's number from /history, or /replay for the last one.")


def replay_failed() -> str:
    return _("Sorry, the replay could not be made. Please try again later.")


def replay_nothing(in_chat: bool) -> str:
    if in_chat:
        return _("No game has been played to the end in this chat yet, so there is nothing to replay.")
    return _("You have not finished a game yet, so there is nothing to replay.")

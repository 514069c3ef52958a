"""The words of 📈 Review: the button, the heading, each costly move, the refusals."""

from __future__ import annotations

from bot.words.i18n import _
from bot.words.table_texts import end_label
from bot.words.texts import preset_title, tile_text
from engine import Move


def review_button() -> str:
    return _("📈 Review")


def review_heading(number: int, preset: str) -> str:
    return _(
        "📈 Game #{number} ({preset}): the moves that cost you the most, as the hard computer player judges them"
        " from what you knew at the time."
    ).format(number=number, preset=preset_title(preset))


def review_none(number: int, preset: str) -> str:
    return _(
        "📈 Game #{number} ({preset}): no clear mistakes — each of your moves was as good as the hard computer"
        " player's, or nearly."
    ).format(number=number, preset=preset_title(preset))


def move_words(move: Move) -> str:
    tile = tile_text(move.tile)
    return tile if move.end is None else f"{tile} {end_label(move.end.value)}"


def mistake_in_points(round_number: int, move_number: int, played: Move, better: Move, points: float) -> str:
    return _(
        "Round {round}, your move {move}: you played {played}; {better} was better, by about {points} points."
    ).format(
        round=round_number, move=move_number, played=move_words(played), better=move_words(better), points=round(points)
    )


def mistake_in_chance(round_number: int, move_number: int, played: Move, better: Move, chance: float) -> str:
    return _(
        "Round {round}, your move {move}: you played {played}; {better} was better: it gave you a {percent}% better"
        " chance to win the round."
    ).format(
        round=round_number,
        move=move_number,
        played=move_words(played),
        better=move_words(better),
        percent=max(1, round(chance * 100)),
    )


def review_coming(in_private: bool) -> str:
    """Said when the review is asked for, or asked again while it is being drawn."""
    if in_private:
        return _("📈 Your review is being drawn; it comes in a moment.")
    return _("📈 Your review is on its way to our private chat.")


def review_sent_before(number: int, in_private: bool) -> str:
    """A tap's answer once the review was sent."""
    if in_private:
        return _("📈 Your review of game #{number} is in this chat already: scroll up to it.").format(number=number)
    return _("📈 Your review of game #{number} is in our private chat already.").format(number=number)


def review_here(number: int) -> str:
    """A reply to the review sent before, to /review for the same game in the private chat."""
    return _("📈 Here it is: your review of game #{number}, sent before (tap the quote to go to it).").format(
        number=number
    )


def review_how() -> str:
    return _("Type /review followed by a game's number from /history, or /review for your last one.")


def review_nothing(in_chat: bool) -> str:
    if in_chat:
        return _("No game has been played to the end in this chat yet, so there is nothing to review.")
    return _("You have not finished a game yet, so there is nothing to review.")

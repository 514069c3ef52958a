"""The words of a hint (💡 under a hand): the button, the answer and its reason, the lobby's switch."""

from __future__ import annotations

from bot.words.i18n import _
from bot.words.table_texts import end_label
from bot.words.texts import tile_text
from engine.hints import Hint, Reason


def hint_button() -> str:
    return _("💡 Hint")


def lobby_hints_button(on: bool) -> str:
    return _("💡 Hints: on") if on else _("💡 Hints: off")


def lobby_hints_line() -> str:
    return _("💡 Hints are on: this game will not be rated.")


def hint_answer(hint: Hint, *, ends: int) -> str:
    """The alert a hint is given in (Telegram shows at most 200 characters): the move, then why.

    ``ends``: how many open ends the tile fits (0: it leads), so the end is named only when
    there is one to choose."""
    tile = tile_text(hint.move.tile)
    if ends == 0:
        move = _("Lead {tile}").format(tile=tile)
    elif ends == 1 or hint.move.end is None:
        move = _("Play {tile}").format(tile=tile)
    else:
        move = _("Play {tile} {end}").format(tile=tile, end=end_label(hint.move.end.value))
    return f"💡 {move}: {reason_text(hint)}"


def reason_text(hint: Hint) -> str:
    reason = hint.reason
    if reason is Reason.ONLY:
        return _("it is the only tile that fits.")
    if reason is Reason.DOMINO:
        return _("it is your last tile — domino!")
    if reason is Reason.SCORES:
        return _("the ends then add up to {points}, so you score {points}.").format(points=hint.points)
    if reason is Reason.BLOCKS:
        return _("the next player has shown they have no {number}, so they must draw or pass.").format(
            number=hint.number
        )
    if reason is Reason.DOUBLE:
        return _("it sheds a heavy double, which fits only one number.")
    if reason is Reason.LONG:
        return _("you hold the most {number}s, and it keeps a {number} open for you.").format(number=hint.number)
    if reason is Reason.HEAVY:
        return _("it sheds the most pips, in case the round is blocked.")
    return _("it leaves you the most tiles that fit next turn.")

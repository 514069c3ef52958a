"""The names of the seats as a reader sees them.

A computer seat's name is stored in English as it was made ("🤖 Hard 2", "🤖 Computer") and said
in the reader's language each time it is shown (bot.words.texts.computer_name_shown); a person's
name is shown as it is.  Call these while speaking to the reader's chat.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.model.game import Seat
from bot.words import texts
from renderer.names import short_names

FREE_SEAT = "—"


def shown_name(seat: Seat) -> str:
    """The seat's name as the reader sees it: a computer's made-up name ("🤖 Hard 2") in their language;
    a private game's computer partner by the level it plays at now ("🤖 Medium")."""
    if not seat.is_computer:
        return seat.name
    if seat.name == texts.PARTNER_NAME and seat.level is not None:
        # "Your partner: 🤖 Partner" said nothing; the level changes during the game, so it is not stored.
        return f"🤖 {texts.level_title(seat.level)}"
    return texts.computer_name_shown(seat.name)


def shown_names(seats: Iterable[Seat | None]) -> list[str]:
    """Every seat's shown name, in seat order; a free seat is "—"."""
    return [shown_name(seat) if seat else FREE_SEAT for seat in seats]


# A seat's card on the table page of a 390 px phone, four to a row, holds about this many characters.
PAGE_NAME_CHARACTERS = 9


def page_short_names(names: list[str]) -> list[str]:
    """The names the table page shows where the whole name does not fit: cut as the pictures cut them
    (renderer.names), so that no two seats read alike ("🤖 Комп… 1", "🤖 Комп… 2")."""
    return short_names(names, lambda text: len(text) <= PAGE_NAME_CHARACTERS)

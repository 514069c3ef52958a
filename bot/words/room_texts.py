"""The words of playing with a friend (bot/table/rooms.py) and of rematches."""

from __future__ import annotations

from bot.words.i18n import _
from bot.words.texts import escape, lobby_closed, preset_title

LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ru": "Русский", "uk": "Українська"}  # i18n: same in every language


def friend_button() -> str:
    return _("👥 Play with a friend")


def menu_prompt() -> str:
    return _("Choose a rule set to play against the computer, or play with a friend:")


def friend_prompt() -> str:
    return _(
        "<b>Play with a friend</b>\n"
        "Choose the rules. I will give you an invitation link: the first person to open it takes the "
        "second seat, and you both play here, in your private chats with me."
    )


def room_share_button() -> str:
    return _("📨 Send the link")


def room_new_link_button() -> str:
    return _("🔄 New link")


def room_cancel_button() -> str:
    return _("✖ Close the room")


def room_share_text() -> str:
    return _("Let's play dominoes!")


def rematch_closed_button() -> str:
    return _("🔁 Rematch is no longer open")


def room_text(preset: str, link: str) -> str:
    """The creator's room message while the second seat is free."""
    return _(
        "<b>Dominoes with a friend: {preset}</b>\n"
        "Send this link to a friend:\n{link}\n\n"
        "The first person to open it takes the second seat and the game starts. "
        "“New link” makes a new one; the old link then stops working."
    ).format(preset=preset_title(preset), link=escape(link))


def room_started(preset: str, names: list[str]) -> str:
    return lobby_closed(
        _("{preset}: the game has started: {names}.").format(
            preset=preset_title(preset), names=", ".join(escape(n) for n in names)
        )
    )


def room_closed() -> str:
    return lobby_closed(_("The room is closed; its link no longer works."))


def room_joined(creator: str, preset: str) -> str:
    return _("You are playing {preset} with {creator}. Your hand comes here; have fun!").format(
        preset=preset_title(preset), creator=escape(creator)
    )


def room_waiting(link: str) -> str:
    return _("Nobody has opened your invitation yet. Your link:\n{link}").format(link=escape(link))


def rematch_button(confirmed: int, people: int) -> str:
    if not confirmed:
        return _("🔁 Rematch")
    return _("🔁 Rematch ({confirmed}/{people})").format(confirmed=confirmed, people=people)


def rematch_line(names: list[tuple[str, bool]]) -> str:
    """ "Rematch: Ann ✓, Bob …": who has confirmed so far."""
    return _("Rematch: {names}").format(
        names=", ".join(f"{escape(name)} {'✓' if done else '…'}" for name, done in names)
    )


def rematch_started_line(names: list[str]) -> str:
    return _("Rematch: {names} — the new game has started.").format(names=", ".join(f"{escape(n)} ✓" for n in names))


def rematch_closed_line() -> str:
    return _("Rematch: no longer open (another game was started).")

"""The words of the turn clock and of absence: /leave, /kick, /kill, "Take my seat back"."""

from __future__ import annotations

from bot.words.i18n import _
from bot.words.texts import escape, lobby_closed


def take_back_button() -> str:
    return _("🙋 Take my seat back")


def killed_line() -> str:
    return _("⛔ This game was ended with /kill.")


def hand_away_line() -> str:
    return _("🤖 A computer plays your seat for now.")


def kick_how() -> str:
    return _("Reply with /kick to a message of the player whose seat a computer should take.")


def lobby_clock_button(seconds: int) -> str:
    """The lobby's clock button (the creator taps it: off, 30, 60, 120 s)."""
    return _("⏱ No turn clock") if seconds <= 0 else _("⏱ {seconds} s per move").format(seconds=seconds)


def clock_suffix(seconds: int) -> str:
    """After "▶ Ann to play" on the board: how long a move may take."""
    return " · " + _("⏱ {seconds} s per move").format(seconds=seconds)


def your_clock(seconds: int) -> str:
    """In the hand of the person to play."""
    return _("⏱ You have {seconds} s.").format(seconds=seconds)


def away_line(names: list[str]) -> str:
    return _("🤖 A computer plays for {names}.").format(names=", ".join(escape(name) for name in names))


def away_notice(name: str, reason: str, by: str | None = None) -> str:
    """Told in the group when a computer takes a person's seat."""
    who = f"<b>{escape(name)}</b>"
    if reason == "timeout":
        text = _("⏱ {who} ran out of time twice in a row: a computer plays for them until they take their seat back.")
    elif reason == "left":
        text = _("🚪 {who} left the table: a computer plays for them until they take their seat back.")
    elif reason == "blocked":
        text = _("📵 I can't send {who} their tiles (they blocked me), so a computer plays for them.")
    elif by is None:
        text = _("🤖 {who}'s seat was given to a computer player.")
    else:
        text = _("🤖 {by} gave {who}'s seat to a computer player.")
    return text.format(who=who, by=escape(by or ""))


def back_notice(name: str) -> str:
    return _("🙋 <b>{name}</b> is back at the table.").format(name=escape(name))


def killed_notice(by: str) -> str:
    return _("⛔ {name} ended the game.").format(name=escape(by))


def lobby_killed(by: str) -> str:
    return lobby_closed(_("{name} ended the game.").format(name=escape(by)))


def timeout_private(went_away: bool) -> str:
    """To the person whose time ran out (their move was made for them)."""
    if went_away:
        return _(
            "⏱ Your time ran out twice in a row, so a computer plays your seat now. "
            "Tap the button whenever you want it back."
        )
    return _("⏱ Your time ran out, so I played for you. If it runs out again, a computer takes your seat.")


def left_private() -> str:
    return _("🚪 You left the table: a computer plays your seat now. Tap the button whenever you want it back.")


def back_private() -> str:
    return _("🙋 You are back at the table.")


def kicked_private(by: str) -> str:
    return _("🤖 {name} gave your seat in the game to a computer player.").format(name=escape(by))

"""The words of the table: the board's and a hand's captions, the last actions, a round's result."""

from __future__ import annotations

from bot.words.i18n import N_, _, ngettext
from bot.words.texts import escape, preset_title, tile_text
from engine import Drew, Event, Passed, Played

END_LABELS: dict[str, str] = {
    "left": N_("⬅ left"),
    "right": N_("right ➡"),
    "up": N_("⬆ up"),
    "down": N_("⬇ down"),
}


def end_label(end: str) -> str:
    return _(END_LABELS[end])


def join_button() -> str:
    return _("Join")


def leave_button() -> str:
    return _("Leave")


def start_button() -> str:
    return _("Start")


def cancel_button() -> str:
    return _("Cancel")


def lobby_seats_button(seats: int) -> str:
    return _("Seats: {count}").format(count=seats)


def my_hand_button() -> str:
    return _("🁢 My hand")


def play_again_button() -> str:
    return _("Play again")


def back_button() -> str:
    return _("↩ back")


def someone() -> str:
    return _("someone")


def match_title(preset: str, round_number: int, target: int | None) -> str:
    return _("<b>{preset}</b> · round {round} · to {target}").format(
        preset=preset_title(preset), round=round_number, target=target
    )


def round_over() -> str:
    return _("Round over")


def to_play(name: str) -> str:
    return _("▶ <b>{name}</b> to play").format(name=escape(name))


def boneyard_count(count: int) -> str:
    return ngettext("boneyard {count}", "boneyard {count}", count).format(count=count)


def score_line(scores: str) -> str:
    return _("Score: {scores}").format(scores=scores)


def open_table_button() -> str:
    return _("🎲 Open the table")


def your_turn() -> str:
    return _("▶ <b>Your turn!</b> Tap a tile to play it.")


def domino() -> str:
    return _("Domino!")


def fish() -> str:
    return _("Fish — the line is blocked.")


def draw_verdict() -> str:
    return _("A draw.")


def lowest_tie_verdict() -> str:
    return _("A tie for the lowest count: nobody scores.")


def shared_win(names: list[str]) -> str:
    return _("Shared win: {names}.").format(names=", ".join(escape(n) for n in names))


def round_winner(name: str, points: int) -> str:
    if points:
        return _("<b>{name}</b> wins the round (+{points}).").format(name=escape(name), points=points)
    return _("<b>{name}</b> wins the round.").format(name=escape(name))


def round_heading(number: int, how: str) -> str:
    return _("<b>Round {number}</b> · {how}").format(number=number, how=how)


def hand_left(name: str, tiles: str, pips: int) -> str:
    return ngettext("{name}: {tiles} ({count} pip)", "{name}: {tiles} ({count} pips)", pips).format(
        name=escape(name), tiles=tiles, count=pips
    )


def game_over() -> str:
    return _("<b>Game over.</b>")


def game_over_in_group(title: str | None) -> str:
    """The last line of a group game's hand in the player's private chat: the result is in the group."""
    if title:
        return _("🏁 The game is over: the result is in {group}").format(group=escape(title))
    return _("🏁 The game is over: the result is in the group")


def game_winner(name: str) -> str:
    return _("🏆 <b>{name} wins the game!</b>").format(name=escape(name))


def describe_events(events: list[Event], names: list[str], *, forced_lead: bool = False) -> list[str]:
    """Events in words, a draw folded into what followed it: "Ann drew 2 and passed".

    ``forced_lead``: the rules named the round's lead tile, so the bot placed it by itself
    (nobody tapped it) and its words say so: "Ann led 1-1 (forced)"."""
    words: list[str] = []
    index = 0
    while index < len(events):
        event = events[index]
        name = escape(names[event.seat])
        if type(event) is Drew:
            following = events[index + 1] if index + 1 < len(events) else None
            count = event.number
            if type(following) is Passed and following.seat == event.seat:
                words.append(
                    ngettext("{name} drew {count} and passed", "{name} drew {count} and passed", count).format(
                        name=name, count=count
                    )
                )
                index += 2
                continue
            if type(following) is Played and following.seat == event.seat:
                words.append(
                    ngettext(
                        "{name} drew {count} and played {move}", "{name} drew {count} and played {move}", count
                    ).format(name=name, count=count, move=_play_words(following))
                )
                index += 2
                continue
            words.append(ngettext("{name} drew {count}", "{name} drew {count}", count).format(name=name, count=count))
        elif type(event) is Passed:
            words.append(_("{name} passed").format(name=name))
        elif type(event) is Played and forced_lead and event.end is None:
            words.append(_("{name} led {tile} (forced)").format(name=name, tile=tile_text(event.tile)))
        elif type(event) is Played:
            words.append(_("{name} played {move}").format(name=name, move=_play_words(event)))
        index += 1
    return words


def _play_words(event: Played) -> str:
    tile = tile_text(event.tile)
    if event.end is not None:
        where = {
            "left": _("{tile} on the left"),
            "right": _("{tile} on the right"),
            "up": _("{tile} on the up end"),
            "down": _("{tile} on the down end"),
        }[event.end.value]
        tile = where.format(tile=tile)
    return f"{tile} (+{event.scored})" if event.scored else tile


def page_words() -> dict[str, str]:
    """The table page's own words (its banners, labels and tooltips), in the reader's language:
    sent with every frame, and before the first one from ``/webapp/words/<language>.json``."""
    return {
        "away": _("away"),
        "cannot_connect": _("The table cannot be reached: close it and open it again."),
        "computer": _("computer"),
        "connecting": _("Connecting…"),
        "no_game": _("No game to show: open the table from the game's message."),
        **launch_refusals(),
        "offline": _("No connection: trying again…"),
        "open_in_telegram": _("Open the table from Telegram."),
        "reconnecting": _("Reconnecting…"),
        "round_over": _("Round over"),
        "score": _("score"),
        "seconds": _("seconds"),
        "seconds_short": _("s"),
        "tiles": _("tiles in hand"),
        "your_turn": _("Your turn!"),
    }


def launch_refusals() -> dict[str, str]:
    """Why the server would not open the table to a page, one text per reason it gives
    (``launch_<reason>``; ``bot/webapp/PROTOCOL.md``): a link that was never valid is not told it expired."""
    return {
        "launch_missing": _("This table was opened without Telegram's launch data: open it again from the chat."),
        "launch_broken": _("This table's link is damaged: open it again from the chat."),
        "launch_forged": _("This table's link is not valid: open the table again from the chat."),
        "launch_expired": _("This table's link has expired: open it again from the chat."),
        "launch_ahead": _("The bot's clock is behind Telegram's, so the table cannot open yet: try again later."),
        "launch_no_user": _("Telegram did not say who you are: open the table from the game's message in the chat."),
        "launch_foreign_page": _("This table opens only from its own page: open it from the chat."),
        "launch_no_game": _("There is no such game: open the table from the game's message in the chat."),
        "launch_not_started": _("This game has not started yet: open the table once it is dealt."),
    }

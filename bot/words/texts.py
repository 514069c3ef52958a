"""The words every part of the bot shares: rule sets, levels, tiles, names, the menus and /help, through
gettext (bot/words/i18n.py; catalogues in locales/). Each feature's own words are in a module of
its own beside this one (table_texts, room_texts, settings_texts, manners_texts, command_texts,
score_texts, refusals).

Functions build words in the current language, so call them where the text is sent, inside the
right :func:`bot.words.i18n.speaking` block (the middleware sets the update's chat's language).
Sentences are whole msgids with named placeholders, never glued from fragments.
"""

from __future__ import annotations

import html
import re

from bot.words.i18n import N_, _, ngettext
from engine import Rules

PRESET_TITLES: dict[str, str] = {
    "classic": N_("Classic"),
    "draw": N_("Draw"),
    "block": N_("Block"),
    "fives": N_("All Fives"),
    "quickblock": N_("Quick block"),
    "duel": N_("Duel"),
    "hundred": N_("Hundred"),
    "goat": N_("Goat"),
    "partners": N_("Partners"),
}

PRESET_SUMMARIES: dict[str, str] = {
    "classic": N_(
        "2–4 players, 7 tiles each for two and 5 for three or four. The holder of 1-1 leads it "
        "(then 2-2 … 6-6, then 0-0; with no double, the heaviest tile). Draw from the boneyard until "
        "you can play. First to empty their hand wins; if nobody can play (a fish), the lowest pip "
        "count wins, and a tie for the lowest is a shared win. One round."
    ),
    "draw": N_(
        "2–4 players, 7 tiles each (6 with four players). A random player starts the first round "
        "with any tile, the round's winner the next. Draw until you can play. The round's winner scores "
        "the other hands' pips minus their own. First to 100 (two players) or 61 (three or four) wins."
    ),
    "block": N_(
        "2–4 players, 7 tiles each for two and 5 for three or four; nobody draws: with no tile "
        "that fits, you pass. The round's winner scores the other hands' pips minus their own. First "
        "to 100 (two players) or 61 (three or four) wins."
    ),
    "fives": N_(
        "2–4 players, 7 tiles each for two and 5 for three or four. The first double is a spinner "
        "that opens four ways. Whenever the open ends add up to a multiple of 5, the player scores it. "
        "The round's winner also scores the other hands' pips rounded to the nearest 5. First to 150 wins."
    ),
    "quickblock": N_(
        "Two players, 7 tiles each; the other 14 are never used. The highest double leads "
        "by itself. No drawing: with no tile that fits, you pass. First to empty their hand wins; in a "
        "fish the lower pip count wins, equal counts are a draw."
    ),
    "duel": N_(
        "Two players, 7 tiles each. The highest double leads by itself. Draw until you can play. "
        "Going out scores the opponent's pips; in a fish the lower count wins the difference."
    ),
    "hundred": N_(
        "Two players, 7 tiles each. The highest double leads by itself each round. Draw until you "
        "can play, but the last two boneyard tiles are never drawn. Going out scores the opponent's "
        "pips, a fish the difference. First to 100 wins."
    ),
    "goat": N_(
        "Four players in two teams, partners sitting opposite (seats 1 and 3 against 2 and 4); 7 tiles each, "
        "no drawing: with no tile that fits, you pass. The holder of 1-1 leads it; later rounds are led by "
        "whoever played the last tile. The team that goes out, or holds fewer pips in a fish, wins the round; "
        "the other team takes the pips in its own two hands as penalty points. The team that reaches 101 loses: "
        "they are the goats."
    ),
    "partners": N_(
        "Four players in two teams, partners sitting opposite (seats 1 and 3 against 2 and 4); 7 tiles each, "
        "no drawing: with no tile that fits, you pass. The 6-6 leads by itself; later rounds are led by the next "
        "seat. The team that goes out, or holds fewer pips in a fish, scores the pips in all four hands. "
        "First team to 200 wins."
    ),
}


LEVEL_TITLES: dict[str, str] = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard")}


# A computer seat's name is made when it sits down and stored in English ("🤖 Hard 2", "🤖 Computer");
# it is translated each time it is shown (bot.display.names.shown_name).
COMPUTER_NAME = re.compile(r"🤖 (Easy|Medium|Hard|Computer|Partner)( \d+)?")  # i18n: not shown
COMPUTER_WORD = N_("Computer")
PARTNER_WORD = N_("Partner")  # a private partnership game's computer partner, opposite the person
# The partner's stored name; it is shown as its level ("🤖 Medium", bot.display.names.shown_name).
PARTNER_NAME = f"🤖 {PARTNER_WORD}"


def computer_name_shown(stored: str) -> str:
    made = COMPUTER_NAME.fullmatch(stored)
    if made is None:
        return stored
    word = made.group(1)
    shown = _(word) if word in (COMPUTER_WORD, PARTNER_WORD) else level_title(word.lower())
    return f"🤖 {shown}{made.group(2) or ''}"


def escape(text: str) -> str:
    return html.escape(text, quote=False)


def levels_hint() -> str:
    return _("Easy plays like a beginner, Medium plays sensibly, Hard thinks ahead. You can change it during the game.")


def you_played(tile: object) -> str:
    """The toast that answers the tap of a tile that was played."""
    return _("✅ You played {tile}.").format(tile=tile_text(tile))


def tile_text(tile: object) -> str:
    text = str(tile)
    return f"[{text.replace('-', '|')}]"


def preset_title(preset: str) -> str:
    title = PRESET_TITLES.get(preset)
    return _(title) if title is not None else preset


def level_title(level: str) -> str:
    title = LEVEL_TITLES.get(level)
    return _(title) if title is not None else level


def opponents_prompt(preset: str) -> str:
    """Under the rules of ``preset``: the question the opponents-and-level buttons answer."""
    rules = Rules.preset(preset)
    if rules.has_teams:
        question = _("A computer partner sits opposite you, against two computer opponents. How strong?")
    elif rules.max_seats > 2:
        question = _("How many computer opponents, and how strong?")
    else:
        question = _("How strong should the computer be?")
    return f"{rules_text(preset)}\n\n{question}\n{levels_hint()}"


def level_set(level: str) -> str:
    """The answer to a tap on the level row."""
    return _("The computer now plays at {level} level.").format(level=level_title(level))


def level_already(level: str) -> str:
    return _("The computer already plays at {level} level.").format(level=level_title(level))


def help_text() -> str:
    return "\n\n".join(
        (
            _("<b>Dominoes</b>"),
            _(
                "In a group: /new starts a game (/new fives picks a rule set), players tap <b>Join</b>, "
                "the creator taps <b>Start</b>; empty seats get computer players (the creator picks Easy, Medium "
                "or Hard with the 🤖 buttons). The table is shown in the "
                "group; your hand comes to your private chat with me, where you tap a tile to play it."
            ),
            _(
                "In a private chat: /start, then play against the computer; the 🤖 buttons under the game "
                "change its level at any time. Or tap <b>Play with a friend</b> for an invitation link: the first "
                "person to open it takes the second seat, and you both play in your private chats with me."
            ),
            _(
                "Two against two: /new goat (Козёл) or /new partners opens a lobby of four, partners sitting "
                "opposite; tap the <b>Join</b> button of the team you want. Against the computer, you get a "
                "computer partner."
            ),
            _(
                "After a game in a group or with a friend, <b>Rematch</b> under the result plays again with the "
                "same table once every player has tapped it."
            ),
            _(
                "/rules — the rule sets\n/stats — your results\n/top — the best players\n"
                "/history — recent games\n/language — the language I speak to you\n/help — this text"
            ),
        )
    )


def rules_text(preset: str | None) -> str:
    if preset is None:
        lines = [f"<b>{preset_title(p)}</b> (/rules {p})" for p in PRESET_TITLES]
        return _("<b>Rule sets</b>") + "\n" + "\n".join(lines)
    return f"<b>{preset_title(preset)}</b>\n{_(PRESET_SUMMARIES[preset])}"


ECHO_LIMIT = 40  # characters of what someone typed that an answer repeats


def unknown_preset(word: str, command: str) -> str:
    """The answer to ``/<command> <word>`` for a rule set we do not have: the commands that would work."""
    known = ", ".join(f"/{command} {preset}" for preset in PRESET_TITLES)
    if len(word) > ECHO_LIMIT:  # "/new xxx…" of thousands of characters: the answer must fit a message
        word = word[: ECHO_LIMIT - 1] + "…"
    return _("I don't know the rule set “{word}”. Choose one of: {known}.").format(word=escape(word), known=known)


def greeting(name: str) -> str:
    return _(
        "Hello, {name}! Let's play dominoes.\n"
        "Play against the computer here, play with a friend through an invitation link, "
        "or add me to a group and type /new there to play with friends."
    ).format(name=escape(name))


def lobby_text(
    preset: str,
    rules: Rules,
    names: list[str | None],
    creator: str,
    fill_level: str | None = None,
    seat_lines: str | None = None,
) -> str:
    """The lobby; ``fill_level`` is the level Start gives the free seats (computer names carry theirs).
    ``seat_lines`` replaces the numbered list of seats (a partnership lobby lists them by team)."""
    seats = seat_lines or "\n".join(f"{i + 1}. {escape(name) if name else '—'}" for i, name in enumerate(names))
    title = ngettext(
        "<b>Dominoes: {preset}</b> · {count} seat", "<b>Dominoes: {preset}</b> · {count} seats", len(names)
    ).format(preset=preset_title(preset), count=len(names))
    if seat_lines is not None:  # a team's Join button seats its tapper: the seat lines say so
        if fill_level is None:
            invite = _("Started by {creator}. Free seats get computer players.")
        else:
            invite = _("Started by {creator}. Free seats get 🤖 {level} computer players.")
    elif fill_level is None:
        invite = _("Started by {creator}. Tap <b>Join</b> to sit down; free seats get computer players.")
    else:
        invite = _("Started by {creator}. Tap <b>Join</b> to sit down; free seats get 🤖 {level} computer players.")
    invite = invite.format(creator=escape(creator), level=level_title(fill_level or ""))
    return f"{title}\n{invite}\n\n{seats}"


def lobby_closed(reason: str) -> str:
    return _("<b>Dominoes</b>") + f"\n{reason}"


def game_cancelled() -> str:
    return _("The game was cancelled.")


def game_started(names: list[str]) -> str:
    return _("The game has started: {names}.").format(names=", ".join(escape(n) for n in names))


def no_open_game() -> str:
    return _("There is no open game here. Type /new to start one.")


def open_link_to_start(link: str) -> str:
    return _("Open {link} and tap Start to take your seat.").format(link=link)


def open_link_to_sit(name: str, link: str) -> str:
    return _("{name}, open {link} to take your seat.").format(name=escape(name), link=link)


def choose_rule_set() -> str:
    return _("Choose a rule set:")

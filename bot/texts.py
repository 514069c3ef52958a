"""Every word the bot shows, in one place (English for now; the translations issue moves them to gettext)."""

from __future__ import annotations

import html

from engine import Drew, Event, Passed, Played, Rules

PRESET_TITLES: dict[str, str] = {
    "classic": "Classic",
    "draw": "Draw",
    "block": "Block",
    "fives": "All Fives",
    "quickblock": "Quick block",
    "duel": "Duel",
    "hundred": "Hundred",
}

PRESET_SUMMARIES: dict[str, str] = {
    "classic": "2–4 players, 7 tiles each for two and 5 for three or four. The holder of 1-1 leads it "
    "(then 2-2 … 6-6, then 0-0; with no double, the heaviest tile). Draw from the boneyard until "
    "you can play. First to empty their hand wins; if nobody can play (a fish), the lowest pip "
    "count wins, and a tie for the lowest is a shared win. One round.",
    "draw": "2–4 players, 7 tiles each (6 with four players). A random player starts the first round "
    "with any tile, the round's winner the next. Draw until you can play. The round's winner scores "
    "the other hands' pips minus their own. First to 100 (two players) or 61 (three or four) wins.",
    "block": "2–4 players, 7 tiles each for two and 5 for three or four; nobody draws: with no tile "
    "that fits, you pass. The round's winner scores the other hands' pips minus their own. First "
    "to 100 (two players) or 61 (three or four) wins.",
    "fives": "2–4 players, 7 tiles each for two and 5 for three or four. The first double is a spinner "
    "that opens four ways. Whenever the open ends add up to a multiple of 5, the player scores it. "
    "The round's winner also scores the other hands' pips rounded to the nearest 5. First to 150 wins.",
    "quickblock": "Two players, 7 tiles each; the other 14 are never used. The highest double leads "
    "by itself. No drawing: with no tile that fits, you pass. First to empty their hand wins; in a "
    "fish the lower pip count wins, equal counts are a draw.",
    "duel": "Two players, 7 tiles each. The highest double leads by itself. Draw until you can play. "
    "Going out scores the opponent's pips; in a fish the lower count wins the difference.",
    "hundred": "Two players, 7 tiles each. The highest double leads by itself each round. Draw until you "
    "can play, but the last two boneyard tiles are never drawn. Going out scores the opponent's "
    "pips, a fish the difference. First to 100 wins.",
}


LEVEL_TITLES: dict[str, str] = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}

LEVELS_HINT = "Easy plays like a beginner, Medium plays sensibly, Hard thinks ahead. You can change it during the game."


def escape(text: str) -> str:
    return html.escape(text, quote=False)


def tile_text(tile: object) -> str:
    text = str(tile)
    return f"[{text.replace('-', '|')}]"


def preset_title(preset: str) -> str:
    return PRESET_TITLES.get(preset, preset)


def level_title(level: str) -> str:
    return LEVEL_TITLES.get(level, level)


def opponents_prompt(preset: str) -> str:
    """Under the rules of ``preset``: the question the opponents-and-level buttons answer."""
    several = Rules.preset(preset).max_seats > 2
    question = "How many computer opponents, and how strong?" if several else "How strong should the computer be?"
    return f"{rules_text(preset)}\n\n{question}\n{LEVELS_HINT}"


def level_set(level: str) -> str:
    """The answer to a tap on the level row."""
    return f"The computer now plays at {level_title(level)} level."


def level_already(level: str) -> str:
    return f"The computer already plays at {level_title(level)} level."


def help_text() -> str:
    return (
        "<b>Dominoes</b>\n\n"
        "In a group: /new starts a game (/new fives picks a rule set), players tap <b>Join</b>, "
        "the creator taps <b>Start</b>; empty seats get computer players (the creator picks Easy, Medium "
        "or Hard with the 🤖 buttons). The table is shown in the "
        "group; your hand comes to your private chat with me, where you tap a tile to play it.\n\n"
        "In a private chat: /start, then play against the computer; the 🤖 buttons under the game "
        "change its level at any time.\n\n"
        "/rules — the rule sets\n/help — this text"
    )


def rules_text(preset: str | None) -> str:
    if preset is None:
        lines = [f"<b>{preset_title(p)}</b> (/rules {p})" for p in PRESET_TITLES]
        return "<b>Rule sets</b>\n" + "\n".join(lines)
    return f"<b>{preset_title(preset)}</b>\n{PRESET_SUMMARIES[preset]}"


def unknown_preset(word: str) -> str:
    known = ", ".join(PRESET_TITLES)
    return f"I don't know the rule set “{escape(word)}”. Choose one of: {known}."


def greeting(name: str) -> str:
    return (
        f"Hello, {escape(name)}! Let's play dominoes.\n"
        "Play against the computer here, or add me to a group and type /new there to play with friends."
    )


def lobby_text(preset: str, rules: Rules, names: list[str | None], creator: str, fill_level: str | None = None) -> str:
    """The lobby; ``fill_level`` is the level Start gives the free seats (computer names carry theirs)."""
    seats = "\n".join(f"{i + 1}. {escape(name) if name else '—'}" for i, name in enumerate(names))
    free = "free seats get computer players"
    if fill_level is not None:
        free = f"free seats get 🤖 {level_title(fill_level)} computer players"
    return (
        f"<b>Dominoes: {preset_title(preset)}</b> · {len(names)} seats\n"
        f"Started by {escape(creator)}. Tap <b>Join</b> to sit down; {free}.\n\n"
        f"{seats}"
    )


def lobby_closed(reason: str) -> str:
    return f"<b>Dominoes</b>\n{reason}"


ALERTS: dict[str, str] = {
    "no_game": "This game is over or no longer exists.",
    "stale": "That was an older view of the game — here is the current one.",
    "not_your_game": "You are not playing in this game.",
    "not_your_turn": "It is not your turn yet.",
    "does_not_fit": "That tile does not fit any open end.",
    "not_in_hand": "That tile is not in your hand.",
    "forced_lead": "This round must be led with the marked tile.",
    "seat_taken": "You are already seated.",
    "lobby_full": "All seats are taken.",
    "lobby_closed": "This lobby is closed.",
    "creator_only": "Only the player who opened the game can do that.",
    "need_private": "Open a private chat with me first, then tap Join again.",
    "joined": "You are in! Your hand will come to our private chat.",
    "left": "You left the lobby.",
    "not_seated": "You are not seated in this game.",
    "hand_sent": "Your hand is in our private chat.",
    "game_running": "A game is already running in this chat.",
    "broken": "Something went wrong; nothing was changed. Please try again.",
    "choose_end": "This tile fits more than one end: choose one.",
    "unknown_level": "There is no such computer level.",
    "level_private_only": "The computer's level can be changed only in a private game against the computer.",
    "ok": "",
}


def alert(key: str) -> str:
    return ALERTS.get(key, ALERTS["broken"])


def describe_events(events: list[Event], names: list[str]) -> list[str]:
    """Events in words, a draw folded into what followed it: "Ann drew 2 and passed"."""
    words: list[str] = []
    index = 0
    while index < len(events):
        event = events[index]
        name = escape(names[event.seat])
        if type(event) is Drew:
            following = events[index + 1] if index + 1 < len(events) else None
            drew = f"drew {event.number}"
            if type(following) is Passed and following.seat == event.seat:
                words.append(f"{name} {drew} and passed")
                index += 2
                continue
            if type(following) is Played and following.seat == event.seat:
                words.append(f"{name} {drew} and played {_play_words(following)}")
                index += 2
                continue
            words.append(f"{name} {drew}")
        elif type(event) is Passed:
            words.append(f"{name} passed")
        elif type(event) is Played:
            words.append(f"{name} played {_play_words(event)}")
        index += 1
    return words


def _play_words(event: Played) -> str:
    where = "" if event.end is None else f" on the {event.end.value}"
    scored = f" (+{event.scored})" if event.scored else ""
    return f"{tile_text(event.tile)}{where}{scored}"

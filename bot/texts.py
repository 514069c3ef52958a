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


def you_played(tile: object) -> str:
    """The toast that answers the tap of a tile that was played."""
    return f"✅ You played {tile_text(tile)}."


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
        "change its level at any time. Or tap <b>Play with a friend</b> for an invitation link: the first "
        "person to open it takes the second seat, and you both play in your private chats with me.\n\n"
        "After a game in a group or with a friend, <b>Rematch</b> under the result plays again with the "
        "same table once every player has tapped it.\n\n"
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
        "Play against the computer here, play with a friend through an invitation link, "
        "or add me to a group and type /new there to play with friends."
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


# --- play with a friend (bot/rooms.py) and rematches (bot/rematch.py) ------------------------

FRIEND_BUTTON = "👥 Play with a friend"
MENU_PROMPT = "Choose a rule set to play against the computer, or play with a friend:"
FRIEND_PROMPT = (
    "<b>Play with a friend</b>\n"
    "Choose the rules. I will give you an invitation link: the first person to open it takes the "
    "second seat, and you both play here, in your private chats with me."
)
BACK_BUTTON = "↩ back"
ROOM_SHARE_BUTTON = "📨 Send the link"
ROOM_NEW_LINK_BUTTON = "🔄 New link"
ROOM_CANCEL_BUTTON = "✖ Close the room"
ROOM_SHARE_TEXT = "Let's play dominoes!"
REMATCH_BUTTON = "🔁 Rematch"
REMATCH_CLOSED_BUTTON = "🔁 Rematch is no longer open"


def room_text(preset: str, link: str) -> str:
    """The creator's room message while the second seat is free."""
    return (
        f"<b>Dominoes with a friend: {preset_title(preset)}</b>\n"
        f"Send this link to a friend:\n{escape(link)}\n\n"
        "The first person to open it takes the second seat and the game starts. "
        "“New link” makes a new one; the old link then stops working."
    )


def room_started(preset: str, names: list[str]) -> str:
    return lobby_closed(f"{preset_title(preset)}: the game has started: " + ", ".join(escape(n) for n in names) + ".")


def room_closed() -> str:
    return lobby_closed("The room is closed; its link no longer works.")


def room_joined(creator: str, preset: str) -> str:
    return f"You are playing {preset_title(preset)} with {escape(creator)}. Your hand comes here; have fun!"


def room_waiting(link: str) -> str:
    return f"Nobody has opened your invitation yet. Your link:\n{escape(link)}"


def rematch_button(confirmed: int, people: int) -> str:
    return REMATCH_BUTTON if not confirmed else f"{REMATCH_BUTTON} ({confirmed}/{people})"


def rematch_line(names: list[tuple[str, bool]]) -> str:
    """ "Rematch: Ann ✓, Bob …": who has confirmed so far."""
    return "Rematch: " + ", ".join(f"{escape(name)} {'✓' if done else '…'}" for name, done in names)


def rematch_started_line(names: list[str]) -> str:
    return "Rematch: " + ", ".join(f"{escape(name)} ✓" for name in names) + " — the new game has started."


REMATCH_CLOSED_LINE = "Rematch: no longer open (another game was started)."


ALERTS.update(
    {
        "room_unknown": "This invitation does not exist (any more).",
        "room_old_link": "This invitation link was replaced by a newer one. Ask your friend for the new link.",
        "room_taken": "Sorry, someone else has already taken this seat. Ask your friend to invite you to a new game.",
        "room_closed": "This room is closed. Ask your friend for a new invitation.",
        "room_running": "You are playing with a friend already; finish that game first.",
        "room_seat_free": "Your friend has not opened the link yet.",
        "room_new_link": "Here is a new link; the old one no longer works.",
        "room_own_game_over": "That game is over. Start a new one with /start.",
        "seat_back": "Here is your hand again.",
        "rematch_not_player": "Only the players of this game can ask for a rematch.",
        "rematch_closed": "This rematch is no longer open.",
        "rematch_started": "The rematch has already started.",
        "rematch_confirmed": "You are in for a rematch; waiting for the others.",
        "rematch_again": "You have already confirmed; waiting for the others.",
        "rematch_go": "Everyone is in: the rematch starts!",
    }
)


# --- chat settings (/settings), idle games, /new while a game runs (bot/chat_settings.py) ---

LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ru": "Русский", "uk": "Українська"}
SETTINGS_MARK = "✓"
SETTINGS_PRIVATE = (
    "Settings belong to a group: type /settings there. The group's administrators choose the rule set "
    "and options of new games, the turn clock and the language."
)
SETTINGS_ADMINS_NOTE = "Tap a button to change a setting."
SETTINGS_OTHERS_NOTE = "Only the chat's administrators can change these."


def turn_clock_title(seconds: int) -> str:
    return "off" if seconds <= 0 else f"{seconds} s"


def seats_button(count: int) -> str:
    return f"{count} seats"


def clock_button(seconds: int) -> str:
    return "⏱ Off" if seconds <= 0 else f"⏱ {seconds} s"


def settings_text(preset: str, seats: int, level: str, turn_seconds: int, language: str, *, admin: bool) -> str:
    clock = "no turn clock" if turn_seconds <= 0 else f"{turn_seconds} s a turn"
    return (
        "<b>Settings of this chat</b>\n"
        f"New games (/new): <b>{preset_title(preset)}</b>, {seats} seats; "
        f"free seats get 🤖 {level_title(level)} computer players.\n"
        f"Turn clock: {clock}.\n"
        f"Language: {LANGUAGE_NAMES.get(language, language)}.\n\n"
        + (SETTINGS_ADMINS_NOTE if admin else SETTINGS_OTHERS_NOTE)
    )


def setting_saved(key: str, preset: str, seats: int, level: str, turn_seconds: int, language: str) -> str:
    """The answer to a settings tap that changed something."""
    if key == "preset":
        return f"New games will be {preset_title(preset)}."
    if key == "seats":
        return f"New {preset_title(preset)} games will have {seats} seats."
    if key == "level":
        return f"Free seats will get {level_title(level)} computer players."
    if key == "clock":
        return "New games will have no turn clock." if turn_seconds <= 0 else f"A turn will last {turn_seconds} s."
    return f"Language: {LANGUAGE_NAMES.get(language, language)}."


def game_running_here(lobby: bool) -> str:
    """The reply to /new while a game is open: it answers the lobby or board message it points to."""
    if lobby:
        return "A game is already open in this chat (this one): tap Join to play in it."
    return "A game is being played in this chat (this one); a new one can start when it is over."


ALERTS.update(
    {
        "settings_admins_only": "Only the chat's administrators can change the settings.",
        "settings_same": "That is already the setting.",
        "idle_closed": "This game was closed after seven days without a move.",
    }
)


# --- the turn clock and absence: /leave, /kick, /kill (bot/clock.py, bot/absence.py, bot/manners.py) ---

TAKE_BACK_BUTTON = "🙋 Take my seat back"
KILLED_LINE = "⛔ This game was ended with /kill."
HAND_AWAY_LINE = "🤖 A computer plays your seat for now."
KICK_HOW = "Reply with /kick to a message of the player whose seat a computer should take."
NO_GAME_HERE = "There is no game here right now. Type /new to start one."


def lobby_clock_button(seconds: int) -> str:
    """The lobby's clock button (the creator taps it: off, 30, 60, 120 s)."""
    return "⏱ No turn clock" if seconds <= 0 else f"⏱ {seconds} s per move"


def clock_suffix(seconds: int) -> str:
    """After "▶ Ann to play" on the board: how long a move may take."""
    return f" · ⏱ {seconds} s per move"


def your_clock(seconds: int) -> str:
    """In the hand of the person to play."""
    return f"⏱ You have {seconds} s."


def away_line(names: list[str]) -> str:
    return "🤖 A computer plays for " + ", ".join(escape(name) for name in names) + "."


def away_notice(name: str, reason: str, by: str | None = None) -> str:
    """Told in the group when a computer takes a person's seat."""
    who = f"<b>{escape(name)}</b>"
    if reason == "timeout":
        return f"⏱ {who} ran out of time twice in a row: a computer plays for them until they take their seat back."
    if reason == "left":
        return f"🚪 {who} left the table: a computer plays for them until they take their seat back."
    if reason == "blocked":
        return f"📵 I can't send {who} their tiles (they blocked me), so a computer plays for them."
    return f"🤖 {escape(by or 'Someone')} gave {who}'s seat to a computer player."


def back_notice(name: str) -> str:
    return f"🙋 <b>{escape(name)}</b> is back at the table."


def killed_notice(by: str) -> str:
    return f"⛔ {escape(by)} ended the game."


def lobby_killed(by: str) -> str:
    return lobby_closed(f"{escape(by)} ended the game.")


def timeout_private(went_away: bool) -> str:
    """To the person whose time ran out (their move was made for them)."""
    if went_away:
        return (
            "⏱ Your time ran out twice in a row, so a computer plays your seat now. "
            "Tap the button whenever you want it back."
        )
    return "⏱ Your time ran out, so I played for you. If it runs out again, a computer takes your seat."


LEFT_PRIVATE = "🚪 You left the table: a computer plays your seat now. Tap the button whenever you want it back."
BLOCKED_PRIVATE = "📵 A computer played your seat while I could not reach you. Tap the button to take it back."
BACK_PRIVATE = "🙋 You are back at the table."


def kicked_private(by: str) -> str:
    return f"🤖 {escape(by)} gave your seat in the game to a computer player."


ALERTS.update(
    {
        "seat_away": "A computer plays your seat now. Tap “Take my seat back” in our private chat first.",
        "take_back_over": "This game is over, so there is no seat to take back.",
        "take_back_kicked": "Your seat was given to a computer player; it cannot be taken back.",
        "already_back": "You are already playing your seat.",
        "welcome_back": "Welcome back! Your seat is yours again.",
        "already_away": "A computer already plays your seat.",
        "kill_refused": "Only the player who opened the game or a chat administrator can end it.",
        "kick_refused": "Only the player who opened the game or a chat administrator can give a seat to a computer.",
        "kick_not_player": "That person is not playing in this game.",
        "no_game_here": NO_GAME_HERE,
    }
)

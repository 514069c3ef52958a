"""Every word the bot shows, in one place, through gettext (bot/words/i18n.py; catalogues in locales/).

Functions build words in the current language, so call them where the text is sent, inside the
right :func:`bot.words.i18n.speaking` block (the middleware sets the update's chat's language).
Sentences are whole msgids with named placeholders, never glued from fragments.
"""

from __future__ import annotations

import html
import re

from bot.words.i18n import N_, _, ngettext
from engine import Drew, Event, Passed, Played, Rules

PRESET_TITLES: dict[str, str] = {
    "classic": N_("Classic"),
    "draw": N_("Draw"),
    "block": N_("Block"),
    "fives": N_("All Fives"),
    "quickblock": N_("Quick block"),
    "duel": N_("Duel"),
    "hundred": N_("Hundred"),
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
}


LEVEL_TITLES: dict[str, str] = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard")}


# A computer seat's name is made when it sits down and stored in English ("🤖 Hard 2", "🤖 Computer");
# it is translated each time it is shown (bot.model.game.Seat.shown_name).
COMPUTER_NAME = re.compile(r"🤖 (Easy|Medium|Hard|Computer)( \d+)?")  # i18n: not shown
COMPUTER_WORD = N_("Computer")


def computer_name_shown(stored: str) -> str:
    made = COMPUTER_NAME.fullmatch(stored)
    if made is None:
        return stored
    word = made.group(1)
    shown = _(COMPUTER_WORD) if word == COMPUTER_WORD else level_title(word.lower())
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
    several = Rules.preset(preset).max_seats > 2
    question = _("How many computer opponents, and how strong?") if several else _("How strong should the computer be?")
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


def lobby_text(preset: str, rules: Rules, names: list[str | None], creator: str, fill_level: str | None = None) -> str:
    """The lobby; ``fill_level`` is the level Start gives the free seats (computer names carry theirs)."""
    seats = "\n".join(f"{i + 1}. {escape(name) if name else '—'}" for i, name in enumerate(names))
    title = ngettext(
        "<b>Dominoes: {preset}</b> · {count} seat", "<b>Dominoes: {preset}</b> · {count} seats", len(names)
    ).format(preset=preset_title(preset), count=len(names))
    if fill_level is None:
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


# --- the table's words: the board and hand captions, results (bot/display/captions.py) -------------------------

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


def game_winner(name: str) -> str:
    return _("🏆 <b>{name} wins the game!</b>").format(name=escape(name))


def describe_events(events: list[Event], names: list[str]) -> list[str]:
    """Events in words, a draw folded into what followed it: "Ann drew 2 and passed"."""
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


# --- play with a friend (bot/table/rooms.py) and rematches (bot/model/rematch_request.py) ------------------------

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


# --- chat settings (/settings), languages, idle games, /new while a game runs ----------------------

SETTINGS_MARK = "✓"


def settings_private() -> str:
    return _(
        "Settings belong to a group: type /settings there. The group's administrators choose the rule set "
        "and options of new games, the turn clock and the language."
    )


def seats_button(count: int) -> str:
    return ngettext("{count} seat", "{count} seats", count).format(count=count)


def clock_button(seconds: int) -> str:
    return _("⏱ Off") if seconds <= 0 else _("⏱ {seconds} s").format(seconds=seconds)


def settings_text(preset: str, seats: int, level: str, turn_seconds: int, language: str, *, admin: bool) -> str:
    if turn_seconds <= 0:
        clock = _("Turn clock: none.")
    else:
        clock = _("Turn clock: {seconds} s a turn.").format(seconds=turn_seconds)
    games = ngettext(
        "New games (/new): <b>{preset}</b>, {count} seat; free seats get 🤖 {level} computer players.",
        "New games (/new): <b>{preset}</b>, {count} seats; free seats get 🤖 {level} computer players.",
        seats,
    ).format(preset=preset_title(preset), count=seats, level=level_title(level))
    note = _("Tap a button to change a setting.") if admin else _("Only the chat's administrators can change these.")
    speaks = _("Language: {language}.").format(language=LANGUAGE_NAMES.get(language, language))
    return _("<b>Settings of this chat</b>") + f"\n{games}\n{clock}\n{speaks}\n\n{note}"


def setting_saved(key: str, preset: str, seats: int, level: str, turn_seconds: int, language: str) -> str:
    """The answer to a settings tap that changed something."""
    if key == "preset":
        return _("New games will be {preset}.").format(preset=preset_title(preset))
    if key == "seats":
        return ngettext(
            "New {preset} games will have {count} seat.", "New {preset} games will have {count} seats.", seats
        ).format(preset=preset_title(preset), count=seats)
    if key == "level":
        return _("Free seats will get {level} computer players.").format(level=level_title(level))
    if key == "clock":
        if turn_seconds <= 0:
            return _("New games will have no turn clock.")
        return _("A turn will last {seconds} s.").format(seconds=turn_seconds)
    return _("Language: {language}.").format(language=LANGUAGE_NAMES.get(language, language))


def language_prompt() -> str:
    return _("Choose the language I speak to you in:")


def language_chosen(language: str) -> str:
    return _("I will speak {language} with you.").format(language=LANGUAGE_NAMES.get(language, language))


def game_running_here(lobby: bool) -> str:
    """The reply to /new while a game is open: it answers the lobby or board message it points to."""
    if lobby:
        return _("A game is already open in this chat (this one): tap Join to play in it.")
    return _("A game is being played in this chat (this one); a new one can start when it is over.")


# --- the turn clock and absence: /leave, /kick, /kill (bot/model/clock.py, absence.py, bot/table/manners.py) ---


def take_back_button() -> str:
    return _("🙋 Take my seat back")


def killed_line() -> str:
    return _("⛔ This game was ended with /kill.")


def hand_away_line() -> str:
    return _("🤖 A computer plays your seat for now.")


def kick_how() -> str:
    return _("Reply with /kick to a message of the player whose seat a computer should take.")


NO_GAME_HERE = N_("There is no game here right now. Type /new to start one.")


def no_game_here() -> str:
    return _(NO_GAME_HERE)


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


# --- the command menu (setMyCommands), per language and scope (bot/app.py) -------------------------

GROUP_COMMANDS: tuple[tuple[str, str], ...] = (
    ("new", N_("Open a new game here")),
    ("join", N_("Join the open game")),
    ("rules", N_("The rule sets")),
    ("stats", N_("Your games, wins and rating")),
    ("top", N_("The best players of this chat")),
    ("history", N_("Recent games")),
    ("export", N_("A game's record as a file (/export N)")),
    ("settings", N_("This chat's settings (administrators)")),
    ("leave", N_("Leave the table (a computer plays your seat)")),
    ("kick", N_("Reply to a player: a computer takes their seat")),
    ("kill", N_("End the game (its creator or an administrator)")),
    ("language", N_("The language I speak to you in")),
    ("help", N_("How to play")),
)
PRIVATE_COMMANDS: tuple[tuple[str, str], ...] = (
    ("start", N_("Play against the computer or a friend")),
    ("rules", N_("The rule sets")),
    ("stats", N_("Your games, wins and rating")),
    ("top", N_("The best players of all")),
    ("history", N_("Your recent games")),
    ("export", N_("A game's record as a file (/export N)")),
    ("language", N_("The language I speak to you in")),
    ("help", N_("How to play")),
)

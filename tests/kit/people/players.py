"""People at the table: they read what Telegram shows them and tap what a person would tap.

Nothing here reaches into the bot: a player finds their hand message in their private chat,
reads its buttons (playable tiles are marked 🟢 or ⭐, the version of the game is in each
button's callback data), taps one, picks an end when the bot asks, and waits for their next
turn, until the game-over result arrives.  The audits at the bottom read the fake's transcript
afterwards, as an observer of every chat would.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from engine import read_record, replay
from fake_telegram import CallbackQuery, Chat, FakeTelegram, Message, User

TURN_TIMEOUT = 20.0  # seconds without progress before a test gives up (never a timing assertion)

# Callback data as the bot packs it (bot/telegram/callbacks.py): prefix and fields joined by ":".
TILE_DATA = re.compile(r"^t:(?P<game>-?\d+):(?P<version>-?\d+):(?P<tile>\d*):(?P<end>[a-z]*)$")
LOBBY_DATA = re.compile(r"^lb:(?P<game>\d+):(?P<action>[a-z-]+)$")
LEVEL_DATA = re.compile(r"^lv:(?P<game>\d+):(?P<level>[a-z]+)$")
LEVEL_TICK = "✓"  # marks the level the computers play at now, on the row under a private game
PLAYABLE_MARKS = ("🟢", "⭐")

# A tile as the bot writes it in captions and on buttons: [6|4], 6|4.  (Rule texts say "1-1"
# about tiles in general; those are not tiles of a hand.)
TILE_WORD = re.compile(r"(?<![\d])([0-6])\s*\|\s*([0-6])(?![\d])")
RESULT_HEAD = re.compile(r"^(?:<b>)?Round (\d+)(?:</b>)? · ")
GAME_OVER = re.compile(r"wins the game!|Game over\.")
OPEN_ATTEMPTS = 3  # games opened in a row before open_private_game (play_group_game) gives up on a person ever playing
SCORE_LINE = re.compile(r"^Score: (.*)$", re.MULTILINE)

MATCH_TARGETS: dict[str, int | dict[int, int]] = {
    "draw": {2: 100, 3: 61, 4: 61},
    "block": {2: 100, 3: 61, 4: 61},
    "fives": 150,
    "hundred": 100,
    "goat": 101,
    "partners": 200,
}
SINGLE_ROUND = ("classic", "quickblock", "duel")
# Two teams of two (seats 0+2 against 1+3): the lobby's Join buttons name a team ("lb:<game>:team-a").
TEAM_PRESETS = ("goat", "partners")
TEAM_SCORE_LINE = re.compile(r"^(?:Score|Penalty points): (.*?)(?: \(\d+ loses\))?$", re.MULTILINE)


class TableStuck(AssertionError):
    """The game stopped moving, or a tap a person would make was refused."""


def tile_key(a: int | str, b: int | str) -> str:
    """One spelling per tile: high half first, "64"."""
    x, y = int(a), int(b)
    return f"{max(x, y)}{min(x, y)}"


def tiles_in_text(text: str) -> set[str]:
    return {tile_key(a, b) for a, b in TILE_WORD.findall(text or "")}


@dataclass(frozen=True)
class TileButton:
    text: str
    data: str
    game: int
    version: int
    tile: str
    end: str

    @property
    def playable(self) -> bool:
        return self.text.startswith(PLAYABLE_MARKS)

    @property
    def is_end_choice(self) -> bool:
        return bool(self.end)


def parse_tile_data(data: str | None) -> re.Match[str] | None:
    return TILE_DATA.match(data or "")


def tile_buttons(markup_rows: Iterable[Iterable[dict[str, Any]]]) -> list[TileButton]:
    """The tile (and end) buttons of an inline keyboard; "back" (no tile) is left out."""
    found = []
    for row in markup_rows:
        for button in row:
            match = parse_tile_data(button.get("callback_data"))
            if match and match["tile"]:
                found.append(
                    TileButton(
                        button.get("text", ""),
                        button["callback_data"],
                        int(match["game"]),
                        int(match["version"]),
                        match["tile"],
                        match["end"],
                    )
                )
    return found


def hand_tiles(markup_rows: Iterable[Iterable[dict[str, Any]]]) -> set[str] | None:
    """The tiles of a hand keyboard, or None when the keyboard is not a hand (e.g. a choice of ends)."""
    buttons = tile_buttons(markup_rows)
    if not buttons or any(b.is_end_choice for b in buttons):
        return None
    return {b.tile for b in buttons}


def hand_message(fake: FakeTelegram, user: User) -> Message | None:
    """The newest message in the user's private chat that shows a hand (or a choice of ends)."""
    for message in reversed(fake.messages(user, from_bot=True)):
        if tile_buttons(message.inline_keyboard):
            return message
    return None


def result_messages(fake: FakeTelegram, chat: Chat | User) -> list[Message]:
    return [m for m in fake.messages(chat, from_bot=True) if RESULT_HEAD.match(m.shown_text)]


def final_result(fake: FakeTelegram, chat: Chat | User) -> Message | None:
    for message in reversed(result_messages(fake, chat)):
        if GAME_OVER.search(message.shown_text):
            return message
    return None


def scores(text: str) -> list[int]:
    """The numbers of the last "Score: Ann 10 · Bob 5" line of a caption."""
    lines = SCORE_LINE.findall(text)
    if not lines:
        return []
    return [int(part.rsplit(" ", 1)[-1]) for part in lines[-1].split(" · ")]


def answer_text(query: CallbackQuery) -> str:
    return str((query.answer or {}).get("text") or "")


def is_alert(query: CallbackQuery) -> bool:
    return str((query.answer or {}).get("show_alert", "")).lower() in ("true", "1")


@dataclass
class Table:
    """The people playing one game, tapping like people do until the game is over.

    ``results`` is the chat where the bot posts round results (the group, or the private chat
    of a game against the computer).  ``rng`` picks among the playable tiles and ends.
    """

    fake: FakeTelegram
    people: Sequence[User]
    results: Chat | User
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    version: int = -1  # the game version of the last tap that played a tile
    plays: list[tuple[int, str, str]] = field(default_factory=list)  # (user id, tile, end) in order
    taps: int = 0
    went_back: bool = False  # "back" from a choice of ends has been tried in this game

    async def play_to_end(self, *, max_plays: int = 1500) -> Message:
        """Play every human turn until the game-over result is posted; returns that message."""
        for _ in range(max_plays):
            turn = await self.next_turn()
            if isinstance(turn, Message):
                return turn
            await self.play_turn(*turn)
        raise TableStuck(f"the game did not end within {max_plays} human plays")

    async def play_turns(self, count: int) -> Message | None:
        """Play ``count`` human turns (fewer if the game ends first; then its final result)."""
        for _ in range(count):
            turn = await self.next_turn()
            if isinstance(turn, Message):
                return turn
            await self.play_turn(*turn)
        return None

    async def next_turn(self, timeout: float = TURN_TIMEOUT) -> tuple[User, Message, list[TileButton]] | Message:
        """Wait for a person's turn (a hand with marked tiles newer than the last play) or the end."""

        def ready() -> tuple[User, Message, list[TileButton]] | Message | None:
            over = final_result(self.fake, self.results)
            if over is not None:
                return over
            for user in self.people:
                message = hand_message(self.fake, user)
                if message is None:
                    continue
                playable = [
                    b
                    for b in tile_buttons(message.inline_keyboard)
                    if b.playable and not b.is_end_choice and b.version > self.version
                ]
                if playable:
                    return user, message, playable
            return None

        return await self.fake.wait_for(ready, timeout, what="a person's turn or the end of the game")

    async def play_turn(self, user: User, message: Message, playable: list[TileButton]) -> None:
        """Tap one of the marked tiles; choose an end if the bot asks which."""
        button = self.rng.choice(playable)
        query = await self.tap(user, message, button)
        outcome = await self._settle(user, message, button, query)
        if outcome == "ends" and not self.went_back:
            # Once per game, change one's mind: "back" brings the hand again, then the same tile.
            self.went_back = True
            await self.go_back(user, message, button)
            query = await self.tap(user, message, button)
            outcome = await self._settle(user, message, button, query)
            assert outcome == "ends", f"{user.name}: the tile asked for an end, then {outcome} ({query.answer})"
        if outcome == "ends":
            ends = [b for b in tile_buttons(self._live(message).inline_keyboard) if b.is_end_choice]
            assert all(b.tile == button.tile and b.version == button.version for b in ends), ends
            choice = self.rng.choice(ends)
            query = await self.tap(user, message, choice)
            outcome = await self._settle(user, message, choice, query)
            if outcome != "played":
                raise TableStuck(f"{user.name}: choosing an end of {choice.tile} was answered {query.answer}")
            button = choice
        elif outcome != "played":
            raise TableStuck(f"{user.name}: tapping the playable {button.text!r} was answered {query.answer}")
        self.version = button.version
        self.plays.append((user.id, button.tile, button.end))

    async def go_back(self, user: User, message: Message, tile: TileButton) -> None:
        """Tap "back" under a choice of ends; the hand comes back as it was, same version."""
        live = self._live(message)
        back = [
            b["callback_data"]
            for row in live.inline_keyboard
            for b in row
            if (found := parse_tile_data(b.get("callback_data"))) and not found["tile"] and not found["end"]
        ]
        assert len(back) == 1, live.inline_keyboard
        query = self.fake.tap(user, live, data=back[0])
        await self.fake.wait_answered(query, timeout=TURN_TIMEOUT)
        assert not is_alert(query), query.answer

        def restored() -> bool:
            buttons = tile_buttons(self._live(message).inline_keyboard)
            return any(b.data == tile.data for b in buttons) and not any(b.is_end_choice for b in buttons)

        await self.fake.wait_for(restored, TURN_TIMEOUT, what=f"{user.name}'s hand after going back")

    async def tap(self, user: User, message: Message, button: TileButton) -> CallbackQuery:
        self.taps += 1
        query = self.fake.tap(user, message, data=button.data)
        await self.fake.wait_answered(query, timeout=TURN_TIMEOUT)
        return query

    async def _settle(self, user: User, message: Message, button: TileButton, query: CallbackQuery) -> str:
        """After an answered tap: "ends" (choose one), "played" (the game moved on) or "refused"."""

        def moved() -> str | None:
            if is_alert(query):
                return "refused"
            live = self._live(message)
            if not button.is_end_choice and any(
                b.is_end_choice and b.tile == button.tile for b in tile_buttons(live.inline_keyboard)
            ):
                return "ends"
            if final_result(self.fake, self.results) is not None:
                return "played"
            for person in self.people:
                hand = hand_message(self.fake, person)
                if hand is not None and any(b.version > button.version for b in tile_buttons(hand.inline_keyboard)):
                    return "played"
            return None

        return await self.fake.wait_for(moved, TURN_TIMEOUT, what=f"the bot to act on {user.name}'s tap")

    def _live(self, message: Message) -> Message:
        live = self.fake.world.message(message.chat_id, message.message_id)
        assert live is not None
        return live


async def settle(fake: FakeTelegram, quiet: float = 0.3) -> None:
    """Until the bot has taken every update and sent nothing for ``quiet`` seconds."""
    await fake.wait_idle(quiet=quiet, timeout=TURN_TIMEOUT)


def forge_tap(fake: FakeTelegram, user: User, message: Message, data: str) -> CallbackQuery:
    """A callback query with data no button under ``message`` carries.

    Telegram delivers whatever callback data a modified client, a replayed request or a
    forwarded old keyboard sends; the fake's ``tap`` only presses buttons that exist.
    """
    live = fake.world.message(message.chat_id, message.message_id)
    assert live is not None and not live.deleted
    query = fake.factory.callback_query(user, live, data)
    fake.recorder.user_action(
        "tap",
        f"{user.name} sent forged callback data {data!r} on message {live.message_id} (callback {query.id})",
        live.chat_id,
    )
    return query


async def play_from_hand(fake: FakeTelegram, person: User, timeout: float = TURN_TIMEOUT) -> int:
    """``person`` plays with a button of the hand message in their private chat, once it is their
    turn there: a playable tile, on its first end when it fits two. Returns the turn it was for."""

    def playable() -> tuple[Message, TileButton] | None:
        message = hand_message(fake, person)
        buttons = [b for b in tile_buttons(message.inline_keyboard) if b.playable] if message is not None else []
        return (message, buttons[0]) if message is not None and buttons else None

    message, button = await fake.wait_for(playable, timeout, what=f"{person.name}'s turn in the chat")
    query = await fake.wait_answered(fake.tap(person, message, data=button.data), timeout=timeout)
    if "choose" in answer_text(query):
        ends = await fake.wait_for(
            lambda: [b for b in tile_buttons(message.inline_keyboard) if b.is_end_choice], timeout, what="the ends"
        )
        await fake.wait_answered(fake.tap(person, message, data=ends[0].data), timeout=timeout)
    return button.version


# --------------------------------------------------------------------------- opening games


async def open_private_game(
    fake: FakeTelegram, user: User, preset: str, opponents: int, level: str = "medium"
) -> Message:
    """/start, tap the rule set, tap the number of computer opponents and their level; returns the hand message.

    The bot deals at random, and now and then a one-round game ends before the person is ever
    on turn with a tile to play (the computer leads, every one of their turns is a forced pass):
    no hand is ever shown.  Then, as a person would, start another game.
    """
    for _ in range(OPEN_ATTEMPTS):
        hand = await _start_private_game(fake, user, preset, opponents, level)
        if hand is not None:
            return hand
    raise AssertionError(f"{OPEN_ATTEMPTS} {preset} games in a row ended before {user.first_name} could play")


async def _start_private_game(
    fake: FakeTelegram, user: User, preset: str, opponents: int, level: str
) -> Message | None:
    """One try of :func:`open_private_game`: the hand message, or None if the game ended without one."""
    before = len(fake.messages(user, from_bot=True))
    fake.start_bot(user)

    def menu() -> Message | None:
        for message in fake.messages(user, from_bot=True)[before:]:
            if any(b.get("callback_data", "").startswith("s:preset:") for row in message.inline_keyboard for b in row):
                return message
        return None

    message = await fake.wait_for(menu, TURN_TIMEOUT, what="the private menu")
    query = fake.tap(user, message, data=_button_data(message, f"s:preset:{preset}:"))
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    go = f"sg:{preset}:{opponents}:{level}"
    await fake.wait_for(lambda: _has_data(fake, message, go), TURN_TIMEOUT, what="the opponents buttons")
    query = fake.tap(user, message, data=go)
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)

    def hand_or_game_over() -> Message | None:
        newer = fake.messages(user, from_bot=True)[before:]
        hand = next((m for m in reversed(newer) if tile_buttons(m.inline_keyboard)), None)
        over = next((m for m in newer if RESULT_HEAD.match(m.shown_text) and GAME_OVER.search(m.shown_text)), None)
        return hand or over

    shown = await fake.wait_for(hand_or_game_over, TURN_TIMEOUT, what="the hand message")
    return shown if tile_buttons(shown.inline_keyboard) else None


@dataclass
class Lobby:
    group: Chat
    message: Message
    game_id: int
    preset: str = ""


async def open_lobby(fake: FakeTelegram, creator: User, group: Chat, preset: str) -> Lobby:
    """The creator (who has opened the bot) types /new <preset> in the group."""
    fake.send(creator, f"/new {preset}", chat=group)
    message = await fake.wait_for_message(group, lambda m: _lobby_game(m) is not None, timeout=TURN_TIMEOUT)
    game_id = _lobby_game(message)
    assert game_id is not None
    return Lobby(group, message, game_id, preset)


async def play_group_game(fake: FakeTelegram, people: list[User], title: str, seed: str) -> int:
    """A quickblock game of ``people`` (the first creates it) in a new group, played to its result; its id.

    Now and then a deal ends before any of them is on turn (a lead nobody can follow: see
    :func:`open_private_game`); then they play another, in a new group of the same title, so that
    the game returned is one they played."""
    for _ in range(OPEN_ATTEMPTS):
        group = fake.add_group(title, members=people)
        for person in people:
            fake.start_bot(person)
        await settle(fake)
        lobby = await open_lobby(fake, people[0], group, "quickblock")
        await set_seats(fake, lobby, people[0], len(people))
        for person in people[1:]:
            await join(fake, lobby, person)
        await start_game(fake, lobby, people[0])
        table = Table(fake, people, results=group, rng=random.Random(seed))
        await table.play_to_end()
        await settle(fake)
        if table.plays:
            return lobby.game_id
    raise AssertionError(f"{OPEN_ATTEMPTS} quickblock games in a row ended before anyone could play")


async def set_seats(fake: FakeTelegram, lobby: Lobby, creator: User, seats: int) -> None:
    """Tap "Seats: N" until the lobby has ``seats`` seats (a partnership lobby's four are fixed: no button)."""
    if lobby.preset in TEAM_PRESETS:
        assert seats == 4, f"{lobby.preset} seats four, not {seats}"
        return
    for _ in range(4):
        current = _seat_count(fake, lobby)
        if current == seats:
            return
        query = fake.tap(creator, lobby.message, data=f"lb:{lobby.game_id}:seats")
        await fake.wait_answered(query, timeout=TURN_TIMEOUT)
        await fake.wait_for(partial(_seat_count_changed, fake, lobby, current), TURN_TIMEOUT, what="the seat count")
    assert _seat_count(fake, lobby) == seats, fake.screen(lobby.group)


async def join(fake: FakeTelegram, lobby: Lobby, user: User, team: int | None = None) -> CallbackQuery:
    """Tap Join (in a partnership lobby, the Join of ``team``, 0 or 1: team A first when none is
    named); someone who never opened the bot follows the link the tap answers with."""
    teams = lobby.preset in TEAM_PRESETS or team is not None
    action = f"team-{'ab'[team or 0]}" if teams else "join"
    query = fake.tap(user, lobby.message, data=f"lb:{lobby.game_id}:{action}")
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    url = (query.answer or {}).get("url")
    if url:
        fake.open_link(user, url)
    await fake.wait_for(
        lambda: user.name in fake.world.message(lobby.group.id, lobby.message.message_id).shown_text,  # type: ignore[union-attr]
        TURN_TIMEOUT,
        what=f"{user.name} in the lobby",
    )
    return query


async def add_computer(fake: FakeTelegram, lobby: Lobby, creator: User, level: str) -> CallbackQuery:
    """The creator taps "+🤖 <Level>"; returns once the lobby shows one more computer."""
    before = lobby_text(fake, lobby).count("🤖")
    query = fake.tap(creator, lobby.message, data=f"lb:{lobby.game_id}:add-{level}")
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    await fake.wait_for(
        lambda: lobby_text(fake, lobby).count("🤖") > before, TURN_TIMEOUT, what=f"a {level} computer in the lobby"
    )
    return query


def lobby_text(fake: FakeTelegram, lobby: Lobby) -> str:
    live = fake.world.message(lobby.group.id, lobby.message.message_id)
    assert live is not None
    return live.shown_text


def level_buttons(message: Message) -> dict[str, str]:
    """The level row under a private game: level -> button text ("🤖 Hard ✓" for the current one)."""
    found = {}
    for row in message.inline_keyboard:
        for button in row:
            match = LEVEL_DATA.match(button.get("callback_data") or "")
            if match:
                found[match["level"]] = str(button.get("text", ""))
    return found


def shown_level(fake: FakeTelegram, message: Message) -> str | None:
    """The level ticked on the live message's level row (None: no row)."""
    live = fake.world.message(message.chat_id, message.message_id)
    if live is None or live.deleted:
        return None
    ticked = [level for level, text in level_buttons(live).items() if LEVEL_TICK in text]
    return ticked[0] if len(ticked) == 1 else None


async def choose_level(fake: FakeTelegram, user: User, level: str) -> CallbackQuery:
    """Tap ``level`` on the row under the user's private game; returns once the row ticks it."""
    message = hand_message(fake, user)
    assert message is not None, f"{user.name} has no game message"
    query = fake.tap(user, message, data=f"lv:{_level_game(message)}:{level}")
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    assert not is_alert(query), f"choosing {level} was refused: {query.answer}"
    await fake.wait_for(
        lambda: (now := hand_message(fake, user)) is not None and shown_level(fake, now) == level,
        TURN_TIMEOUT,
        what=f"the level row to show {level}",
    )
    return query


def _level_game(message: Message) -> int:
    for row in message.inline_keyboard:
        for button in row:
            match = LEVEL_DATA.match(button.get("callback_data") or "")
            if match:
                return int(match["game"])
    raise AssertionError(f"no level row under message {message.message_id}: {message.inline_keyboard}")


async def start_game(fake: FakeTelegram, lobby: Lobby, creator: User) -> None:
    """The creator taps Start; returns once the board is in the group."""
    floor = fake.last_message(lobby.group)
    query = fake.tap(creator, lobby.message, data=f"lb:{lobby.game_id}:start")
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    await fake.wait_for_message(
        lobby.group, lambda m: m.photo is not None, after=floor.message_id if floor else 0, timeout=TURN_TIMEOUT
    )


def _lobby_game(message: Message) -> int | None:
    for row in message.inline_keyboard:
        for button in row:
            match = LOBBY_DATA.match(button.get("callback_data") or "")
            if match:
                return int(match["game"])
    return None


def _seat_count_changed(fake: FakeTelegram, lobby: Lobby, before: int | None) -> bool:
    return _seat_count(fake, lobby) != before


def _seat_count(fake: FakeTelegram, lobby: Lobby) -> int | None:
    live = fake.world.message(lobby.group.id, lobby.message.message_id)
    assert live is not None
    for row in live.inline_keyboard:
        for button in row:
            if button.get("callback_data") == f"lb:{lobby.game_id}:seats":
                digits = re.findall(r"\d+", button.get("text", ""))
                return int(digits[-1]) if digits else None
    return None


def data_of(message: Message, prefix: str) -> str | None:
    """The callback data of the button under ``message`` whose data starts with ``prefix``, if any."""
    for row in message.inline_keyboard:
        for button in row:
            if str(button.get("callback_data") or "").startswith(prefix):
                return str(button["callback_data"])
    return None


def _button_data(message: Message, prefix: str) -> str:
    found = [
        b["callback_data"]
        for row in message.inline_keyboard
        for b in row
        if (b.get("callback_data") or "").startswith(prefix)
    ]
    assert len(found) == 1, (prefix, message.inline_keyboard)
    return str(found[0])


def _has_data(fake: FakeTelegram, message: Message, data: str) -> bool:
    live = fake.world.message(message.chat_id, message.message_id)
    return live is not None and any(b.get("callback_data") == data for row in live.inline_keyboard for b in row)


# --------------------------------------------------------------------------- audits


def assert_game_over_line(result: Message, preset: str, seats: int) -> None:
    """A match ends with a champion who reached the target; a single round ends with a verdict."""
    text = result.shown_text
    assert GAME_OVER.search(text), text
    if preset in SINGLE_ROUND:
        return
    if preset in TEAM_PRESETS:
        assert_team_game_over(text, preset)
        return
    assert "🏆" in text and "wins the game!" in text, text
    target = MATCH_TARGETS[preset]
    goal = target[seats] if isinstance(target, dict) else target
    totals = scores(text)
    assert len(totals) == seats, text
    assert max(totals) >= goal, f"the match ended before anyone reached {goal}:\n{text}"


def team_scores(text: str) -> list[int]:
    """The two team totals of the last "Score: 🟥 Team A 35 · 🟦 Team B 61" (or goat's "Penalty points:
    … (101 loses)") line of a caption."""
    lines = TEAM_SCORE_LINE.findall(text)
    if not lines:
        return []
    return [int(part.rsplit(" ", 1)[-1]) for part in lines[-1].split(" · ")]


def assert_team_game_over(text: str, preset: str) -> None:
    """A partnership match ends with a winning team (and in goat the goats: the team that reached 101)."""
    assert "🏆" in text and "wins the game!" in text, text
    totals = team_scores(text)
    assert len(totals) == 2, text
    target = MATCH_TARGETS[preset]
    assert isinstance(target, int) and max(totals) >= target, f"the match ended before a team reached {target}:\n{text}"
    marks = ("🟥", "🟦")
    (winner_line,) = [line for line in text.splitlines() if "wins the game!" in line]
    if preset == "goat":
        (goats_line,) = [line for line in text.splitlines() if "are the goats!" in line]
        loser = totals.index(max(totals))
        assert marks[loser] in goats_line and marks[1 - loser] in winner_line, text
    else:
        assert marks[totals.index(max(totals))] in winner_line, text


def assert_results_in_order(fake: FakeTelegram, chat: Chat | User) -> int:
    """Round results come once each, numbered 1, 2, 3 …; only the last one ends the game."""
    numbers = []
    for message in result_messages(fake, chat):
        head = RESULT_HEAD.match(message.shown_text)
        assert head is not None
        numbers.append(int(head.group(1)))
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    finals = [m for m in result_messages(fake, chat) if GAME_OVER.search(m.shown_text)]
    assert len(finals) == 1, [m.shown_text for m in finals]
    return len(numbers)


def _markup_of(params: dict[str, Any]) -> list[list[dict[str, Any]]]:
    markup = params.get("reply_markup")
    if isinstance(markup, dict):
        rows = markup.get("inline_keyboard") or []
        return [row for row in rows if isinstance(row, list)]
    return []


def _words_of(params: dict[str, Any]) -> str:
    parts = [str(params.get("text") or ""), str(params.get("caption") or "")]
    media = params.get("media")
    if isinstance(media, dict):
        parts.append(str(media.get("caption") or ""))
    return "\n".join(parts)


# Requests that put words or buttons in front of people.
SHOWING = (
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
)


def _showing(fake: FakeTelegram, chat_id: int) -> Iterator[tuple[int, str, str, list[dict[str, Any]]]]:
    """(seq, method, words, buttons) of every request that put something into ``chat_id``, in order."""
    for entry in sorted(fake.transcript, key=lambda e: e.seq):
        if entry.kind == "request" and entry.method in SHOWING and entry.chat_id == chat_id:
            rows = _markup_of(entry.params)
            yield entry.seq, entry.method, _words_of(entry.params), [b for row in rows for b in row]


def shown_texts(fake: FakeTelegram, chat: Chat | User) -> list[str]:
    """Every text and caption the bot put in ``chat``, in order, edits included (as sent: HTML)."""
    return [words for _, _, words, _ in _showing(fake, fake._as_chat(chat).id)]


def _named(words: str, buttons: list[dict[str, Any]]) -> set[str]:
    """Tiles a message names: in its words, its button labels and its buttons' tile data."""
    named = tiles_in_text(words) | tiles_in_text(" ".join(str(b.get("text", "")) for b in buttons))
    for button in buttons:
        match = parse_tile_data(button.get("callback_data"))
        if match and match["tile"]:
            named.add(tile_key(*match["tile"]))
    return named


def audit_group_hands(fake: FakeTelegram, group: Chat, people: Sequence[User]) -> int:
    """No tile of a person's hand is shown in the group while they hold it.

    Walks the transcript in order, keeping each person's hand as their private hand keyboard
    shows it (a tile leaves the hand when its owner taps it), and checks every request that puts
    words or buttons into the group against those hands; results (which reveal the hands once
    the round is over) are the only exception.  Group buttons never carry tile data.
    Returns the number of group requests checked.
    """
    names = {user.id: user.name for user in people}
    hands: dict[int, set[str]] = {user.id: set() for user in people}
    checked = 0
    problems: list[str] = []
    for entry in sorted(fake.transcript, key=lambda e: e.seq):
        if entry.kind == "user" and entry.method == "tap":
            found = re.search(r"\(callback (\d+)\)$", entry.note)
            query = fake.world.callbacks.get(found.group(1)) if found else None
            match = parse_tile_data(query.data if query else None)
            if query is not None and query.user_id in hands and match and match["tile"]:
                hands[query.user_id].discard(match["tile"])
            continue
        if entry.kind != "request" or entry.method not in SHOWING:
            continue
        rows = _markup_of(entry.params)
        if entry.chat_id in hands:  # a person's private chat: the hand it shows now
            tiles = hand_tiles(rows)
            if tiles is not None:
                hands[entry.chat_id] = tiles
            continue
        if entry.chat_id != group.id:
            continue
        checked += 1
        words = _words_of(entry.params)
        buttons = [b for row in rows for b in row]
        problems += [
            f"#{entry.seq}: a tile button in the group: {b}" for b in buttons if parse_tile_data(b.get("callback_data"))
        ]
        if RESULT_HEAD.match(words.strip()):
            # The round is over and its hands are revealed; the next round's hands are known once
            # their keyboards arrive (its first board may name a lead the bot placed by itself).
            for hand in hands.values():
                hand.clear()
            continue
        named = _named(words, buttons)
        for user_id, hand in hands.items():
            if named & hand:
                problems.append(
                    f"#{entry.seq} {entry.method} named {sorted(named & hand)} from {names[user_id]}'s hand"
                )
    assert not problems, "hand tiles shown in the group:\n" + "\n".join(problems)
    return checked


def audit_hidden_tiles(
    fake: FakeTelegram,
    chat: Chat | User,
    game: StoredGame,
    *,
    viewer: User | None = None,
    results: Chat | User | None = None,
) -> int:
    """What a chat was shown during each round never names a tile that stayed hidden all round.

    From the stored engine record: the tiles of round r that nobody played (the hands at the end,
    computers' included, and the untouched boneyard) are secret until round r's result, except,
    in a player's private chat, the viewer's own hand.  Requests are assigned to rounds by the
    results posted in ``results`` (default: ``chat``): the bot deals the next round as soon as
    one ends, so whatever it shows after a result belongs to the next round.
    Returns the number of requests checked.
    """
    match = replay(read_record(game.record))
    hidden = []
    own = game.seat_of(viewer) if viewer is not None else None
    for state in match.rounds:
        played = {tile_key(p.tile.high, p.tile.low) for p in state.plays()}
        dealt = {tile_key(t.high, t.low) for hand in state.deal_.hands for t in hand}
        dealt |= {tile_key(t.high, t.low) for t in state.deal_.boneyard}
        mine = {tile_key(t.high, t.low) for t in state.hands[own]} if own is not None else set()
        hidden.append(dealt - played - mine)
    where = results if results is not None else chat
    ends = [
        seq
        for seq, method, words, _ in _showing(fake, where.id)
        if method in ("sendPhoto", "sendMessage") and RESULT_HEAD.match(words.strip())
    ]
    checked = 0
    problems = []
    for seq, method, words, buttons in _showing(fake, chat.id):
        round_index = sum(1 for end in ends if end <= seq)
        if round_index >= len(hidden) or seq in ends:
            continue
        checked += 1
        leaked = _named(words, buttons) & hidden[round_index]
        if leaked:
            problems.append(f"#{seq} {method} in round {round_index + 1} named hidden tiles {sorted(leaked)}")
    assert len(ends) == len(hidden), f"{len(ends)} results posted for {len(hidden)} rounds"
    assert not problems, "hidden tiles shown:\n" + "\n".join(problems)
    return checked


def assert_every_hand_shown(fake: FakeTelegram, people: Sequence[User]) -> None:
    """Every person saw a hand keyboard (their private channel worked)."""
    for user in people:
        shown = [
            e
            for e in fake.transcript
            if e.kind == "request" and e.chat_id == user.id and hand_tiles(_markup_of(e.params)) is not None
        ]
        assert shown, f"{user.name} never got a hand"


# --------------------------------------------------------------------------- the stored game


@dataclass(frozen=True)
class StoredGame:
    id: int
    status: str
    preset: str
    version: int
    data: dict[str, Any]
    moves: list[tuple[int, int, str, str | None, int]]  # (round, seat, tile, side, by_computer) by seq

    @property
    def record(self) -> dict[str, Any]:
        return dict(self.data["record"])

    def record_plays(self) -> list[tuple[int, int, str, str | None]]:
        return [
            (r, play["seat"], play["tile"], play.get("end"))
            for r, round_ in enumerate(self.record["rounds"])
            for play in round_["plays"]
        ]

    def seat_of(self, user: User) -> int:
        for index, seat in enumerate(self.data["seats"]):
            if seat and seat.get("user_id") == user.id:
                return index
        raise AssertionError(f"{user.name} has no seat in game {self.id}")


def read_games(database: Path) -> list[StoredGame]:
    """Every game in the bot's SQLite file (read-only; safe while the bot runs, thanks to WAL)."""
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        games = connection.execute("SELECT id, status, preset, version, data FROM games ORDER BY id").fetchall()
        found = []
        for game_id, status, preset, version, data in games:
            moves = connection.execute(
                "SELECT round, seat, tile, side, by_computer FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
            found.append(StoredGame(game_id, status, preset, version, json.loads(data), [tuple(m) for m in moves]))
        return found
    finally:
        connection.close()


def check_stored_game(game: StoredGame, table: Table | None = None) -> None:
    """The move log and the engine record agree, the record replays to a finished game, and
    the people's plays are exactly what they tapped."""
    assert game.status == "finished", game.status
    match = replay(read_record(game.record))
    assert match.is_over
    logged = [(r, seat, tile, side) for r, seat, tile, side, _ in game.moves]
    assert logged == game.record_plays(), "the moves table and the game record disagree"
    if table is not None:
        by_seat = {game.seat_of(user): user.id for user in table.people}
        sides = {"l": "left", "r": "right", "u": "up", "d": "down"}
        recorded = [
            (by_seat[seat], tile_key(*tile.split("-")), side)
            for _, seat, tile, side, by_computer in game.moves
            if seat in by_seat and not by_computer
        ]
        tapped = [(uid, tile, sides.get(end)) for uid, tile, end in table.plays]
        assert [r[:2] for r in recorded] == [t[:2] for t in tapped], (
            f"recorded human plays {recorded} differ from the taps {tapped}"
        )
        for (_, tile, side), (_, _, chosen) in zip(recorded, tapped, strict=True):
            assert chosen is None or side == chosen, f"{tile} went {side}, the player chose {chosen}"

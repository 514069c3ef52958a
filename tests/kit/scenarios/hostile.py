"""Hostile input: thousands of forged updates against games in every state, between legit moves.

The world (set up through Telegram, as people do): a group game being played by two people
with someone watching, a group lobby that is full, a group whose game is over, a private game
against the computer, a friend room waiting for its friend and one being played, and people
in none of them.  Then, in bursts, forged updates go in:

* callback data that is junk, too long (over Telegram's 64 bytes), of every prefix of
  ``bot/telegram/callbacks.py`` with fields of the wrong type or value or number, naming finished games,
  sent from another chat, for another seat, with an old turn number, replayed, and tapped on
  messages that do not exist;
* commands with junk arguments (``/new xyz``, ``/rules ../..``, ``/export -1``, ``/top x…``,
  ``/kick`` without a reply, ``/start r1_zz``, ``/start j999999`` …), by people in the game and not;
* edited messages (``edited_message`` updates).

Nothing forged may do what the rules allow anyway (a player's own tile at the current turn, the
creator's Start …): the generator checks each against the stored games and changes it or draws
another.  After each burst: the bot is alive and logged no error, every forged tap got an
answer, no game's rules state changed (``arena.compare``), and the fake saw no invalid request.
Then every running game gets one legit move; a game that ends is replaced by a new one.

``run(quick)`` prints the figures and returns them; ``attack`` is the part the test shares.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import string
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fake_telegram import CallbackQuery, Chat, FakeTelegram, Message, User
from fake_telegram.formatting import FormattedText
from tests.kit.people import friends
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    add_computer,
    join,
    open_lobby,
    open_private_game,
    set_seats,
    start_game,
)
from tests.kit.scenarios.arena import GameSnap, RunningBot, Turn, bot_running, compare, snapshot, turn_of

PRESETS = ("classic", "draw", "block", "fives", "quickblock", "duel", "hundred")
LEVELS = ("easy", "medium", "hard")
LANGUAGES = ("en", "ru", "uk")
LOBBY_ACTIONS = frozenset(
    {"join", "leave", "add", "add-easy", "add-medium", "add-hard", "seats", "clock", "cancel", "start"}
)
FIELDS = {
    "lb": 2,
    "t": 4,
    "h": 1,
    "s": 3,
    "sg": 3,
    "lv": 2,
    "r": 1,
    "rm": 1,
    "ro": 3,
    "cs": 2,
    "aw": 1,
    "lg": 1,
    "tp": 1,
}
WEIRD = (
    "",
    "x",
    "-1",
    "0",
    "-0",
    "1e3",
    "1_0",
    " 5",
    "5 ",
    "²",
    "١٢",
    "nan",
    "inf",
    "None",
    "true",
    "0x10",
    "+7",
    "3.0",
    "9" * 25,
    "-" + "9" * 25,
    "64",
    "46",
    "77",
    "6",
    "666",
    "l",
    "r",
    "u",
    "d",
    "z",
    "go",
    "menu",
    "preset",
    "add-godlike",
    "💣",
    "\u0000",
    "../..",
    "%00",
    "' OR 1=1 --",
    "<b>x</b>",
    "&amp;",
    "\\",
    '"',
)
PLAYED = "✅"  # bot.words.texts.you_played
SETTLE_TIMEOUT = 60.0


def int_of(text: str) -> int | None:
    """As leniently as pydantic might read an int field."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    return int(number) if number.is_integer() else None


@dataclass
class Place:
    """A chat with a game in it that the legit players keep going (None: a fixed target)."""

    name: str
    table: Table | None = None
    renew: Callable[[], Any] | None = None


@dataclass
class Figures:
    forged: Counter[str] = field(default_factory=Counter)
    taps: list[CallbackQuery] = field(default_factory=list)
    illegal: list[str] = field(default_factory=list)
    legit_moves: int = 0
    games_finished: int = 0
    bursts: int = 0
    skipped_legit: int = 0  # drawn, but the rules allow it: changed or drawn again


class HostileWorld:
    def __init__(self, fake: FakeTelegram, bot: RunningBot, rng: random.Random) -> None:
        self.fake, self.bot, self.rng = fake, bot, rng
        self.people: list[User] = []
        self.groups: list[Chat] = []
        self.admins: set[tuple[int, int]] = set()  # (chat id, user id)
        self.places: list[Place] = []
        self.renewals = 0
        self.legit_data: list[tuple[int, int, int, str]] = []  # (user, chat, message, data) of legit taps

    # ------------------------------------------------------------------ setting up

    def person(self, name: str, *, started: bool = True) -> User:
        user = self.fake.add_user(name, last_name="Hostile")
        if started:
            self.fake.start_bot(user)
        self.people.append(user)
        return user

    def group(self, title: str, members: list[User]) -> Chat:
        chat = self.fake.add_group(title, members=members)
        self.groups.append(chat)
        self.admins.add((chat.id, members[0].id))
        return chat

    async def setup(self) -> None:
        fake = self.fake
        self.ann, self.bob, self.carol = self.person("Ann"), self.person("Bob"), self.person("Carol")
        self.dan, self.erin = self.person("Dan"), self.person("Erin", started=False)
        # friends.open_room expects a person who has not opened the bot yet.
        self.fred, self.hank = self.person("Fred"), self.person("Hank", started=False)
        self.jack, self.kate = self.person("Jack", started=False), self.person("Kate")
        self.ivy = self.person("Ivy", started=False)
        await fake.wait_idle(quiet=0.3, timeout=TURN_TIMEOUT)

        # A group game being played (Carol watches), renewed in a new group when it ends.
        self.places.append(await self.group_game())

        # A full lobby: Dan and a computer in two seats; Erin in the group.
        lobby_group = self.group("Hostile lobby", [self.dan, self.erin, self.carol])
        lobby = await open_lobby(fake, self.dan, lobby_group, "block")
        await set_seats(fake, lobby, self.dan, 2)
        await add_computer(fake, lobby, self.dan, "easy")

        # A group whose game is over.
        over_group = self.group("Hostile over", [self.fred, self.carol])
        lobby = await open_lobby(fake, self.fred, over_group, "duel")
        await set_seats(fake, lobby, self.fred, 2)
        await start_game(fake, lobby, self.fred)
        await Table(fake, [self.fred], results=over_group, rng=random.Random(1)).play_to_end()

        # A private game against the computer, and friend rooms: one waiting, one being played.
        self.places.append(await self.private_game())
        await friends.open_room(fake, self.hank, "duel")
        _, link = await friends.open_room(fake, self.jack, "draw")
        fake.open_link(self.kate, link)
        self.places.append(Place("room", Table(fake, [self.jack, self.kate], results=self.jack, rng=random.Random(2))))
        await fake.wait_idle(quiet=0.3, timeout=TURN_TIMEOUT)

    async def group_game(self) -> Place:
        self.renewals += 1
        chat = self.group(f"Hostile table {self.renewals}", [self.ann, self.bob, self.carol])
        lobby = await open_lobby(self.fake, self.ann, chat, "duel")
        await set_seats(self.fake, lobby, self.ann, 2)
        for _ in range(2):  # the turn clock: 60 -> 120 -> off (no seat is put away while bursts go in)
            await friends.tap(self.fake, self.ann, lobby.message, f"lb:{lobby.game_id}:clock")
        await join(self.fake, lobby, self.bob)
        await start_game(self.fake, lobby, self.ann)
        table = Table(self.fake, [self.ann, self.bob], results=chat, rng=random.Random(self.renewals))
        return Place("group", table, self.group_game)

    async def private_game(self) -> Place:
        self.renewals += 1
        gina = self.person(f"Gina{self.renewals}", started=False)
        await open_private_game(self.fake, gina, "draw", 1, level="easy")
        table = Table(self.fake, [gina], results=gina, rng=random.Random(self.renewals))
        return Place("private", table, self.private_game)

    # ------------------------------------------------------------------ legit play

    async def legit_step(self, figures: Figures) -> None:
        """One move in every game being played; a game that ends is replaced by a new one."""
        for index, place in enumerate(list(self.places)):
            if place.table is None:
                continue
            before = len(place.table.plays)
            over = await place.table.play_turns(1)
            figures.legit_moves += len(place.table.plays) - before
            if over is not None:
                figures.games_finished += 1
                if place.renew is not None:
                    self.places[index] = await place.renew()
                else:
                    self.places[index] = Place(place.name)

    # ------------------------------------------------------------------ what may be aimed at

    def chats(self) -> list[Chat]:
        return [*self.groups, *(self.fake.private_chat(user) for user in self.people if user.started)]

    def bot_messages(self) -> list[Message]:
        found = []
        for chat in self.chats():
            found += self.fake.messages(chat, from_bot=True)
        return found

    def missing_message(self, chat: Chat) -> Message:
        """A message the chat never had (deleted, or never sent): callbacks on it are forged."""
        return Message(
            chat_id=chat.id,
            message_id=chat.next_message_id + 1000 + self.rng.randrange(10**6),
            sender_id=self.fake.bot.id,
            date=int(time.time()),
            sent_by_bot=True,
            text=FormattedText("gone", ()),
        )

    def weird(self) -> str:
        return self.rng.choice(WEIRD)

    def junk(self, low: int = 0, high: int = 40) -> str:
        alphabet = string.printable + "яйцо🂡ß\u200b\u202e:::"
        return "".join(self.rng.choice(alphabet) for _ in range(self.rng.randint(low, high)))

    # ------------------------------------------------------------------ the rules allow it?

    def active_in(self, chat_id: int, snaps: dict[int, GameSnap]) -> GameSnap | None:
        active = [g for g in snaps.values() if g.chat_id == chat_id and g.status in ("lobby", "playing")]
        return active[-1] if active else None

    def allowed_tap(
        self, user: User, chat: Chat, data: str, snaps: dict[int, GameSnap], turns: dict[int, Turn]
    ) -> bool:
        """Whether the rules let ``user`` do this (then it is no forgery: a player may play)."""
        parts = data.split(":")
        prefix, fields = parts[0], parts[1:]
        if FIELDS.get(prefix) != len(fields):
            return False
        private = chat.type == "private"
        game_id = int_of(fields[0])
        game = snaps.get(game_id) if game_id is not None else None
        if prefix == "t":
            turn = turns.get(game_id) if game_id is not None else None
            if turn is None or turn.user_id != user.id or int_of(fields[1]) != turn.version:
                return False
            tile = fields[2]
            if len(tile) != 2 or not all(c in "0123456" for c in tile):
                return False
            return f"{max(tile)}{min(tile)}" in turn.hands[turn.seat]
        if prefix == "lb" and game is not None and game.status == "lobby" and game.kind == "group":
            action = fields[1]
            seated = game.seat_of(user.id) is not None
            free = any(seat is None for seat in game.doc["seats"])
            return (user.id == game.creator_id and action in LOBBY_ACTIONS) or (
                (action == "join" and free and not seated) or (action == "leave" and seated)
            )
        if prefix in ("s", "sg"):
            preset, opponents = (fields[1], fields[2]) if prefix == "s" else (fields[0], fields[1])
            count = int_of(opponents)
            level_ok = prefix == "s" or fields[2] in LEVELS
            go = prefix == "sg" or fields[0] == "go"
            return private and go and preset in PRESETS and count is not None and 1 <= count <= 3 and level_ok
        if prefix == "lv" and game is not None:
            return game.kind == "private" and game.seat_of(user.id) is not None and fields[1] in LEVELS
        if prefix == "rm" and game is not None:
            return game.status == "finished" and game.seat_of(user.id) is not None
        if prefix == "ro":
            if fields[0] == "preset":
                return private and fields[1] in PRESETS
            room = snaps.get(int_of(fields[2]) or 0)
            return fields[0] in ("reset", "cancel") and room is not None and room.creator_id == user.id
        if prefix == "cs":
            return (chat.id, user.id) in self.admins
        if prefix == "lg":
            return fields[0] in LANGUAGES
        if prefix == "aw" and game is not None:
            seat = game.seat_of(user.id)
            return seat is not None and bool(game.doc["seats"][seat].get("away"))
        return False

    def allowed_command(
        self, user: User, chat: Chat, text: str, reply: Message | None, snaps: dict[int, GameSnap]
    ) -> bool:
        if not text.startswith("/"):
            return False
        head, _, args = text.partition(" ")
        command = head[1:].split("@")[0]
        active = self.active_in(chat.id, snaps)
        admin = (chat.id, user.id) in self.admins or (active is not None and active.creator_id == user.id)
        if chat.type == "private":
            if command != "start":
                return False
            payload = args.strip()
            game = snaps.get(int_of(payload[1:]) or 0) if payload.startswith("j") else None
            return (
                game is not None
                and game.kind == "group"
                and game.status == "lobby"
                and game.seat_of(user.id) is None
                and any(seat is None for seat in game.doc["seats"])
            )
        if command == "new":
            return active is None and (not args.strip() or args.strip().lower() in PRESETS)
        if command == "kill":
            return admin
        if command == "kick":
            return admin and reply is not None
        if command == "leave":
            return active is not None and active.seat_of(user.id) is not None
        if command == "join":
            return active is not None and active.status == "lobby" and active.seat_of(user.id) is None
        return False

    # ------------------------------------------------------------------ forging

    def forged_data(self, snaps: dict[int, GameSnap], turns: dict[int, Turn], user: User) -> tuple[str, str]:
        """(callback data, kind of forgery)."""
        rng = self.rng
        ids = list(snaps) or [1]
        finished = [g.id for g in snaps.values() if g.status in ("finished", "cancelled")] or ids
        kind = rng.choice(
            (
                "junk",
                "too_long",
                "fields",
                "fields",
                "fields",
                "finished",
                "other_chat",
                "other_seat",
                "old_turn",
                "replay",
            )
        )
        if kind == "junk":
            return self.junk(), kind
        if kind == "too_long":
            head = rng.choice([*FIELDS, "x"])
            body = ":".join(str(rng.choice(ids)) for _ in range(FIELDS.get(head, 2)))
            return f"{head}:{body}:" + rng.choice(("0", "я", "🂡", "9")) * rng.randint(65, 300), kind
        if kind == "fields":
            prefix = rng.choice(list(FIELDS))
            count = (
                FIELDS[prefix] + rng.choice((0, 0, 0, -1, 1, 2))
                if FIELDS[prefix] > 1
                else FIELDS[prefix] + rng.choice((0, 0, 1))
            )
            values = [self.field_value(prefix, index, ids) for index in range(max(count, 0))]
            return ":".join([prefix, *values]), kind
        if kind == "finished":
            game = rng.choice(finished)
            version = rng.randint(0, 40)
            tile = f"{rng.randint(0, 6)}{rng.randint(0, 6)}"
            return rng.choice(
                (
                    f"t:{game}:{version}:{tile}:",
                    f"t:{game}:{version}:{tile}:l",
                    f"h:{game}",
                    f"lv:{game}:hard",
                    f"aw:{game}",
                    f"lb:{game}:start",
                    f"lb:{game}:join",
                    f"rm:{game}",
                    f"ro:reset::{game}",
                )
            ), kind
        running = list(turns.values())
        if not running or kind == "replay":
            if self.legit_data:
                return rng.choice(self.legit_data)[3], "replay"
            return self.junk(), "junk"
        turn = rng.choice(running)
        if kind == "other_chat" or kind == "old_turn":
            seat = rng.choice(list(turn.hands))
            tiles = sorted(turn.hands[seat]) or ["00"]
            version = turn.version if kind == "other_chat" else turn.version - rng.randint(1, 12)
            return f"t:{turn.game}:{version}:{rng.choice(tiles)}:{rng.choice(('', '', 'l', 'r'))}", kind
        # Another seat's tile at the current turn, or a tile out of turn.
        others = [seat for seat in turn.hands if seat != turn.seat]
        seat = rng.choice(others) if others else turn.seat
        tiles = sorted(turn.hands[seat]) or ["00"]
        return f"t:{turn.game}:{turn.version}:{rng.choice(tiles)}:", kind

    def field_value(self, prefix: str, index: int, ids: list[int]) -> str:
        rng = self.rng
        if rng.random() < 0.5:
            return self.weird()
        if index == 0 and prefix in ("lb", "t", "h", "lv", "rm", "aw"):
            return str(rng.choice((*ids, 0, -1, max(ids) + 1, 10**19)))
        pools = {
            "lb": LOBBY_ACTIONS | {"explode"},
            "s": ("menu", "preset", "go", *PRESETS),
            "sg": (*PRESETS, "0", "4", "9", *LEVELS, "godlike"),
            "lv": (*LEVELS, "godlike"),
            "r": (*PRESETS, "nosuch"),
            "ro": ("menu", "back", "preset", "reset", "cancel", *PRESETS, str(rng.choice(ids))),
            "cs": ("preset", "seats", "level", "clock", "lang", "2", "9", "xx", *PRESETS),
            "lg": ("xx", "EN", "en-US", "de"),
            "tp": ("r", "w", "x", "rw"),
        }
        return str(rng.choice(tuple(pools.get(prefix, ("0",))))) if rng.random() < 0.7 else str(rng.randint(-5, 50))

    def forged_command(self, snaps: dict[int, GameSnap]) -> tuple[str, str]:
        rng = self.rng
        ids = list(snaps) or [1]
        game = rng.choice(ids)
        return rng.choice(
            (
                ("/new xyz", "junk_args"),
                ("/new " + "x" * 5000, "junk_args"),
                ("/new ../..", "junk_args"),
                ("/new draw extra words", "junk_args"),
                ("/rules ../..", "junk_args"),
                ("/rules " + self.junk(1, 60), "junk_args"),
                ("/export -1", "junk_args"),
                ("/export 99999999999", "junk_args"),
                ("/export ²", "junk_args"),
                ("/export #0", "junk_args"),
                (f"/export {game}", "other_game"),
                ("/export " + "9" * 40, "junk_args"),
                ("/top " + "x" * 5000, "junk_args"),
                ("/top rating wins", "junk_args"),
                ("/stats me", "junk_args"),
                ("/history " + self.junk(1, 20), "junk_args"),
                ("/kick", "no_reply"),
                ("/kill", "not_allowed"),
                ("/leave", "not_allowed"),
                ("/join", "not_allowed"),
                ("/settings", "harmless"),
                ("/language xx", "junk_args"),
                ("/help " + self.junk(0, 30), "junk_args"),
                ("/start r1_zz", "start_payload"),
                ("/start j999999", "start_payload"),
                ("/start j" + "9" * 30, "start_payload"),
                ("/start j²", "start_payload"),
                ("/start j-1", "start_payload"),
                (f"/start j{game}", "start_payload"),
                (f"/start r{game}_AAAAAAAAAAAA", "start_payload"),
                ("/start r" + "9" * 18 + "_AAAAAAAAAAAA", "start_payload"),
                ("/start " + self.junk(1, 70), "start_payload"),
                ("/" + self.junk(1, 30), "unknown_command"),
                (self.junk(1, 200), "text"),
                ("/new@dominoes_test_bot " + self.junk(1, 30), "junk_args"),
                ("/start@someone_else_bot", "junk_args"),
            )
        )

    def burst(self, count: int, figures: Figures) -> None:
        """Push ``count`` forged updates at once (the bot takes them as fast as it can)."""
        rng = self.rng
        snaps = snapshot(self.bot.database)
        turns = {game_id: turn for game_id, snap in snaps.items() if (turn := turn_of(snap)) is not None}
        messages = self.bot_messages()
        mine = [m for m in self.people_messages() if not m.deleted]
        for _ in range(count):
            roll = rng.random()
            user = rng.choice(self.people)
            if roll < 0.7:
                self.forge_tap(user, snaps, turns, messages, figures)
            elif roll < 0.92 or not mine:
                self.forge_command(user, snaps, figures)
            else:
                self.forge_edit(rng.choice(mine), snaps, figures)
        figures.bursts += 1

    def people_messages(self) -> list[Message]:
        found = []
        for chat in self.chats():
            found += [m for m in self.fake.messages(chat, from_bot=False) if m.text is not None]
        return found

    def forge_tap(
        self, user: User, snaps: dict[int, GameSnap], turns: dict[int, Turn], messages: list[Message], figures: Figures
    ) -> None:
        rng = self.rng
        for _ in range(20):
            data, kind = self.forged_data(snaps, turns, user)
            where = rng.random()
            if where < 0.1 or not messages:
                chat = rng.choice(self.chats())
                message, kind = self.missing_message(chat), kind + "+no_message"
            else:
                message = rng.choice(messages)
                chat = self.fake.chat(message.chat_id)
            if not self.allowed_tap(user, chat, data, snaps, turns):
                break
            figures.skipped_legit += 1
        else:
            return
        query = self.fake.factory.callback_query(user, message, data)
        self.fake.recorder.user_action(
            "tap", f"{user.name} forged {data[:80]!r} on message {message.message_id} (callback {query.id})", chat.id
        )
        figures.taps.append(query)
        figures.forged["tap:" + kind] += 1

    def forge_command(self, user: User, snaps: dict[int, GameSnap], figures: Figures) -> None:
        rng = self.rng
        for _ in range(20):
            text, kind = self.forged_command(snaps)
            in_private = text.startswith("/start ") or rng.random() < 0.3
            chat = self.fake.private_chat(user) if in_private else rng.choice(self.groups)
            reply = None
            if text.startswith("/kick") and chat.type != "private" and rng.random() < 0.6:
                earlier = self.fake.messages(chat, from_bot=None)
                reply = rng.choice(earlier) if earlier else None
            if not self.allowed_command(user, chat, text, reply, snaps):
                break
            figures.skipped_legit += 1
        else:
            return
        self.fake.send(user, text, chat=None if chat.type == "private" else chat, reply_to=reply)
        figures.forged["command:" + kind] += 1

    def forge_edit(self, message: Message, snaps: dict[int, GameSnap], figures: Figures) -> None:
        user = next(u for u in self.people if u.id == message.sender_id)
        chat = self.fake.chat(message.chat_id)
        for _ in range(20):
            text, _ = self.forged_command(snaps)
            if self.rng.random() < 0.3:
                text = self.rng.choice(("/new duel", "/kill", "/leave", "/start j1", "/new"))
            if not self.allowed_command(user, chat, text, None, snaps):
                break
            figures.skipped_legit += 1
        else:
            return
        self.fake.edit(user, message, text)
        figures.forged["edited_message"] += 1

    def remember_legit(self) -> None:
        """The data of every tile tap so far that is no forgery: to be replayed later."""
        forged = {
            entry.note.rsplit("(callback ", 1)[-1].rstrip(")")
            for entry in self.fake.transcript
            if "forged" in entry.note
        }
        self.legit_data = [
            (q.user_id, q.chat_id, q.message_id, q.data)
            for q in self.fake.callback_queries
            if q.data.startswith("t:") and q.id not in forged
        ]


async def settle(fake: FakeTelegram, taps: list[CallbackQuery]) -> None:
    await fake.wait_idle(quiet=0.3, timeout=SETTLE_TIMEOUT)
    waiting = [q for q in taps if not q.answered]
    if waiting:
        with contextlib.suppress(TimeoutError):
            await fake.wait_for(lambda: all(q.answered for q in waiting) or None, 15.0, what="forged taps answered")


async def attack(
    fake: FakeTelegram, bot: RunningBot, *, updates: int, burst: int = 200, seed: str = "hostile", report: bool = True
) -> dict[str, Any]:
    """Set the world up, then ``updates`` forged updates in bursts of ``burst``, a legit move
    in every game being played after each; returns the figures."""
    rng = random.Random(seed)
    world = HostileWorld(fake, bot, rng)
    await world.setup()
    figures = Figures()
    violations_before = len(fake.violations)
    dropped_before = len(fake.queue.dropped)
    bot.mark()
    started = time.monotonic()
    sent = 0
    while sent < updates:
        world.remember_legit()
        await fake.wait_idle(quiet=0.3, timeout=SETTLE_TIMEOUT)
        before = snapshot(bot.database)
        count = min(burst, updates - sent)
        taps_before = len(figures.taps)
        world.burst(count, figures)
        sent += count
        await settle(fake, figures.taps[taps_before:])
        figures.illegal += compare(before, snapshot(bot.database))
        if not bot.alive:
            break
        await world.legit_step(figures)
    await fake.wait_idle(quiet=0.3, timeout=SETTLE_TIMEOUT)
    seconds = time.monotonic() - started
    answered = sum(1 for q in figures.taps if q.answered)
    problems = bot.problems()
    violations = [str(v) for v in fake.violations[violations_before:]]
    edits = [u for u in fake.queue.dropped[dropped_before:] if u.kind == "edited_message"]
    result: dict[str, Any] = {
        "forged_updates": sum(figures.forged.values()),
        "forged_taps": len(figures.taps),
        "forged_by_kind": dict(sorted(figures.forged.items())),
        "taps_answered": answered,
        "taps_answered_pct": round(100.0 * answered / max(len(figures.taps), 1), 2),
        "unanswered": [f"{q.id} {q.data[:60]!r}" for q in figures.taps if not q.answered][:10],
        "bot_alive": bot.alive,
        "log_errors": len(problems),
        "log_error_lines": problems[:10],
        "illegal_changes": len(figures.illegal),
        "illegal_change_lines": figures.illegal[:10],
        "violations": len(violations),
        "violation_lines": violations[:10],
        "edited_messages_filtered_by_allowed_updates": len(edits),
        "drawn_but_allowed_by_rules": figures.skipped_legit,
        "bursts": figures.bursts,
        "legit_moves": figures.legit_moves,
        "games_finished": figures.games_finished,
        "seconds": round(seconds, 1),
        "updates_per_second": round(sum(figures.forged.values()) / max(seconds, 1e-9), 1),
    }
    if report:
        print_report(result)
    return result


def print_report(result: dict[str, Any]) -> None:
    print("== hostile input ==")
    print(
        f"forged updates: {result['forged_updates']} ({result['forged_taps']} taps) in {result['bursts']} bursts, "
        f"{result['seconds']} s ({result['updates_per_second']}/s); legit moves between: {result['legit_moves']}, "
        f"games finished: {result['games_finished']}"
    )
    kinds = result["forged_by_kind"]
    print("  by kind: " + ", ".join(f"{kind} {count}" for kind, count in kinds.items()))
    print(f"crashes: bot alive {result['bot_alive']}, errors in its log {result['log_errors']} (aim 0)")
    print(f"state changes the rules do not allow: {result['illegal_changes']} (aim 0)")
    answered = f"{result['taps_answered']}/{result['forged_taps']} = {result['taps_answered_pct']} %"
    print(f"forged taps answered: {answered} (aim 100)")
    print(f"invalid requests (fake's violations): {result['violations']} (aim 0)")
    edits = result["edited_messages_filtered_by_allowed_updates"]
    print(f"edited messages not delivered (the bot does not ask for them): {edits}")
    for key in ("log_error_lines", "illegal_change_lines", "violation_lines", "unanswered"):
        for line in result[key]:
            print(f"  {key}: {line}")


async def run(quick: bool = False) -> dict[str, object]:
    async with FakeTelegram() as fake, bot_running(fake) as bot:
        return await attack(fake, bot, updates=1000 if quick else 10_000, burst=100 if quick else 250)


if __name__ == "__main__":
    import sys

    asyncio.run(run(quick="--quick" in sys.argv))

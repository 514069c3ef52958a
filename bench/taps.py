"""Taps under Telegram's budgets: how soon a tap is answered and its move shown, alone and in bursts.

Run from the repository root::

    .venv/bin/python -m bench.taps                 # a private game and a group game, about 2 minutes
    .venv/bin/python -m bench.taps --turns 8       # more bursts in the private game
    .venv/bin/python -m bench.taps --bot-dir DIR   # the bot of another checkout (say, the commit before)

The fake Telegram (``fake_telegram``) enforces Telegram's limits (``Limits.telegram()``: one
message or edit a second into a chat after a burst of 3, 20 a minute into a group), and the bot runs
with its default budgets and computer pauses, as a deployment does (issue 31, items 1, 2 and 11).

* **Private game** (block, one easy computer), turn after turn of Ann's: 50 taps at once on one
  playable tile (a double tap on a slow phone, several devices): a *tile burst*; when the tile fits
  two ends, a *question burst*, and then 50 taps at once on its "⬅", an *end burst*. After each
  burst, one *real tap* on her next turn, and right after its answer four more taps on the view it
  was made on (*stale taps*).

  Printed: tap -> answer (p50, p95, max) per kind; tap -> the move shown in the hand, and a burst ->
  her next turn shown (the computer's reply: what the burst held up); moves applied per burst (aim:
  exactly 1, none for a question); requests into Ann's chat from a burst until her next turn is
  shown (the move, the computer's reply and what the burst cost; before the fix one edit a second
  per redundant tap).

* **Group game** (classic, three people): after every move each person waiting for a turn taps a
  tile on their hand (a view some moves old). Printed: tap -> answer, the answers' words, and for
  every "here is the current one" how long until the hand showed the game as it was at the tap.

No assertion: the figures are for the issue's note; ``tests/e2e/test_tap_bursts.py`` holds the orders
and counts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from fake_telegram import CallbackQuery, FakeTelegram, Limits, Message, User
from tests.kit.launcher import REPO, BotLauncher, bot_env
from tests.kit.people.players import (
    Table,
    answer_text,
    hand_message,
    join,
    open_lobby,
    open_private_game,
    set_seats,
    start_game,
    tile_buttons,
)
from tests.kit.scenarios.arena import Turn, snapshot, turn_of

BURST = 50
STALE_TAPS = 4
# The bot's own budgets and pauses as deployed (bot_env turns them off for speed).
DEPLOYED = (
    "GROUP_MESSAGES_PER_MINUTE",
    "CHAT_MESSAGES_PER_SECOND",
    "MESSAGES_PER_SECOND",
    "COMPUTER_DELAY",
    "PRIVATE_COMPUTER_DELAY",
    "QUIET_ANSWER_SECONDS",
)
SENDING = ("send", "edit")
WAIT = 90.0  # seconds a bench step may take before it is given up (the old code took ~50 s a burst)


@dataclass
class Figures:
    answers: dict[str, list[float]] = field(default_factory=dict)  # kind -> tap -> answer, seconds
    shown: dict[str, list[float]] = field(default_factory=dict)  # kind -> tap -> move in the hand
    moves: dict[str, list[int]] = field(default_factory=dict)  # burst kind -> people's moves applied
    requests: dict[str, list[int]] = field(default_factory=dict)  # burst kind -> requests into the chat
    words: Counter[str] = field(default_factory=Counter)
    promises: list[float] = field(default_factory=list)  # "here is the current one" -> hand current
    unanswered: int = 0

    def add(self, table: dict[str, list[float]] | dict[str, list[int]], kind: str, value: float) -> None:
        table.setdefault(kind, []).append(value)  # type: ignore[arg-type]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def burst(fake: FakeTelegram, user: User, message: Message, data: str, count: int) -> list[CallbackQuery]:
    """``count`` taps at once: all in the queue before the bot fetches any."""
    queries = []
    for _ in range(count):
        query = fake.factory.callback_query(user, message, data)
        fake.recorder.user_action("tap", f"{user.name} burst {data!r} (callback {query.id})", message.chat_id)
        queries.append(query)
    return queries


async def answered(fake: FakeTelegram, queries: list[CallbackQuery], figures: Figures, kind: str) -> None:
    await all_answered(fake, queries, kind)
    record(figures, queries, kind)


async def all_answered(fake: FakeTelegram, queries: list[CallbackQuery], kind: str) -> None:
    with contextlib.suppress(TimeoutError):
        await fake.wait_for(lambda: all(q.answered for q in queries) or None, WAIT, what=f"{kind} answered")


def record(figures: Figures, queries: list[CallbackQuery], kind: str) -> None:
    for query in queries:
        if query.latency is None:
            figures.unanswered += 1
        else:
            figures.add(figures.answers, kind, query.latency)
            figures.words[answer_text(query).split("—")[0].strip()[:40]] += 1


def versions(message: Message | None) -> list[int]:
    return [b.version for b in tile_buttons(message.inline_keyboard)] if message is not None else []


async def shown_past(fake: FakeTelegram, user: User, version: int) -> float:
    """When the user's hand first shows a turn after ``version`` (monotonic seconds)."""
    await fake.wait_for(
        lambda: any(v > version for v in versions(hand_message(fake, user))) or None,
        WAIT,
        what=f"{user.name}'s hand past turn {version}",
    )
    return time.monotonic()


class PrivateGame:
    def __init__(self, fake: FakeTelegram, database: Path, figures: Figures) -> None:
        self.fake, self.database, self.figures = fake, database, figures
        self.ann = fake.add_user("Ann", last_name="Taps")
        self.game_id = 0
        self.turn_seen = 0.0  # when her turn was last seen shown

    async def open(self) -> None:
        await open_private_game(self.fake, self.ann, "block", 1, level="easy")
        self.game_id = max(g.id for g in snapshot(self.database).values() if g.creator_id == self.ann.id)

    async def turn(self) -> tuple[Turn, Message] | None:
        """Ann's turn with its keyboard shown and the bot quiet; None once the game is over."""

        def ready() -> tuple[Turn, Message] | bool | None:
            game = snapshot(self.database)[self.game_id]
            if game.status != "playing":
                return False
            turn = turn_of(game)
            message = hand_message(self.fake, self.ann)
            if turn is None or turn.user_id != self.ann.id or turn.version not in versions(message):
                return None
            assert message is not None
            return turn, message

        found = await self.fake.wait_for(ready, WAIT, what="Ann's turn")
        self.turn_seen = time.monotonic()
        await self.fake.wait_idle(quiet=1.2, timeout=WAIT)  # the chat's budget back to a steady state
        return found if isinstance(found, tuple) else None

    def people_moves(self) -> int:
        return sum(1 for move in snapshot(self.database)[self.game_id].moves if not move[4])

    def requests_since(self, seq: int) -> int:
        return sum(
            1
            for e in self.fake.transcript
            if e.kind == "request" and e.seq > seq and e.chat_id == self.ann.id and e.method.startswith(SENDING)
        )

    async def burst(self, message: Message, data: str, version: int, kind: str = "tile burst") -> None:
        """Fifty taps at once of one button; a tile that fits two ends asks, and then its "⬅" gets fifty."""
        figures, fake = self.figures, self.fake
        seq, moves = fake.transcript[-1].seq, self.people_moves()
        started = time.monotonic()
        queries = burst(fake, self.ann, message, data, BURST)
        await all_answered(fake, queries, kind)
        if any("choose" in answer_text(q) for q in queries):
            record(figures, queries, "question burst")

            def asked() -> list[str] | None:
                live = fake.world.message(message.chat_id, message.message_id)
                ends = [b.data for b in tile_buttons(live.inline_keyboard) if b.is_end_choice] if live else []
                return ends or None

            ends = await fake.wait_for(asked, WAIT, what="the question of ends")
            await fake.wait_idle(quiet=1.2, timeout=WAIT)
            figures.add(figures.requests, "question burst", self.requests_since(seq))
            figures.add(figures.moves, "question burst", self.people_moves() - moves)
            await self.burst(message, ends[0], version, "end burst")
            return
        record(figures, queries, kind)
        figures.add(figures.shown, kind, await shown_past(fake, self.ann, version) - started)
        nxt = await self.turn()
        figures.add(figures.shown, f"{kind}, until her next turn", self.turn_seen - started)
        figures.add(figures.moves, kind, self.people_moves() - moves)
        figures.add(figures.requests, kind, self.requests_since(seq))
        if nxt is not None:
            await self.real_tap(*nxt)

    async def real_tap(self, turn: Turn, message: Message) -> None:
        """One tap of a playable tile (an end if it asks), then a few more on the view it was made on."""
        figures, fake = self.figures, self.fake
        button = next(b for b in tile_buttons(message.inline_keyboard) if b.playable and b.version == turn.version)
        started = time.monotonic()
        query = fake.tap(self.ann, message, data=button.data)
        await answered(fake, [query], figures, "real tap")
        if "choose" in answer_text(query):
            ends = await fake.wait_for(
                lambda: [b for b in tile_buttons(message.inline_keyboard) if b.is_end_choice] or None, WAIT, what="ends"
            )
            started = time.monotonic()
            query = fake.tap(self.ann, message, data=ends[0].data)
            await answered(fake, [query], figures, "real tap")
        stale = [fake.factory.callback_query(self.ann, message, button.data) for _ in range(STALE_TAPS)]
        figures.add(figures.shown, "real tap", await shown_past(fake, self.ann, turn.version) - started)
        await answered(fake, stale, figures, "stale taps")

    async def play(self, turns: int) -> None:
        await self.open()
        done = 0
        while done < turns:
            found = await self.turn()
            if found is None:
                await self.open()
                continue
            turn, message = found
            counts = Counter(tile for tile, _ in turn.legal)
            # Two ends first (a lone double's are one choice: the answers tell), else any playable tile.
            twice = sorted(tile for tile, n in counts.items() if n > 1)
            tile = twice[0] if twice else sorted(counts)[0]
            await self.burst(message, f"t:{self.game_id}:{turn.version}:{tile}:", turn.version)
            done += 1


async def group_game(fake: FakeTelegram, database: Path, figures: Figures) -> None:
    people = [fake.add_user(name, last_name="Taps") for name in ("Bea", "Cid", "Dan")]
    group = fake.add_group("Taps", members=people)
    for person in people:
        fake.start_bot(person)
    await fake.wait_idle(quiet=0.5, timeout=WAIT)
    lobby = await open_lobby(fake, people[0], group, "classic")
    await set_seats(fake, lobby, people[0], 3)
    for person in people[1:]:
        await join(fake, lobby, person)
    await start_game(fake, lobby, people[0])
    table = Table(fake, people, results=group, rng=random.Random("taps"))
    pending: list[tuple[CallbackQuery, User, int]] = []
    while True:
        turn = await table.next_turn(timeout=WAIT)
        if isinstance(turn, Message):
            break
        await table.play_turn(*turn)
        current = max((t.version for t in [turn_of(snapshot(database)[lobby.game_id])] if t), default=0)
        for person in people:
            hand = hand_message(fake, person)
            live = fake.world.message(hand.chat_id, hand.message_id) if hand is not None else None
            buttons = tile_buttons(live.inline_keyboard) if live is not None and not live.deleted else []
            if buttons and buttons[0].version < current:
                pending.append((fake.tap(person, live, data=buttons[0].data), person, current))  # type: ignore[arg-type]
    await answered(fake, [q for q, _, _ in pending], figures, "group: tap on an older hand")
    for query, person, current in pending:
        if "older view" in answer_text(query):
            figures.promises.append(await current_within(fake, person, current, PROMISE))


PROMISE = 5.0  # seconds a "here is the current one" is given to show the hand at the turn of the tap


async def current_within(fake: FakeTelegram, person: User, version: int, seconds: float) -> float:
    """0 if the person's hand shows turn ``version`` or later within ``seconds``, else ``seconds``."""

    def current() -> bool | None:
        return max(versions(hand_message(fake, person)), default=-1) >= version or None

    try:
        await fake.wait_for(current, seconds, what="the current hand")
    except TimeoutError:
        return seconds
    return 0.0


def report(figures: Figures) -> str:
    lines = ["== taps under Telegram's limits (bench/taps.py) =="]
    for kind, values in figures.answers.items():
        lines.append(
            f"tap -> answer, {kind}: n={len(values)} p50 {pct(values, 0.5) * 1000:.0f} ms, "
            f"p95 {pct(values, 0.95) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"
        )
    for kind, values in figures.shown.items():
        lines.append(
            f"tap -> move shown in the hand, {kind}: n={len(values)} p50 {statistics.median(values):.2f} s, "
            f"max {max(values):.2f} s"
        )
    for kind, counts in figures.moves.items():
        lines.append(f"moves applied per {kind}: {counts} (aim: 1 each; a question burst: 0)")
    for kind, counts in figures.requests.items():
        lines.append(f"requests into the chat from a {kind} until the next turn shows: {counts}")
    if figures.promises:
        kept = sum(1 for s in figures.promises if s < PROMISE)
        lines.append(
            f"'here is the current one' answers: {len(figures.promises)}, hand current within {PROMISE:.0f} s: {kept}"
        )
    lines.append("answers' words: " + "; ".join(f"{n}× {w or '(none)'}" for w, n in figures.words.most_common()))
    lines.append(f"taps never answered: {figures.unanswered}")
    return "\n".join(lines)


async def run(turns: int, bot_dir: Path, group: bool) -> Figures:
    figures = Figures()
    with tempfile.TemporaryDirectory(prefix="bench-taps-") as tmp:
        work = Path(tmp)
        async with FakeTelegram(limits=Limits.telegram()) as fake:
            env = bot_env(fake, work / "bot.sqlite3")
            for name in DEPLOYED:
                env.pop(name, None)
            bot = BotLauncher(fake, work / "bot.log", env, cwd=bot_dir)
            await bot.start()
            try:
                await PrivateGame(fake, work / "bot.sqlite3", figures).play(turns)
                if group:
                    await group_game(fake, work / "bot.sqlite3", figures)
            finally:
                await bot.stop()
            print(f"flood events (429s): {len(fake.flood_events)}", file=sys.stderr)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=4, help="bursts in the private game (default 4)")
    parser.add_argument("--bot-dir", type=Path, default=REPO, help="the checkout whose bot runs (default this one)")
    parser.add_argument("--no-group", action="store_true", help="skip the group game")
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.turns, args.bot_dir.resolve(), not args.no_group))
    print(report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

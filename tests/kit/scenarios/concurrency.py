"""Concurrency: 100 simultaneous taps on the same turn; exactly one move applies.

For a turn of a person (in a group game of two people with someone watching, and in a private
game against the computer), 100 callback queries go in at once, before the bot has fetched any:

* the player on turn: half of them the same tile (the same callback data, as a double, triple …
  tap sends), the rest every other move the rules allow then (each would play if it came first)
  and tiles of their hand that do not fit;
* the other player, with their own tiles at the current turn (not their turn);
* someone not in the game, with the player's own callback data.

Then, once every tap is answered: the game's move log grew by exactly one move of a person (the
player's, one of those tapped; computers may answer it), the record and the log agree, exactly
one tap was answered "✅ You played …", and every other tap got a polite answer (a text).  No
timing is asserted; how long the 100 answers took is printed.

``run(quick)`` prints the figures and returns them; ``storm`` is the part the test shares.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import Any

from fake_telegram import CallbackQuery, Chat, FakeTelegram, Message, User
from tests.kit.people import friends
from tests.kit.people.players import (
    TURN_TIMEOUT,
    answer_text,
    hand_message,
    join,
    open_lobby,
    open_private_game,
    set_seats,
    start_game,
    tile_buttons,
)
from tests.kit.scenarios.arena import GameSnap, RunningBot, Turn, bot_running, snapshot, turn_of

TAPS = 100
SAME = 50  # of the player's taps, the same callback data
OTHERS = 10  # by the other player (or, in private, more by the outsider)
OUTSIDER = 10
PLAYED = "✅"  # bot.words.texts.you_played


@dataclass
class Game:
    kind: str  # "group" or "private"
    game_id: int
    people: list[User]
    outsider: User
    chat: Chat | User


@dataclass
class Figures:
    turns: int = 0
    taps: int = 0
    applied: list[int] = field(default_factory=list)  # people's moves applied per turn (aim: 1 each)
    played_answers: list[int] = field(default_factory=list)  # "✅" answers per turn (aim: 1 each)
    unanswered: int = 0
    wordless: list[str] = field(default_factory=list)  # refusals answered without a word
    problems: list[str] = field(default_factory=list)
    answer_seconds: list[float] = field(default_factory=list)


class Storm:
    def __init__(self, fake: FakeTelegram, bot: RunningBot, rng: random.Random) -> None:
        self.fake, self.bot, self.rng = fake, bot, rng
        self.count = 0

    def person(self, name: str) -> User:
        self.count += 1
        return self.fake.add_user(name, last_name=f"Storm{self.count}")

    async def group_game(self) -> Game:
        fake = self.fake
        ann, bob, carol = self.person("Ann"), self.person("Bob"), self.person("Carol")
        group = fake.add_group(f"Storm {self.count}", members=[ann, bob, carol])
        for user in (ann, bob, carol):
            fake.start_bot(user)
        await fake.wait_idle(quiet=0.2, timeout=TURN_TIMEOUT)
        lobby = await open_lobby(fake, ann, group, "draw")
        await set_seats(fake, lobby, ann, 2)
        for _ in range(2):  # the turn clock: 60 -> 120 -> off
            await friends.tap(fake, ann, lobby.message, f"lb:{lobby.game_id}:clock")
        await join(fake, lobby, bob)
        await start_game(fake, lobby, ann)
        return Game("group", lobby.game_id, [ann, bob], carol, group)

    async def private_game(self) -> Game:
        gina, carol = self.person("Gina"), self.person("Carol")
        self.fake.start_bot(carol)
        await open_private_game(self.fake, gina, "draw", 1, level="easy")
        (game_id,) = [g.id for g in snapshot(self.bot.database).values() if g.creator_id == gina.id]
        return Game("private", game_id, [gina], carol, gina)

    async def person_turn(self, game: Game) -> tuple[GameSnap, Turn, Message] | None:
        """Wait for a person's turn with its keyboard shown; None once the game is over."""

        def ready() -> tuple[GameSnap, Turn, Message] | bool | None:
            snap = snapshot(self.bot.database)[game.game_id]
            if snap.status != "playing":
                return False
            turn = turn_of(snap)
            if turn is None or turn.user_id is None:
                return None
            user = next(u for u in game.people if u.id == turn.user_id)
            message = hand_message(self.fake, user)
            if message is None or not any(b.version == turn.version for b in tile_buttons(message.inline_keyboard)):
                return None
            return snap, turn, message

        found = await self.fake.wait_for(ready, TURN_TIMEOUT, what=f"a person's turn in game {game.game_id}")
        await self.fake.wait_idle(quiet=0.2, timeout=TURN_TIMEOUT)
        return found if isinstance(found, tuple) else None

    def taps(self, game: Game, turn: Turn, message: Message) -> list[tuple[User, Message, str, str]]:
        """(who, on which message, data, role) of the 100 taps, shuffled."""
        rng = self.rng
        player = next(u for u in game.people if u.id == turn.user_id)
        legal = list(turn.legal)
        data = [f"t:{turn.game}:{turn.version}:{tile}:{end}" for tile, end in legal]
        fits = {tile for tile, _ in legal}
        misfits = [f"t:{turn.game}:{turn.version}:{tile}:" for tile in sorted(turn.hands[turn.seat] - fits)]
        planned: list[tuple[User, Message, str, str]] = [(player, message, data[0], "same")] * SAME
        rest = TAPS - SAME - OTHERS - OUTSIDER
        pool = data[1:] + misfits or data
        planned += [(player, message, rng.choice(pool), "player") for _ in range(rest)]
        others = [u for u in game.people if u.id != player.id]
        for _ in range(OTHERS):
            if others:
                other = others[0]
                seat = next(s for s, uid in turn.users.items() if uid == other.id)
                theirs = hand_message(self.fake, other) or message
                tile = rng.choice(sorted(turn.hands[seat]))
                planned.append((other, theirs, f"t:{turn.game}:{turn.version}:{tile}:", "other"))
            else:
                planned.append((game.outsider, message, rng.choice(data), "outsider"))
        planned += [(game.outsider, message, rng.choice(data), "outsider") for _ in range(OUTSIDER)]
        rng.shuffle(planned)
        return planned

    async def one_turn(self, game: Game, figures: Figures) -> bool:
        """100 taps on one turn; False once the game is over."""
        found = await self.person_turn(game)
        if found is None:
            return False
        before, turn, message = found
        planned = self.taps(game, turn, message)
        queries: list[tuple[CallbackQuery, str, str]] = []
        started = time.monotonic()
        for user, where, data, role in planned:  # all in the queue before the bot fetches any
            query = self.fake.factory.callback_query(user, where, data)
            self.fake.recorder.user_action("tap", f"{user.name} storm {data!r} (callback {query.id})", where.chat_id)
            queries.append((query, data, role))
        with contextlib.suppress(TimeoutError):
            await self.fake.wait_for(
                lambda: all(q.answered for q, _, _ in queries) or None, TURN_TIMEOUT, what="all 100 taps answered"
            )
        figures.answer_seconds.append(time.monotonic() - started)
        await self.fake.wait_idle(quiet=0.3, timeout=TURN_TIMEOUT)
        after = snapshot(self.bot.database)[game.game_id]
        self.check(game, turn, before, after, queries, figures)
        return True

    def check(
        self,
        game: Game,
        turn: Turn,
        before: GameSnap,
        after: GameSnap,
        queries: list[tuple[CallbackQuery, str, str]],
        figures: Figures,
    ) -> None:
        figures.turns += 1
        figures.taps += len(queries)
        new = after.moves[len(before.moves) :]
        if after.moves[: len(before.moves)] != before.moves:
            figures.problems.append(f"game {game.game_id}: earlier moves changed")
        people = [move for move in new if not move[4]]
        figures.applied.append(len(people))
        tapped = {(data.split(":")[3], data.split(":")[4]) for _, data, role in queries if role in ("same", "player")}
        if people:
            _, seat, tile, side, _ = people[0]
            code = "".join(sorted(tile.replace("-", ""), reverse=True))
            end = {"left": "l", "right": "r", "up": "u", "down": "d"}.get(side or "", "")
            if seat != turn.seat or not any(code == t and (e == end or not e) for t, e in tapped):
                figures.problems.append(
                    f"game {game.game_id}: the move applied {people[0]} was not tapped by the player"
                )
        played = [q for q, _, _ in queries if answer_text(q).startswith(PLAYED)]
        figures.played_answers.append(len(played))
        for query, data, role in queries:
            if not query.answered:
                figures.unanswered += 1
            elif query not in played and not answer_text(query):
                figures.wordless.append(f"{role} {data} -> {query.answer}")
        record_plays = sum(len(r["plays"]) for r in after.doc["record"]["rounds"])
        if record_plays != len(after.moves):
            figures.problems.append(
                f"game {game.game_id}: {len(after.moves)} logged moves, {record_plays} in the record"
            )


async def storm(
    fake: FakeTelegram, bot: RunningBot, *, turns: int, games: int = 1, seed: str = "storm", report: bool = True
) -> dict[str, Any]:
    """``turns`` turns of 100 simultaneous taps in each of ``games`` group and ``games`` private games."""
    world = Storm(fake, bot, random.Random(seed))
    figures = Figures()
    violations_before = len(fake.violations)
    bot.mark()
    started = time.monotonic()
    for kind in ("group", "private"):
        for _ in range(games):
            game = await (world.group_game() if kind == "group" else world.private_game())
            done = 0
            while done < turns:
                if not await world.one_turn(game, figures):
                    game = await (world.group_game() if kind == "group" else world.private_game())
                    continue
                done += 1
    problems = bot.problems()
    violations = [str(v) for v in fake.violations[violations_before:]]
    seconds = sorted(figures.answer_seconds)
    result: dict[str, Any] = {
        "turns": figures.turns,
        "taps": figures.taps,
        "turns_with_exactly_one_move": sum(1 for n in figures.applied if n == 1),
        "moves_applied_per_turn": figures.applied,
        "turns_with_one_played_answer": sum(1 for n in figures.played_answers if n == 1),
        "unanswered": figures.unanswered,
        "answered_without_a_word": len(figures.wordless),
        "wordless_lines": figures.wordless[:10],
        "problems": figures.problems[:10],
        "log_errors": len(problems),
        "log_error_lines": problems[:10],
        "violations": len(violations),
        "violation_lines": violations[:10],
        "bot_alive": bot.alive,
        "answer_all_100_median_s": round(seconds[len(seconds) // 2], 3) if seconds else None,
        "answer_all_100_max_s": round(seconds[-1], 3) if seconds else None,
        "seconds": round(time.monotonic() - started, 1),
    }
    if report:
        print_report(result)
    return result


def print_report(result: dict[str, Any]) -> None:
    print("== concurrency: 100 simultaneous taps on one turn ==")
    print(f"turns: {result['turns']} ({result['taps']} taps) in {result['seconds']} s")
    print(f"turns where exactly one move applied: {result['turns_with_exactly_one_move']}/{result['turns']} (aim all)")
    turns = result["turns"]
    print(f"turns with exactly one '✅ You played': {result['turns_with_one_played_answer']}/{turns} (aim all)")
    wordless = result["answered_without_a_word"]
    print(f"taps unanswered: {result['unanswered']}, answered without a word: {wordless} (aim 0)")
    print(f"errors in the bot's log: {result['log_errors']}, invalid requests: {result['violations']} (aim 0)")
    print(f"all 100 answered in: median {result['answer_all_100_median_s']} s, max {result['answer_all_100_max_s']} s")
    for key in ("problems", "wordless_lines", "log_error_lines", "violation_lines"):
        for line in result[key]:
            print(f"  {key}: {line}")


async def run(quick: bool = False) -> dict[str, object]:
    async with FakeTelegram() as fake, bot_running(fake) as bot:
        return await storm(fake, bot, turns=3 if quick else 10, games=1 if quick else 2)


if __name__ == "__main__":
    import sys

    asyncio.run(run(quick="--quick" in sys.argv))

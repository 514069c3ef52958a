"""How long a 💡 hint takes: in the engine, and from the tap to the alert through the whole bot.

Run from the repository root::

    .venv/bin/python -m bench.hints                    # about a minute
    .venv/bin/python -m bench.hints --positions 10 --games 2

1. **engine**: :func:`engine.hints.hint` (the hard player's search and the reason) on random
   positions of every preset and seat count (``tests/kit/positions.py``: some plays by a medium
   player, sometimes into a later round).
2. **bot** (aim: p95 at most 300 ms): the bot runs unmodified (``python -m bot``) against the
   fake Telegram with Telegram's limits on; people play private ``fives`` games against one to
   three computers, tap 💡 on every turn and play the tile it names. Timed from the tap (the
   update queued) to the answer the fake received; the hard player's search runs in the bot's
   own process, as a computer's move does.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from engine import PRESETS
from engine.hints import hint
from fake_telegram import FakeTelegram, Limits, User
from tests.kit.launcher import BotLauncher, bot_env
from tests.kit.people.players import (
    TURN_TIMEOUT,
    answer_text,
    final_result,
    hand_message,
    open_private_game,
    tile_buttons,
    tile_key,
)
from tests.kit.positions import random_position

TILE = re.compile(r"\[(\d)\|(\d)\]")
END = re.compile(r"\b(left|right|up|down)\b")
END_CODES = {"left": "l", "right": "r", "up": "u", "down": "d"}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(name: str, seconds: list[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (
        f"{name}: {len(ms)} hints, p50 {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms,"
        f" p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
    )


def engine_phase(positions: int, seed: int) -> None:
    rng = random.Random(seed)
    times: list[float] = []
    reasons: Counter[str] = Counter()
    for rules in PRESETS.values():
        for seats in range(rules.min_seats, rules.max_seats + 1):
            for _ in range(positions):
                game = random_position(rules, seats, rng)
                observation = game.observe(game.round.turn)
                started = time.perf_counter()
                given = hint(observation, random.Random(rng.randrange(1 << 30)))
                times.append(time.perf_counter() - started)
                reasons[given.reason.value] += 1
    print(figures("engine", times))
    print("reasons: " + ", ".join(f"{reason} {count}" for reason, count in reasons.most_common()))


async def play_one(fake: FakeTelegram, person: User, opponents: int, times: list[float]) -> None:
    await open_private_game(fake, person, "fives", opponents, level="easy")
    version = -1
    while True:

        def my_turn(version: int = version) -> tuple[str, str, int] | bool | None:
            if final_result(fake, person) is not None:
                return True
            hand = hand_message(fake, person)
            if hand is None:
                return None
            playable = [b for b in tile_buttons(hand.inline_keyboard) if b.playable and b.version > version]
            buttons = [str(b.get("callback_data", "")) for row in hand.inline_keyboard for b in row]
            data = [button for button in buttons if button.startswith("hi:")]
            return (data[0], playable[0].data, playable[0].version) if playable and data else None

        turn = await fake.wait_for(my_turn, TURN_TIMEOUT, what=f"{person.name}'s turn")
        if turn is True:
            return
        assert isinstance(turn, tuple)
        hint_data, _, version = turn
        hand = hand_message(fake, person)
        assert hand is not None
        started = time.monotonic()
        query = fake.tap(person, hand, data=hint_data)
        await fake.wait_answered(query, timeout=TURN_TIMEOUT)
        times.append(time.monotonic() - started)
        text = answer_text(query)
        found = TILE.search(text)
        assert found, text
        tile = tile_key(found[1], found[2])
        button = next(b for b in tile_buttons(hand.inline_keyboard) if b.tile == tile and not b.end)
        answer = await fake.wait_answered(fake.tap(person, hand, data=button.data), timeout=TURN_TIMEOUT)
        if "choose" in answer_text(answer):
            end = END.search(text)
            code = END_CODES[end[1]] if end else ""

            def ends(code: str = code) -> list[str] | None:
                live = hand_message(fake, person)
                found_ends = [b for b in tile_buttons(live.inline_keyboard) if b.end] if live else []
                return [b.data for b in found_ends if b.end == code or not code] or None

            choice = (await fake.wait_for(ends, TURN_TIMEOUT, what="the ends"))[0]
            await fake.wait_answered(fake.tap(person, hand, data=choice), timeout=TURN_TIMEOUT)


async def bot_phase(games: int) -> None:
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-hints-") as folder:
        async with FakeTelegram(limits=Limits.telegram()) as fake:
            env = bot_env(fake, Path(folder) / "bot.sqlite3", log_level="WARNING")
            env.update(CHAT_MESSAGES_PER_SECOND="1", MESSAGES_PER_SECOND="30", QUIET_ANSWER_SECONDS="60")
            bot = BotLauncher(fake, Path(folder) / "bot.log", env)
            await bot.start()
            try:
                people = [fake.add_user(f"Player {n}") for n in range(games)]
                await asyncio.gather(*(play_one(fake, p, 1 + n % 3, times) for n, p in enumerate(people)))
            finally:
                await bot.stop()
    print(figures(f"bot ({games} private fives games at once, Telegram's limits on)", times))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=30, help="engine: positions per preset and seat count")
    parser.add_argument("--games", type=int, default=4, help="bot: private games played at once")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    engine_phase(args.positions, args.seed)
    asyncio.run(bot_phase(args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Crashes: the bot is SIGKILLed at random moments while games run, restarted on the same
database, and every game must still finish with every move stored exactly once.

Games run in waves (default 5 waves of 10 = 50 games, 3 kills each; ``--quick``: one wave of 4 games,
3 kills), a mix of group games (people and computers, matches whose rounds change) and private
games against the computer (``chaos_games.MIX``).  A wave is set up with the bot left alone,
then a killer SIGKILLs it while the games are played, cycling through four moments:

* ``random``: after a random pause;
* ``mid-move``: a few milliseconds after the bot took a tile tap off ``getUpdates`` and before
  it answered it (the move may or may not be committed);
* ``mid-send``: while a board, hand or result send hangs in Telegram (injected), so the move is
  committed and not shown; sometimes Telegram did take the send and only its answer is lost;
* ``mid-round``: the moment a round's result is posted in a match (the next round is being dealt
  and shown).

After each kill: ``PRAGMA integrity_check`` on the SQLite file, every game's move log read (each
must still be in the final log), the picture workers must end on their own, then the bot starts
again (resuming its games).  Afterwards each game is audited (``chaos_games.audit``).
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from fake_telegram import FakeTelegram
from tests.kit.people.players import GAME_OVER, RESULT_HEAD
from tests.kit.scenarios.chaos_games import MIX, ChaosTable, Harness, audit, set_up, snapshot

ROOT = Path(__file__).resolve().parents[3]

MODES = ("mid-move", "mid-send", "mid-round", "random")
SENDS = ("sendPhoto", "editMessageMedia", "editMessageCaption", "sendMessage", "editMessageReplyMarkup")
MOMENT_WAIT = 8.0  # seconds to wait for a moment of the wanted kind; then the kill comes anyway


class Killer:
    """Kills the bot ``kills`` times while the tables play, at moments of the four kinds."""

    def __init__(self, harness: Harness, rng: random.Random, seen: dict[str, int]) -> None:
        self.harness = harness
        self.fake = harness.fake
        self.rng = rng
        self.modes = seen  # mode -> kills
        self.snapshots: list[dict[int, list[tuple[object, ...]]]] = []

    async def run(self, tables: list[ChaosTable], kills: int, first: int) -> None:
        for number in range(kills):
            if all(t.outcome != "playing" for t in tables):
                return
            await asyncio.sleep(self.rng.uniform(0.3, 1.0) if number == 0 else self.rng.uniform(0.5, 2.5))
            mode = MODES[(first + number) % len(MODES)]
            await self.moment(mode, tables)
            self.modes[mode] = self.modes.get(mode, 0) + 1
            await self.harness.kill_and_restart(lambda: self.snapshots.append(snapshot(self.harness.database)))

    async def moment(self, mode: str, tables: list[ChaosTable]) -> None:
        fake = self.fake
        loop = asyncio.get_running_loop()
        deadline = loop.time() + MOMENT_WAIT
        if mode == "random":
            await asyncio.sleep(self.rng.uniform(0.0, 1.5))
        elif mode == "mid-move":
            seen = {q.id for q in fake.callback_queries if q.delivered_at is not None}
            while loop.time() < deadline:
                fresh = [
                    q
                    for q in fake.callback_queries
                    if q.delivered_at is not None and q.id not in seen and not q.answered and q.data.startswith("t:")
                ]
                if fresh:
                    await asyncio.sleep(self.rng.uniform(0.0, 0.02))
                    return
                await asyncio.sleep(0.002)
        elif mode == "mid-send":
            chats = [t.results.id for t in tables if t.outcome == "playing"]
            if not chats:
                return
            fake.inject(
                "hang",
                method=self.rng.choice(SENDS),
                chat=self.rng.choice(chats) if self.rng.random() < 0.5 else None,
                apply_before_hang=self.rng.random() < 0.3,
            )
            while loop.time() < deadline and fake.pipeline.injector.scripted:
                await asyncio.sleep(0.005)
            fake.pipeline.injector.scripted.clear()
        elif mode == "mid-round":
            start = len(fake.transcript)
            while loop.time() < deadline:
                for entry in fake.transcript[start:]:
                    if entry.kind == "request" and entry.method in ("sendPhoto", "sendMessage"):
                        words = str(entry.params.get("caption") or entry.params.get("text") or "").strip()
                        if RESULT_HEAD.match(words) and not GAME_OVER.search(words):
                            return
                start = len(fake.transcript)
                await asyncio.sleep(0.002)


async def run(
    quick: bool = False, *, waves: int | None = None, per_wave: int | None = None, seed: int = 9
) -> dict[str, object]:
    waves = waves if waves is not None else (1 if quick else 5)
    per_wave = per_wave if per_wave is not None else (4 if quick else 10)
    kills_per_wave = 3
    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="chaos-crash-"))
    began = time.monotonic()
    tables: list[ChaosTable] = []
    modes: dict[str, int] = {}
    killed_in: set[int] = set()
    fake = FakeTelegram(seed=seed)
    await fake.start()
    harness = Harness(fake, workdir, extra={"REQUEST_TIMEOUT": "5"})
    killer = Killer(harness, rng, modes)
    try:
        await harness.start()
        for wave in range(waves):
            wave_tables = []
            for i in range(per_wave):
                index = wave * per_wave + i
                wave_tables.append(await set_up(fake, MIX[index % len(MIX)], index, seed))
            tables += wave_tables
            kills_before = harness.kills

            async def killing(wt: list[ChaosTable] = wave_tables, w: int = wave) -> None:
                await killer.run(wt, kills_per_wave, w)

            plays = [asyncio.create_task(t.play()) for t in wave_tables]
            kill_task = asyncio.create_task(killing())
            await asyncio.gather(*plays)
            await kill_task
            for t in wave_tables:  # a game lived through a kill if one came before it ended
                if harness.kills > kills_before and t.ended > harness.kill_times[kills_before]:
                    killed_in.add(t.game_id)
    finally:
        await harness.stop()
        await fake.stop()
    stored = harness.games()
    found = audit(tables, stored, killer.snapshots)
    errors, _polling = harness.log_problems()  # no faults here: the polls never fail
    seconds = time.monotonic() - began
    bad_integrity = [result for result in harness.integrity if result != "ok"]
    figures: dict[str, object] = {
        "games": found.games,
        "games through a kill": len(killed_in),
        "kills": harness.kills,
        "kills by moment": dict(sorted(modes.items())),
        "integrity checks": len(harness.integrity),
        "integrity failures": len(bad_integrity),
        "finished": found.finished,
        "not resumed": found.not_resumed,
        "people moves": found.human_moves,
        "computer moves": found.computer_moves,
        "taps": found.taps,
        "taps acknowledged": found.acknowledged,
        "taps never answered": found.unanswered_taps,
        "moves lost": found.lost,
        "moves applied twice": found.twice,
        "log/record mismatches": found.record_mismatch,
        "log errors": len(errors),
        "restart seconds (mean)": round(sum(harness.restart_seconds) / max(1, len(harness.restart_seconds)), 2),
        "workers left behind": harness.leftover_children,
        "seconds": round(seconds, 1),
        "problems": found.problems[:20] + errors[:10] + bad_integrity[:5],
    }
    print(report(figures))
    if found.problems or errors:
        print(f"(bot log and database kept in {workdir})")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return figures


def report(figures: dict[str, object]) -> str:
    lines = [
        f"crash: {figures['kills']} SIGKILLs ({figures['kills by moment']}) over {figures['games']} games "
        f"({figures['games through a kill']} lived through at least one), {figures['seconds']} s",
        f"  integrity_check after each kill: {figures['integrity checks']} run, {figures['integrity failures']} failed",
        f"  games finished {figures['finished']}, did not resume {figures['not resumed']}",
        f"  moves: {figures['people moves']} by people, {figures['computer moves']} by computers; "
        f"lost {figures['moves lost']}, applied twice {figures['moves applied twice']}, "
        f"log/record mismatches {figures['log/record mismatches']}",
        f"  taps {figures['taps']}: {figures['taps acknowledged']} acknowledged as played, "
        f"{figures['taps never answered']} never answered (the bot died holding them; the player tapped again)",
        f"  restart to polling: {figures['restart seconds (mean)']} s mean; picture workers left behind: "
        f"{figures['workers left behind']}; errors in the bot's log: {figures['log errors']}",
    ]
    problems = figures["problems"]
    assert isinstance(problems, list)
    lines += [f"  ! {p}" for p in problems]
    return "\n".join(lines)


if __name__ == "__main__":
    asyncio.run(run(quick="--quick" in sys.argv))

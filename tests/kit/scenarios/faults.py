"""Faults: about 10 % of Bot API calls fail as Telegram's do, and every game must still finish
with no exception reaching the bot's log unhandled.

The fake (``fake_telegram/faults.py``) answers a seeded 10 % of the bot's calls with
429 "Too Many Requests: retry after 1", 500 "Internal Server Error", no answer at all until the
bot's request timeout (``REQUEST_TIMEOUT=2`` here) gives up, or a connection closed without an
answer; half of the unanswered ones took effect anyway (a message sent whose answer was lost).
``getUpdates`` fails at 2 % (never by hanging).  Games are set up with the faults off (the
people's setup helpers wait for answers), then played with them on: waves of games (default 3
waves of 8 = 24; ``--quick``: 3 games), a mix of group games with people and computers and
private games.  Afterwards each game is audited like the crash scenario's, every chat is searched
for messages still showing a game's live buttons beside the one current hand, board or final
result (a photo whose answer was lost, sent again: ``live_duplicates``), the bot's log is
scanned for ``ERROR`` lines and tracebacks (aiogram's own "Failed to fetch updates", logged at
ERROR before it backs off and polls again, is counted apart), and the fake's rule violations
are counted.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.faults import ChaosFaults, install
from tests.kit.people.players import RESULT_HEAD, result_messages
from tests.kit.scenarios.chaos_games import SHORT_MIX, ChaosTable, Harness, audit, set_up

ROOT = Path(__file__).resolve().parents[3]

RATE = 0.10
REQUEST_TIMEOUT = "2"


async def run(
    quick: bool = False, *, waves: int | None = None, per_wave: int | None = None, seed: int = 11, rate: float = RATE
) -> dict[str, object]:
    waves = waves if waves is not None else (1 if quick else 2)
    per_wave = per_wave if per_wave is not None else (3 if quick else 10)
    workdir = Path(tempfile.mkdtemp(prefix="chaos-faults-"))
    began = time.monotonic()
    tables: list[ChaosTable] = []
    fake = FakeTelegram(seed=seed)
    await fake.start()
    injector = install(fake, ChaosFaults(rate=rate, seed=seed, hang_seconds=30.0))
    injector.enabled = False
    # Quick (the tests): pictures in the bot's own process, no worker to spawn; nothing is killed here.
    workers = "0" if quick else "1"
    harness = Harness(fake, workdir, extra={"REQUEST_TIMEOUT": REQUEST_TIMEOUT, "RENDER_WORKERS": workers})
    try:
        await harness.start()
        for wave in range(waves):
            injector.enabled = False
            wave_tables = []
            for i in range(per_wave):
                index = wave * per_wave + i
                wave_tables.append(await set_up(fake, SHORT_MIX[index % len(SHORT_MIX)], index, seed))
            tables += wave_tables
            injector.enabled = True
            await asyncio.gather(*(t.play() for t in wave_tables))
        injector.enabled = False
        await fake.wait_idle(quiet=0.5, timeout=30.0)
    finally:
        await harness.stop()
        await fake.stop()
    found = audit(tables, harness.games(), [])
    errors, polling = harness.log_problems()
    tracebacks = sum(1 for line in harness.bot.log().splitlines() if line.startswith("Traceback"))
    duplicates = 0
    for table in tables:  # a result posted twice: Telegram took a send whose answer was lost, the bot sent again
        heads = Counter(RESULT_HEAD.match(m.shown_text).group(1) for m in result_messages(fake, table.results))  # type: ignore[union-attr]
        duplicates += sum(n - 1 for n in heads.values())
    second_answers, violations = lost_reply_answers(fake)
    twins = live_duplicates(fake, tables)
    copies = unknown_copies(fake, tables)
    polling_faults = sum(n for (method, _), n in injector.by_method.items() if method == "getUpdates")
    figures: dict[str, object] = {
        "games": found.games,
        "finished": found.finished,
        "not finished": found.not_resumed,
        "calls while faults were on": injector.calls,
        "faults": injector.injected,
        "faults by kind": dict(sorted(injector.counts.items())),
        "getUpdates faults": polling_faults,
        "fault rate": round(
            (injector.injected - polling_faults) / max(1, injector.calls - injector.polls), 3
        ),  # getUpdates aside
        "people moves": found.human_moves,
        "computer moves": found.computer_moves,
        "taps": found.taps,
        "taps never answered": found.unanswered_taps,
        "moves lost": found.lost,
        "moves applied twice": found.twice,
        "results posted twice": duplicates,
        "visible duplicates": sum(twins.values()),
        "visible duplicates by kind": dict(sorted(twins.items())),
        "photos sent with their answer lost": injector.applied["sendPhoto"],
        "copies the bot never learned of": copies,
        "log errors": len(errors),
        "tracebacks": tracebacks,
        "polling errors (aiogram retried)": polling,
        "violations": len(violations),
        "taps answered again after a lost reply": second_answers,
        "seconds": round(time.monotonic() - began, 1),
        "problems": found.problems[:20] + errors[:10] + violations[:5],
    }
    print(report(figures))
    if found.problems or errors or violations:
        print(f"(bot log and database kept in {workdir})")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return figures


def lost_reply_answers(fake: FakeTelegram) -> tuple[int, list[str]]:
    """(second answers to a tap whose first answer took effect but lost its reply, the other violations).

    The bot cannot tell a lost reply from a lost request, so it tries again and Telegram refuses
    the second answer: a runtime condition, not a broken rule."""
    entries = {entry.seq: entry for entry in fake.transcript if entry.kind == "request"}
    lost = {
        str(entry.params.get("callback_query_id"))
        for entry in entries.values()
        if entry.method == "answerCallbackQuery" and entry.fault in ("hang", "drop")
    }
    again, others = 0, []
    for violation in fake.violations:
        entry = entries.get(violation.seq)
        if (
            "answered twice" in violation.detail
            and entry is not None
            and str(entry.params.get("callback_query_id")) in lost
        ):
            again += 1
        else:
            others.append(str(violation))
    return again, others


# Buttons that act on a game, by what they are under: a hand (tiles, 💡, the computers' level), the
# group's board ("My hand") or a final result (Rematch, 🎬, 📈). Their callback data: prefix:game:...
GAME_BUTTONS = {"t": "hand", "hi": "hand", "lv": "hand", "h": "board", "rm": "result", "rp": "result", "rv": "result"}


def live_duplicates(fake: FakeTelegram, tables: list[ChaosTable]) -> Counter[str]:
    """Messages of the bot still on screen with a game's live buttons, beyond one per chat, game and
    kind (a person's one hand, a group's one board, one final result): the copies Telegram made of
    a send whose answer was lost (the bot sent it again), or a replaced message never deleted."""
    chats = {chat.id: chat for table in tables for chat in (*table.people, table.results)}
    extra: Counter[str] = Counter()
    for chat in chats.values():
        for (kind, _), count in live_game_messages(fake, chat).items():
            extra[kind] += count - 1
    return +extra


def unknown_copies(fake: FakeTelegram, tables: list[ChaosTable]) -> int:
    """The bot's messages still on screen whose id no answer ever gave it: copies made by a send
    whose answer was lost (with or without buttons; the bot can never edit or delete them)."""
    known: dict[int, set[int]] = {}
    for entry in fake.transcript:
        if entry.kind == "request" and entry.ok and isinstance(entry.response, dict) and entry.chat_id is not None:
            known.setdefault(entry.chat_id, set()).add(entry.response.get("message_id", 0))
    chats = {chat.id: chat for table in tables for chat in (*table.people, table.results)}
    return sum(
        1
        for chat_id, chat in chats.items()
        for message in fake.messages(chat, from_bot=True)
        if message.message_id not in known.get(chat_id, set())
    )


def live_game_messages(fake: FakeTelegram, chat: Chat | User) -> Counter[tuple[str, str]]:
    """How many of the bot's messages in ``chat`` show live buttons, by (what they are under, game)."""
    shown: Counter[tuple[str, str]] = Counter()
    for message in fake.messages(chat, from_bot=True):
        games = {game_button(button) for row in message.inline_keyboard for button in row}
        shown.update(game for game in games if game is not None)
    return shown


def game_button(button: dict[str, object]) -> tuple[str, str] | None:
    """(what the button is under, its game) for a game's button, else None."""
    prefix, _, rest = str(button.get("callback_data") or "").partition(":")
    kind = GAME_BUTTONS.get(prefix)
    return (kind, rest.split(":")[0]) if kind else None


def report(figures: dict[str, object]) -> str:
    lines = [
        f"faults: {figures['faults']} of {figures['calls while faults were on']} Bot API calls failed "
        f"({figures['fault rate']:.1%} of calls but getUpdates; {figures['faults by kind']}; "
        f"getUpdates {figures['getUpdates faults']}) "
        f"over {figures['games']} games, {figures['seconds']} s",
        f"  games finished {figures['finished']}, not finished {figures['not finished']}",
        f"  moves: {figures['people moves']} by people, {figures['computer moves']} by computers; "
        f"lost {figures['moves lost']}, applied twice {figures['moves applied twice']}",
        f"  taps {figures['taps']}, never answered {figures['taps never answered']} (the answer was the failed call)",
        f"  bot log: {figures['log errors']} unhandled errors, {figures['tracebacks']} tracebacks, "
        f"{figures['polling errors (aiogram retried)']} polling errors aiogram retried",
        f"  photos sent whose answer was lost: {figures['photos sent with their answer lost']}; copies on screen "
        f"the bot never learned of: {figures['copies the bot never learned of']}; messages with a game's live "
        f"buttons beside its current one: {figures['visible duplicates']} {figures['visible duplicates by kind']}",
        f"  results posted twice (answer lost, sent again): {figures['results posted twice']}; "
        f"rule violations: {figures['violations']} (besides {figures['taps answered again after a lost reply']} taps "
        "answered again because the reply to the first answer was lost: Telegram says 'query is too old')",
    ]
    problems = figures["problems"]
    assert isinstance(problems, list)
    lines += [f"  ! {p}" for p in problems]
    return "\n".join(lines)


if __name__ == "__main__":
    asyncio.run(run(quick="--quick" in sys.argv))

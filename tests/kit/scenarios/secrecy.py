"""Secrecy: nobody is shown a tile of someone else's hand before the round ends, and the token never shows.

Run from the repository root::

    .venv/bin/python -m tests.kit.scenarios.secrecy           # every preset, group/private/room games, ~2 min
    .venv/bin/python -m tests.kit.scenarios.secrecy --quick   # a handful of games (what the test suite runs)

The real bot (``python -m bot``, ``LOG_LEVEL=DEBUG`` so that its logs are as talkative as they
get) plays whole games through the fake Bot API server, all at once: group games of every preset
with 2 to 4 people and computers in the free seats, private games against the computer, and
friend rooms (two private chats). Then every request the bot made is checked against the stored
record of its game:

* the moment of every play is the ``at`` of its row in ``moves``; a tile drawn from the boneyard
  belongs to its drawer from the play before the draw; so for any moment ``T`` of round ``r``
  the tiles a chat may name are those played by ``T``, plus, in a player's private chat, that
  player's own hand at ``T``. Everything else (other hands, the boneyard) is secret until the
  round's result;
* every text, caption, button text and callback data sent into a chat of the game (and every
  tap answer, to the person who tapped) is scanned for tiles (``6|4``, ``[6|4]``, tile codes in
  callback data); a result (which reveals the hands) must not come before its round's last play;
* every picture sent into a chat of the game is matched, byte for byte, against the pictures of
  the public :class:`engine.Table` (in the group) or of that player's own
  :class:`engine.Observation` (in a private chat) at some moment of the round up to ``T``,
  drawn again here by the same renderer: a matched picture was made from nothing but that view;
* the bot handles no inline queries (its dispatcher asks Telegram for none), so there are no
  inline answers to leak;
* the bot's log (stdout and stderr) never names a tile;
* the bot token (a recognisable one) never appears in the log or an error message, also when
  the bot is started with a wrong token (401), an unreachable or wrong API URL, or meets 500s,
  errors and time-outs while it runs.

Figures returned: games, requests and pictures checked, leaks of each kind (aim 0).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from engine import Match, read_record, replay
from engine.events import Drew, Played
from engine.tiles import Tile
from fake_telegram import Chat, Entry, FakeTelegram, User
from tests.kit.launcher import BotLauncher, bot_env
from tests.kit.people import friends, players

ROOT = Path(__file__).resolve().parents[3]

# Recognisable tokens: the one the fake accepts, and a wrong one (answered 401).
TOKEN = "424242424:SeCrEtDoMiNoToKeN_mustNeverBeLogged42"
WRONG_TOKEN = "434343434:WrOnGDoMiNoToKeN_mustNeverBeLogged43"
MALFORMED_TOKEN = "444444444:MaLfOrMeDtOkEn!"
START_TIMEOUT = 30.0
GAME_TIMEOUT = 240.0
PROBE_TIMEOUT = 20.0

# (preset, people, seats) in groups: every preset, 2 to 4 people, computers in the free seats.
GROUP_GAMES = [
    ("classic", 2, 4),
    ("classic", 4, 4),
    ("draw", 3, 3),
    ("block", 2, 3),
    ("fives", 3, 4),
    ("quickblock", 2, 2),
    ("duel", 2, 2),
    ("hundred", 2, 2),
]
PRIVATE_GAMES = [  # (preset, computer opponents)
    ("classic", 3),
    ("draw", 2),
    ("block", 1),
    ("fives", 3),
    ("quickblock", 1),
    ("duel", 1),
    ("hundred", 1),
]
ROOM_GAMES = ["duel", "quickblock", "classic"]

QUICK_GROUP = [("classic", 2, 4), ("classic", 3, 3), ("duel", 2, 2)]
QUICK_PRIVATE = [("fives", 1), ("quickblock", 1)]
QUICK_ROOMS = ["duel"]

ROUND_TITLE = re.compile(r" · round (\d+) · ")
ROUND_OVER = "Round over"
LOG_PREFIX = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ")
# A tile as anything might print it: 6|4, [6|4], 6-4 (str(Tile)), Tile(high=6, low=4).
LOG_TILE = re.compile(r"(?<![\w.:-])[0-6]\s*[|-]\s*[0-6](?![\w.:-])|Tile\(")
PHOTO_METHODS = ("sendPhoto", "editMessageMedia")


def key(tile: Tile) -> str:
    return players.tile_key(tile.high, tile.low)


# --------------------------------------------------------------------------- playing


@dataclass
class Seated:
    """One game as the people played it: where it was, who sat where, and its people."""

    kind: str  # "group", "private", "room"
    preset: str
    people: list[User]
    chat: Chat | User  # where results are posted (the group, or the first person's chat)
    game_id: int = 0
    seconds: float = 0.0


async def play_group(fake: FakeTelegram, index: int, preset: str, count: int, seats: int) -> Seated:
    people = [fake.add_user(f"G{index}p{n}", last_name=preset) for n in range(count)]
    group = fake.add_group(f"Secrecy {index} {preset}", members=people)
    game = Seated("group", preset, people, group)
    for n, person in enumerate(people):
        if n % 2 == 0:
            fake.start_bot(person)
    lobby = await players.open_lobby(fake, people[0], group, preset)
    game.game_id = lobby.game_id
    await players.set_seats(fake, lobby, people[0], seats)
    for person in people[1:]:
        await players.join(fake, lobby, person)
    await players.start_game(fake, lobby, people[0])
    await players.Table(fake, people, results=group, rng=random.Random(f"secrecy-{index}")).play_to_end()
    return game


async def play_private(fake: FakeTelegram, index: int, preset: str, opponents: int) -> Seated:
    person = fake.add_user(f"P{index}", last_name=preset)
    game = Seated("private", preset, [person], person)
    await players.open_private_game(fake, person, preset, opponents)
    await players.Table(fake, [person], results=person, rng=random.Random(f"secrecy-{index}")).play_to_end()
    return game


async def play_room(fake: FakeTelegram, index: int, preset: str) -> Seated:
    host = fake.add_user(f"R{index}a", last_name=preset)
    guest = fake.add_user(f"R{index}b", last_name=preset)
    game = Seated("room", preset, [host, guest], host)
    _, link = await friends.open_room(fake, host, preset)
    await friends.reply_to_link(fake, guest, link, "You are playing")
    for person in (host, guest):
        await fake.wait_for(partial(players.hand_message, fake, person), players.TURN_TIMEOUT, what="a hand")
    await players.Table(fake, [host, guest], results=host, rng=random.Random(f"secrecy-{index}")).play_to_end()
    return game


async def guarded(game: Coroutine[Any, Any, Seated], label: str) -> Seated | str:
    began = time.monotonic()
    try:
        seated = await asyncio.wait_for(game, GAME_TIMEOUT)
        seated.seconds = time.monotonic() - began
        return seated
    except Exception as error:  # reported as a game that did not finish, not a crash of the scenario
        return f"{label}: {type(error).__name__}: {str(error)[:300]}"


# --------------------------------------------------------------------------- the record, in time


@dataclass
class RoundTimes:
    dealt: list[set[str]]
    plays: list[tuple[float, int, str]]  # (at, seat, tile)
    draws: list[tuple[float, int, set[str]]]  # (at, seat, tiles): from the play before the draw
    end: float  # the moment of the last play (the round is over from then on)
    states: list[Match] = field(default_factory=list)  # the match after 0, 1, 2 … plays of this round
    times: list[float] = field(default_factory=list)  # when each of those states began

    def allowed(self, seat: int | None, moment: float) -> set[str]:
        shown = {tile for at, _, tile in self.plays if at <= moment}
        if seat is not None:
            shown |= self.dealt[seat]
            for at, drawer, tiles in self.draws:
                if drawer == seat and at <= moment:
                    shown |= tiles
        return shown


@dataclass
class GameTimes:
    id: int
    preset: str
    names: list[str]
    seats: dict[int, int]  # user id -> seat
    rounds: list[RoundTimes]
    record: dict[str, Any]

    def round_at(self, moment: float) -> int | None:
        """The round being played at ``moment``; None once the last round is over."""
        for index, round_ in enumerate(self.rounds):
            if moment <= round_.end:
                return index
        return None


def load_games(database: Path) -> dict[int, GameTimes]:
    from bot.display.names import shown_names
    from bot.model.game import TableDoc

    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    found = {}
    try:
        import json

        rows = connection.execute("SELECT id, preset, data FROM games WHERE status = 'finished'").fetchall()
        for game_id, preset, data in rows:
            doc = json.loads(data)
            if not doc.get("record"):
                continue
            moves = connection.execute(
                "SELECT round, seat, tile, at FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
            seats = {seat["user_id"]: n for n, seat in enumerate(doc["seats"]) if seat and seat.get("user_id")}
            names = shown_names(TableDoc.from_json(doc).seats)
            found[game_id] = GameTimes(game_id, preset, names, seats, timeline(doc["record"], moves), doc["record"])
    finally:
        connection.close()
    return found


def timeline(record: dict[str, Any], moves: list[tuple[int, int, str, float]]) -> list[RoundTimes]:
    match = replay(read_record(record))
    rounds = []
    for r, state in enumerate(match.rounds):
        times = [at for round_, _, _, at in moves if round_ == r]
        dealt = [{key(t) for t in hand} for hand in state.deal_.hands]
        plays: list[tuple[float, int, str]] = []
        draws: list[tuple[float, int, set[str]]] = []
        last = float("-inf")
        for event in state.events:
            if type(event) is Played:
                last = times[len(plays)]
                plays.append((last, event.seat, key(event.tile)))
            elif type(event) is Drew:
                draws.append((last, event.seat, {key(t) for t in event.tiles}))
        end = plays[-1][0] if plays else float("-inf")
        rounds.append(RoundTimes(dealt, plays, draws, end))
    return rounds


def states_of(game: GameTimes, r: int) -> RoundTimes:
    """The match after each play of round ``r`` (built once, by replaying a cut record)."""
    round_ = game.rounds[r]
    if not round_.states:
        start = game.rounds[r - 1].end if r > 0 else float("-inf")
        for count in range(len(round_.plays) + 1):
            cut = dict(game.record)
            rounds = [dict(x) for x in game.record["rounds"][: r + 1]]
            rounds[r]["plays"] = rounds[r]["plays"][:count]
            cut["rounds"] = rounds
            round_.states.append(replay(read_record(cut)))
            round_.times.append(start if count == 0 else round_.plays[count - 1][0])
    return round_


# --------------------------------------------------------------------------- the audit


@dataclass
class Audit:
    requests: int = 0  # requests into a game's chats (and tap answers) whose words and buttons were checked
    tiles_named: int = 0  # tiles named in them (allowed or not)
    leaks: list[str] = field(default_factory=list)
    early_results: list[str] = field(default_factory=list)
    pictures: Counter[str] = field(default_factory=Counter)  # matched / unmatched / result / other
    picture_leaks: list[str] = field(default_factory=list)
    renders: int = 0
    _cache: dict[tuple[int, int, int | None], dict[str, float]] = field(default_factory=dict)

    def digests(self, game: GameTimes, r: int, seat: int | None) -> dict[str, float]:
        """Picture digest -> the moment its state began, for every state of round ``r`` as ``seat`` sees it."""
        from renderer import render_private, render_table

        cached = self._cache.get((game.id, r, seat))
        if cached is None:
            round_ = states_of(game, r)
            cached = {}
            for match, began in zip(round_.states, round_.times, strict=True):
                if seat is None:
                    data = render_table(match.table(), game.names).data
                else:
                    data = render_private(match.observe(seat), game.names).data
                self.renders += 1
                cached.setdefault(hashlib.sha256(data).hexdigest(), began)
            self._cache[(game.id, r, seat)] = cached
        return cached


def words_and_buttons(entry: Entry) -> tuple[str, list[dict[str, Any]]]:
    params = entry.params
    if entry.method == "answerCallbackQuery":
        return str(params.get("text") or ""), []
    rows = players._markup_of(params)
    return players._words_of(params), [b for row in rows for b in row]


class WallClock:
    """The wall-clock time (the bot's ``moves.at``) of a moment of the fake's own clock.

    Measured at the start and at the end of the run, and read in between on the line through
    both: a shared machine's wall clock may be slewed by a few milliseconds a minute, which is
    as much as lies between a computer's move and the message that shows it."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        self.first = (fake.recorder.elapsed(), time.time())
        self.last = self.first

    def measure(self) -> None:
        self.last = (self.fake.recorder.elapsed(), time.time())

    def __call__(self, elapsed: float) -> float:
        (e0, w0), (e1, w1) = self.first, self.last
        offset0, offset1 = w0 - e0, w1 - e1
        share = 0.0 if e1 <= e0 else (elapsed - e0) / (e1 - e0)
        return elapsed + offset0 + (offset1 - offset0) * share


def audit(fake: FakeTelegram, games: dict[int, GameTimes], where: dict[int, int], wall: WallClock) -> Audit:
    """Check every request into a chat of a finished game (``where``: chat id -> game id)."""
    found = Audit()
    for entry in sorted(fake.transcript, key=lambda e: e.seq):
        if entry.kind != "request":
            continue
        chat_id = entry.chat_id
        query = None
        if entry.method == "answerCallbackQuery":
            query = fake.world.callbacks.get(str(entry.params.get("callback_query_id")))
            chat_id = query.user_id if query is not None else None
        elif entry.method not in players.SHOWING:
            continue
        game = games.get(where.get(chat_id or 0, 0))
        if game is None or chat_id is None:
            continue
        viewer = game.seats.get(chat_id)  # None: the group
        moment = wall(entry.at)
        about = moment  # the moment whose round the request speaks of
        if entry.method == "answerCallbackQuery" and query is not None:
            # A tap's answer ("You played [6|3].") speaks of the round the tap was made in, which
            # may have ended with that very play before the answer went out.
            about = wall(query.created_at - fake.recorder.started)
        words, buttons = words_and_buttons(entry)
        label = f"#{entry.seq} {entry.method} game {game.id} ({game.preset}) to " + (
            "the group" if viewer is None else f"seat {viewer}"
        )
        head = players.RESULT_HEAD.match(words.strip())
        if head:
            ended = int(head.group(1)) - 1
            if ended < len(game.rounds) and moment < game.rounds[ended].end:
                found.early_results.append(f"{label}: round {ended + 1}'s result before its last play")
            check_picture(found, fake, entry, game, None, viewer, moment, label, kind="result")
            continue
        titled = ROUND_TITLE.search(words)
        r = int(titled.group(1)) - 1 if titled else game.round_at(about)
        if r is None or r >= len(game.rounds):
            continue  # after the game: every hand has been shown
        if about > game.rounds[r].end or (ROUND_OVER in words and moment >= game.rounds[r].end):
            continue  # the round is over: its hands are revealed
        found.requests += 1
        named = players._named(words, buttons)
        found.tiles_named += len(named)
        secret = named - game.rounds[r].allowed(viewer, moment)
        if secret:
            found.leaks.append(f"{label}, round {r + 1}: named {sorted(secret)} too early: {words[:200]!r}")
        lobby = any(str(b.get("callback_data") or "").startswith("lb:") for b in buttons)
        check_picture(found, fake, entry, game, r, viewer, moment, label, kind="other" if lobby else "board")
    return found


def check_picture(
    found: Audit,
    fake: FakeTelegram,
    entry: Entry,
    game: GameTimes,
    r: int | None,
    viewer: int | None,
    moment: float,
    label: str,
    *,
    kind: str,
) -> None:
    if entry.method not in PHOTO_METHODS or not entry.ok or not isinstance(entry.response, dict):
        return
    photo = entry.response.get("photo") or []
    stored = fake.world.files.get(photo[-1]["file_id"]) if photo else None
    if stored is None:
        return
    if kind != "board" or r is None:
        found.pictures["results and others"] += 1
        return
    digest = hashlib.sha256(stored.data).hexdigest()
    began = found.digests(game, r, viewer).get(digest)
    if began is None:
        found.pictures["unmatched"] += 1
        found.picture_leaks.append(f"{label}: a picture that is no {'public table' if viewer is None else 'own view'}")
    elif began > moment:
        found.pictures["from the future"] += 1
        found.picture_leaks.append(f"{label}: a picture of a state not reached yet")
    else:
        found.pictures["matched"] += 1


def log_findings(text: str, secrets: Iterable[str]) -> tuple[list[str], list[str]]:
    """(lines naming a tile, lines containing a secret) of a log."""
    tiles, tokens = [], []
    for line in text.splitlines():
        message = LOG_PREFIX.sub("", line)
        if any(secret in line for secret in secrets):
            tokens.append(line[:300])
        if LOG_TILE.search(message):
            tiles.append(line[:300])
    return tiles, tokens


def token_secrets(*tokens: str) -> list[str]:
    """Each token, its secret half and that half URL-quoted (the same: only URL-safe characters)."""
    found = []
    for token in tokens:
        found += [token, token.split(":", 1)[1]]
    return found


def used_update_types() -> list[str]:
    """What the bot's routers handle, asked of each router (a router is attached to one dispatcher for
    good, and the bot's own may be attached already in this process)."""
    from bot.handlers import all_routers

    return sorted({kind for router in all_routers() for kind in router.resolve_used_update_types()})


# --------------------------------------------------------------------------- the token under errors


async def probe(workdir: Path, name: str, fake: FakeTelegram, **overrides: str) -> tuple[int | None, str]:
    """Start the bot with ``overrides``; wait for it to exit (or stop it); its exit status and output."""
    env = bot_env(fake, workdir / f"{name}.sqlite3", log_level="DEBUG", heartbeat=workdir / f"{name}.beat")
    env.update(RENDER_WORKERS="0", **overrides)  # no picture workers: each start-up is quicker
    bot = BotLauncher(fake, workdir / f"{name}.log", env, new_session=True)
    await bot.start(wait=False)
    assert bot.process is not None
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(bot.process.wait(), PROBE_TIMEOUT)
    await bot.stop()
    return bot.returncode, bot.log()


async def token_probes(workdir: Path, quick: bool) -> dict[str, tuple[int | None, str]]:
    """Start-up errors: a wrong token (401), a malformed one, nothing listening, a name that does not
    resolve, a wrong path (404), a port out of range (aiohttp quotes the whole URL)."""
    outputs = {}
    async with FakeTelegram(token=TOKEN) as fake:
        host = fake.base_url.rsplit(":", 1)[0]
        cases = {
            "401": {"BOT_TOKEN": WRONG_TOKEN},
            "malformed token": {"BOT_TOKEN": MALFORMED_TOKEN},
            "refused": {"TELEGRAM_API_URL": host + ":9"},  # the discard port: nothing listens on loopback
            "no such host": {"TELEGRAM_API_URL": "http://dominoes-secrecy-test.invalid"},
            "wrong path": {"TELEGRAM_API_URL": fake.base_url + "/not-the-bot-api"},
            "bad port": {"TELEGRAM_API_URL": host + ":99999"},
        }
        if quick:
            cases = {name: cases[name] for name in ("401", "malformed token", "wrong path", "bad port")}
        for name, overrides in cases.items():
            outputs[name] = await probe(workdir, name.replace(" ", "-"), fake, **overrides)
    return outputs


async def faults_while_running(fake: FakeTelegram, index: int) -> Seated | str:
    """One more private game while the API fails: 500s, errors, a flood wait (the bot logs each)."""
    fake.inject("500", method="sendPhoto", times=2)
    fake.inject("error", method="editMessageMedia", times=1, description="Bad Request: injected error")
    fake.inject("429", method="editMessageMedia", times=1, retry_after=1)
    fake.inject("500", method="getUpdates", times=2)
    return await guarded(play_private(fake, index, "duel", 1), "faults")


# --------------------------------------------------------------------------- the scenario


async def run(quick: bool = False, *, keep: bool = False) -> dict[str, object]:
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="bench-secrecy-"))
    try:
        figures = await _run(quick, workdir)
    finally:
        if keep:
            print(f"kept {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    figures["seconds"] = round(time.monotonic() - started, 1)
    print(report(figures), flush=True)
    return figures


async def _run(quick: bool, workdir: Path) -> dict[str, object]:
    group_games = QUICK_GROUP if quick else GROUP_GAMES
    private_games = QUICK_PRIVATE if quick else PRIVATE_GAMES
    room_games = QUICK_ROOMS if quick else ROOM_GAMES
    database = workdir / "secrecy.sqlite3"
    async with FakeTelegram(token=TOKEN) as fake:
        env = bot_env(fake, database, log_level="DEBUG", heartbeat=workdir / "beat")
        bot = BotLauncher(fake, workdir / "bot.log", env, new_session=True)
        await bot.start(timeout=START_TIMEOUT)
        try:
            wall = WallClock(fake)
            plays = []
            index = 0
            for preset, count, seats in group_games:
                index += 1
                plays.append(guarded(play_group(fake, index, preset, count, seats), f"group {preset} {count}/{seats}"))
            for preset, opponents in private_games:
                index += 1
                plays.append(guarded(play_private(fake, index, preset, opponents), f"private {preset}"))
            for preset in room_games:
                index += 1
                plays.append(guarded(play_room(fake, index, preset), f"room {preset}"))
            began = time.monotonic()
            outcomes = list(await asyncio.gather(*plays))
            outcomes.append(await faults_while_running(fake, index + 1))
            playing = time.monotonic() - began
            with contextlib.suppress(TimeoutError):
                await fake.wait_idle(quiet=0.5, timeout=30)
            wall.measure()
            polls = [e for e in fake.transcript if e.method == "getUpdates" and e.kind == "request"]
            allowed_updates = [e.params.get("allowed_updates") for e in polls]
        finally:
            await bot.stop()
        games = load_games(database)
        where = {}
        played = [o for o in outcomes if isinstance(o, Seated)]
        for outcome in played:
            chats = {p.id: p for p in outcome.people}
            if outcome.kind == "group":
                chats[outcome.chat.id] = outcome.chat  # type: ignore[assignment]
            owner = next((g.id for g in games.values() if set(g.seats) & {p.id for p in outcome.people}), None)
            if owner is not None:
                outcome.game_id = owner
                where.update(dict.fromkeys(chats, owner))
        began = time.monotonic()
        found = audit(fake, games, where, wall)
        auditing = time.monotonic() - began
        log = bot.log()
    began = time.monotonic()
    probes = await token_probes(workdir, quick)
    probing = time.monotonic() - began
    secrets = token_secrets(TOKEN, WRONG_TOKEN, MALFORMED_TOKEN)
    log_tiles, log_tokens = log_findings(log, secrets)
    probe_tokens = {name: log_findings(text, secrets)[1] for name, (_, text) in probes.items()}
    inline = [t for t in used_update_types() if t.startswith(("inline", "chosen_inline"))]
    asked = {str(x) for x in allowed_updates if x}
    inline_asked = [x for x in asked if "inline" in x]
    unfinished = [o for o in outcomes if isinstance(o, str)]
    slowest = max(played, key=lambda o: o.seconds, default=None)
    return {
        "seconds playing / auditing / probing start-ups": f"{playing:.1f} / {auditing:.1f} / {probing:.1f}",
        "slowest game": f"{slowest.kind} {slowest.preset} {slowest.seconds:.1f} s" if slowest else "-",
        "games": len(played),
        "games unfinished": unfinished,
        "games audited": len(set(where.values())),
        "requests into chats of no game": sum(
            1
            for e in fake.transcript
            if e.kind == "request" and e.method in players.SHOWING and e.chat_id is not None and e.chat_id not in where
        ),
        "rounds": sum(len(games[g].rounds) for g in set(where.values())),
        "requests checked": found.requests,
        "tiles named in them": found.tiles_named,
        "leaks in words and buttons": found.leaks,
        "results before their round ended": found.early_results,
        "pictures": dict(found.pictures),
        "picture leaks": found.picture_leaks,
        "pictures drawn again to compare": found.renders,
        "inline handlers": inline + inline_asked,
        "log lines": len(log.splitlines()),
        "log lines naming a tile": log_tiles,
        "token in the bot's log": log_tokens,
        "start-up probes": {name: status for name, (status, _) in probes.items()},
        "token in start-up errors": {name: lines for name, lines in probe_tokens.items() if lines},
        "start-up errors with a traceback": [name for name, (_, text) in probes.items() if "Traceback" in text],
        "leaks": len(found.leaks)
        + len(found.early_results)
        + len(found.picture_leaks)
        + len(log_tiles)
        + len(log_tokens)
        + sum(len(lines) for lines in probe_tokens.values())
        + len(inline + inline_asked),
    }


def report(figures: dict[str, object]) -> str:
    lines = ["== secrecy =="]
    for name, value in figures.items():
        if isinstance(value, list):
            lines.append(f"  {name}: {len(value)}")
            lines += [f"    {item}" for item in value[:5]]
        else:
            lines.append(f"  {name}: {value}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a handful of games")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (database, logs)")
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.quick, keep=args.keep))
    return 0 if figures["leaks"] == 0 and not figures["games unfinished"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

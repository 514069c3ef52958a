"""A finished group game's hand messages say, in each player's private chat, that it is over.

The result of a group game is posted in the group only; a player's hand message in their private
chat is frozen after each move.  At the end that last edit's caption closes with "🏁 The game is
over: the result is in <group>" in the player's language, and only there: a friend room posts its
result into the private chats, a private game's hand message is the game itself, a game ended
with /kill says so already.  The presenter sends nothing new for it, edits each hand once, and
leaves alone the people who blocked the bot.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.display import captions
from bot.model import absence, scores
from bot.model.game import Game, GameState, HandMessage, Seat, TableDoc, record_of
from bot.words.i18n import speaking
from engine import Match, Rules
from storage import Database, GameRow, GameStatus
from tests.bot.test_results_once import Killed, presenter  # the same stand-ins
from tests.bot.test_results_once import Telegram as OutboxStandIn

ANN, BOB = 7, 8
GROUP = -500
TITLE = "Cats & <Dogs>"
END_LINES = {
    "en": "🏁 The game is over: the result is in Cats &amp; &lt;Dogs&gt;",
    "ru": "🏁 Игра окончена: результат в группе «Cats &amp; &lt;Dogs&gt;»",
    "uk": "🏁 Гру закінчено: результат у групі «Cats &amp; &lt;Dogs&gt;»",
}
NO_TITLE = "🏁 The game is over: the result is in the group"


def played(preset: str, *, to_the_end: bool = True, seed: int = 5) -> Match:
    rng = random.Random(seed)
    match = Match.new(Rules.preset(preset), 2, rng)
    while not match.is_over and (to_the_end or len(match.round.plays()) < 2):
        if match.round.is_over:
            match = match.deal_next(rng)
        match = match.apply(rng.choice(match.round.legal_moves()), seat=match.round.turn)
    return match


def over_with_forced_moves_only(preset: str) -> Match:
    """The first deal (by seed) that ends its match with nobody ever choosing a move."""
    for seed in range(10_000):
        match = Match.new(Rules.preset(preset), 2, random.Random(seed))
        while not match.is_over and len(match.round.legal_moves()) == 1:
            match = match.apply(match.round.legal_moves()[0], seat=match.round.turn)
        if match.is_over:
            return match
    raise AssertionError(f"no {preset} deal ends by forced moves alone")


def game_of(match: Match, kind: str, *, killed: bool = False, name: str = "Ann") -> Game:
    doc = TableDoc(seats=(Seat(name, ANN), Seat("Bob", BOB)), game=GameState(killed=killed))
    status = GameStatus.FINISHED if match.is_over else GameStatus.PLAYING
    row = GameRow(1, GROUP if kind == "group" else ANN, kind, status, match.rules.id, ANN, 1, {}, 0.0, 0.0)
    return Game(row, doc, match)


# --------------------------------------------------------------------------- the caption


@pytest.mark.parametrize("language", ["en", "ru", "uk"])
def test_a_finished_group_games_hand_ends_saying_where_the_result_is(language: str) -> None:
    match = played("duel")
    with speaking(language):
        caption = captions.hand_caption(game_of(match, "group"), match, 0, TITLE)
        without = captions.hand_caption(game_of(match, "group"), match, 0)
    assert caption.splitlines()[-1] == END_LINES[language], caption
    assert caption.count("🏁") == 1
    if language == "en":
        assert without.splitlines()[-1] == NO_TITLE, without  # the group's title unknown: still told


@pytest.mark.parametrize("kind", ["room", "private"])
def test_a_room_or_private_games_hand_says_nothing_of_a_group(kind: str) -> None:
    match = played("duel")
    assert "🏁" not in captions.hand_caption(game_of(match, kind), match, 0, TITLE)
    assert not captions.ends_in_group(game_of(match, kind), match)


def test_a_running_or_killed_group_games_hand_says_nothing_of_the_end() -> None:
    running = played("duel", to_the_end=False)
    assert not running.is_over
    assert "🏁" not in captions.hand_caption(game_of(running, "group"), running, 0, TITLE)
    killed = played("duel")
    assert "🏁" not in captions.hand_caption(game_of(killed, "group", killed=True), killed, 0, TITLE)


def test_the_end_line_stays_within_the_caption_limit_with_the_longest_names() -> None:
    match = played("duel")
    longest = "Ж" * 64
    game = game_of(match, "group", name=longest)
    title = "Г" * 128  # Telegram's longest group title
    caption = captions.hand_caption(game, match, 0, title)
    assert len(caption) <= 1024
    assert caption.endswith(f"the result is in {title}"), caption


# --------------------------------------------------------------------------- the presenter


class Telegram(OutboxStandIn):
    """The outbox as far as the presenter uses it: what went where; dies at the first edit or photo into ``kill_at``."""

    def __init__(self, kill_at: int | None = None) -> None:
        super().__init__(kill_at)
        self.sent: list[tuple[int, str]] = []  # (chat, file name) of each photo sent
        self.edits: list[tuple[int, int, str]] = []  # (chat, message, caption) of each hand edited
        self.hands_sent: list[tuple[int, str, Any]] = []  # (chat, caption, keyboard) of each hand sent

    async def send_photo(self, chat_id: int, data: bytes, filename: str, caption: str, *rest: Any, **kw: Any) -> int:
        if chat_id == self.kill_at:
            raise Killed
        self.sent.append((chat_id, filename))
        if chat_id > 0:
            self.hands_sent.append((chat_id, caption, rest[0] if rest else kw.get("markup")))
        self.next_id += 1
        return self.next_id

    async def edit_photo(  # type: ignore[override]
        self, chat_id: int, message_id: int, data: bytes, filename: str, caption: str, *rest: Any
    ) -> bool:
        if chat_id == self.kill_at:
            raise Killed
        self.edits.append((chat_id, message_id, caption))
        return True


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(f"sqlite:///{tmp_path / 'end.sqlite3'}")
    await database.migrate()
    await database.users.chat_seen(GROUP, "group", TITLE)
    try:
        yield database
    finally:
        await database.close()


async def finished_group_game(db: Database, seats: tuple[Seat, Seat]) -> Game:
    """A group duel just finished: its last result not posted yet, each hand frozen while the other played."""
    match = played("duel")
    waiting = f"{len(match.rounds) - 1}:waiting"
    hands = {0: HandMessage(50, waiting), 1: HandMessage(60, waiting)}
    doc = TableDoc(seats=seats, game=GameState(record=record_of(match), hands=hands))
    row = await db.games.create(
        chat_id=GROUP, kind="group", status=GameStatus.PLAYING, preset="duel", creator_id=ANN, data=doc.to_json()
    )
    row = await db.games.save(row, data=doc.to_json(), status=GameStatus.FINISHED)
    return Game(row, doc, match)


async def stored(db: Database, game: Game) -> Game:
    row = await db.games.get(game.id)
    assert row is not None
    return Game(row, TableDoc.from_json(row.data), game.match)


async def test_each_hand_is_edited_once_with_the_end_line_and_nothing_new_reaches_a_private_chat(
    db: Database,
) -> None:
    await db.users.choose_language(BOB, "Bob", "uk")
    game = await finished_group_game(db, (Seat("Ann", ANN), Seat("Bob", BOB)))
    telegram = Telegram()
    game = (await presenter(db, telegram).sync(game)).game

    assert [chat for chat, _ in telegram.sent] == [GROUP] * len(game.match.rounds)  # type: ignore[union-attr]
    assert [(chat, message) for chat, message, _ in sorted(telegram.edits)] == [(ANN, 50), (BOB, 60)]
    endings = {chat: caption.splitlines()[-1] for chat, _, caption in telegram.edits}
    assert endings == {ANN: END_LINES["en"], BOB: END_LINES["uk"]}
    assert all(hand.turn_key.endswith(":over") for hand in game.doc.game.hands.values())

    again = Telegram()  # synced again (another commit, a wake-up): everything is shown already
    await presenter(db, again).sync(await stored(db, game))
    assert again.sent == [] and again.edits == []


async def test_a_game_over_before_anyone_was_on_turn_sends_each_hand_once_saying_so(db: Database) -> None:
    """A lead nobody can follow ends a quick block round at once: the first hand each person gets is
    already the last, with the end line and no keyboard, and it is stored as such (no edit later)."""
    match = over_with_forced_moves_only("quickblock")
    doc = TableDoc(seats=(Seat("Ann", ANN), Seat("Bob", BOB)), game=GameState(record=record_of(match)))
    row = await db.games.create(
        chat_id=GROUP, kind="group", status=GameStatus.FINISHED, preset="quickblock", creator_id=ANN, data=doc.to_json()
    )
    telegram = Telegram()
    game = (await presenter(db, telegram).sync(Game(row, doc, match))).game

    assert sorted(chat for chat, _, _ in telegram.hands_sent) == [ANN, BOB]
    assert all(caption.splitlines()[-1] == END_LINES["en"] for _, caption, _ in telegram.hands_sent)
    assert all(keyboard is None for _, _, keyboard in telegram.hands_sent)
    assert all(hand.turn_key.endswith(":over") for hand in game.doc.game.hands.values())
    again = Telegram()
    await presenter(db, again).sync(await stored(db, game))
    assert again.hands_sent == [] and again.edits == []


async def test_a_death_among_the_hand_edits_leaves_the_result_unposted_for_the_restart(db: Database) -> None:
    """The hands are edited before the result is posted: a stop in between leaves the result
    unposted, which is what a restart looks for (GameService.backfill_results); its sync then edits
    the hands still to edit and posts the result once."""
    game = await finished_group_game(db, (Seat("Ann", ANN), Seat("Bob", BOB)))
    rounds = len(game.match.rounds)  # type: ignore[union-attr]
    dying = Telegram(kill_at=BOB)  # dies as it edits Bob's hand
    with contextlib.suppress(Killed):
        await presenter(db, dying).sync(game)
    assert dying.sent == []
    assert game.id in await db.results.unposted(scores.UNPOSTED_WINDOW)

    started_again = Telegram()
    game = (await presenter(db, started_again).sync(await stored(db, game))).game
    assert [chat for chat, _ in started_again.sent] == [GROUP] * rounds
    assert [c.splitlines()[-1] for chat, _, c in started_again.edits if chat == BOB] == [END_LINES["en"]]
    assert all(hand.turn_key.endswith(":over") for hand in game.doc.game.hands.values())
    assert game.id not in await db.results.unposted(scores.UNPOSTED_WINDOW)


async def test_a_death_as_the_result_is_posted_edits_no_hand_twice(db: Database) -> None:
    game = await finished_group_game(db, (Seat("Ann", ANN), Seat("Bob", BOB)))
    dying = Telegram(kill_at=GROUP)  # the hands edited and stored, the result not posted
    with contextlib.suppress(Killed):
        await presenter(db, dying).sync(game)
    assert sorted(chat for chat, _, _ in dying.edits) == [ANN, BOB]
    assert game.id in await db.results.unposted(scores.UNPOSTED_WINDOW)

    started_again = Telegram()
    await presenter(db, started_again).sync(await stored(db, game))
    assert started_again.edits == []
    assert [chat for chat, _ in started_again.sent] == [GROUP] * len(game.match.rounds)  # type: ignore[union-attr]


async def test_a_person_who_blocked_the_bot_is_not_written_to(db: Database) -> None:
    game = await finished_group_game(db, (Seat("Ann", ANN), replace(Seat("Bob", BOB), away=absence.BLOCKED)))
    telegram = Telegram()
    await presenter(db, telegram).sync(game)
    assert [chat for chat, _, _ in telegram.edits] == [ANN]
    assert all(chat == GROUP for chat, _ in telegram.sent)

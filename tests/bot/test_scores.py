"""Scores that last (bot/model/scores.py, bot/handlers/scores.py) on a real database, without Telegram:
places and ratings for every kind of outcome, recording once, /kill, the start-up backfill,
leaderboards that stay in their chat, and exported records that replay to the same result."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.handlers import scores as commands
from bot.model import scores
from bot.model.game import Game, GameState, Seat, TableDoc, load_game, record_of
from bot.table.service import GameService
from bot.telegram.locks import GameLocks
from bot.telegram.people import Person
from bot.words.i18n import speaking
from engine import Match, Rules, summary
from storage import Database, GameStatus
from storage.results import FINISHED, GameResult, SeatResult

GROUP = -100500
OTHER = -100600
ANN, BOB, CAROL = Person(1, "Ann"), Person(2, "Bob"), Person(3, "Carol <3>")
REPO = Path(__file__).resolve().parents[2]


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(f"sqlite:///{tmp_path / 'scores.sqlite3'}")
    yield database
    await database.close()


def played(preset: str, seats: int, seed: int) -> Match:
    """A whole game of random legal moves (the same for the same seed)."""
    rng = random.Random(seed)
    match = Match.new(Rules.preset(preset), seats, rng)
    while not match.is_over:
        if match.round.is_over:
            match = match.deal_next(rng)
        match = match.apply(rng.choice(match.round.legal_moves()))
    return match


def seat(index: int, player: str, place: int) -> SeatResult:
    return SeatResult(index, player, None, None, player, 0, place, place == 1)


def mus(after: list[tuple[float, float]]) -> list[float]:
    return [mu for mu, _ in after]


# --- ratings move the right way -------------------------------------------------------------------


def test_a_win_raises_and_a_loss_lowers() -> None:
    win, loss = mus(scores.rate((seat(0, "a", 1), seat(1, "b", 2)), {}))
    assert win > 25 > loss


def test_a_classic_shared_win_raises_both_winners_equally() -> None:
    a, b, c = mus(scores.rate((seat(0, "a", 1), seat(1, "b", 1), seat(2, "c", 2)), {}))
    assert a == b > 25 > c


def test_a_draw_between_equals_changes_no_rating_and_between_unequals_closes_the_gap() -> None:
    a, b = mus(scores.rate((seat(0, "a", 1), seat(1, "b", 1)), {}))
    assert a == pytest.approx(25) and b == pytest.approx(25)
    strong, weak = mus(scores.rate((seat(0, "a", 1), seat(1, "b", 1)), {"a": (30.0, 5.0), "b": (20.0, 5.0)}))
    assert strong < 30 and weak > 20


def test_four_places_in_order() -> None:
    after = mus(scores.rate(tuple(seat(i, p, i + 1) for i, p in enumerate("abcd")), {}))
    assert after == sorted(after, reverse=True) and after[0] > 25 > after[3]


def test_beating_a_strong_player_gains_more() -> None:
    (upset, _), (expected, _) = (
        scores.rate((seat(0, "a", 1), seat(1, "b", 2)), {"b": (35.0, 4.0)}),
        scores.rate((seat(0, "a", 1), seat(1, "b", 2)), {"b": (15.0, 4.0)}),
    )
    assert upset[0] > expected[0] > 25


def test_two_computers_of_one_level_end_with_one_rating() -> None:
    after = scores.rate(
        (seat(0, "user:1", 1), seat(1, "computer:hard", 2), seat(2, "computer:hard", 3)), {"computer:hard": (30, 3)}
    )
    assert after[1] == after[2] and after[1][0] < 30


# --- places from real games -----------------------------------------------------------------------


def test_places_of_a_shared_win_a_draw_and_a_match() -> None:
    shared = played("classic", 3, 702)
    winners = shared.round.outcome().winners  # type: ignore[union-attr]
    assert len(winners) == 2
    assert scores.placings(shared) == [(1, True) if s in winners else (2, False) for s in range(3)]
    draw = played("quickblock", 2, 8)
    assert draw.round.outcome().winners == () and scores.placings(draw) == [(1, False), (1, False)]  # type: ignore[union-attr]
    match = played("draw", 3, 4)
    places = scores.placings(match)
    assert places[match.winner] == (1, True)  # type: ignore[index]
    assert sorted(place for place, _ in places) == [
        1 + sum(o > s for o in match.scores) for s in sorted(match.scores, reverse=True)
    ]


# --- recording games ------------------------------------------------------------------------------


async def stored_game(
    db: Database,
    match: Match,
    people: list[Person],
    *,
    chat_id: int = GROUP,
    kind: str = "group",
    level: str = "hard",
    status: GameStatus = GameStatus.FINISHED,
    killed: bool = False,
) -> Game:
    seats: list[Seat | None] = [Seat(p.name, p.user_id) for p in people]
    seats += [Seat(f"🤖 {level.capitalize()} {i}", level=level) for i in range(1, match.seats - len(people) + 1)]
    doc = TableDoc(seats=tuple(seats), game=GameState(record=record_of(match), killed=killed))
    row = await db.games.create(
        chat_id=chat_id,
        kind=kind,
        status=status,
        preset=match.rules.id,
        creator_id=people[0].user_id,
        data=doc.to_json(),
    )
    return load_game(row)


def winner_first(preset: str, seats: int, winner: int) -> Match:
    for seed in range(500):
        match = played(preset, seats, seed)
        if match.winner == winner:
            return match
    raise AssertionError("no such game")


async def test_recording_once_and_rating_in_the_chat_and_overall(db: Database) -> None:
    game = await stored_game(db, winner_first("duel", 2, 0), [ANN, BOB])
    first = await scores.record(db, game)
    assert first is not None and first.outcome == FINISHED
    ann, bob = first.seats
    assert ann.won and not bob.won and ann.place == 1 and bob.place == 2
    assert ann.chat_after[0] > 25 > bob.chat_after[0]  # type: ignore[index]
    assert ann.after == ann.chat_after  # the first game anywhere: the same numbers overall
    assert await scores.record(db, game) == first  # asked again: the same, nothing counted twice
    assert [s.games for s in await db.results.standings(GROUP)] == [1, 1]
    with speaking("en"):
        caption = scores.with_ratings("Result", first)
    assert caption.splitlines()[1:] == [
        "<b>Ratings in this chat:</b>",
        f"Ann: {scores.shown(ann.chat_after)} (+{scores.shown(ann.chat_after) - 1000})",
        f"Bob: {scores.shown(bob.chat_after)} (−{1000 - scores.shown(bob.chat_after)})",
    ]


async def test_a_private_game_against_the_computer_counts_overall_only(db: Database) -> None:
    game = await stored_game(db, winner_first("duel", 2, 1), [ANN], chat_id=ANN.user_id, kind="private")
    result = await scores.record(db, game)
    assert result is not None
    assert all(s.chat_after is None and s.after is not None for s in result.seats)
    assert result.seats[1].player == "computer:hard" and result.seats[1].won
    assert all(s.skill is None for s in await db.results.standings(ANN.user_id))  # no rating of its own
    overall = {s.player: s for s in await db.results.standings(None)}
    assert overall["user:1"].skill[0] < 25 < overall["computer:hard"].skill[0]  # type: ignore[index]
    with speaking("en"):
        caption = scores.with_ratings("Result", result)
    assert "<b>Ratings:</b>" in caption and "🤖 Computer (Hard)" in caption


async def test_a_killed_game_is_abandoned_and_changes_no_rating(db: Database) -> None:
    await scores.record(db, await stored_game(db, winner_first("duel", 2, 0), [ANN, BOB]))
    before = await db.results.standings(GROUP)
    half = Match.new(Rules.preset("duel"), 2, random.Random(1))
    half = half.apply(half.round.legal_moves()[0])
    killed = await stored_game(db, half, [ANN, BOB], status=GameStatus.CANCELLED, killed=True)
    result = await scores.record(db, killed)
    assert result is not None and not result.finished
    assert await db.results.standings(GROUP) == before
    assert all(s.after is None for s in result.seats)
    with speaking("en"):
        assert scores.with_ratings("Result", result) == "Result"
        assert "abandoned" in commands.history_line(result)
    going = await stored_game(db, half, [ANN, BOB], status=GameStatus.PLAYING)
    assert await scores.record(db, going) is None  # not over: nothing to record


class Synced:
    def __init__(self) -> None:
        self.games: list[Game] = []

    async def sync(self, game: Game) -> Game:
        self.games.append(game)
        return game


class Service:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.locks = GameLocks()
        self.presenter = Synced()


async def test_games_that_ended_unrecorded_are_recorded_at_start_up(db: Database) -> None:
    """The bot stopped between a game's end and its recording: the next start records it (once),
    and posts its final result when that was never posted."""
    finished = await stored_game(db, winner_first("duel", 2, 0), [ANN, BOB])
    half = Match.new(Rules.preset("duel"), 2, random.Random(1))
    killed = await stored_game(
        db, half.apply(half.round.legal_moves()[0]), [ANN, BOB], status=GameStatus.CANCELLED, killed=True
    )
    service = Service(db)
    assert await GameService.backfill_results(service) == 2  # type: ignore[arg-type]
    assert (await db.results.get(finished.id)).finished  # type: ignore[union-attr]
    assert not (await db.results.get(killed.id)).finished  # type: ignore[union-attr]
    assert [g.id for g in service.presenter.games] == [finished.id]  # its result was never posted
    # Once posted, a second start does nothing more.
    row = await db.games.get(finished.id)
    assert row is not None
    doc = load_game(row).doc
    posted = replace(doc, game=replace(doc.game, results_posted=1))
    await db.games.save(row, data=posted.to_json())
    service = Service(db)
    assert await GameService.backfill_results(service) == 0  # type: ignore[arg-type]
    assert service.presenter.games == []
    assert len(await db.results.recent(chat_id=GROUP)) == 2


# --- what the commands show -----------------------------------------------------------------------


async def test_leaderboards_and_stats_stay_in_their_chat(db: Database) -> None:
    for _ in range(3):
        await scores.record(db, await stored_game(db, winner_first("duel", 2, 0), [ANN, BOB]))
    for _ in range(3):
        await scores.record(db, await stored_game(db, winner_first("duel", 2, 0), [CAROL, BOB], chat_id=OTHER))
    with speaking("en"):
        here, markup = await commands.top_view(db, GROUP, by_wins=False)
        there, _ = await commands.top_view(db, OTHER, by_wins=True)
        everywhere, _ = await commands.top_view(db, None, by_wins=False)
        empty, none = await commands.top_view(db, -1, by_wins=False)
        ann_stats = await commands.stats_text(db, ANN, GROUP)
        ann_elsewhere = await commands.stats_text(db, ANN, OTHER)
        bob_overall = await commands.stats_text(db, BOB, None)
    assert "Ann" in here and "Bob" in here and "Carol" not in here
    assert here.splitlines()[1].startswith("1. Ann — ") and "(3 games)" in here
    assert markup is not None and [b.callback_data for b in markup.inline_keyboard[0]] == ["tp:r", "tp:w"]
    assert "Carol &lt;3&gt;" in there and "Ann" not in there and "3 games, 3 wins (100%)" in there
    assert all(name in everywhere for name in ("Ann", "Bob", "Carol &lt;3&gt;"))
    assert none is None and "at least 3" in empty
    assert "3 games, 3 wins (100%)" in ann_stats and "Best streak: 3 wins in a row" in ann_stats
    assert "Rating in all games" in ann_stats
    assert "not finished a game in this chat" in ann_elsewhere
    assert "6 games, 0 wins (0%)" in bob_overall and "Best streak: 0 wins in a row" in bob_overall


async def test_an_exported_record_replays_to_the_same_result(db: Database, tmp_path: Path) -> None:
    match = played("fives", 3, 11)
    game = await stored_game(db, match, [ANN, BOB])
    result = await scores.record(db, game)
    assert result is not None
    record = await commands.export_record(db, result)
    assert record is not None
    assert record["format"] == "dominoes-record/1" and record["names"] == ["Ann", "Bob", "🤖 Hard 1"]
    assert record["levels"] == [None, None, "hard"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    replayed = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert json.loads(replayed.stdout) == summary(match)
    assert json.loads(replayed.stdout)["winner"] == match.winner


async def test_a_game_belongs_to_its_chat_or_to_its_players(db: Database) -> None:
    result = await scores.record(db, await stored_game(db, winner_first("duel", 2, 0), [ANN, BOB]))
    assert result is not None
    assert commands.belongs(result, GROUP, None)
    assert not commands.belongs(result, OTHER, None)
    assert commands.belongs(result, None, ANN.user_id)
    assert not commands.belongs(result, None, CAROL.user_id)
    assert not commands.belongs(result, None, None)


def test_ratings_fit_the_caption_limit() -> None:
    seats = tuple(
        replace(seat(i, f"user:{i}", i + 1), user_id=i, name="N" * 24, chat_after=(25.0 - i, 8.0)) for i in range(4)
    )
    result = GameResult(
        game_id=1, chat_id=GROUP, kind="group", preset="draw", seats=seats, outcome=FINISHED, ended_at=0
    )
    with speaking("en"):
        full = scores.with_ratings("x" * 100, result)
        assert len(full.splitlines()) == 6
        squeezed = scores.with_ratings("x" * 950, result)
        assert len(squeezed) <= 1024 and 2 <= len(squeezed.splitlines()) < 6
        assert scores.with_ratings("x" * 1000, result) == "x" * 1000


def test_every_text_is_in_the_catalogue_languages() -> None:
    """Every score text builds in every language (placeholders are named and filled)."""
    result = GameResult(
        game_id=5,
        chat_id=GROUP,
        kind="group",
        preset="classic",
        seats=(seat(0, "user:1", 1), replace(seat(1, "computer:easy", 2), level="easy")),
        outcome=FINISHED,
        ended_at=0,
    )
    words: list[Any] = []
    for language in ("en", "ru", "uk"):
        with speaking(language):
            words.append(commands.history_line(result))
    assert all("#5" in line and "1970-01-01" in line for line in words)

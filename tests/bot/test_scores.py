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

from bot.display.presenter import Shown
from bot.handlers import scores as commands
from bot.model import scores
from bot.model.documents import load_game
from bot.model.game import Game, GameState, Seat, TableDoc, record_of
from bot.table.service import GameService
from bot.telegram.locks import GameLocks
from bot.telegram.people import Person
from bot.words import texts
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
    people: list[Person | None],
    *,
    chat_id: int = GROUP,
    kind: str = "group",
    level: str = "hard",
    status: GameStatus = GameStatus.FINISHED,
    killed: bool = False,
    hinted: tuple[int, ...] = (),
) -> Game:
    """``people`` take the first seats, computers of ``level`` the rest (and each None in ``people``)."""
    seats: list[Seat | None] = []
    for index in range(match.seats):
        person = people[index] if index < len(people) else None
        computers = sum(1 for seat in seats if seat is not None and seat.user_id is None)
        seats.append(
            Seat(person.name, person.user_id)
            if person is not None
            else Seat(f"🤖 {level.capitalize()} {computers + 1}", level=level)
        )
    doc = TableDoc(seats=tuple(seats), game=GameState(record=record_of(match), killed=killed, hinted=hinted))
    row = await db.games.create(
        chat_id=chat_id,
        kind=kind,
        status=status,
        preset=match.rules.id,
        creator_id=next(p.user_id for p in people if p is not None),
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

    async def sync(self, game: Game) -> Shown:
        self.games.append(game)
        return Shown(game)


class Service:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.locks = GameLocks()
        self.presenter = Synced()
        self.manners = None

    _show = GameService._show


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


# --- partnership games (goat, partners): two against two -------------------------------------------

DAN = Person(4, "Dan")
TEAMS = ((0, 2), (1, 3))


def team_seats(players: str | list[str], winner: int) -> tuple[SeatResult, ...]:
    return tuple(seat(index, player, 1 if index % 2 == winner else 2) for index, player in enumerate(players))


def test_goat_places_come_from_the_winning_team_not_from_the_points() -> None:
    match = winner_first("goat", 4, 0)  # team 1 reached 101 penalty points: team 0 wins
    assert match.side_scores[1] >= 101 > match.side_scores[0]
    assert scores.placings(match) == [(1, True), (2, False), (1, True), (2, False)]
    other = winner_first("goat", 4, 1)
    assert other.side_scores[0] >= 101 > other.side_scores[1]
    assert scores.placings(other) == [(2, False), (1, True), (2, False), (1, True)]


@pytest.mark.parametrize("winner", [0, 1])
def test_partners_places_go_to_both_partners_of_the_winning_team(winner: int) -> None:
    match = winner_first("partners", 4, winner)
    assert match.side_scores[winner] == max(match.side_scores) >= 200
    assert scores.placings(match) == [(1, True) if s % 2 == winner else (2, False) for s in range(4)]


def test_partners_share_their_team_s_result() -> None:
    a, b, c, d = mus(scores.rate(team_seats("abcd", 0), {}, TEAMS))
    assert a == c > 25 > b == d
    # Unequal partners still move the same way as each other, the stronger one less far.
    a, b, c, d = mus(scores.rate(team_seats("abcd", 1), {"a": (35.0, 3.0), "b": (20.0, 3.0)}, TEAMS))
    assert a < 35 and c < 25 and b > 20 and d > 25 and 35 - a < 25 - c
    # The team model, not four players each for themselves with two sharing first place.
    assert scores.rate(team_seats("abcd", 0), {}, TEAMS) != scores.rate(team_seats("abcd", 0), {})


def test_a_team_of_two_computers_of_one_level_is_two_players_of_that_strength_moved_once() -> None:
    current = {"computer:medium": (27.0, 4.0)}
    after = scores.rate(team_seats(["user:1", "computer:medium", "user:2", "computer:medium"], 1), current, TEAMS)
    twins = scores.rate(team_seats(["user:1", "x", "user:2", "y"], 1), {"x": (27.0, 4.0), "y": (27.0, 4.0)}, TEAMS)
    assert after == twins  # the same as two distinct players of that rating: nobody counted twice
    assert after[1] == after[3] and after[1][0] > 27 and after[0][0] < 25


def test_sides_of_a_stored_game() -> None:
    assert scores.sides_of("goat", 4) == scores.sides_of("partners", 4) == TEAMS
    assert scores.sides_of("draw", 4) == ((0,), (1,), (2,), (3,))
    assert scores.sides_of("no-such-rules", 2) == ((0,), (1,))


async def test_a_goat_game_is_stored_rated_listed_and_exported_by_teams(db: Database, tmp_path: Path) -> None:
    match = winner_first("goat", 4, 0)
    result = await scores.record(db, await stored_game(db, match, [ANN, BOB, CAROL, DAN]))
    assert result is not None and result.finished
    assert [(s.place, s.won) for s in result.seats] == [(1, True), (2, False), (1, True), (2, False)]
    assert [s.points for s in result.seats] == list(match.scores) == [match.side_scores[s % 2] for s in range(4)]
    ann, bob, carol, dan = (s.chat_after[0] for s in result.seats)  # type: ignore[index]
    assert ann == carol > 25 > bob == dan
    # Rated as two teams, in the chat and overall (the first game anywhere: the same numbers).
    assert (
        [s.chat_after for s in result.seats] == [s.after for s in result.seats] == scores.rate(result.seats, {}, TEAMS)
    )
    board = {s.player: s for s in await db.results.standings(GROUP)}
    assert [(board[f"user:{i}"].games, board[f"user:{i}"].wins) for i in (1, 2, 3, 4)] == [
        (1, 1),
        (1, 0),
        (1, 1),
        (1, 0),
    ]
    with speaking("en"):
        caption = scores.with_ratings("Result", result)
        line = commands.history_line(result)
        stats = await commands.stats_text(db, CAROL, GROUP)
        top, _ = await commands.top_view(db, GROUP, by_wins=True)
        title = texts.preset_title("goat")
    # The rating lines: partners one after the other.
    assert [row.split(":")[0] for row in caption.splitlines()[2:]] == ["Ann", "Carol &lt;3&gt;", "Bob", "Dan"]
    won, lost = match.side_scores
    assert line.endswith(
        f"{title}: Ann and Carol &lt;3&gt; won, {won} to {lost} penalty points; Bob and Dan are the goats 🐐"
    )
    assert f"{title}: 1 game, 1 win (100%)" in stats and "Rating here: " in stats
    assert "nobody" in top.lower() or "at least 3" in top  # one game is below the leaderboard's minimum
    record = await commands.export_record(db, result)
    assert record is not None and record["teams"] == [[0, 2], [1, 3]] and record["preset"] == "goat"
    path = tmp_path / "goat.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    replayed = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert json.loads(replayed.stdout) == summary(match)
    assert json.loads(replayed.stdout)["team_scores"] == [won, lost] and json.loads(replayed.stdout)["winner"] == 0


async def test_partners_games_count_on_the_leaderboard_and_in_stats(db: Database) -> None:
    for seed_winner in (1, 1, 0):
        await scores.record(db, await stored_game(db, winner_first("partners", 4, seed_winner), [ANN, BOB, CAROL, DAN]))
    await scores.record(db, await stored_game(db, winner_first("duel", 2, 1), [ANN, BOB]))
    with speaking("en"):
        top, _ = await commands.top_view(db, GROUP, by_wins=True)
        stats = await commands.stats_text(db, BOB, GROUP)
        line = commands.history_line((await db.results.recent(chat_id=GROUP))[1])
        title = texts.preset_title("partners")
    assert top.splitlines()[1].startswith("1. Bob — 4 games, 3 wins (75%)")
    assert f"{title}: 3 games, 2 wins (67%)" in stats and "All rule sets: 4 games, 3 wins (75%)" in stats
    assert "Ann and Carol &lt;3&gt; beat Bob and Dan, " in line
    overall = await db.results.player_stats("user:2", None)
    assert len(overall.ratings) == 4  # every team game moved the rating line


async def test_a_private_team_game_with_computer_partner_and_opponents(db: Database) -> None:
    """Against the computer: Ann and a medium partner against two more: one level, one rating."""
    result = await scores.record(
        db,
        await stored_game(db, winner_first("goat", 4, 0), [ANN], chat_id=ANN.user_id, kind="private", level="medium"),
    )
    assert result is not None
    assert all(s.chat_after is None for s in result.seats)
    assert result.seats[0].after[0] > 25  # type: ignore[index]
    assert result.seats[1].after == result.seats[2].after == result.seats[3].after
    with speaking("en"):
        caption = scores.with_ratings("Result", result)
        line = commands.history_line(result)
    # Medium sat on both teams: its mean change would read as nonsense beside its partner's win.
    assert "🤖 Computer (Medium)" not in caption and "Ann" in caption
    assert "Ann and 🤖 Medium 2 won" in line and "🤖 Medium 1 and 🤖 Medium 3 are the goats" in line


async def test_a_hinted_team_game_changes_no_rating(db: Database) -> None:
    result = await scores.record(
        db, await stored_game(db, winner_first("partners", 4, 0), [ANN, BOB, CAROL, DAN], hinted=(0,))
    )
    assert result is not None and result.finished and result.hinted
    assert all(s.after is None and s.chat_after is None for s in result.seats)
    assert [s.won for s in result.seats] == [True, False, True, False]
    assert all(s.skill is None for s in await db.results.standings(GROUP))
    with speaking("en"):
        assert "💡 with hints, not rated" in commands.history_line(result)
        assert scores.with_ratings("Result", result).endswith("changes no rating.")


async def test_an_abandoned_team_game_names_the_teams(db: Database) -> None:
    half = Match.new(Rules.preset("goat"), 4, random.Random(1))
    half = half.apply(half.round.legal_moves()[0])
    killed = await stored_game(db, half, [ANN, BOB, CAROL, DAN], status=GameStatus.CANCELLED, killed=True)
    result = await scores.record(db, killed)
    assert result is not None and not result.finished
    with speaking("en"):
        line = commands.history_line(result)
    assert "Ann and Carol &lt;3&gt; vs Bob and Dan — abandoned" in line


@pytest.mark.parametrize(
    ("language", "goats", "beat"), [("ru", "козлы 🐐", "обыграли пару"), ("uk", "козли 🐐", "перемогли пару")]
)
def test_team_history_lines_in_every_language(language: str, goats: str, beat: str) -> None:
    """A team game's /history line in Russian and Ukrainian: no English left."""

    def result(preset: str, won: int, lost: int) -> GameResult:
        seats = tuple(
            replace(seat(i, f"user:{i}", 1 if i % 2 == 0 else 2), name=name, user_id=i, points=lost if i % 2 else won)
            for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"])
        )
        return GameResult(
            game_id=7, chat_id=GROUP, kind="group", preset=preset, seats=seats, outcome=FINISHED, ended_at=0
        )

    with speaking(language):
        goat = commands.history_line(result("goat", 44, 101))
        partners = commands.history_line(result("partners", 212, 148))
    assert goat.index("Ann") < goat.index("44") < goat.index("101") < goat.index("Bob") < goat.index(goats)
    assert partners.index("Ann") < partners.index(beat) < partners.index("Bob") < partners.index("212 : 148")
    for line in (goat, partners):
        assert not [word for word in (" and ", "beat", "won", "goats", "penalty") if word in line]


@pytest.mark.parametrize(
    ("language", "first", "second"),
    [
        ("en", "🤖 Computer 1 (Medium)", "🤖 Computer 2 (Medium)"),
        ("ru", "🤖 Компьютер 1 (Средний)", "🤖 Компьютер 2 (Средний)"),
        ("uk", "🤖 Комп’ютер 1 (Середній)", "🤖 Комп’ютер 2 (Середній)"),
    ],
)
def test_history_tells_two_computers_of_one_game_apart(language: str, first: str, second: str) -> None:
    """A private game against two computers of one level: /history says which came where."""
    seats = (
        replace(seat(0, "user:1", 2), name="Ann", user_id=1),
        replace(seat(1, "computer:medium", 1), name="🤖 Computer 1", level="medium"),
        replace(seat(2, "computer:medium", 3), name="🤖 Computer 2", level="medium"),
    )
    result = GameResult(game_id=9, chat_id=1, kind="private", preset="draw", seats=seats, outcome=FINISHED, ended_at=0)
    with speaking(language):
        line = commands.history_line(result)
    assert f"Ann, {first}, {second}" in line, line

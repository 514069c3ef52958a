"""Results and ratings in storage (storage/results.py): one result per game, ratings read in the
same transaction, leaderboards per chat, abandoned games, and a chat that moves keeps its scores."""

from __future__ import annotations

from storage import Database, GameStatus
from storage.results import ABANDONED, FINISHED, GameResult, SeatResult, Skill

GROUP = -100
OTHER = -200


async def _game(db: Database, chat_id: int = GROUP, status: GameStatus = GameStatus.FINISHED, **data: object) -> int:
    row = await db.games.create(
        chat_id=chat_id, kind="group", status=status, preset="duel", creator_id=1, data={"seats": [], **data}
    )
    return row.id


def _result(game_id: int, places: dict[int, int], chat_id: int = GROUP, outcome: str = FINISHED) -> GameResult:
    seats = tuple(
        SeatResult(
            seat=index,
            player=f"user:{user}",
            user_id=user,
            level=None,
            name=f"P{user}",
            points=10 if place == 1 else 0,
            place=place if outcome == FINISHED else None,
            won=place == 1 and outcome == FINISHED and list(places.values()).count(1) < len(places),
        )
        for index, (user, place) in enumerate(places.items())
    )
    return GameResult(
        game_id=game_id, chat_id=chat_id, kind="group", preset="duel", seats=seats, outcome=outcome, ended_at=1.0
    )


class Counting:
    """A rater that adds 1 to the winner's mu and takes 1 from the others', and counts its calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[dict[str, Skill], dict[str, Skill]]] = []
        self.result: GameResult | None = None

    def __call__(self, chat: dict[str, Skill], overall: dict[str, Skill]) -> list[tuple[Skill | None, Skill | None]]:
        assert self.result is not None
        self.calls.append((dict(chat), dict(overall)))
        out: list[tuple[Skill | None, Skill | None]] = []
        for seat in self.result.seats:
            step = 1.0 if seat.place == 1 else -1.0
            c = chat.get(seat.player, (25.0, 8.0))
            o = overall.get(seat.player, (25.0, 8.0))
            out.append(((c[0] + step, c[1] - 1), (o[0] + step, o[1] - 1)))
        return out

    def of(self, result: GameResult) -> Counting:
        self.result = result
        return self


async def test_a_game_is_recorded_once_with_its_ratings(db: Database) -> None:
    game = await _game(db)
    rater = Counting()
    result = _result(game, {1: 1, 2: 2})
    stored, new = await db.results.record(result, rater.of(result))
    assert new and len(rater.calls) == 1
    assert rater.calls[0] == ({}, {})  # nobody rated yet
    assert [s.chat_after for s in stored.seats] == [(26.0, 7.0), (24.0, 7.0)]
    assert [s.chat_before for s in stored.seats] == [None, None]
    again, new = await db.results.record(result, rater.of(result))
    assert not new and again == stored and len(rater.calls) == 1  # asked again: nothing rated twice
    assert await db.results.get(game) == stored
    assert stored.winners == (stored.seats[0],)


async def test_ratings_follow_on_per_chat_and_overall(db: Database) -> None:
    rater = Counting()
    first = _result(await _game(db), {1: 1, 2: 2})
    await db.results.record(first, rater.of(first))
    elsewhere = _result(await _game(db, OTHER), {1: 1, 3: 2}, chat_id=OTHER)
    await db.results.record(elsewhere, rater.of(elsewhere))
    # In the other chat Ann starts afresh there, but overall she brings her first game along.
    assert rater.calls[1] == ({}, {"user:1": (26.0, 7.0)})
    third = _result(await _game(db), {1: 2, 2: 1})
    stored, _ = await db.results.record(third, rater.of(third))
    assert rater.calls[2] == (
        {"user:1": (26.0, 7.0), "user:2": (24.0, 7.0)},
        {"user:1": (27.0, 6.0), "user:2": (24.0, 7.0)},
    )
    assert stored.seats[0].chat_before == (26.0, 7.0) and stored.seats[0].chat_after == (25.0, 6.0)
    assert stored.seats[0].before == (27.0, 6.0) and stored.seats[0].after == (26.0, 5.0)

    here = {s.player: s for s in await db.results.standings(GROUP)}
    assert set(here) == {"user:1", "user:2"}  # Carol played in the other chat only
    assert (here["user:1"].games, here["user:1"].wins, here["user:1"].skill) == (2, 1, (25.0, 6.0))
    there = {s.player: s for s in await db.results.standings(OTHER)}
    assert set(there) == {"user:1", "user:3"} and there["user:1"].games == 1
    everywhere = {s.player: s for s in await db.results.standings(None)}
    assert everywhere["user:1"].games == 3 and everywhere["user:1"].skill == (26.0, 5.0)
    assert {s.player for s in await db.results.standings(GROUP, min_games=2)} == {"user:1", "user:2"}
    assert await db.results.standings(GROUP, min_games=3) == []


async def test_an_abandoned_game_is_kept_but_counts_for_nothing(db: Database) -> None:
    rater = Counting()
    first = _result(await _game(db), {1: 1, 2: 2})
    await db.results.record(first, rater.of(first))
    before = await db.results.standings(GROUP)
    killed = _result(await _game(db, status=GameStatus.CANCELLED), {1: 2, 2: 1}, outcome=ABANDONED)
    stored, new = await db.results.record(killed, rater.of(killed))
    assert new and len(rater.calls) == 1, "an abandoned game is never rated"
    assert stored.outcome == ABANDONED and all(s.after is None and s.place is None for s in stored.seats)
    assert await db.results.standings(GROUP) == before
    assert (await db.results.player_stats("user:2", GROUP)).games == 1
    assert [r.game_id for r in await db.results.recent(chat_id=GROUP)] == [killed.game_id, first.game_id]
    assert (await db.results.last_finished(chat_id=GROUP)).game_id == first.game_id  # type: ignore[union-attr]


async def test_stats_per_preset_and_streaks(db: Database) -> None:
    outcomes = [1, 1, 2, 1, 1, 1, 2]
    for place in outcomes:
        result = _result(await _game(db), {1: place, 2: 3 - place})
        await db.results.record(result, Counting().of(result))
    stats = await db.results.player_stats("user:1", GROUP)
    assert (stats.games, stats.wins, stats.best_streak, stats.current_streak) == (7, 5, 3, 0)
    assert [(p.preset, p.games, p.wins) for p in stats.presets] == [("duel", 7, 5)]
    assert (await db.results.player_stats("user:1", OTHER)).games == 0
    mine = await db.results.recent(user_id=2, limit=3)
    assert len(mine) == 3 and all(any(s.user_id == 2 for s in r.seats) for r in mine)
    assert await db.results.recent(user_id=99) == []


async def test_a_moved_chat_keeps_its_scores(db: Database) -> None:
    new_id = -1_000_000_100
    result = _result(await _game(db), {1: 1, 2: 2})
    await db.results.record(result, Counting().of(result))
    before = await db.results.standings(GROUP)
    assert await db.chats.move(GROUP, new_id) == 1
    assert await db.results.standings(GROUP) == []
    assert await db.results.standings(new_id) == before
    assert (await db.results.recent(chat_id=new_id))[0].chat_id == new_id
    # Ratings there go on from what the group had.
    rater = Counting()
    later = _result(await _game(db, new_id), {1: 1, 2: 2}, chat_id=new_id)
    await db.results.record(later, rater.of(later))
    assert rater.calls[0][0] == {"user:1": (26.0, 7.0), "user:2": (24.0, 7.0)}


async def test_unrecorded_games_are_the_ended_ones_without_a_result(db: Database) -> None:
    record = {"format": "dominoes-record/1"}
    finished = await _game(db)
    killed = await _game(db, status=GameStatus.CANCELLED, killed=True, record=record)
    await _game(db, status=GameStatus.CANCELLED, killed=True)  # a killed lobby: nothing was played
    await _game(db, status=GameStatus.CANCELLED, record=record)  # replaced by another game, not killed
    closed = await _game(db, status=GameStatus.CLOSED, record=record)
    await _game(db, status=GameStatus.PLAYING, record=record)
    recorded = await _game(db)
    result = _result(recorded, {1: 1, 2: 2})
    await db.results.record(result, Counting().of(result))
    assert await db.results.unrecorded() == [finished, killed, closed]


def _team_result(game_id: int, players: list[str], winner: int) -> GameResult:
    """A partnership game (seats 0 and 2 against 1 and 3): both partners of ``winner``'s team won."""
    seats = tuple(
        SeatResult(
            seat=index,
            player=player,
            user_id=int(player.split(":")[1]) if player.startswith("user:") else None,
            level=None if player.startswith("user:") else player.split(":")[1],
            name=player,
            points=44 if index % 2 == winner else 101,  # goat: the winners have fewer penalty points
            place=1 if index % 2 == winner else 2,
            won=index % 2 == winner,
        )
        for index, player in enumerate(players)
    )
    return GameResult(
        game_id=game_id, chat_id=GROUP, kind="group", preset="goat", seats=seats, outcome=FINISHED, ended_at=1.0
    )


async def test_a_level_on_both_teams_played_but_did_not_win(db: Database) -> None:
    """Against the computer in a partnership game, one level sits on both teams: a game for it, never a
    win; a level holding both seats of the winning team won once. Either way one game, one rating."""
    both = _team_result(await _game(db), ["user:1", "computer:medium", "computer:medium", "computer:medium"], 0)
    await db.results.record(both, Counting().of(both))
    one_side = _team_result(await _game(db), ["user:1", "computer:hard", "user:2", "computer:hard"], 1)
    await db.results.record(one_side, Counting().of(one_side))
    board = {s.player: (s.games, s.wins) for s in await db.results.standings(GROUP)}
    assert board == {"user:1": (2, 1), "user:2": (1, 0), "computer:medium": (1, 0), "computer:hard": (1, 1)}
    medium = await db.results.player_stats("computer:medium", GROUP)
    assert (medium.games, medium.wins, len(medium.ratings)) == (1, 0, 1)
    hard = await db.results.player_stats("computer:hard", None)
    assert (hard.games, hard.wins, hard.best_streak, len(hard.ratings)) == (1, 1, 1, 1)
    ann = await db.results.player_stats("user:1", GROUP)
    assert [(p.preset, p.games, p.wins) for p in ann.presets] == [("goat", 2, 1)] and ann.current_streak == 0
    stored = await db.results.get(both.game_id)
    assert stored is not None and [(s.points, s.place, s.won) for s in stored.seats] == [
        (44, 1, True),
        (101, 2, False),
        (44, 1, True),
        (101, 2, False),
    ]

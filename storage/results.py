"""Results of ended games: one row per game, one per seat, and the ratings they made.

A finished game's seats carry their points, their place (1 is best; equal places for a shared win
or a draw) and whether they won; a game that was ended before its end (``/kill``) is stored as
*abandoned*, without places and without ratings.

There is no table of ratings: a player's rating is the one stored with their newest rated seat
(in a chat: ``chat_mu``/``chat_sigma``; overall: ``mu``/``sigma``). So recording a game is one
insert, a chat that moves takes its ratings along with its results (``CHAT_COLUMNS``), and
nothing can disagree with the games it came from. What a rating *is* (the model, its numbers)
is the caller's: :meth:`ResultRepository.record` hands it the ratings as they are and stores
what it returns, inside one transaction.

A player is a string: ``user:<id>`` for a person, ``computer:<level>`` for a computer player.
In a partnership game (two against two) each seat's points are its team's total and both partners
of the winning team won; which seats were partners follows from the preset, so it is not stored.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from storage.backend import POSTGRESQL, RATINGS_LOCK, SQLITE

if TYPE_CHECKING:
    from storage.backend import Backend, Queries

FINISHED = "finished"
ABANDONED = "abandoned"

# (mu, sigma) of a rating model
Skill = tuple[float, float]


@dataclass(frozen=True)
class SeatResult:
    seat: int
    player: str
    user_id: int | None
    level: str | None
    name: str
    points: int
    place: int | None  # None: the game was abandoned
    won: bool
    # Ratings before and after this game, in the game's chat and overall (None: not rated there).
    chat_before: Skill | None = None
    chat_after: Skill | None = None
    before: Skill | None = None
    after: Skill | None = None


@dataclass(frozen=True)
class GameResult:
    game_id: int
    chat_id: int
    kind: str
    preset: str
    seats: tuple[SeatResult, ...]
    outcome: str  # FINISHED or ABANDONED
    ended_at: float
    scores: tuple[int, ...] = ()
    id: int = 0  # the order results were recorded in
    hinted: bool = False  # someone asked for a hint during it: shown so, and never rated

    @property
    def finished(self) -> bool:
        return self.outcome == FINISHED

    @property
    def winners(self) -> tuple[SeatResult, ...]:
        return tuple(seat for seat in self.seats if seat.won)


@dataclass(frozen=True)
class Standing:
    """A player on a leaderboard: finished games and wins, and the newest rating (None: unrated)."""

    player: str
    name: str
    user_id: int | None
    level: str | None
    games: int
    wins: int
    skill: Skill | None


@dataclass(frozen=True)
class PresetStats:
    preset: str
    games: int
    wins: int


@dataclass(frozen=True)
class PlayerStats:
    player: str
    presets: tuple[PresetStats, ...]
    skill: Skill | None
    best_streak: int
    current_streak: int
    ratings: tuple[Skill, ...] = ()  # after each rated game, oldest first (the form chart's line)

    @property
    def games(self) -> int:
        return sum(p.games for p in self.presets)

    @property
    def wins(self) -> int:
        return sum(p.wins for p in self.presets)


# Given the players' ratings as stored (in the chat, overall; a player not rated yet is missing),
# the ratings after the game for each seat: (in the chat or None, overall or None) per seat.
Rater = Callable[[dict[str, Skill], dict[str, Skill]], Sequence[tuple[Skill | None, Skill | None]]]

_SEAT_COLUMNS = (
    "seat, player, user_id, level, name, points, place, won,"
    " chat_mu_before, chat_sigma_before, chat_mu, chat_sigma, mu_before, sigma_before, mu, sigma"
)


# Games that ended and whose result was never recorded (ResultRepository.unrecorded), and finished
# games whose results were not all posted (unposted): they look inside the games' JSON documents,
# with each database's own JSON functions. SQLite's json_extract gives SQL NULL for a JSON null.
_UNRECORDED: dict[str, str] = {
    SQLITE: (
        "SELECT g.id FROM games g LEFT JOIN results r ON r.game_id = g.id WHERE r.id IS NULL AND ("
        " g.status = 'finished'"
        " OR (g.status = 'cancelled' AND json_extract(g.data, '$.killed')"
        " AND json_extract(g.data, '$.record') IS NOT NULL)"
        " OR (g.status = 'closed' AND json_extract(g.data, '$.record') IS NOT NULL)"
        ") ORDER BY g.id"
    ),
    POSTGRESQL: (
        "SELECT g.id FROM games g LEFT JOIN results r ON r.game_id = g.id WHERE r.id IS NULL AND ("
        " g.status = 'finished'"
        " OR (g.status = 'cancelled' AND (g.data::jsonb -> 'killed') = 'true'::jsonb"
        " AND jsonb_typeof(g.data::jsonb -> 'record') <> 'null')"
        " OR (g.status = 'closed' AND jsonb_typeof(g.data::jsonb -> 'record') <> 'null')"
        ") ORDER BY g.id"
    ),
}
_UNPOSTED: dict[str, str] = {
    SQLITE: (
        "SELECT id FROM games WHERE status = 'finished' AND updated_at > ?"
        " AND COALESCE(json_extract(data, '$.results_posted'), 0) < json_array_length(data, '$.record.rounds')"
        " ORDER BY id"
    ),
    # json_array_length is 0 for what is not an array; jsonb_array_length would fail on it.
    POSTGRESQL: (
        "SELECT id FROM games WHERE status = 'finished' AND updated_at > ?"
        " AND COALESCE((data::jsonb ->> 'results_posted')::numeric, 0) < CASE"
        " WHEN jsonb_typeof(data::jsonb #> '{record,rounds}') = 'array'"
        " THEN jsonb_array_length(data::jsonb #> '{record,rounds}')"
        " WHEN data::jsonb #> '{record,rounds}' IS NOT NULL THEN 0 END"
        " ORDER BY id"
    ),
}


class ResultRepository:
    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    async def record(self, result: GameResult, rate: Rater | None = None) -> tuple[GameResult, bool]:
        """Store ``result`` once: (what is stored, whether this call stored it).

        A second call for the same game stores nothing and returns the first one's result, so a
        game is recorded exactly once however often (and after however many restarts) it is asked.
        ``rate`` (never for an abandoned game) gets the current ratings, read in the same
        transaction as the write, so two games ending at once cannot both start from the same one.
        """
        async with self._backend.transaction() as transaction:
            # Ratings are read, computed and written back: one game at a time, across instances
            # (PostgreSQL; on SQLite the transaction alone is the only writer).
            await transaction.lock(RATINGS_LOCK)
            stored = await _read(transaction, "r.game_id = ?", (result.game_id,))
            if stored:
                return stored[0], False
            seats = list(result.seats)
            if rate is not None and result.finished and not result.hinted:
                players = sorted({seat.player for seat in seats})
                in_chat = await _skills(transaction, players, result.chat_id)
                overall = await _skills(transaction, players, None)
                after = rate(in_chat, overall)
                seats = [
                    _rated(seat, in_chat.get(seat.player), chat, overall.get(seat.player), everywhere)
                    for seat, (chat, everywhere) in zip(seats, after, strict=True)
                ]
            result_id = await transaction.insert(
                "INSERT INTO results (game_id, chat_id, kind, preset, seats, outcome, scores, ended_at, hinted)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    result.game_id,
                    result.chat_id,
                    result.kind,
                    result.preset,
                    len(seats),
                    result.outcome,
                    json.dumps(list(result.scores)),
                    result.ended_at or time.time(),
                    int(result.hinted),
                ),
            )
            await transaction.executemany(
                f"INSERT INTO result_seats (result_id, chat_id, preset, finished, {_SEAT_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(result_id, result.chat_id, result.preset, int(result.finished), *_seat_values(s)) for s in seats],
            )
            (stored_now,) = await _read(transaction, "r.id = ?", (result_id,))
        return stored_now, True

    async def get(self, game_id: int) -> GameResult | None:
        found = await _read(self._backend, "r.game_id = ?", (game_id,))
        return found[0] if found else None

    async def recent(
        self, *, chat_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[GameResult]:
        """The newest results of a chat, or of the games a person played (anywhere), newest first."""
        parameters: tuple[Any, ...]
        if chat_id is not None:
            where, parameters = "r.chat_id = ?", (chat_id,)
        elif user_id is not None:
            where = "r.id IN (SELECT result_id FROM result_seats WHERE user_id = ?)"
            parameters = (user_id,)
        else:
            raise ValueError("recent() needs a chat or a person")
        return await _read(self._backend, where, parameters, limit=limit)

    async def last_finished(self, *, chat_id: int | None = None, user_id: int | None = None) -> GameResult | None:
        parameters: tuple[Any, ...]
        if chat_id is not None:
            where, parameters = "r.chat_id = ? AND r.outcome = ?", (chat_id, FINISHED)
        elif user_id is not None:
            where = "r.outcome = ? AND r.id IN (SELECT result_id FROM result_seats WHERE user_id = ?)"
            parameters = (FINISHED, user_id)
        else:
            raise ValueError("last_finished() needs a chat or a person")
        found = await _read(self._backend, where, parameters, limit=1)
        return found[0] if found else None

    async def standings(self, chat_id: int | None, *, min_games: int = 1) -> list[Standing]:
        """Every player with at least ``min_games`` finished games in the chat (None: anywhere),
        with their newest name and rating there; in no particular order."""
        parameters: tuple[Any, ...]
        if chat_id is None:
            where, parameters = "", ()
            newest = "t.player = s.player"
            mu, sigma = "mu", "sigma"
            group = "s.player"
        else:
            where, parameters = "s.chat_id = ? AND", (chat_id,)
            newest = "t.chat_id = s.chat_id AND t.player = s.player"
            mu, sigma = "chat_mu", "chat_sigma"
            # The chat is one (the WHERE), but PostgreSQL lets the subqueries name s.chat_id only if grouped by it.
            group = "s.chat_id, s.player"
        rated = (
            f"SELECT t.{{column}} FROM result_seats t WHERE {newest} AND t.{mu} IS NOT NULL"
            " ORDER BY t.result_id DESC LIMIT 1"
        )
        # Several computers of one level in one game are one game for it, and a win only if each of its
        # seats won (not when one of each team is on both sides, as in a partnership game against the computer).
        lost_too = "SELECT 1 FROM result_seats o WHERE o.result_id = s.result_id AND o.player = s.player AND o.won = 0"
        sql = (
            "SELECT s.player, COUNT(DISTINCT s.result_id),"
            f" COUNT(DISTINCT CASE WHEN s.won = 1 AND NOT EXISTS ({lost_too}) THEN s.result_id END),"
            f" (SELECT t.name FROM result_seats t WHERE {newest} ORDER BY t.result_id DESC LIMIT 1),"
            f" (SELECT t.user_id FROM result_seats t WHERE {newest} ORDER BY t.result_id DESC LIMIT 1),"
            f" (SELECT t.level FROM result_seats t WHERE {newest} ORDER BY t.result_id DESC LIMIT 1),"
            f" ({rated.format(column=mu)}), ({rated.format(column=sigma)})"
            f" FROM result_seats s WHERE {where} s.finished = 1 GROUP BY {group}"
            " HAVING COUNT(DISTINCT s.result_id) >= ?"
        )
        rows = await self._backend.fetch_all(sql, (*parameters, min_games))
        return [
            Standing(
                player=row[0],
                games=row[1],
                wins=row[2] or 0,
                name=row[3],
                user_id=row[4],
                level=row[5],
                skill=(row[6], row[7]) if row[6] is not None else None,
            )
            for row in rows
        ]

    async def player_stats(self, player: str, chat_id: int | None) -> PlayerStats:
        """A player's finished games and wins per preset, newest rating and streaks of wins, in a
        chat (None: everywhere)."""
        where = "player = ? AND finished = 1" + ("" if chat_id is None else " AND chat_id = ?")
        parameters: tuple[Any, ...] = (player,) if chat_id is None else (player, chat_id)
        mu, sigma = ("mu", "sigma") if chat_id is None else ("chat_mu", "chat_sigma")
        rows = await self._backend.fetch_all(
            f"SELECT result_id, preset, won, {mu}, {sigma} FROM result_seats WHERE {where} ORDER BY result_id, seat",
            parameters,
        )
        # One entry per game: a player with several seats in one (computers of one level) won it if each seat did.
        per_game: dict[int, tuple[str, bool, Skill | None]] = {}
        for result_id, preset, won, m, s in rows:
            earlier = per_game.get(result_id)
            per_game[result_id] = (preset, bool(won) and (earlier is None or earlier[1]), _pair(m, s))
        presets: dict[str, list[int]] = {}
        best = streak = 0
        skill: Skill | None = None
        ratings: list[Skill] = []
        for preset, won, rated in per_game.values():
            counts = presets.setdefault(preset, [0, 0])
            counts[0] += 1
            counts[1] += int(won)
            streak = streak + 1 if won else 0
            best = max(best, streak)
            if rated is not None:
                skill = rated
                ratings.append(rated)
        return PlayerStats(
            player=player,
            presets=tuple(PresetStats(p, games, wins) for p, (games, wins) in sorted(presets.items())),
            skill=skill,
            best_streak=best,
            current_streak=streak,
            ratings=tuple(ratings),
        )

    async def unrecorded(self) -> list[int]:
        """Games that ended (finished; ended with /kill; closed while idle, once dealt) whose result
        was never recorded: the bot stopped between the end and the recording."""
        rows = await self._backend.fetch_all(_UNRECORDED[self._backend.dialect])
        return [row[0] for row in rows]

    async def unposted(self, within: float) -> list[int]:
        """Finished games changed in the last ``within`` seconds whose results were not all posted
        (``results_posted`` in the game's document counts the rounds whose result was sent)."""
        rows = await self._backend.fetch_all(_UNPOSTED[self._backend.dialect], (time.time() - within,))
        return [row[0] for row in rows]


def _rated(
    seat: SeatResult, chat_before: Skill | None, chat: Skill | None, before: Skill | None, after: Skill | None
) -> SeatResult:
    return SeatResult(
        seat=seat.seat,
        player=seat.player,
        user_id=seat.user_id,
        level=seat.level,
        name=seat.name,
        points=seat.points,
        place=seat.place,
        won=seat.won,
        chat_before=chat_before if chat is not None else None,
        chat_after=chat,
        before=before if after is not None else None,
        after=after,
    )


def _seat_values(seat: SeatResult) -> tuple[Any, ...]:
    def pair(skill: Skill | None) -> tuple[float | None, float | None]:
        return (skill[0], skill[1]) if skill is not None else (None, None)

    return (
        seat.seat,
        seat.player,
        seat.user_id,
        seat.level,
        seat.name,
        seat.points,
        seat.place,
        int(seat.won),
        *pair(seat.chat_before),
        *pair(seat.chat_after),
        *pair(seat.before),
        *pair(seat.after),
    )


async def _skills(queries: Queries, players: list[str], chat_id: int | None) -> dict[str, Skill]:
    """The newest stored rating of each player, in ``chat_id`` (None: overall)."""
    found: dict[str, Skill] = {}
    for player in players:
        if chat_id is None:
            sql = (
                "SELECT mu, sigma FROM result_seats WHERE player = ? AND mu IS NOT NULL ORDER BY result_id DESC LIMIT 1"
            )
            parameters: tuple[Any, ...] = (player,)
        else:
            sql = (
                "SELECT chat_mu, chat_sigma FROM result_seats WHERE chat_id = ? AND player = ? AND chat_mu IS NOT NULL"
                " ORDER BY result_id DESC LIMIT 1"
            )
            parameters = (chat_id, player)
        row = await queries.fetch_one(sql, parameters)
        if row is not None:
            found[player] = (row[0], row[1])
    return found


async def _read(
    queries: Queries, where: str, parameters: tuple[Any, ...], *, limit: int | None = None
) -> list[GameResult]:
    """Results (newest first) with their seats."""
    sql = (
        "SELECT id, game_id, chat_id, kind, preset, outcome, scores, ended_at, hinted FROM results r"
        f" WHERE {where} ORDER BY r.id DESC"
    )
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    heads = await queries.fetch_all(sql, parameters)
    if not heads:
        return []
    ids = [head[0] for head in heads]
    marks = ", ".join("?" for _ in ids)
    seat_rows = await queries.fetch_all(
        f"SELECT result_id, {_SEAT_COLUMNS} FROM result_seats WHERE result_id IN ({marks}) ORDER BY result_id, seat",
        ids,
    )
    seats: dict[int, list[SeatResult]] = {}
    for row in seat_rows:
        seats.setdefault(row[0], []).append(
            SeatResult(
                seat=row[1],
                player=row[2],
                user_id=row[3],
                level=row[4],
                name=row[5],
                points=row[6],
                place=row[7],
                won=bool(row[8]),
                chat_before=_pair(row[9], row[10]),
                chat_after=_pair(row[11], row[12]),
                before=_pair(row[13], row[14]),
                after=_pair(row[15], row[16]),
            )
        )
    return [
        GameResult(
            id=head[0],
            game_id=head[1],
            chat_id=head[2],
            kind=head[3],
            preset=head[4],
            outcome=head[5],
            scores=tuple(json.loads(head[6])),
            ended_at=head[7],
            hinted=bool(head[8]),
            seats=tuple(seats.get(head[0], ())),
        )
        for head in heads
    ]


def _pair(mu: float | None, sigma: float | None) -> Skill | None:
    return (mu, sigma) if mu is not None and sigma is not None else None

"""Scores that last: each ended game's result, stored once, and the ratings it makes.

What is stored (storage/results.py): per game its chat, kind, preset and seat count, and whether
it finished or was abandoned; per seat the player, name, computer level, points, place and
whether they won. A player is ``user:<id>``, or ``computer:<level>`` for a computer player: one
identity per level, the same in every chat, so the scale has fixed points.

Places: in a match (draw, block, fives, hundred) by the final scores, equal scores sharing a
place; in a one-round game (classic, quickblock, duel) the round's winners share place 1 and
everyone else shares the next; a draw puts everyone in place 1. A win is the game's winner, or
each of a classic shared win's winners; a draw is nobody's win.

Teams (the partnership presets ``goat`` and ``partners``: seats 0 and 2 against 1 and 3): both
partners of the winning team (``Match.winner`` is the team's number) win and share place 1, the
other two share place 2. Places come from the winner, never from the points, which in ``goat``
are penalty points (the team that reaches 101 loses). Each seat's points are its team's total.
The team of a seat is not stored: it follows from the preset (:func:`sides_of`), as in a game record.

Ratings: openskill's Plackett-Luce model, places as ranks (equal places are equal ranks): every
player for themselves, or in a partnership preset openskill's team model, the two partners one
team sharing its rank (a team's strength is the sum of its partners'). A group game counts in
that group's ratings and in the overall ones; a game in a private chat (against the computer, or
with a friend through a room) counts overall only. Several computers of one level in one game are
each rated from that level's rating, and the level then takes the mean of what they got. Two of
one level on one team are two players of that strength (each a copy of its own: openskill 6 would
update one object passed twice twice over), so both get the same change and the level moves once
by it; one on each team nearly cancel out (and, in the standings, a level that held a seat of
each team played that game but did not win it). A rating is shown as ``round(40 * mu)``: a new
player is at 1000, a win moves it up, a loss down. A game ended with /kill (or closed for being
idle) is stored as abandoned: it changes no rating and counts as no game played. A game in which
someone asked for a hint (bot/table/hints.py) counts as played, and changes no rating either.

When: a finished game is recorded just before its final result is posted (bot/display/presenter.py), so
the result can show the rating changes; a killed game when it is killed (bot/table/manners.py); and at
start-up ``GameService.backfill_results`` records every ended game that the bot stopped before recording, and
posts the final result of a finished game that never got it. Recording is idempotent (one result
per game, whoever asks first), so nothing is counted twice and nothing is lost.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime

from openskill.models import PlackettLuce

from bot.model.game import DEFAULT_LEVEL, Game, Seat
from bot.words import score_texts, texts
from engine import Match, Rules, UnknownPresetError
from storage import Database, GameStatus
from storage.results import ABANDONED, FINISHED, GameResult, Rater, SeatResult, Skill

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
DEFAULT_SKILL: Skill = (MODEL.mu, MODEL.sigma)
RATING_SCALE = 40
# Leaderboards list players with at least this many finished games.
MIN_GAMES = 3
CAPTION_LIMIT = 1024
# At start-up, finished games changed within this many seconds get their final result if it was never posted.
UNPOSTED_WINDOW = 7 * 24 * 3600


def player_of(seat: Seat) -> str:
    return f"user:{seat.user_id}" if seat.user_id is not None else f"computer:{seat.level or DEFAULT_LEVEL}"


def user_player(user_id: int) -> str:
    return f"user:{user_id}"


def shown(skill: Skill | None) -> int:
    """A rating as people see it."""
    return round((skill or DEFAULT_SKILL)[0] * RATING_SCALE)


def placings(match: Match) -> list[tuple[int, bool]]:
    """(place, won) for each seat of a finished match; 1 is the best place.

    >>> from engine import Rules
    >>> import random
    >>> game = Match.new(Rules.preset("classic"), 2, random.Random(2))
    >>> while not game.is_over:
    ...     game = game.apply(game.round.legal_moves()[0])
    >>> sorted(placings(game))[0][0]
    1
    """
    rules = match.rules
    if rules.has_teams:  # the winning team's partners share the win; never "most points first" (goat)
        winner = match.winner
        if winner is None:
            return [(1, False)] * match.seats
        return [(1, True) if rules.side_of(seat) == winner else (2, False) for seat in range(match.seats)]
    if rules.is_match:
        scores = match.scores
        return [(1 + sum(other > score for other in scores), seat == match.winner) for seat, score in enumerate(scores)]
    outcome = match.round.outcome()
    assert outcome is not None
    if not outcome.winners:
        return [(1, False)] * match.seats
    return [(1, True) if seat in outcome.winners else (2, False) for seat in range(match.seats)]


def result_of(game: Game) -> GameResult | None:
    """The result to store for an ended game; None while it goes on, or when it never began."""
    match = game.match
    status = game.row.status
    if match is None or any(seat is None for seat in game.doc.seats):
        return None
    places: list[tuple[int | None, bool]]
    if status is GameStatus.FINISHED and match.is_over:
        outcome, places = FINISHED, list(placings(match))
    elif (status is GameStatus.CANCELLED and game.doc.game.killed) or status is GameStatus.CLOSED:
        outcome, places = ABANDONED, [(None, False)] * match.seats
    else:
        return None
    seats = []
    for index, (seat, (place, won)) in enumerate(zip(game.doc.seats, places, strict=True)):
        assert seat is not None
        seats.append(
            SeatResult(
                seat=index,
                player=player_of(seat),
                user_id=seat.user_id,
                level=seat.level if seat.user_id is None else None,
                name=seat.name,
                points=match.scores[index],
                place=place,
                won=won,
            )
        )
    return GameResult(
        game_id=game.id,
        chat_id=game.row.chat_id,
        kind=game.row.kind,
        preset=game.row.preset,
        seats=tuple(seats),
        outcome=outcome,
        ended_at=game.row.updated_at,
        scores=tuple(match.scores),
        hinted=bool(game.doc.game.hinted),
    )


Sides = tuple[tuple[int, ...], ...]


def sides_of(preset: str, seats: int) -> Sides:
    """The sides of a stored game: the two teams of a partnership preset, else one seat each.

    >>> sides_of("goat", 4), sides_of("draw", 3), sides_of("retired", 2)
    (((0, 2), (1, 3)), ((0,), (1,), (2,)), ((0,), (1,)))
    """
    try:
        rules = Rules.preset(preset)
    except UnknownPresetError:  # a rule set no longer offered: its seats played for themselves
        rules = None
    if rules is None or not rules.has_teams or not rules.min_seats <= seats <= rules.max_seats:
        return tuple((seat,) for seat in range(seats))
    return rules.sides(seats)


def rate(seats: tuple[SeatResult, ...], current: dict[str, Skill], sides: Sides | None = None) -> list[Skill]:
    """Each seat's rating after a finished game, from the players' ``current`` ones (new: the default);
    ``sides``: the teams (seat indexes), each rated as one (default: every seat for itself).

    >>> win, loss = rate((_seat(0, "user:1", 1), _seat(1, "user:2", 2)), {})
    >>> win[0] > DEFAULT_SKILL[0] > loss[0]
    True
    """
    sides = sides or tuple((index,) for index in range(len(seats)))
    # A rating object per seat, even for two seats of one player: openskill updates an object once per mention.
    teams = [[MODEL.rating(*current.get(seats[index].player, DEFAULT_SKILL)) for index in side] for side in sides]
    ranks = [float(min(seats[index].place or 1 for index in side)) for side in sides]
    after = MODEL.rate(teams, ranks=ranks)
    by_player: dict[str, list[Skill]] = defaultdict(list)
    for side, ratings in zip(sides, after, strict=True):
        for index, rating in zip(side, ratings, strict=True):
            by_player[seats[index].player].append((rating.mu, rating.sigma))
    merged = {
        player: (sum(mu for mu, _ in got) / len(got), sum(sigma for _, sigma in got) / len(got))
        for player, got in by_player.items()
    }
    return [merged[seat.player] for seat in seats]


def rater(result: GameResult) -> Rater:
    """Ratings in the game's chat (group games only) and overall."""
    in_chat = result.kind == "group"
    sides = sides_of(result.preset, len(result.seats))

    def work(chat_now: dict[str, Skill], overall_now: dict[str, Skill]) -> list[tuple[Skill | None, Skill | None]]:
        overall = rate(result.seats, overall_now, sides)
        chat: list[Skill | None] = list(rate(result.seats, chat_now, sides)) if in_chat else [None] * len(result.seats)
        return list(zip(chat, overall, strict=True))

    return work


async def record(db: Database, game: Game) -> GameResult | None:
    """Store an ended game's result (once; a second call returns the first one's). None: not ended."""
    result = result_of(game)
    if result is None:
        return None
    rated = result.finished and not result.hinted
    stored, new = await db.results.record(result, rater(result) if rated else None)
    if new:
        log.info("game %s: result recorded (%s)", game.id, stored.outcome)
    return stored


# --- how results are shown -----------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    name: str  # escaped, ready for HTML
    rating: int
    change: int


def display_name(name: str, user_id: int | None, level: str | None) -> str:
    """A player's name as HTML: a person's own name, or the computer of that level."""
    return texts.escape(name) if user_id is not None else score_texts.computer(level)


def name_in_game(seat: SeatResult) -> str:
    """A seat's name in one game's line (/history), as HTML: a person's own name, a computer the name it
    played under ("🤖 Medium 2"), with its level where that name has none ("🤖 Computer 1 (Medium)"), so
    that two computers of one game are told apart."""
    if seat.user_id is not None:
        return texts.escape(seat.name)
    made = texts.COMPUTER_NAME.fullmatch(seat.name)
    if made is None:
        return score_texts.computer(seat.level)
    shown = texts.escape(texts.computer_name_shown(seat.name))
    if made.group(1) in (texts.COMPUTER_WORD, texts.PARTNER_WORD):
        return f"{shown} ({texts.level_title(seat.level or DEFAULT_LEVEL)})"
    return shown


def changes(result: GameResult) -> list[Change]:
    """Each player's rating change (in the group, or overall for a private game), once per player;
    partners one after the other. A computer level that sat on both teams is left out: its change is
    the mean of a win and a loss, which reads as nonsense beside its own partner's loss."""
    in_chat = result.kind == "group"
    sides = sides_of(result.preset, len(result.seats))
    both_sides = {
        player
        for player in {seat.player for seat in result.seats}
        if sum(any(result.seats[index].player == player for index in side) for side in sides) > 1
    }
    seen: set[str] = set(both_sides)
    found = []
    for seat in (result.seats[index] for side in sides for index in side):
        before, after = (seat.chat_before, seat.chat_after) if in_chat else (seat.before, seat.after)
        if after is None or seat.player in seen:
            continue
        seen.add(seat.player)
        rating = shown(after)
        found.append(Change(display_name(seat.name, seat.user_id, seat.level), rating, rating - shown(before)))
    return found


def with_ratings(caption: str, result: GameResult | None, limit: int = CAPTION_LIMIT) -> str:
    """The final result's caption with the rating changes under it, as many as fit Telegram's limit."""
    if result is None or not result.finished:
        return caption
    if result.hinted:
        mark = score_texts.hinted_unrated()
        return caption + "\n" + mark if len(caption) + 1 + len(mark) <= limit else caption
    found = changes(result)
    if not found:
        return caption
    lines = [score_texts.ratings_heading(result.kind == "group")]
    lines += [score_texts.rating_change(c.name, c.rating, c.change) for c in found]
    while len(lines) > 1 and len(caption) + 1 + len("\n".join(lines)) > limit:
        lines.pop()
    if len(lines) < 2:
        return caption
    return caption + "\n" + "\n".join(lines)


def date_of(result: GameResult) -> str:
    """The day a game ended (UTC), as 2025-01-31."""
    return datetime.fromtimestamp(result.ended_at, UTC).strftime("%Y-%m-%d")


def _seat(index: int, player: str, place: int) -> SeatResult:  # for the doctests
    return SeatResult(index, player, None, None, player, 0, place, place == 1)


async def record_final(db: Database, game: Game, round_index: int) -> GameResult | None:
    """For the presenter, before it posts ``round_index``'s result: the stored result if that is
    the final one of a finished game (recorded now if need be). Never raises: a result that cannot
    be recorded now is recorded at the next start (``GameService.backfill_results``); the game's
    result is posted anyway."""
    match = game.match
    if match is None or not match.is_over or round_index != len(match.rounds) - 1:
        return None
    try:
        return await record(db, game)
    except Exception:
        log.exception("game %s: its result could not be recorded", game.id)
        return None


async def record_quietly(db: Database, game: Game) -> GameResult | None:
    """:func:`record`, logging (never raising) what goes wrong: ``GameService.backfill_results``
    tries again at start-up."""
    try:
        return await record(db, game)
    except Exception:
        log.exception("game %s: its result could not be recorded", game.id)
        return None

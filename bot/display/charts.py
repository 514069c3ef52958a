"""📊 The pictures of /stats and /top (renderer/charts.py), from stored results, in the reader's words."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from bot.display.table_frame import plain
from bot.model import scores
from bot.words import score_texts, texts
from renderer.charts import Board, Form, Standing
from storage.results import PlayerStats, Skill

FORM_GAMES = 30  # the line shows the rating after each of this many last games
TREND_GAMES = 10


def form_of(name: str, stats: PlayerStats, median: int | None, *, in_chat: bool) -> Form:
    rated = len(stats.ratings[-FORM_GAMES:])
    return Form(
        name=name,
        rating_label=score_texts.chart_rating_label(rated) if rated else plain(score_texts.stats_rating(None, in_chat)),
        ratings=[scores.shown(skill) for skill in stats.ratings[-FORM_GAMES:]],
        median=median,
        median_label=score_texts.chart_median_label(),
        presets=[(texts.preset_title(p.preset), p.games, p.wins) for p in stats.presets],
        wins_label=plain(score_texts.games_won(stats.games, stats.wins)),
        streak_label=plain(score_texts.stats_streak(stats.best_streak)),
    )


def median_of(skills: Sequence[Skill | None]) -> int | None:
    """The median rating people see, of the rated ones; None without any."""
    shown = [scores.shown(skill) for skill in skills if skill is not None]
    return round(statistics.median(shown)) if shown else None


def board_of(title: str, rows: Sequence[tuple[str, str, str, Sequence[Skill]]]) -> Board:
    """``rows``: (name as HTML, value, detail, ratings oldest first), best first."""
    return Board(
        plain(title),
        [
            Standing(place, plain(name), value, detail, [scores.shown(s) for s in ratings[-TREND_GAMES:]])
            for place, (name, value, detail, ratings) in enumerate(rows, start=1)
        ],
    )

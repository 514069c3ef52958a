"""📈 Reviews: a person's costliest moves of a finished game (engine/review.py), as pictures and words.

Judging every move of a long match takes a few seconds (``bench/replay.py`` measures it beside the
replays), so it runs in the replays' worker (bot/display/replays.py), never on the event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from bot.words import review_texts
from bot.words.i18n import speaking
from engine.review import review
from renderer import render_private


class ReviewPage(NamedTuple):
    photo: bytes
    filename: str
    caption: str


def draw_review(record: dict[str, Any], seat: int, names: Sequence[str], language: str) -> list[ReviewPage]:
    """In a worker: a picture of the position and the words for each of ``seat``'s costly moves."""
    pages = []
    with speaking(language):
        for mistake in review(record, seat, seed=seat):
            picture = render_private(mistake.observation, list(names))
            if mistake.points is not None:
                words = review_texts.mistake_in_points(
                    mistake.round_index + 1, mistake.move_number, mistake.played, mistake.better, mistake.points
                )
            else:
                words = review_texts.mistake_in_chance(
                    mistake.round_index + 1, mistake.move_number, mistake.played, mistake.better, mistake.chance or 0.0
                )
            pages.append(ReviewPage(picture.data, picture.filename, words))
    return pages

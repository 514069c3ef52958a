"""🎬 Replays: a finished game drawn as an animation, away from the event loop and the board pictures.

An animation takes seconds to draw and encode (``bench/replay.py``), so it has a worker process
of its own: a replay asked for never delays another game's board. The words on its frames are
the reader's (drawn in the worker, in that language). Each chat gets a game's replay once
(bot/handlers/replays.py); Telegram keeps what it was sent, so another chat asking for the same
(game, language) gets Telegram's file id again instead of a new drawing.

Drawing a long match's replay grows its worker by some tens of megabytes (the frames are made
one at a time as they are encoded, :class:`renderer.replay.Steps`), and what a process grew by
it seldom gives back: the worker is ended once idle for :data:`RETIRE_AFTER` seconds, and a new
one started for the next replay or review (``bench/replay.py`` measures both).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar

from bot.display.pictures import WorkerPool
from bot.display.reviews import ReviewPage, draw_review
from bot.display.table_frame import plain
from bot.words import replay_texts, table_texts
from bot.words.i18n import speaking
from engine import Event
from renderer.replay import render_replay

T = TypeVar("T")
CACHED = 256  # file ids kept, newest first
RETIRE_AFTER = 60.0  # seconds: long enough for a replay and the reviews asked for with it to share a worker


class Clip(NamedTuple):
    data: bytes
    filename: str
    width: int
    height: int
    seconds: int


def _describe(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    # The captions' words, drawn as text: the names unescaped and no tags.
    return [plain(words) for words in table_texts.describe_events(list(events), list(names))]


def draw_replay(record: dict[str, Any], names: Sequence[str], language: str) -> Clip:
    """In a worker: the game in ``record`` as an animation with words in ``language``."""
    with speaking(language):
        animation = render_replay(record, list(names), describe=_describe, title=replay_texts.round_title)
    return Clip(animation.data, animation.filename, animation.width, animation.height, round(animation.seconds))


class ReplayMaker:
    def __init__(self, workers: int, *, retire_after: float = RETIRE_AFTER) -> None:
        # One worker: replays and reviews are rare, each takes seconds.
        self._workers = WorkerPool(min(workers, 1), retire_after=retire_after)
        self._sent: dict[tuple[int, str], tuple[str, Clip]] = {}
        self.drawing: set[int] = set()  # chats a replay is being drawn for

    def start(self) -> None:
        self._workers.start()

    def close(self) -> None:
        self._workers.close()

    async def _run(self, work: Callable[..., T], *args: object) -> T:
        return await self._workers.run(work, *args)

    async def draw(self, record: dict[str, Any], names: Sequence[str], language: str) -> Clip:
        return await self._run(draw_replay, record, list(names), language)

    async def review(self, record: dict[str, Any], seat: int, names: Sequence[str], language: str) -> list[ReviewPage]:
        """📈 ``seat``'s costliest moves (bot/display/reviews.py), in the same worker: both are slow and rare."""
        return await self._run(draw_review, record, seat, list(names), language)

    def sent_before(self, game_id: int, language: str) -> tuple[str, Clip] | None:
        """Telegram's file id of this game's replay in ``language``, and its clip, if sent before."""
        return self._sent.get((game_id, language))

    def remember(self, game_id: int, language: str, file_id: str, clip: Clip) -> None:
        if not file_id:
            return
        self._sent[(game_id, language)] = (file_id, clip._replace(data=b""))
        while len(self._sent) > CACHED:
            self._sent.pop(next(iter(self._sent)))

"""Drawing the pictures away from the event loop.

Rendering is the bot's heaviest work (a few milliseconds a picture, several pictures a
move). Worker processes do it, so that it uses the machine's other cores and never holds
the interpreter lock that the event loop needs to answer taps; with ``workers=0`` it runs
in a thread instead (tests, tiny machines). A worker that dies is replaced and the
picture drawn again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import NamedTuple, TypeVar

from engine import Match, Observation, RoundState, Table
from renderer import RoundResult, render_private, render_result, render_table
from renderer.charts import Board, Form, render_board, render_form

log = logging.getLogger(__name__)
T = TypeVar("T")
PARENT_CHECK = 1.0  # seconds between a worker's looks at whether the bot still runs


class Photo(NamedTuple):
    data: bytes
    filename: str


def draw_table(table: Table, names: Sequence[str]) -> Photo:
    picture = render_table(table, names)
    return Photo(picture.data, picture.filename)


def draw_private(observation: Observation, names: Sequence[str]) -> Photo:
    picture = render_private(observation, names)
    return Photo(picture.data, picture.filename)


def draw_result(state: RoundState, names: Sequence[str], scores: Sequence[int] | None = None) -> Photo:
    picture = render_result(RoundResult.of(state, scores=scores), names)
    return Photo(picture.data, picture.filename)


def draw_form(form: Form) -> Photo:
    picture = render_form(form)
    return Photo(picture.data, picture.filename)


def draw_board(board: Board) -> Photo:
    picture = render_board(board)
    return Photo(picture.data, picture.filename)


def _warm_up() -> None:
    """Draw once, so that the worker's sprite cache is filled before the first real move."""
    import random

    from engine import Rules

    match = Match.new(Rules.preset("fives"), 2, random.Random(0))
    draw_private(match.observe(0), ["a", "b"])
    draw_table(match.table(), ["a", "b"])


def exit_with_parent(parent: int) -> None:
    """In a worker: end when the bot is gone.

    A worker waits on a queue that it holds both ends of, so it never sees the bot die; after
    a SIGKILL or an out-of-memory kill it would stay forever. A watcher thread ends it once it
    has been handed to another parent.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class WorkerPool:
    """Worker processes for slow drawing, or a thread when there are none (``workers=0``); a pool
    whose worker died is started again and the work done in a thread meanwhile.

    With ``retire_after``, workers idle that many seconds are ended, and new ones started (on
    demand) for the next work: what a rare, heavy job (a replay) left in a worker's memory is
    given back instead of being kept for good.
    """

    def __init__(
        self, workers: int, warm_up: Callable[[], object] | None = None, *, retire_after: float | None = None
    ) -> None:
        self.workers = workers
        self._warm_up = warm_up
        self._retire_after = retire_after
        self._pool: Executor | None = None
        self._started = False
        self._busy = 0
        self._retiring: asyncio.TimerHandle | None = None

    @property
    def running(self) -> bool:
        """Whether worker processes are kept now (not before the first work after a retirement)."""
        return self._pool is not None

    def start(self) -> None:
        self._started = True
        self._open()

    def _open(self) -> None:
        if self.workers > 0 and self._pool is None:
            # "spawn": a fresh interpreter, not a fork of a process that runs threads and sockets.
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            )
            if self._warm_up is not None:
                for _ in range(self.workers):
                    self._pool.submit(self._warm_up)

    def close(self) -> None:
        self._started = False
        self._shut()

    def _shut(self) -> None:
        if self._retiring is not None:
            self._retiring.cancel()
            self._retiring = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _retire(self) -> None:
        self._retiring = None
        if self._busy == 0 and self._pool is not None:
            log.info("drawing workers idle for %.0f s: ending them until the next work", self._retire_after)
            self._shut()

    async def run(self, work: Callable[..., T], *args: object) -> T:
        if self._started:
            self._open()  # again, after the idle workers were retired
        if self._pool is None:
            return await asyncio.to_thread(work, *args)
        loop = asyncio.get_running_loop()
        if self._retiring is not None:
            self._retiring.cancel()
            self._retiring = None
        self._busy += 1
        try:
            return await loop.run_in_executor(self._pool, work, *args)
        except BrokenProcessPool:
            log.warning("a drawing worker died; starting new ones")
            self._shut()
            self._open()
            return await asyncio.to_thread(work, *args)
        finally:
            self._busy -= 1
            if self._busy == 0 and self._retire_after is not None and self._pool is not None:
                self._retiring = loop.call_later(self._retire_after, self._retire)


class PictureMaker:
    """Draws the pictures of a game: only public views for the group, one seat's view for its hand."""

    def __init__(self, workers: int) -> None:
        self._workers = WorkerPool(workers, _warm_up)

    def start(self) -> None:
        self._workers.start()

    def close(self) -> None:
        self._workers.close()

    async def _run(self, draw: Callable[..., T], *args: object) -> T:
        return await self._workers.run(draw, *args)

    async def table(self, table: Table, names: Sequence[str]) -> Photo:
        """The group's picture: it takes the public Table itself, so nothing with a hand can be passed."""
        return await self._run(draw_table, table, list(names))

    async def private(self, match: Match, seat: int, names: Sequence[str]) -> Photo:
        return await self._run(draw_private, match.observe(seat), list(names))

    async def form(self, form: Form) -> Photo:
        """/stats: a player's form (renderer/charts.py)."""
        return await self._run(draw_form, form)

    async def board(self, board: Board) -> Photo:
        """/top: the ranked players with their trends."""
        return await self._run(draw_board, board)

    async def result(self, state: RoundState, names: Sequence[str], scores: Sequence[int] | None = None) -> Photo:
        """A round's result; ``scores``: the match's totals after it, drawn beside each hand."""
        return await self._run(draw_result, state, list(names), None if scores is None else list(scores))

"""The turn clock: how long a person has for a move, and the timers that run it out.

A game's clock (``TableOptions.clock``: off, 30, 60 or 120 seconds) is chosen in the group lobby.
Whenever the turn passes to a person, the service stamps an absolute deadline (epoch seconds)
into the game's document, with the turn it belongs to (:meth:`TurnClock.stamp`), so it is
committed with the move and survives a restart.  :class:`TurnClock` keeps one asyncio timer per
game that follows the stored deadline (:meth:`TurnClock.follow`); when it runs out it calls
``on_expiry(game_id, turn)`` (bot/table/manners.py), which re-checks everything under the game's lock.
A timer is only a wake-up call: firing twice, late, or for a turn already played changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.model.game import Game, TableDoc, turn_number
from engine import Match
from storage import GameStatus

log = logging.getLogger(__name__)

CLOCK_CHOICES: tuple[int, ...] = (0, 30, 60, 120)  # 0: off
DEFAULT_CLOCK = 60
# The kinds of game with a clock: a private game against the computer waits for its one person.
CLOCKED_KINDS = ("group", "room")

Expiry = Callable[[int, int], Awaitable[None]]


def clock_seconds(doc: TableDoc, kind: str) -> int:
    """Seconds a person has per move in this game (0: no clock)."""
    if kind not in CLOCKED_KINDS:
        return 0
    return DEFAULT_CLOCK if doc.options.clock is None else doc.options.clock


def next_clock(current: int) -> int:
    """The lobby button's next choice: off -> 30 -> 60 -> 120 -> off."""
    if current not in CLOCK_CHOICES:
        return DEFAULT_CLOCK
    return CLOCK_CHOICES[(CLOCK_CHOICES.index(current) + 1) % len(CLOCK_CHOICES)]


def person_to_move(doc: TableDoc, match: Match) -> int | None:
    """The seat of the person (not away) whose turn it is; None on a computer's turn or after the game."""
    if match.is_over or match.round.is_over:
        return None
    seat = doc.seats[match.round.turn]
    if seat is None or seat.computer_plays:
        return None
    return match.round.turn


class TurnClock:
    """Deadlines for the documents, and one timer per game that wakes ``on_expiry`` at its deadline.

    ``now`` (epoch seconds) and ``sleep`` are injectable for tests; ``scale`` shortens every clock
    (the ``TURN_CLOCK_SCALE`` setting: 0.01 makes 30 seconds 0.3) while captions keep the nominal length.
    """

    def __init__(
        self,
        on_expiry: Expiry | None = None,
        *,
        scale: float = 1.0,
        now: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.on_expiry = on_expiry
        self.scale = scale
        self.now = now
        self.sleep = sleep
        self._timers: dict[int, tuple[int, float, asyncio.Task[None]]] = {}  # game -> (turn, deadline, task)
        self._versions: dict[int, int] = {}  # the newest version of each game followed

    # --- deadlines in the document -------------------------------------------------------------

    def stamp(self, doc: TableDoc, kind: str, match: Match) -> TableDoc:
        """``doc`` with the deadline of the turn to play: kept if it is already this turn's, a new
        one when the turn has just come to a person, none on a computer's (or an away seat's) turn."""
        seat = person_to_move(doc, match)
        seconds = clock_seconds(doc, kind)
        state = doc.game
        if seat is None or seconds <= 0:
            return doc if state.deadline is None and state.deadline_turn is None else self.cleared(doc)
        turn = turn_number(match)
        if state.deadline_turn == turn and state.deadline is not None:
            return doc
        deadline = round(self.now() + seconds * self.scale, 3)
        return replace(doc, game=replace(state, deadline=deadline, deadline_turn=turn))

    @staticmethod
    def cleared(doc: TableDoc) -> TableDoc:
        return replace(doc, game=replace(doc.game, deadline=None, deadline_turn=None))

    # --- timers --------------------------------------------------------------------------------

    def follow(self, game: Game) -> None:
        """Run the game's timer to the deadline stored in ``game`` (or stop it when there is none).

        Only a version at least as new as the last one followed counts, so a caller holding an
        older copy of the game can never put back a timer for a turn already played."""
        version = game.row.version
        if version < self._versions.get(game.id, -1):
            return
        state = game.doc.game
        running = game.row.status is GameStatus.PLAYING
        if running:
            self._versions[game.id] = version
        else:
            self._versions.pop(game.id, None)
        if not running or state.deadline is None or state.deadline_turn is None:
            self.disarm(game.id)
            return
        self.arm(game.id, state.deadline_turn, state.deadline)

    def arm(self, game_id: int, turn: int, deadline: float) -> None:
        """A timer for ``turn`` at ``deadline``, replacing the game's other timer; the same one again is a no-op."""
        current = self._timers.get(game_id)
        if current is not None and current[:2] == (turn, deadline) and not current[2].done():
            return
        self.disarm(game_id)
        task = asyncio.create_task(self._run(game_id, turn, deadline), name=f"clock-{game_id}")
        self._timers[game_id] = (turn, deadline, task)

    def disarm(self, game_id: int) -> None:
        current = self._timers.pop(game_id, None)
        if current is not None:
            current[2].cancel()

    def armed(self, game_id: int) -> tuple[int, float] | None:
        """The (turn, deadline) the game's timer waits for, if any."""
        current = self._timers.get(game_id)
        return None if current is None or current[2].done() else current[:2]

    def close(self) -> None:
        for _, _, task in self._timers.values():
            task.cancel()
        self._timers.clear()

    async def _run(self, game_id: int, turn: int, deadline: float) -> None:
        try:
            await self.sleep(max(0.0, deadline - self.now()))
        except asyncio.CancelledError:
            return
        # No longer this game's timer: whatever the expiry does next may arm the next one.
        current = self._timers.get(game_id)
        if current is not None and current[2] is asyncio.current_task():
            del self._timers[game_id]
        if self.on_expiry is None:
            return
        try:
            await self.on_expiry(game_id, turn)
        except Exception:
            log.exception("game %s: the turn clock could not play turn %s", game_id, turn)

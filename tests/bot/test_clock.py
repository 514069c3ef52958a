"""The turn clock (bot/model/clock.py): deadlines in the document, and timers run on a fake time source."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

import pytest

from bot.model.clock import DEFAULT_CLOCK, TurnClock, clock_seconds, next_clock, person_to_move
from bot.model.game import Game, GameState, Seat, TableDoc, TableOptions, record_of, turn_number
from engine import Match, Rules
from storage import GameRow, GameStatus


class FakeTime:
    """Epoch seconds that only move when a timer sleeps (it sleeps exactly as long as it asked)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.value = start
        self.slept: list[float] = []

    def now(self) -> float:
        return self.value

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.value += seconds
        await asyncio.sleep(0)


class HeldTime(FakeTime):
    """A time source whose sleeps last until :meth:`release`."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        await self.gate.wait()
        self.value += seconds

    def release(self) -> None:
        self.gate.set()


def _match(seats: int = 2) -> Match:
    return Match.new(Rules.preset("draw"), seats, random.Random(3))


def _game(doc: TableDoc, match: Match, *, version: int = 1, status: GameStatus = GameStatus.PLAYING) -> Game:
    row = GameRow(5, -100, "group", status, "draw", 7, version, doc.to_json(), 0.0, 0.0)
    return Game(row, doc, match)


def _people_doc(match: Match, clock: int | None = None) -> TableDoc:
    seats = tuple(Seat(f"P{i}", user_id=100 + i) for i in range(match.seats))
    return TableDoc(seats=seats, options=TableOptions(clock=clock), game=GameState(record=record_of(match)))


def _clocked(doc: TableDoc, clock: int) -> TableDoc:
    return replace(doc, options=replace(doc.options, clock=clock))


def _deadline(doc: TableDoc, deadline: float | None, turn: int | None) -> TableDoc:
    return replace(doc, game=replace(doc.game, deadline=deadline, deadline_turn=turn))


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_the_clock_of_each_kind_of_game() -> None:
    doc = TableDoc(seats=(None, None))
    assert clock_seconds(doc, "group") == DEFAULT_CLOCK == 60
    assert clock_seconds(doc, "room") == 60
    assert clock_seconds(doc, "private") == 0  # against the computer: no clock
    assert clock_seconds(_clocked(doc, 30), "group") == 30
    assert clock_seconds(_clocked(doc, 0), "group") == 0
    assert clock_seconds(_clocked(doc, 120), "private") == 0


def test_the_lobby_button_cycles_off_30_60_120() -> None:
    seen = [0]
    for _ in range(4):
        seen.append(next_clock(seen[-1]))
    assert seen == [0, 30, 60, 120, 0]
    assert next_clock(45) == DEFAULT_CLOCK


def test_a_deadline_is_stamped_when_the_turn_comes_to_a_person_and_kept_for_that_turn() -> None:
    time = FakeTime()
    clock = TurnClock(now=time.now, scale=0.5)
    match = _match()
    doc = _people_doc(match, clock=30)
    stamped = clock.stamp(doc, "group", match)
    assert stamped.game.deadline == time.value + 15  # 30 s at half scale
    assert stamped.game.deadline_turn == turn_number(match)

    time.value += 10  # the same turn, later (a seat elsewhere changed): the deadline stays
    assert clock.stamp(stamped, "group", match) == stamped

    later = match.apply(match.round.legal_moves()[0])
    again = clock.stamp(stamped, "group", later)  # the next turn: a new deadline
    assert again.game.deadline_turn == turn_number(later)
    assert again.game.deadline == time.value + 15


def test_no_deadline_without_a_clock_or_on_a_computers_turn() -> None:
    clock = TurnClock(now=FakeTime().now)
    match = _match()
    doc = clock.stamp(_people_doc(match), "group", match)
    assert doc.game.deadline is not None

    assert clock.stamp(_clocked(doc, 0), "group", match).game.deadline is None
    assert clock.stamp(doc, "private", match).game.deadline is None
    turn = match.round.turn
    computer = doc.with_seat(turn, Seat("🤖 Medium 1", level="medium"))
    assert person_to_move(computer, match) is None
    assert clock.stamp(computer, "group", match).game.deadline is None
    away = doc.with_seat(turn, replace(doc.seats[turn], away="left"))  # type: ignore[arg-type]
    cleared = clock.stamp(away, "group", match)
    assert cleared.game.deadline is None and cleared.game.deadline_turn is None


async def test_a_timer_runs_out_at_the_stored_deadline() -> None:
    time = FakeTime()
    fired: list[tuple[int, int, float]] = []

    async def expired(game_id: int, turn: int) -> None:
        fired.append((game_id, turn, time.now()))

    clock = TurnClock(expired, now=time.now, sleep=time.sleep)
    match = _match()
    doc = _deadline(_people_doc(match), time.value + 60, turn_number(match))
    clock.follow(_game(doc, match))
    await _settle()
    assert fired == [(5, turn_number(match), time.value)]
    assert time.slept == [60]
    assert clock.armed(5) is None
    clock.close()


async def test_a_deadline_already_past_runs_out_at_once() -> None:
    time = FakeTime()
    fired: list[int] = []

    async def expired(game_id: int, turn: int) -> None:
        fired.append(turn)

    clock = TurnClock(expired, now=time.now, sleep=time.sleep)
    match = _match()
    doc = _deadline(_people_doc(match), time.value - 500, 7)  # e.g. during a restart
    clock.follow(_game(doc, match))
    await _settle()
    assert fired == [7]
    assert time.slept == [0.0]
    clock.close()


async def test_following_is_idempotent_and_a_new_turn_replaces_the_timer() -> None:
    time = HeldTime()
    fired: list[int] = []

    async def expired(game_id: int, turn: int) -> None:
        fired.append(turn)

    clock = TurnClock(expired, now=time.now, sleep=time.sleep)
    match = _match()
    doc = _deadline(_people_doc(match), time.value + 60, 3)
    clock.follow(_game(doc, match, version=4))
    await _settle()
    clock.follow(_game(doc, match, version=4))  # the same again: the same timer
    await _settle()
    assert time.slept == [60]

    # An older copy of the game (read before the last change) cannot bring back an old timer.
    clock.follow(_game(_deadline(doc, doc.game.deadline, 2), match, version=3))
    assert clock.armed(5) == (3, time.value + 60)

    clock.follow(_game(_deadline(doc, time.value + 90, 4), match, version=5))
    await _settle()
    assert clock.armed(5) == (4, time.value + 90)
    time.release()
    await _settle()
    assert fired == [4]  # the replaced timer never fires
    clock.close()


@pytest.mark.parametrize("status", [GameStatus.FINISHED, GameStatus.CANCELLED])
async def test_a_game_that_ended_has_no_timer(status: GameStatus) -> None:
    time = HeldTime()
    clock = TurnClock(now=time.now, sleep=time.sleep)
    match = _match()
    doc = _deadline(_people_doc(match), time.value + 60, 3)
    clock.follow(_game(doc, match, version=1))
    assert clock.armed(5) is not None
    clock.follow(_game(doc, match, version=2, status=status))
    assert clock.armed(5) is None
    clock.follow(_game(_deadline(doc, None, None), match, version=3))
    assert clock.armed(5) is None
    clock.close()


async def test_a_failing_expiry_is_logged_and_the_clock_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    time = FakeTime()

    async def broken(game_id: int, turn: int) -> None:
        raise RuntimeError("boom")

    clock = TurnClock(broken, now=time.now, sleep=time.sleep)
    match = _match()
    doc = _deadline(_people_doc(match), time.value + 1, 1)
    clock.follow(_game(doc, match))
    await _settle()
    assert "turn clock could not play" in caplog.text
    clock.follow(_game(_deadline(doc, time.value + 1, 2), match, version=2))
    assert clock.armed(5) == (2, time.value + 1)
    clock.close()

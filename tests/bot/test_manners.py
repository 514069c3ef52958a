"""Table manners on a real database (bot/table/manners.py, bot/model/absence.py): the clock running out,
a computer taking a seat and giving it back, /leave, /kick, /kill and blocked hands.

Telegram is replaced by a presenter that stores documents and records what would be sent; the
turn clock reads a fake time and its timers never fire by themselves (the tests call
:func:`manners.time_ran_out` as the timer would).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, cast

import pytest
import pytest_asyncio
from aiogram.types import InlineKeyboardMarkup

from bot.background.wakeups import WakeSweeper
from bot.display import captions, keyboards
from bot.display.presenter import Presenter, Shown
from bot.model import absence
from bot.model.clock import TurnClock
from bot.model.documents import Documents
from bot.model.game import Game, Seat, TableDoc, turn_number
from bot.table import lobbies, manners, solo
from bot.table.service import WAKE_SLACK, GameService, TableError
from bot.telegram.callbacks import AwayTap
from bot.telegram.locks import GameLocks
from bot.telegram.outbox import Outbox
from bot.telegram.people import Person
from bot.words import manners_texts
from bot.words.languages import Languages
from engine import Match
from storage import Database, GameStatus
from tests.storage.conftest import fresh_schema

GROUP = -100123
ANN = Person(7, "Ann")
BOB = Person(8, "Bob")
CAROL = Person(9, "Carol")


class Sent:
    def __init__(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None) -> None:
        self.chat_id = chat_id
        self.text = text
        self.markup = markup

    @property
    def buttons(self) -> list[str]:
        return [b.callback_data or "" for row in (self.markup.inline_keyboard if self.markup else []) for b in row]


class RecordingOutbox:
    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.edits: list[tuple[str, int, int]] = []

    async def send_text(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *, notify: bool = True
    ) -> int:
        self.sent.append(Sent(chat_id, text, markup))
        return len(self.sent)

    async def edit_text(self, chat_id: int, message_id: int, text: str, markup: Any = None) -> bool:
        self.edits.append(("text", chat_id, message_id))
        return True

    async def edit_caption(self, chat_id: int, message_id: int, caption: str, markup: Any = None) -> bool:
        self.edits.append(("caption", chat_id, message_id))
        return True

    def to(self, chat_id: int) -> list[Sent]:
        return [s for s in self.sent if s.chat_id == chat_id]


class RecordingBoards:
    def __init__(self) -> None:
        self.requested: list[Game] = []

    def request(self, game: Game) -> None:
        self.requested.append(game)


class RecordingPresenter:
    """What the service and bot/table/manners.py need of a presenter, without Telegram."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.boards = RecordingBoards()
        self.languages = Languages(db)

    async def sync(self, game: Game) -> Shown:
        return Shown(game)


class Time:
    def __init__(self) -> None:
        self.value = 1_700_000_000.0

    def now(self) -> float:
        return self.value


async def _never(seconds: float) -> None:
    await asyncio.Event().wait()  # timers never fire by themselves here


async def _nothing(outcome: object) -> None:
    """A tap's answer, which nobody reads here."""


@pytest_asyncio.fixture
async def time() -> Time:
    return Time()


@pytest_asyncio.fixture
async def service(tmp_path: Path, time: Time) -> AsyncIterator[GameService]:
    db = await Database.open(f"sqlite:///{tmp_path / 'manners.sqlite3'}")
    await db.migrate()
    service = _instance(db, time)
    try:
        yield service
    finally:
        await service.close()
        await db.close()


def outbox(service: GameService) -> RecordingOutbox:
    return cast(RecordingOutbox, service.outbox)


async def _group_game(service: GameService, clock: int | None = 30) -> Game:
    """Ann and Bob at a two-seat "draw" table in a group, dealt."""
    game = await lobbies.open_lobby(service, GROUP, ANN, "draw", seats=2)
    game = await lobbies.join(service, game.id, BOB)
    if clock is not None:
        async with service.locked(game.id) as fresh:
            await service.documents.save(fresh, replace(fresh.doc, options=replace(fresh.doc.options, clock=clock)))
    return await lobbies.deal_lobby(service, game.id, ANN)


async def _fresh(service: GameService, game_id: int) -> Game:
    async with service.locked(game_id) as game:
        return game


def _match(game: Game) -> Match:
    assert game.match is not None
    return game.match


async def _run_out(service: GameService, time: Time, game_id: int) -> tuple[Game, int]:
    """Let the clock of the turn to play run out; the game after it and the seat that ran out."""
    game = await _fresh(service, game_id)
    assert game.doc.game.deadline is not None and game.doc.game.deadline_turn is not None
    seat = _match(game).round.turn
    time.value = game.doc.game.deadline + 0.001
    after = await manners.time_ran_out(service, game_id, game.doc.game.deadline_turn)
    assert after is not None, "the clock did not play"
    return after, seat


async def _play_for(service: GameService, game: Game, user: Person) -> Game:
    """``user`` taps a playable tile (on their turn)."""
    match = _match(game)
    move = match.round.legal_moves()[0]
    outcome = await service.tap_tile(game.id, user.user_id, turn_number(match), move.tile, move.end)
    assert outcome.played
    return outcome.game


def _person(game: Game, seat: int) -> Seat:
    info = game.doc.seats[seat]
    assert info is not None and info.user_id is not None
    return info


def _who(game: Game, seat: int) -> Person:
    return ANN if _person(game, seat).user_id == ANN.user_id else BOB


async def test_the_deal_stamps_a_deadline_for_the_person_to_play(service: GameService, time: Time) -> None:
    game = await _group_game(service, clock=30)
    assert game.doc.game.deadline == time.value + 30
    assert game.doc.game.deadline_turn == turn_number(_match(game))
    private = await solo.open_solo(service, -5, CAROL, "draw", 1)
    assert private.doc.game.deadline is None  # against the computer: no clock


async def test_the_clock_plays_for_a_person_and_the_second_run_out_in_a_row_seats_a_computer(
    service: GameService, time: Time
) -> None:
    game = await _group_game(service)
    counts: dict[int, int] = {0: 0, 1: 0}
    for _ in range(8):
        before = await _fresh(service, game.id)
        moves_before = len(_match(before).round.plays())
        game, seat = await _run_out(service, time, game.id)
        counts[seat] += 1
        # The move was made (and logged as the computer's), the turn went on.
        assert turn_number(_match(game)) > turn_number(_match(before)) or len(_match(game).rounds) > 1
        assert moves_before <= len(_match(game).round.plays()) or len(_match(game).rounds) > 1
        info = _person(game, seat)
        if counts[seat] == absence.TIMEOUTS_TO_AWAY:
            assert info.away == absence.TIMEOUT and info.timeouts == 0
            break
        assert info.away is None and info.timeouts == counts[seat]
    else:
        pytest.fail("nobody ran out of time twice")
    user = info.user_id
    assert user is not None
    notes = outbox(service).to(user)
    assert notes[-1].text == manners_texts.timeout_private(True)
    assert notes[-1].buttons == [AwayTap(game=game.id).pack()]
    assert notes[0].text == manners_texts.timeout_private(False) and notes[0].buttons == []
    told = [s.text for s in outbox(service).to(GROUP)]
    assert told == [manners_texts.away_notice(info.name, absence.TIMEOUT)]
    stored = await service.db.games.get(game.id)
    assert stored is not None and stored.data["seats"][seat]["away"] == "timeout"
    # The away seat's turns are the computers' now: no deadline for it.
    game = await _fresh(service, game.id)
    if _match(game).round.turn == seat:
        assert game.doc.game.deadline is None


async def test_a_stale_or_early_timer_changes_nothing(service: GameService, time: Time) -> None:
    game = await _group_game(service)
    turn = game.doc.game.deadline_turn
    assert turn is not None and game.doc.game.deadline is not None
    version = game.row.version
    assert await manners.time_ran_out(service, game.id, turn) is None  # not yet
    time.value = game.doc.game.deadline + 1
    assert await manners.time_ran_out(service, game.id, turn - 1) is None  # a turn already played
    assert (await _fresh(service, game.id)).row.version == version
    # The person played meanwhile: their move wins, the late timer does nothing.
    game = await _play_for(service, game, _who(game, _match(game).round.turn))
    assert await manners.time_ran_out(service, game.id, turn) is None
    assert (await _fresh(service, game.id)).row.version == game.row.version


async def test_a_move_by_the_person_starts_their_count_again(service: GameService, time: Time) -> None:
    game = await _group_game(service)
    game, seat = await _run_out(service, time, game.id)
    assert _person(game, seat).timeouts == 1
    for _ in range(40):  # until it is that person's turn again (the other one's clock runs out)
        if _match(game).round.turn == seat:
            break
        game, _ = await _run_out(service, time, game.id)
    assert _match(game).round.turn == seat and _person(game, seat).away is None
    game = await _play_for(service, game, _who(game, seat))
    assert _person(game, seat).timeouts == 0


async def test_a_person_takes_their_seat_back(service: GameService, time: Time) -> None:
    game = await _group_game(service)
    await manners.leave(service, GROUP, BOB)
    game = await _fresh(service, game.id)
    seat = game.doc.seat_of(BOB.user_id)
    assert seat is not None and _person(game, seat).away == absence.LEFT
    assert outbox(service).to(BOB.user_id)[-1].buttons == [AwayTap(game=game.id).pack()]
    assert outbox(service).to(GROUP)[-1].text == manners_texts.away_notice("Bob", absence.LEFT)
    # Bob's tiles cannot be tapped while a computer plays for him.
    if _match(game).round.turn == seat:
        move = _match(game).round.legal_moves()[0]
        with pytest.raises(TableError, match="seat_away"):
            await service.tap_tile(game.id, BOB.user_id, turn_number(_match(game)), move.tile, move.end)
    with pytest.raises(TableError, match="already_away"):
        await manners.leave(service, GROUP, BOB)
    with pytest.raises(TableError, match="not_your_game"):
        await manners.take_back(service, game.id, CAROL.user_id)

    game = await manners.take_back(service, game.id, BOB.user_id)
    assert _person(game, seat).away is None
    if _match(game).round.turn == seat:
        assert game.doc.game.deadline == time.value + 30  # his clock starts afresh
    await manners.after_take_back(service, game, BOB.user_id)
    assert outbox(service).to(GROUP)[-1].text == manners_texts.back_notice("Bob")
    with pytest.raises(TableError, match="already_back"):
        await manners.take_back(service, game.id, BOB.user_id)


async def test_a_kicked_person_cannot_take_the_seat_back_and_a_killed_game_refuses(service: GameService) -> None:
    game = await _group_game(service)
    await manners.kick(service, game.id, ANN, BOB.user_id)
    game = await _fresh(service, game.id)
    seat = game.doc.seat_of(BOB.user_id)
    assert seat is not None and _person(game, seat).away == absence.KICKED
    assert outbox(service).to(GROUP)[-1].text == manners_texts.away_notice("Bob", absence.KICKED, by="Ann")
    assert outbox(service).to(BOB.user_id)[-1].buttons == []
    with pytest.raises(TableError, match="take_back_kicked"):
        await manners.take_back(service, game.id, BOB.user_id)
    with pytest.raises(TableError, match="kick_not_player"):
        await manners.kick(service, game.id, ANN, CAROL.user_id)

    await manners.kill(service, game.id, ANN)
    game = await _fresh(service, game.id)
    assert game.row.status is GameStatus.CANCELLED and game.doc.game.killed
    assert game.doc.game.deadline is None and service.clock.armed(game.id) is None
    assert keyboards.board_markup(game) is None
    assert manners_texts.killed_line() in captions.board_caption(game, _match(game))
    boards = cast(RecordingBoards, service.presenter.boards)
    assert boards.requested[-1].doc.game.killed
    assert outbox(service).to(GROUP)[-1].text == manners_texts.killed_notice("Ann")
    with pytest.raises(TableError, match="take_back_over"):
        await manners.take_back(service, game.id, BOB.user_id)
    assert await service.db.games.active_in_chat(GROUP) is None


async def test_kill_and_kick_in_a_lobby(service: GameService) -> None:
    game = await lobbies.open_lobby(service, GROUP, ANN, "draw", seats=3)
    game = await lobbies.join(service, game.id, BOB)
    game = await manners.kick(service, game.id, ANN, BOB.user_id)
    assert game.doc.seat_of(BOB.user_id) is None and game.row.status is GameStatus.LOBBY
    game = await manners.kill(service, game.id, ANN)
    assert game.row.status is GameStatus.CANCELLED and game.doc.game.killed


async def test_the_lobby_clock_button(service: GameService) -> None:
    game = await lobbies.open_lobby(service, GROUP, ANN, "draw", seats=2)
    assert "⏱ 60 s per move" in [b.text for row in keyboards.lobby_markup(game).inline_keyboard for b in row]
    seen = []
    for _ in range(4):
        game = await lobbies.cycle_clock(service, game.id, ANN)
        seen.append(game.doc.options.clock)
    assert seen == [120, 0, 30, 60]
    with pytest.raises(TableError, match="creator_only"):
        await lobbies.cycle_clock(service, game.id, BOB)


async def test_a_blocked_hand_seats_a_computer_and_the_group_is_told_once(service: GameService) -> None:
    game = await _group_game(service)
    seat = game.doc.seat_of(BOB.user_id)
    assert seat is not None
    game = await manners.seats_unreachable(service, game, [seat])
    assert _person(game, seat).away == absence.BLOCKED
    again = await manners.seats_unreachable(service, game, [seat])
    assert again.row.version == game.row.version
    assert [s.text for s in outbox(service).to(GROUP)] == [manners_texts.away_notice("Bob", absence.BLOCKED)]
    # A blocked person who comes back may take the seat again.
    game = await manners.take_back(service, game.id, BOB.user_id)
    assert _person(game, seat).away is None


async def test_a_private_game_against_the_computer_keeps_its_person(service: GameService) -> None:
    game = await solo.open_solo(service, -5, CAROL, "draw", 1)
    assert await manners.seats_unreachable(service, game, [0]) is game


def test_a_rematch_deal_brings_everyone_back() -> None:
    doc = TableDoc(seats=(Seat("Ann", 7, away="left", timeouts=0), Seat("Bob", 8, timeouts=1)))
    back = absence.everyone_back(doc)
    assert all(seat is not None and seat.away is None and seat.timeouts == 0 for seat in back.seats)
    # Seats with nothing to say are stored as before.
    kicked = Seat("Ann", 7, away="kicked", timeouts=1)
    stored = TableDoc(seats=(Seat("Ann", 7), kicked)).to_json()
    assert stored["seats"][0] == {"name": "Ann", "user_id": 7, "level": None}
    assert TableDoc.from_json(stored).seats[1] == kicked


# --- notices owed by a payer that died --------------------------------------------------------------


class Died(BaseException):
    """The instance stops here: nothing after it runs, nothing catches it."""


class DyingOutbox(RecordingOutbox):
    """An outbox whose instance dies at its first send."""

    async def send_text(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *, notify: bool = True
    ) -> int:
        raise Died


def _instance(db: Database, time: Time, outbox: RecordingOutbox | None = None) -> GameService:
    """One bot instance on ``db``: its own presenter, outbox, locks and clock (whose timers never
    fire). Computers wait an hour before each move: nothing changes a game behind a test's back."""
    return GameService(
        Documents(db),
        cast(Presenter, RecordingPresenter(db)),
        cast(Outbox, outbox or RecordingOutbox()),
        GameLocks(),
        group_delay=3600,
        private_delay=3600,
        clock=partial(TurnClock, now=time.now, sleep=_never),
        manners=manners.Manners(),
    )


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def shared_db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """One database two instances share, SQLite or PostgreSQL."""
    async with contextlib.AsyncExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        else:
            url = await stack.enter_async_context(fresh_schema())
        db = await Database.open(url)
        stack.push_async_callback(db.close)
        await db.migrate()
        yield db


async def _a_payer_dies(db: Database, time: Time) -> tuple[Game, Person, float, float]:
    """A group game with a 120 s clock on ``db``, whose first person lets it run out: the clock plays
    for them and the instance claims the notice and dies sending it. The game as it left it, that
    person, when it ran out and the payer's lease."""
    dying = _instance(db, time, DyingOutbox())
    game = await _group_game(dying, clock=120)
    late = _who(game, _match(game).round.turn)
    with pytest.raises(Died):
        await _run_out(dying, time, game.id)
    ran_out = time.value
    game = await _fresh(dying, game.id)
    await dying.close()
    return game, late, ran_out, manners.paying_lease(dying)


async def test_notices_claimed_by_a_payer_that_died_are_sent_once_its_lease_runs_out(
    shared_db: Database, time: Time
) -> None:
    game, late, ran_out, lease = await _a_payer_dies(shared_db, time)
    assert game.doc.game.owed and game.doc.game.owed_claimed_until == ran_out + lease
    assert game.row.wake_at == ran_out + lease + WAKE_SLACK  # before the person's clock: 120 s

    other = _instance(shared_db, time)
    sweeper = WakeSweeper(other, every=1.0, lease=5.0, now=time.now)
    try:
        # The people go on playing in time: no clock runs out, nothing else wakes the game.
        time.value = ran_out + lease - 10
        match = _match(game)
        move = match.round.legal_moves()[0]
        user = _who(game, match.round.turn)
        # Shown, its timers armed: as the handler of the tap does.
        await other.play_tap(game.id, user.user_id, turn_number(match), move.tile, move.end, answered=_nothing)
        game = await _fresh(other, game.id)
        assert _match(game).round.turn == game.doc.seat_of(late.user_id)
        assert await sweeper.sweep() == []
        assert outbox(other).to(late.user_id) == []  # the claim still stands: nobody else sends it

        time.value = ran_out + lease + 2  # the lease has run out, the person's clock has not
        assert await sweeper.sweep() == [game.id]
        await sweeper.settled()
        assert [sent.text for sent in outbox(other).to(late.user_id)] == [manners_texts.timeout_private(False)]
        game = await _fresh(other, game.id)
        assert game.doc.game.owed == () and game.doc.game.owed_claimed_until is None

        time.value += 10  # and never again
        assert await sweeper.sweep() == []
        assert len(outbox(other).to(late.user_id)) == 1
        assert game.row.wake_at == game.doc.game.deadline + WAKE_SLACK  # back to the person's clock
    finally:
        await sweeper.close()
        await other.close()


async def _play_to_the_end(service: GameService, game: Game) -> Game:
    """The people tap a playable tile, in turn, until the game is over."""
    while game.row.status is GameStatus.PLAYING:
        match = _match(game)
        game = await _play_for(service, game, _who(game, match.round.turn))
    return game


async def test_notices_claimed_by_a_payer_that_died_are_sent_even_once_the_game_is_over(
    shared_db: Database, time: Time
) -> None:
    game, late, ran_out, lease = await _a_payer_dies(shared_db, time)

    other = _instance(shared_db, time)
    sweeper = WakeSweeper(other, every=1.0, lease=5.0, now=time.now)
    try:
        game = await _play_to_the_end(other, await _fresh(other, game.id))  # within the claim
        await other.show(game)
        game = await _fresh(other, game.id)
        assert game.row.status is GameStatus.FINISHED
        assert game.row.wake_at == ran_out + lease + WAKE_SLACK  # the game is over, the notice is still owed
        assert await sweeper.sweep() == []
        time.value = ran_out + lease + 2
        assert await sweeper.sweep() == [game.id]
        await sweeper.settled()
        told = outbox(other).to(late.user_id)
        assert [sent.text for sent in told] == [manners_texts.timeout_private(False)]
        assert told[0].buttons == []
        game = await _fresh(other, game.id)
        assert game.doc.game.owed == () and game.row.wake_at is None
        time.value += 100
        assert await sweeper.sweep() == []
    finally:
        await sweeper.close()
        await other.close()


class HeldOutbox(RecordingOutbox):
    """An outbox whose first private send waits until ``go`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.sending = asyncio.Event()
        self.go = asyncio.Event()

    async def send_text(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *, notify: bool = True
    ) -> int:
        if not self.sending.is_set():
            self.sending.set()
            await self.go.wait()
        return await super().send_text(chat_id, text, markup, notify=notify)


async def test_a_notice_owed_while_its_payer_is_busy_is_sent_by_that_payer(service: GameService, time: Time) -> None:
    held = HeldOutbox()
    service.outbox = cast(Any, held)
    game = await _group_game(service, clock=10)  # the next run-out comes within the first one's claim
    first = _who(game, _match(game).round.turn)
    paying = asyncio.create_task(_run_out(service, time, game.id))
    await held.sending.wait()  # the first notice is claimed and on its way
    game, second_seat = await _run_out(service, time, game.id)  # the next person runs out meanwhile
    second = _who(game, second_seat)
    assert second != first and len(game.doc.game.owed) == 2
    assert held.to(second.user_id) == []  # not sent by a second payer
    held.go.set()
    await paying
    game = await _fresh(service, game.id)
    assert game.doc.game.owed == () and game.doc.game.owed_claimed_until is None
    assert [s.text for s in held.to(first.user_id)] == [manners_texts.timeout_private(False)]
    assert [s.text for s in held.to(second.user_id)] == [manners_texts.timeout_private(False)]


async def test_a_notice_sent_at_once_leaves_the_game_woken_for_its_clock_only(
    service: GameService, time: Time, monkeypatch: pytest.MonkeyPatch
) -> None:
    presenter = cast(RecordingPresenter, service.presenter)

    async def sync(game: Game) -> Shown:  # as the real one: showing stores the hands' messages
        return Shown(await service.documents.save(game, game.doc))

    monkeypatch.setattr(presenter, "sync", sync)
    game = await _group_game(service, clock=120)
    late = _who(game, _match(game).round.turn)
    game, _seat = await _run_out(service, time, game.id)
    assert [s.text for s in outbox(service).to(late.user_id)] == [manners_texts.timeout_private(False)]
    game = await _fresh(service, game.id)
    assert game.doc.game.owed == () and game.doc.game.owed_claimed_until is None
    assert game.row.wake_at == game.doc.game.deadline + WAKE_SLACK  # the next person's clock, no claim's

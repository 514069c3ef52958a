"""Taps are answered at once and a burst of them costs no edits it does not need (issue 31, items 1, 2, 11).

A tap used to be judged under the game's lock, which a message waiting for the chat's budget of
about one a second can hold for seconds; and every tap on an older view, every repeat of a tile that
fits two ends and every repeat of "back" queued one more edit of the hand under that lock, so that
fifty quick taps held the game (and the person's next real tap) for fifty seconds. Here the tap
handlers run against the service and the real presenter on a real database; Telegram is an outbox
that records what it is asked to do, and the game's lock is one that fails a test that waits for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import pytest
import pytest_asyncio
from aiogram import Bot as AiogramBot
from aiogram.methods import AnswerCallbackQuery
from aiogram.types import CallbackQuery, Chat, Message, User

from bot.display import keyboards
from bot.handlers import play
from bot.model.game import Game, GameState, HandMessage, Seat, TableDoc, record_of, turn_key, turn_number
from bot.table.service import GameService, StaleTap, TableError
from bot.telegram.callbacks import EndCode, TileTap
from bot.telegram.locks import GameLocks
from bot.telegram.outbox import Outbox
from bot.words.refusals import Notice, Refusal
from engine import End, Tile, tile_of
from storage import Database, GameStatus
from tests.bot.hand_stand_ins import Telegram, game_service, open_database, two_end_turn

ANN = 7
HAND = 50  # Ann's hand message in her private chat
BURST = 50


class HeldLocks(GameLocks):
    """The game's lock while ``held``: taken by a message waiting for the chat's budget, so that a
    tap that waits for it fails the test (instead of waiting for seconds)."""

    held = False

    def __call__(self, game_id: int) -> Any:
        if self.held:
            raise AssertionError(f"a tap waited for game {game_id}'s lock")
        return super().__call__(game_id)


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path)
    try:
        yield database
    finally:
        await database.close()


@pytest_asyncio.fixture
async def telegram() -> Telegram:
    return Telegram()


@pytest_asyncio.fixture
async def service(db: Database, telegram: Telegram) -> AsyncIterator[GameService]:
    service = game_service(db, telegram, HeldLocks())
    try:
        yield service
    finally:
        await service.close()


async def ann_on_turn(service: GameService) -> tuple[Game, Tile, list[End]]:
    """Ann's private game against the computer on her turn, her hand showing it, with a two-end tile."""
    match, tile, ends = two_end_turn()
    seats = (Seat("Ann", ANN), Seat("🤖 Computer", level="easy"))
    hands = {0: HandMessage(HAND, turn_key(match))}
    doc = TableDoc(seats=seats, game=GameState(record=record_of(match), hands=hands))
    row = await service.db.games.create(
        chat_id=ANN, kind="private", status=GameStatus.PLAYING, preset="block", creator_id=ANN, data=doc.to_json()
    )
    async with service.locked(row.id) as game:
        return game, tile, ends


class Bot:
    """Where a tap's own ``query.answer(...)`` goes: to the same record as the outbox's answers."""

    def __init__(self, telegram: Telegram) -> None:
        self.telegram = telegram

    async def __call__(self, method: AnswerCallbackQuery, request_timeout: int | None = None) -> bool:
        await self.telegram.answer(method.callback_query_id, method.text or "", alert=bool(method.show_alert))
        return True


_taps = iter(range(1, 1_000_000))


def query(data: TileTap, telegram: Telegram) -> CallbackQuery:
    """A tap of Ann's on her hand message."""
    chat = Chat(id=ANN, type="private")
    message = Message(message_id=HAND, date=datetime.now(), chat=chat)
    ann = User(id=ANN, is_bot=False, first_name="Ann")
    tapped = CallbackQuery(id=str(next(_taps)), from_user=ann, chat_instance="ann", message=message, data=data.pack())
    return tapped.as_(cast(AiogramBot, Bot(telegram)))


async def tap(service: GameService, telegram: Telegram, data: TileTap, times: int = 1) -> None:
    """``times`` taps at once on one button."""
    outbox = cast(Outbox, telegram)
    await asyncio.gather(*(play.tile_tap(query(data, telegram), data, service, outbox) for _ in range(times)))


def tile_data(game: Game, version: int, tile: Tile, end: End | None = None) -> TileTap:
    code = EndCode.NONE if end is None else keyboards.END_CODES[end]
    return TileTap(game=game.id, version=version, tile=f"{tile.high}{tile.low}", end=code)


async def test_a_refusal_or_a_question_waits_for_no_lock(service: GameService) -> None:
    game, tile, ends = await ann_on_turn(service)
    version = turn_number(game.match)  # type: ignore[arg-type]
    held = cast(HeldLocks, service.locks)
    held.held = True  # a paced edit of the hand holds the game now
    with pytest.raises(StaleTap) as stale:
        await service.tap_tile(game.id, ANN, version - 1, tile, None)
    assert stale.value.to_move, "it is Ann's turn now"
    outcome = await service.tap_tile(game.id, ANN, version, tile, None)
    assert not outcome.played and sorted(outcome.choose_ends) == sorted(ends)  # type: ignore[type-var]
    hand = game.match.round.hands[0]  # type: ignore[union-attr]
    other = next(tile_of(a, b) for a in range(7) for b in range(a + 1) if tile_of(a, b) not in hand)
    with pytest.raises(TableError) as refused:
        await service.tap_tile(game.id, ANN, version, other, None)
    assert refused.value.refusal is not Refusal.STALE
    held.held = False
    async with service.locked(game.id) as fresh:
        await service.db.games.save(fresh.row, status=GameStatus.FINISHED)
    held.held = True
    with pytest.raises(TableError) as over:
        await service.tap_tile(game.id, ANN, version, tile, ends[0])
    assert over.value.refusal is Refusal.NO_GAME


async def test_a_move_kept_waiting_is_answered_without_a_word_meanwhile(
    service: GameService, telegram: Telegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, tile, ends = await ann_on_turn(service)
    version = turn_number(game.match)  # type: ignore[arg-type]
    monkeypatch.setattr(play, "ANSWER_WITHIN", 0.0, raising=False)
    async with service.locks(game.id):  # the game's lock, held by a paced edit
        playing = asyncio.create_task(tap(service, telegram, tile_data(game, version, tile, ends[0])))
        await asyncio.wait_for(telegram.answered.wait(), 30)  # a guard against waiting for ever, not a timing
        assert not playing.done()
    await playing
    assert [(text, alert) for _, text, alert in telegram.answers] == [("", False)], "answered once, without a word"
    async with service.locked(game.id) as after:
        assert turn_number(after.match) == version + 1, "the move was played"  # type: ignore[arg-type]


async def test_taps_on_an_older_view_redraw_nothing_that_shows_the_game(
    service: GameService, telegram: Telegram
) -> None:
    game, tile, ends = await ann_on_turn(service)
    version = turn_number(game.match)  # type: ignore[arg-type]
    await tap(service, telegram, tile_data(game, version - 1, tile), BURST)
    assert telegram.edits == [], "her hand shows the game as it is: nothing to redraw"
    assert {text for _, text, _ in telegram.answers} == {Refusal.STALE.text}

    # Her move, shown; the computer's turn now: an older view is told it is not her turn.
    await tap(service, telegram, tile_data(game, version, tile, ends[0]))
    telegram.edits.clear()
    telegram.answers.clear()
    await tap(service, telegram, tile_data(game, version, tile, ends[0]), BURST)
    assert telegram.edits == []
    assert {(text, alert) for _, text, alert in telegram.answers} == {(Refusal.NOT_YOUR_TURN.text, False)}
    assert len(telegram.answers) == BURST


async def test_a_burst_on_a_tile_of_two_ends_asks_once(service: GameService, telegram: Telegram) -> None:
    game, tile, _ = await ann_on_turn(service)
    version = turn_number(game.match)  # type: ignore[arg-type]
    await tap(service, telegram, tile_data(game, version, tile), BURST)
    assert telegram.edits == ["editMessageReplyMarkup"], "the question once"
    assert {text for _, text, _ in telegram.answers} == {Notice.CHOOSE_END.text}
    assert len(telegram.answers) == BURST


async def test_a_burst_of_back_redraws_the_tiles_once(service: GameService, telegram: Telegram) -> None:
    game, tile, ends = await ann_on_turn(service)
    version = turn_number(game.match)  # type: ignore[arg-type]
    await service.offer_ends(game.id, ANN, version, tile, ends, (ANN, HAND))
    telegram.edits.clear()
    await tap(service, telegram, TileTap(game=game.id, version=version, tile="", end=EndCode.NONE), BURST)
    assert telegram.edits == ["editMessageCaption"], "the tiles again, once"
    assert len(telegram.answers) == BURST


async def test_a_hand_behind_the_game_is_caught_up_once(service: GameService, telegram: Telegram) -> None:
    game, _, _ = await ann_on_turn(service)
    async with service.locked(game.id) as fresh:
        behind = {0: HandMessage(HAND, "0:0")}  # shown before the last move (its showing was lost)
        doc = replace(fresh.doc, game=replace(fresh.doc.game, hands=behind))
        await service.documents.save(fresh, doc)
    for _ in range(3):
        await service.catch_up_hand(game.id, ANN)
    assert telegram.edits == ["editMessageMedia"]
    async with service.locked(game.id) as after:
        assert after.doc.game.hands[0] == HandMessage(HAND, turn_key(after.match))  # type: ignore[arg-type]

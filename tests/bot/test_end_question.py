"""The "which end?" question (issue 31, item 3): stored with the game until it is answered, and never a
reason for the wake-up sweep to take over a game its instance is looking after.

The service and the real presenter run on a real database; Telegram is an outbox that records the
keyboards it is asked to show.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest_asyncio

from bot.display import keyboards
from bot.model.game import EndQuestion, Game, GameState, HandMessage, Seat, TableDoc, record_of, turn_key, turn_number
from bot.table import hints, solo
from bot.table.service import GameService
from engine import End, Tile
from storage import Database, GameRow, GameStatus
from tests.bot.hand_stand_ins import Telegram, game_service, open_database, two_end_turn

ANN = 7
HAND = 50  # Ann's hand message in her private chat


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
    service = game_service(db, telegram)
    try:
        yield service
    finally:
        await service.close()


async def ann_on_turn(service: GameService) -> tuple[Game, Tile, list[End]]:
    """Ann's private game against the computer, her hand shown, on her turn with a two-end tile; as
    the service leaves such a turn: no wake-up (she has no clock, and no computer is due)."""
    match, tile, ends = two_end_turn()
    seats = (Seat("Ann", ANN), Seat("🤖 Computer", level="easy"))
    hands = {0: HandMessage(HAND, turn_key(match))}
    doc = TableDoc(seats=seats, game=GameState(record=record_of(match), hands=hands))
    db = service.db
    row = await db.games.create(
        chat_id=ANN, kind="private", status=GameStatus.PLAYING, preset="block", creator_id=ANN, data=doc.to_json()
    )
    assert await db.games.set_wake(row.id, row.version, None)
    async with service.locked(row.id) as game:
        assert game.row.wake_at is None
        return game, tile, ends


async def taken_over(service: GameService) -> list[int]:
    """The games a sweep would take over long after now (well past any grace)."""
    return await service.db.games.claim_due(service.clock.now() + 3 * service.db.wake_grace, 60)


async def stored(service: GameService, game_id: int) -> Game:
    async with service.locked(game_id) as game:
        return game


async def test_a_hint_and_a_question_of_ends_leave_no_wake_up_for_the_sweep(service: GameService) -> None:
    game, tile, ends = await ann_on_turn(service)
    version = turn_number(game.match)  # type: ignore[arg-type]
    await hints.give_hint(service, game.id, ANN, version)
    assert (await stored(service, game.id)).doc.game.hinted == (0,)
    await service.offer_ends(game.id, ANN, version, tile, ends, (ANN, HAND))
    assert (await stored(service, game.id)).row.wake_at is None
    assert await taken_over(service) == [], "the sweep would take over a game its instance looks after"


async def test_a_level_change_and_my_hand_leave_no_wake_up_for_the_sweep(service: GameService) -> None:
    game, _, _ = await ann_on_turn(service)
    assert await solo.set_computer_level(service, game.id, ANN, "hard") is not None
    await service.refresh_hand(game.id, ANN)
    await service.show_hand(game.id, ANN)  # a new hand message, stored as the one that shows the hand
    after = await stored(service, game.id)
    assert after.doc.game.hands[0].message_id != HAND and after.row.wake_at is None
    assert await taken_over(service) == []


async def test_every_redraw_asks_the_question_again_until_back(service: GameService, telegram: Telegram) -> None:
    game, tile, ends = await ann_on_turn(service)
    version = turn_number(game.match)  # type: ignore[arg-type]
    await service.offer_ends(game.id, ANN, version, tile, ends, (ANN, HAND))
    asked = sorted(keyboards.END_CODES[end].value for end in ends)
    assert sorted(telegram.ends_shown()) == asked
    assert (await stored(service, game.id)).doc.game.asked == {0: EndQuestion(version, keyboards.tile_code(tile))}
    await service.wake(game.id)  # the sweep's (or a restart's) redraw
    assert sorted(telegram.ends_shown()) == asked, "a wake-up redrew the hand without its question"
    await service.refresh_hand(game.id, ANN)  # a stale tap's redraw
    assert sorted(telegram.ends_shown()) == asked
    await service.refresh_hand(game.id, ANN, back_from=version - 1)  # a "back" of an older question
    assert sorted(telegram.ends_shown()) == asked
    await service.refresh_hand(game.id, ANN, back_from=version)  # "back": the tiles, and the question gone
    assert telegram.ends_shown() == []
    assert (await stored(service, game.id)).doc.game.asked == {}
    await service.wake(game.id)
    assert telegram.ends_shown() == []


async def test_an_answer_ends_the_question(service: GameService, telegram: Telegram) -> None:
    game, tile, ends = await ann_on_turn(service)
    version = turn_number(game.match)  # type: ignore[arg-type]
    await service.offer_ends(game.id, ANN, version, tile, ends, (ANN, HAND))
    assert (await stored(service, game.id)).doc.game.asked != {}
    outcome = await service.tap_tile(game.id, ANN, version, tile, ends[0])
    assert outcome.played and outcome.game.doc.game.asked == {}
    await service.wake(game.id)
    assert telegram.ends_shown() == []


async def test_a_question_of_another_turn_is_not_asked() -> None:
    match, tile, ends = two_end_turn()
    row_doc = TableDoc(
        seats=(Seat("Ann", ANN), Seat("🤖 Computer", level="easy")),
        game=GameState(record=record_of(match), asked={0: EndQuestion(turn_number(match) - 1, "66")}),
    )
    game = Game(GameRow(1, ANN, "private", GameStatus.PLAYING, "block", ANN, 3, {}, 0.0, 0.0), row_doc, match)
    assert keyboards.asked_ends(game, match, 0) is None
    current = replace_question(game, EndQuestion(turn_number(match), keyboards.tile_code(tile)))
    assert keyboards.asked_ends(current, match, 0) == (tile, ends)
    assert keyboards.asked_ends(replace_question(game, EndQuestion(turn_number(match), "x")), match, 0) is None


def replace_question(game: Game, question: EndQuestion) -> Game:
    return Game(game.row, replace(game.doc, game=replace(game.doc.game, asked={0: question})), game.match)

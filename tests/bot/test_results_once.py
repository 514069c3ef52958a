"""A result goes to each of its chats once, even when the bot dies while it goes out to several.

A friend room's result goes to both players' private chats, one after the other.  The bot is
killed as it sends the second; started again, it must send the result to the second chat only.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest_asyncio

from bot.display.boards import BoardPainter
from bot.display.pictures import Photo, PictureMaker
from bot.display.presenter import Presenter
from bot.model.documents import Documents
from bot.model.game import Game, GameState, Seat, TableDoc, record_of
from bot.telegram.outbox import Outbox
from bot.words.languages import Languages
from engine import Match, Rules
from storage import Database, GameStatus

ANN, BOB = 7, 8


class Killed(BaseException):
    """The process died here: nothing after it runs, nothing catches it."""


class Telegram:
    """The outbox as far as the presenter uses it; dies at the first result sent to ``kill_at``."""

    def __init__(self, kill_at: int | None = None) -> None:
        self.kill_at = kill_at
        self.results: list[int] = []  # the chats each result went to, in order
        self.next_id = 100

    async def send_photo(self, chat_id: int, data: bytes, filename: str, caption: str, *rest: Any, **kw: Any) -> int:
        if filename == "result.png":
            if chat_id == self.kill_at:
                raise Killed
            self.results.append(chat_id)
        self.next_id += 1
        return self.next_id

    async def edit_photo(self, *args: Any) -> bool:
        return True

    async def edit_caption(self, *args: Any) -> bool:
        return True

    async def edit_markup(self, *args: Any) -> bool:
        return True

    def delete_soon(self, chat_id: int, message_id: int) -> None:
        pass


class Pictures:
    async def result(self, *args: Any) -> Photo:
        return Photo(b"result", "result.png")

    async def private(self, *args: Any) -> Photo:
        return Photo(b"hand", "hand.png")

    async def table(self, *args: Any) -> Photo:
        return Photo(b"board", "board.png")


class Boards:
    def request(self, game: Game) -> None:
        pass


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(f"sqlite:///{tmp_path / 'results.sqlite3'}")
    await database.migrate()
    try:
        yield database
    finally:
        await database.close()


def presenter(db: Database, telegram: Telegram) -> Presenter:
    return Presenter(
        Documents(db),
        cast(Outbox, telegram),
        cast(PictureMaker, Pictures()),
        cast(BoardPainter, Boards()),
        Languages(db),
    )


def finished_duel() -> Match:
    rng = random.Random(5)
    match = Match.new(Rules.preset("duel"), 2, rng)
    while not match.is_over:
        match = match.apply(rng.choice(match.round.legal_moves()), seat=match.round.turn)
    return match


async def test_a_room_result_reaches_each_chat_once_through_a_death_in_the_middle(db: Database) -> None:
    match = finished_duel()
    doc = TableDoc(seats=(Seat("Ann", ANN), Seat("Bob", BOB)), game=GameState(record=record_of(match)))
    row = await db.games.create(
        chat_id=ANN, kind="room", status=GameStatus.PLAYING, preset="duel", creator_id=ANN, data=doc.to_json()
    )
    row = await db.games.save(row, data=doc.to_json(), status=GameStatus.FINISHED)

    dying = Telegram(kill_at=BOB)
    with contextlib.suppress(Killed):
        await presenter(db, dying).sync(Game(row, doc, match))
    assert dying.results == [ANN]

    stored = await db.games.get(row.id)
    assert stored is not None
    started_again = Telegram()
    game = (await presenter(db, started_again).sync(Game(stored, TableDoc.from_json(stored.data), match))).game

    assert dying.results + started_again.results == [ANN, BOB], "each chat gets the result exactly once"
    assert game.doc.game.results_posted == 1 and game.doc.game.results_sent == ()
    request = game.doc.game.rematch
    assert request is not None and [chat for chat, _ in request.messages] == [ANN, BOB]  # both offer the rematch

"""The board painter: only the newest table is drawn, within the group's budget, and a new round gets a new board."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from typing import Any, cast

from bot.display.boards import BoardPainter
from bot.display.pictures import Photo, PictureMaker
from bot.model.game import Game, GameState, Seat, TableDoc
from bot.telegram.locks import GameLocks
from bot.telegram.outbox import Outbox
from bot.telegram.pacing import Pacer
from bot.words.languages import Languages
from engine import Match, Rules, Table
from engine.events import Played
from storage import Database, GameRow, GameStatus

CHAT = -100


def shown(table: Table) -> int:
    """Which position a board shows: its round and the plays made in it."""
    return 1000 * table.round_index + sum(1 for event in table.history if type(event) is Played)


class Screen:
    """Stands in for the outbox, the pictures and the games table; remembers what was shown."""

    def __init__(self) -> None:
        self.edits: list[int] = []  # the turn number each board edit showed
        self.sent: list[int] = []
        self.deleted: list[int] = []
        self.stored: list[tuple[int, int]] = []
        self.rows: dict[int, GameRow] = {}
        self.pacer = Pacer(0, 0, 0)

    async def table(self, table: Table, names: object) -> Photo:
        await asyncio.sleep(0)
        assert type(table) is Table  # the group's picture is drawn from the public table only
        return Photo(str(shown(table)).encode(), "t.png")

    async def edit_photo(self, chat: int, message: int, data: bytes, *rest: object) -> bool:
        await self.pacer.before_send(chat)  # as the outbox does
        self.edits.append(int(data))
        return True

    async def send_photo(self, chat: int, data: bytes, *rest: object) -> int:
        self.sent.append(int(data))
        return 1000 + len(self.sent)

    async def delete(self, chat: int, message: int) -> None:
        self.deleted.append(message)

    async def get(self, game_id: int) -> GameRow | None:
        return self.rows.get(game_id)

    async def get_chat(self, chat_id: int) -> None:  # as chats.get: no language set, so English
        return None

    async def save(
        self, row: GameRow, data: dict[str, Any], status: GameStatus | None = None, wake_at: float | None = None
    ) -> GameRow:
        assert status is None  # a board changes only which message shows it
        doc = TableDoc.from_json(data)
        assert doc.game.board_message is not None
        self.stored.append((doc.game.board_message, doc.game.board_round))
        self.rows[row.id] = saved = replace(row, data=data, version=row.version + 1)
        return saved


def painter(screen: Screen, per_minute: float) -> BoardPainter:
    chats = type("Chats", (), {"get": screen.get_chat})()
    db = cast(Database, type("Db", (), {"games": screen, "chats": chats, "shared": False})())
    screen.pacer = Pacer(group_per_minute=per_minute, chat_per_second=0, overall_per_second=0)
    screen.pacer.groups.burst = 1
    return BoardPainter(db, cast(Outbox, screen), cast(PictureMaker, screen), GameLocks(), screen.pacer, Languages(db))


def positions(count: int) -> list[Game]:
    rng = random.Random(3)
    match = Match.new(Rules.preset("block"), 2, rng)
    doc = TableDoc(seats=(Seat("Ann", 1), Seat("Bob", 2)), game=GameState(board_message=7, board_round=0))
    games = []
    for version in range(count):
        row = GameRow(5, CHAT, "group", GameStatus.PLAYING, "block", 1, version, doc.to_json(), 0.0, 0.0)
        games.append(Game(row, doc, match))
        match = match.apply(match.round.legal_moves()[0])
    return games


async def test_moves_made_while_the_group_waits_are_shown_as_one_newest_board() -> None:
    screen = Screen()
    boards = painter(screen, per_minute=60 * 20)  # a message every 50 ms after the first
    games = positions(6)
    screen.rows[5] = games[0].row  # the board message the painter finds stored
    boards.request(games[0])
    # The first board is shown at once and spends the group's only token.
    async with asyncio.timeout(30):  # a generous bound; the condition is what is waited for
        while not screen.edits:
            await asyncio.sleep(0)
    for game in games[1:]:
        boards.request(game)
        await asyncio.sleep(0)
    await boards.idle()
    newest = shown(games[-1].match.table())  # type: ignore[union-attr]
    assert screen.edits == [shown(games[0].match.table()), newest]  # type: ignore[union-attr]
    assert screen.sent == [] and screen.stored == []


async def test_a_new_round_gets_a_new_board_stored_and_the_old_one_deleted() -> None:
    screen = Screen()
    boards = painter(screen, per_minute=0)
    (game,) = positions(1)
    assert game.match is not None
    next_round = game.match
    while not next_round.round.is_over:
        next_round = next_round.apply(next_round.round.legal_moves()[0])
    next_round = next_round.deal_next(random.Random(1))
    moved = Game(game.row, game.doc, next_round)
    screen.rows[5] = game.row
    boards.request(moved)
    await boards.idle()
    assert screen.sent == [shown(next_round.table())] and screen.edits == []
    assert screen.stored == [(1001, 1)] and screen.deleted == [7]
    # The next move of that round edits the new board, though the move's game still names the old one.
    boards.request(Game(game.row, game.doc, next_round.apply(next_round.round.legal_moves()[0])))
    await boards.idle()
    assert len(screen.edits) == 1 and len(screen.sent) == 1

"""What the tests of a hand's taps and questions share: Telegram as an outbox that records what it is
asked to do, the service with the real presenter on a real database, and a deal with a tile that fits
two ends that make a difference."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any, cast

from aiogram.types import InlineKeyboardMarkup

from bot.display.boards import BoardPainter
from bot.display.pictures import PictureMaker
from bot.display.presenter import Presenter
from bot.model.documents import Documents
from bot.table.service import GameService
from bot.telegram.callbacks import EndCode, TileTap
from bot.telegram.locks import GameLocks
from bot.telegram.outbox import Outbox
from bot.words.languages import Languages
from engine import End, EndRequiredError, Match, Move, Rules, Tile
from storage import Database
from tests.bot.test_results_once import Boards, Pictures


class Telegram:
    """The outbox as the presenter, the service and the tap handlers use it: the method of each edit,
    the keyboard each send or edit leaves, and the answers to taps."""

    def __init__(self) -> None:
        self.edits: list[str] = []  # the method of each edit of a message
        self.shown: list[InlineKeyboardMarkup | None] = []  # the keyboard after each send or edit
        self.answers: list[tuple[str, str, bool]] = []  # (callback id, text, alert)
        self.answered = asyncio.Event()
        self.next_id = 100

    async def edit_photo(self, chat_id: int, message_id: int, *rest: Any) -> bool:
        return self._edited("editMessageMedia", rest[-1])

    async def edit_caption(self, chat_id: int, message_id: int, caption: str, markup: Any = None) -> bool:
        return self._edited("editMessageCaption", markup)

    async def edit_markup(self, chat_id: int, message_id: int, markup: Any = None) -> bool:
        return self._edited("editMessageReplyMarkup", markup)

    def _edited(self, method: str, markup: InlineKeyboardMarkup | None) -> bool:
        self.edits.append(method)
        self.shown.append(markup)
        return True

    async def send_photo(self, chat_id: int, *rest: Any, **kw: Any) -> int:
        self.shown.append(rest[-1] if len(rest) > 3 else kw.get("markup"))
        self.next_id += 1
        return self.next_id

    async def set_menu_app(self, *args: Any) -> None:
        pass

    async def delete(self, *args: Any) -> bool:
        return True

    def delete_soon(self, chat_id: int, message_id: int) -> None:
        pass

    async def answer(self, callback_id: str, text: str = "", *, alert: bool = False, url: str | None = None) -> None:
        self.answers.append((callback_id, text, alert))
        self.answered.set()

    def ends_shown(self) -> list[str]:
        """The end codes under the hand as last shown ([] when it shows its tiles)."""
        markup = self.shown[-1]
        assert markup is not None
        data = [button.callback_data or "" for row in markup.inline_keyboard for button in row]
        taps = [TileTap.unpack(tap) for tap in data if tap.startswith("t:")]
        return [tap.end.value for tap in taps if tap.end is not EndCode.NONE]


async def open_database(folder: Path) -> Database:
    database = await Database.open(f"sqlite:///{folder / 'hands.sqlite3'}")
    await database.migrate()
    return database


def game_service(db: Database, telegram: Telegram, locks: GameLocks | None = None) -> GameService:
    """The service and the real presenter, with computers that wait an hour before each move: nothing
    changes the game behind the test's back."""
    presenter = Presenter(
        Documents(db),
        cast(Outbox, telegram),
        cast(PictureMaker, Pictures()),
        cast(BoardPainter, Boards()),
        Languages(db),
    )
    outbox = cast(Outbox, telegram)
    return GameService(Documents(db), presenter, outbox, locks or GameLocks(), group_delay=3600, private_delay=3600)


def two_end_turn() -> tuple[Match, Tile, list[End]]:
    """A block duel on seat 0's turn, with a playable tile that fits two ends that make a difference
    (a lone double's two sides are one choice, and asked no question)."""
    for seed in range(1000):
        rng = random.Random(seed)
        match = Match.new(Rules.preset("block"), 2, rng)
        while not match.round.is_over:
            if match.round.turn == 0:
                for move in match.round.legal_moves():
                    try:
                        match.check(Move(move.tile, None), seat=0)
                    except EndRequiredError as error:
                        if len(match.round.distinct_ends(move.tile)) > 1:
                            return match, move.tile, list(error.ends)  # type: ignore[arg-type]
            match = match.apply(rng.choice(match.round.legal_moves()), seat=match.round.turn)
    raise AssertionError("no deal with a tile that fits two ends")

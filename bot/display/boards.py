"""The group's board message: only the newest table is ever drawn and sent.

A group may take about 20 messages a minute (:mod:`bot.telegram.pacing`), while a game can move every
second. So a move only *asks* for the board to be shown; one task per game waits for the group's
budget, then draws whatever the game looks like by then and edits the board in place. Moves
made meanwhile are never queued as stale pictures: the caption's last actions tell what
happened between two boards. The task runs outside the game's lock, so a waiting board never
holds up a move.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

import bot.display.captions as captions
import bot.display.keyboards as keyboards
from bot.display.names import shown_names
from bot.display.pictures import Photo, PictureMaker
from bot.display.table_links import TableLinks
from bot.model.documents import load_game, save
from bot.model.game import Game, turn_number
from bot.telegram.locks import GameLocks
from bot.telegram.outbox import Outbox
from bot.telegram.pacing import Pacer
from bot.telegram.twins import add_buttons
from bot.words.languages import Languages
from engine import Match
from storage import Database

log = logging.getLogger(__name__)


class BoardPainter:
    def __init__(
        self,
        db: Database,
        outbox: Outbox,
        pictures: PictureMaker,
        locks: GameLocks,
        pacer: Pacer,
        languages: Languages,
        *,
        links: TableLinks | None = None,
    ) -> None:
        self.db = db
        self.languages = languages  # one for the whole bot: its cache must see every change
        self.outbox = outbox
        self.pictures = pictures
        self.locks = locks
        self.pacer = pacer
        self.links = links  # the Mini App's group link beside "My hand" (None: none)
        self._wanted: dict[int, Game] = {}
        self._painters: dict[int, asyncio.Task[None]] = {}

    def request(self, game: Game) -> None:
        """Show this state of the game's board (or a newer one) as soon as the group's budget allows."""
        if game.match is None:
            return
        self._wanted[game.id] = game
        if game.id not in self._painters:
            self._painters[game.id] = asyncio.create_task(self._paint_while_wanted(game.id), name=f"board-{game.id}")

    async def idle(self) -> None:
        """Wait until every requested board has been shown (tests, shutdown)."""
        while self._painters:
            await asyncio.gather(*self._painters.values(), return_exceptions=True)

    def close(self) -> None:
        for task in self._painters.values():
            task.cancel()

    async def _paint_while_wanted(self, game_id: int) -> None:
        try:
            while game_id in self._wanted:
                chat_id = self._wanted[game_id].row.chat_id
                await self.pacer.board_ready(chat_id)
                game = self._wanted.pop(game_id)  # the newest, after the wait
                try:
                    await self._paint(game)
                except Exception:
                    log.exception("game %s: the board could not be shown", game_id)
        finally:
            del self._painters[game_id]

    async def _paint(self, game: Game) -> None:
        match = game.match
        assert match is not None
        async with self.languages.speaking_to(game.row.chat_id):
            picture = await self.pictures.table(match.table(), shown_names(game.doc.seats))
            caption = captions.board_caption(game, match)
            markup = None if match.is_over else keyboards.board_markup(game, self.links)
        # Decided under the game's lock, where results are posted: a board of a round whose result
        # is already out is not sent after it (the newer round's board is waiting instead).
        async with self.locks(game.id):
            stored = await self._still_wanted(game, match)
            if stored is None:
                return
            board, board_round = stored.doc.game.board_message, stored.doc.game.board_round
            in_place = board if board_round == len(match.rounds) - 1 else None
            sent = None if in_place is not None else await self._send_new(stored, match, picture, caption)
        if in_place is None:
            # Its buttons once its id is known (bot/telegram/twins.py), outside the lock (the group's
            # budget may make the edit wait): the painter is the board's only writer, so no later
            # edit can come before it.
            if sent is not None:
                await add_buttons(self.outbox, stored.row.chat_id, sent, markup)
            return
        # An edit in place goes outside the lock: it changes nothing stored, and a move waits for
        # no upload. The painter task is the board's only writer, so edits still come in order; a
        # result posted meanwhile is followed by a board of its own (the next round's, or the final).
        if await self.outbox.edit_photo(stored.row.chat_id, in_place, *picture, caption, markup):
            return
        async with self.locks(game.id):  # the message is gone (deleted by someone): a new board
            stored = await self._still_wanted(game, match)
            if stored is None or stored.doc.game.board_message not in (in_place, None):
                return
            sent = await self._send_new(stored, match, picture, caption)
        if sent is not None:
            await add_buttons(self.outbox, stored.row.chat_id, sent, markup)

    async def _still_wanted(self, game: Game, match: Match) -> Game | None:
        """The game as stored now, if this board of it is still the one to show (under the lock)."""
        newer = self._wanted.get(game.id)
        if newer is not None and newer.match is not None and len(newer.match.rounds) != len(match.rounds):
            return None
        # The game as stored now: another instance of the bot (or this one, since this board
        # was asked for) may have moved on, and only the stored board message is where it is.
        row = await self.db.games.get(game.id)
        if row is None:
            return None
        stored = load_game(row)
        if stored.match is not None and turn_number(stored.match) > turn_number(match):
            return None  # a newer board is the business of whoever made the newer move
        return stored

    async def _send_new(self, stored: Game, match: Match, picture: Photo, caption: str) -> int | None:
        """Send and remember a new board, without its buttons yet (the caller adds them); its id."""
        chat_id = stored.row.chat_id
        board = stored.doc.game.board_message
        message_id = await self.outbox.send_photo(chat_id, *picture, caption)
        if message_id is None:
            return None
        await self._store(stored.id, message_id, len(match.rounds) - 1)
        # The board it replaces (of the round just ended, whose result message now shows its
        # final table) goes, so that no stale "to play" and "My hand" stay behind.
        if board is not None:
            await self.outbox.delete(chat_id, board)
        return message_id

    async def _store(self, game_id: int, message_id: int, board_round: int) -> None:
        """Remember the new board message (the caller holds the game's lock)."""
        row = await self.db.games.get(game_id)
        if row is None:
            return
        game = load_game(row)
        doc = replace(game.doc, game=replace(game.doc.game, board_message=message_id, board_round=board_round))
        # A new board message changes nothing about when the game needs looking after.
        await save(self.db, game, doc, wake_at=row.wake_at)

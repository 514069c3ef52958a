"""The group's board message: only the newest table is ever drawn and sent.

A group may take about 20 messages a minute (:mod:`bot.pacing`), while a game can move every
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

from bot import views
from bot.locks import GameLocks
from bot.outbox import Outbox
from bot.pacing import Pacer
from bot.pictures import PictureMaker
from bot.tables import Game, TableDoc
from storage import Database

log = logging.getLogger(__name__)


class BoardPainter:
    def __init__(self, db: Database, outbox: Outbox, pictures: PictureMaker, locks: GameLocks, pacer: Pacer) -> None:
        self.db = db
        self.outbox = outbox
        self.pictures = pictures
        self.locks = locks
        self.pacer = pacer
        self._wanted: dict[int, Game] = {}
        self._painters: dict[int, asyncio.Task[None]] = {}
        # The board each game shows, as (message id, round): kept here because the game a
        # move hands over may have been read before this painter stored a new board.
        self._shown: dict[int, tuple[int | None, int]] = {}

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
                await self.pacer.group_ready(chat_id)
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
        chat_id = game.row.chat_id
        board, board_round = self._shown.get(game.id, (game.doc.board_message, game.doc.board_round))
        current_round = len(match.rounds) - 1
        picture = await self.pictures.table(match, game.doc.names())
        caption = views.board_caption(game, match)
        markup = None if match.is_over else views.board_markup(game)
        if match.is_over:
            self._shown.pop(game.id, None)
        same_round = board is not None and board_round == current_round
        if same_round and await self.outbox.edit_photo(chat_id, board, *picture, caption, markup):  # type: ignore[arg-type]
            return
        message_id = await self.outbox.send_photo(chat_id, *picture, caption, markup)
        if message_id is None:
            return
        if not match.is_over:
            self._shown[game.id] = (message_id, current_round)
        await self._store(game.id, message_id, current_round)
        # The board it replaces (of the round just ended, whose result message now shows its
        # final table) goes, so that no stale "to play" and "My hand" stay behind.
        if board is not None:
            await self.outbox.delete(chat_id, board)

    async def _store(self, game_id: int, message_id: int, board_round: int) -> None:
        async with self.locks(game_id):
            row = await self.db.games.get(game_id)
            if row is None:
                return
            doc = TableDoc.from_json(row.data)
            doc = replace(doc, board_message=message_id, board_round=board_round)
            await self.db.games.save(row, data=doc.to_json())

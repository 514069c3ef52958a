"""Bring a game's Telegram messages up to date with its stored state.

:meth:`Presenter.sync` is idempotent: it is called after every committed change and
again after a restart, and it only ever sends what the players have not seen yet
(a result not yet posted, a board or hand for a new round, a new message when the
turn comes to a player) and edits the rest in place.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot import views
from bot.outbox import Outbox, Unreachable
from bot.pictures import PictureMaker
from bot.tables import Game, HandMessage, TableDoc, remember, turn_key
from engine import Match
from storage import Database, GameStatus

log = logging.getLogger(__name__)


class Presenter:
    def __init__(self, db: Database, outbox: Outbox, pictures: PictureMaker) -> None:
        self.db = db
        self.outbox = outbox
        self.pictures = pictures

    async def save_doc(self, game: Game, doc: TableDoc, status: GameStatus | None = None) -> Game:
        row = await self.db.games.save(game.row, data=doc.to_json(), status=status)
        remember(row, game.match)
        return Game(row, doc, game.match)

    async def sync(self, game: Game) -> Game:
        match = game.match
        if match is None:
            return game
        game = await self._post_results(game, match)
        if game.row.kind == "group":
            game = await self._sync_board(game, match)
        for seat, info in enumerate(game.doc.seats):
            if info is not None and info.user_id is not None:
                game = await self._sync_hand(game, match, seat, info.user_id)
        return game

    async def _post_results(self, game: Game, match: Match) -> Game:
        finished = [i for i, state in enumerate(match.rounds) if state.is_over]
        doc = game.doc
        for round_index in finished:
            if round_index < doc.results_posted:
                continue
            state = match.rounds[round_index]
            picture = await self.pictures.result(state, doc.names())
            caption = views.result_caption(game, match, round_index)
            await self.outbox.send_photo(game.row.chat_id, picture[0], picture[1], caption)
            doc = replace(doc, results_posted=round_index + 1)
            game = await self.save_doc(game, doc)
        return game

    async def _sync_board(self, game: Game, match: Match) -> Game:
        doc = game.doc
        picture = await self.pictures.table(match, doc.names())
        caption = views.board_caption(game, match)
        markup = None if match.is_over else views.board_markup(game)
        current_round = len(match.rounds) - 1
        board = doc.board_message if doc.board_round == current_round else None
        if board is not None and await self.outbox.edit_photo(game.row.chat_id, board, *picture, caption, markup):
            return game
        message_id = await self.outbox.send_photo(game.row.chat_id, *picture, caption, markup)
        if message_id is None:
            return game
        # The board it replaces (of this round, or of the round just ended, whose result message
        # now shows its final table) goes, so that no stale "to play" and "My hand" stay behind.
        if doc.board_message is not None:
            await self.outbox.delete(game.row.chat_id, doc.board_message)
        return await self.save_doc(game, replace(doc, board_message=message_id, board_round=current_round))

    async def sync_hand(self, game: Game, seat: int, user_id: int) -> Game:
        """Bring one player's hand message up to date, and nothing else."""
        if game.match is None:
            return game
        return await self._sync_hand(game, game.match, seat, user_id)

    async def _sync_hand(self, game: Game, match: Match, seat: int, user_id: int) -> Game:
        doc = game.doc
        state = match.round
        key = turn_key(match)
        my_turn = not state.is_over and state.turn == seat
        current = doc.hands.get(seat)
        picture = await self.pictures.private(match, seat, doc.names())
        caption = views.hand_caption(game, match, seat)
        markup = views.hand_markup(game, match, seat)
        round_prefix = f"{len(match.rounds) - 1}:"
        # In a private game the one message is the whole game: it is replaced only for a new round.
        fresh_needed = current is None or not current.turn_key.startswith(round_prefix)
        if game.row.kind == "group" and my_turn and current is not None and current.turn_key != key:
            fresh_needed = True  # a new message, so that Telegram notifies the player
        try:
            if (
                not fresh_needed
                and current is not None
                and await self.outbox.edit_photo(user_id, current.message_id, *picture, caption, markup)
            ):
                return game
            message_id = await self.outbox.send_photo(user_id, *picture, caption, markup, notify=my_turn)
        except Unreachable:
            log.info("game %s: seat %s cannot be reached privately", game.id, seat)
            await self.db.users.set_private_ok(user_id, False)
            return game
        if message_id is None:
            return game
        if current is not None:
            await self.outbox.delete(user_id, current.message_id)
        hands = dict(doc.hands)
        hands[seat] = HandMessage(message_id, key if my_turn else f"{round_prefix}waiting")
        return await self.save_doc(game, replace(doc, hands=hands))

    async def resend_hand(self, game: Game, seat: int, user_id: int) -> Game:
        """Send the hand again as a new message (the player asked for it)."""
        match = game.match
        assert match is not None
        doc = game.doc
        hands = dict(doc.hands)
        hands.pop(seat, None)
        old = doc.hands.get(seat)
        game = Game(game.row, replace(doc, hands=hands), match)
        game = await self._sync_hand(game, match, seat, user_id)
        if old is not None and game.doc.hands.get(seat) != old:
            await self.outbox.delete(user_id, old.message_id)
        return game

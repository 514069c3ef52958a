"""Keeping a group's lobby message in step with the lobby."""

from __future__ import annotations

from bot.display import captions, keyboards
from bot.display.names import shown_names
from bot.model.game import Game
from bot.table.service import GameService
from bot.words import texts
from bot.words.refusals import Refusal
from storage import GameStatus


async def refresh_lobby(service: GameService, game: Game) -> None:
    message_id = game.doc.game.lobby_message
    if message_id is None:
        return
    async with service.presenter.languages.speaking_to(game.row.chat_id):
        await _show_lobby(service, game, message_id)


async def _show_lobby(service: GameService, game: Game, message_id: int) -> None:
    outbox = service.presenter.outbox
    if game.row.status is GameStatus.LOBBY:
        await outbox.edit_text(game.row.chat_id, message_id, captions.lobby_text(game), keyboards.lobby_markup(game))
    elif game.row.status is GameStatus.CANCELLED:
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(texts.game_cancelled()))
    elif game.row.status is GameStatus.CLOSED:
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(Refusal.IDLE_CLOSED.text))
    else:
        started = texts.game_started(shown_names(game.doc.seats))
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(started))

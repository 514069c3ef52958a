"""Keeping a group's lobby message in step with the lobby."""

from __future__ import annotations

import logging

from bot.display import captions, keyboards
from bot.display.names import shown_names
from bot.model.documents import load_game
from bot.model.game import Game
from bot.table.service import GameService, TableError
from bot.words import team_texts, texts
from bot.words.refusals import Refusal
from engine import Rules
from storage import GameStatus

log = logging.getLogger(__name__)


async def refresh_lobby(service: GameService, game: Game) -> None:
    """Show the lobby of ``game`` as it is stored now.

    An open lobby is read and shown under its lock: two changes made at once (Bob and Cat tap
    Join together, on two instances) are then shown in the order they were committed, so an
    edit carrying the older lobby cannot land last and hide a seat. A lobby that has ended
    (started, cancelled) is shown as it is: its text no longer changes."""
    if game.row.status is GameStatus.LOBBY:
        try:
            async with service.locked(game.id) as fresh:
                await _show_if_known(service, fresh)
        except TableError:
            return  # gone or closed meanwhile: whoever ended it shows it
        return
    await _show_if_known(service, game)


async def remember_lobby_message(service: GameService, drawn: Game, message_id: int) -> Game:
    """Store ``message_id`` as the lobby's message, drawn from ``drawn``. A change that came while
    it was being sent (a Join tapped the moment the message appeared) found no message to show
    itself in, so the message is brought up to date."""
    saved = await service.set_lobby_message(drawn, message_id)
    if saved.row.version > drawn.row.version + 1:  # one save is ours: any other came in between
        await refresh_lobby(service, saved)
    return saved


async def _show_if_known(service: GameService, game: Game) -> None:
    message_id = game.doc.game.lobby_message
    if message_id is None:
        return  # its message is being sent: remember_lobby_message shows the change
    async with service.presenter.languages.speaking_to(game.row.chat_id):
        await _show_lobby(service, game, message_id)


async def _show_lobby(service: GameService, game: Game, message_id: int) -> None:
    outbox = service.outbox
    if game.row.status is GameStatus.LOBBY:
        await outbox.edit_text(game.row.chat_id, message_id, captions.lobby_text(game), keyboards.lobby_markup(game))
    elif game.row.status is GameStatus.CANCELLED:
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(texts.game_cancelled()))
    elif game.row.status is GameStatus.CLOSED:
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(Refusal.IDLE_CLOSED.text))
    elif (rules := Rules.preset(game.row.preset)).has_teams and len(game.doc.seats) == rules.max_seats:
        names = shown_names(game.doc.seats)  # who plays with whom
        started = team_texts.game_started([[names[seat] for seat in side] for side in rules.sides(len(names))])
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(started))
    else:
        started = texts.game_started(shown_names(game.doc.seats))
        await outbox.edit_text(game.row.chat_id, message_id, texts.lobby_closed(started))


# Lobbies changed this long before a start-up are shown again by it (older ones are as they were).
RECENT_LOBBY_SECONDS = 3600.0


async def show_recent_lobbies(service: GameService, now: float) -> int:
    """At start-up: every lobby changed lately is shown as stored, since a change committed just
    before the bot stopped (a seat, a computer, the clock) may not have reached its message, and
    that tap, delivered again, changes nothing more (bot/telegram/middlewares.py). Returns how many."""
    shown = 0
    for row in await service.db.games.with_status(GameStatus.LOBBY):
        if row.updated_at < now - RECENT_LOBBY_SECONDS:
            continue
        try:
            await refresh_lobby(service, load_game(row))
            shown += 1
        except Exception:
            log.exception("lobby %s could not be shown", row.id)
    return shown

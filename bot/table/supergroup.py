"""A group that became a supergroup: its games, settings and row move to the new chat id.

Telegram tells us twice (a service message with ``migrate_to_chat_id`` in the old group and one
with ``migrate_from_chat_id`` in the new supergroup), and a send to the old id fails with
``migrate_to_chat_id`` (bot/telegram/outbox.py's ``on_migrate``).  Any of them calls :func:`move_chat`;
only the first moves anything.  Message ids do not carry over to the new chat, so the open
game's lobby or board message is sent there anew and the game goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.display import captions, keyboards
from bot.model.documents import load_game
from bot.table.lobbies import remember_lobby_message
from bot.table.needs import Table
from storage import GameStatus

log = logging.getLogger(__name__)


async def move_chat(service: Table, old: int, new: int) -> bool:
    """Move chat ``old`` to ``new``; True if this call moved the chat's open game."""
    if old == new:
        return False
    db = service.db
    active = await db.games.active_in_chat(old)
    if active is None:
        moved = await db.chats.move(old, new)
        service.presenter.languages.forget_chat(new)
        if moved:
            log.info("chat %s became %s: %d games moved", old, new, moved)
        return False
    async with service.locks(active.id):
        moved = await db.chats.move(old, new)
        service.presenter.languages.forget_chat(new)
        row = await db.games.get(active.id)
        if not moved or row is None or row.chat_id != new:
            return False  # another notice moved it first
        game = load_game(row)
        # The old chat's messages stay there; the new chat gets its own.
        doc = replace(game.doc, game=replace(game.doc.game, lobby_message=None, board_message=None, board_round=-1))
        game = await service.documents.save(game, doc)
    log.info("chat %s became %s: %d games moved, game %s goes on there", old, new, moved, game.id)
    if game.row.kind != "group":
        return True
    if game.row.status is GameStatus.LOBBY:
        async with service.presenter.languages.speaking_to(new):
            text, markup = captions.lobby_text(game), keyboards.lobby_markup(game)
        sent = await service.outbox.send_text(new, text, markup)
        if sent is not None:
            await remember_lobby_message(service, game, sent)
    elif game.row.status is GameStatus.PLAYING:
        await service.show(game)
    return True


def on_migrate(service: Table) -> Callable[[int, int], Awaitable[None]]:
    """The outbox's hook: move the chat, logging (never raising) what goes wrong."""

    async def hook(old: int, new: int) -> None:
        try:
            await move_chat(service, old, new)
        except Exception:
            log.exception("chat %s could not be moved to %s", old, new)

    return hook

"""Taps on the buttons of a game closed by the idle sweep (bot/background/idle_close.py): they say so
and do nothing else.

This router comes first, so every game button (whatever router would take it) is covered.
"""

from __future__ import annotations

from typing import Any

from aiogram import Router
from aiogram.filters import Filter
from aiogram.types import CallbackQuery

from bot.background.idle_close import game_of
from bot.words.refusals import Refusal
from storage import Database, GameStatus

router = Router(name="idle")


class ClosedGame(Filter):
    """The tap names a game that the idle sweep closed."""

    async def __call__(self, query: CallbackQuery, db: Database) -> bool | dict[str, Any]:
        game_id = game_of(query.data)
        if game_id is None:
            return False
        return await db.games.status_of(game_id) is GameStatus.CLOSED


@router.callback_query(ClosedGame())
async def closed_game_tap(query: CallbackQuery) -> None:
    await query.answer(Refusal.IDLE_CLOSED.text, show_alert=True)

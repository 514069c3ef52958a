"""The Rematch button under a finished game's result (groups and friend rooms)."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.table import rematch
from bot.table.service import GameService
from bot.telegram.callbacks import RematchTap
from bot.telegram.outbox import Outbox

router = Router(name="rematch")


@router.callback_query(RematchTap.filter())
async def rematch_tap(query: CallbackQuery, callback_data: RematchTap, service: GameService, outbox: Outbox) -> None:
    """Confirm under the game's lock, answer, then redraw the result(s) and show the new game."""
    outcome = await rematch.confirm(service, callback_data.game, query.from_user.id)
    # Through the outbox, which never raises: the confirmation is committed and must be shown.
    await outbox.answer(query.id, outcome.answer.text, alert=outcome.alert)
    if outcome.changed is not None:
        await rematch.show(service, outcome.changed)
    if outcome.new is not None:
        await service.show(outcome.new)

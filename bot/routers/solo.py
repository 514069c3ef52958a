"""A private game against the computer: choose the rule set and the number of opponents."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot import texts, views
from bot.callbacks import SoloTap
from bot.service import GameService, Person, TableError

router = Router(name="solo")


@router.callback_query(SoloTap.filter())
async def solo_tap(query: CallbackQuery, callback_data: SoloTap, person: Person, service: GameService) -> None:
    message = query.message
    if message is None or message.chat.type != "private":
        await query.answer(texts.alert("broken"), show_alert=True)
        return
    outbox = service.presenter.outbox
    if callback_data.step == "menu":
        await query.answer()
        await outbox.send_text(message.chat.id, "Choose a rule set:", views.solo_menu_markup())
        return
    preset = callback_data.preset
    if preset not in texts.PRESET_TITLES:
        await query.answer(texts.alert("broken"), show_alert=True)
        return
    if callback_data.step == "preset":
        await query.answer()
        text = f"{texts.rules_text(preset)}\n\nHow many computer opponents?"
        await outbox.edit_text(message.chat.id, message.message_id, text, views.opponents_markup(preset))
        return
    if callback_data.step == "go":
        await query.answer()
        try:
            await service.open_solo(message.chat.id, person, preset, callback_data.opponents)
        except (TableError, ValueError):
            await outbox.send_text(message.chat.id, texts.alert("broken"))
            return
        await outbox.edit_markup(message.chat.id, message.message_id, None)
        return
    await query.answer(texts.alert("broken"), show_alert=True)

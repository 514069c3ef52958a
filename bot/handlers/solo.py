"""A private game against the computer: choose the rule set, the opponents and their level;
and the level row under the game, which changes the computers' level mid-game."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.display import keyboards
from bot.model.game import DEFAULT_LEVEL
from bot.table import rematch, solo
from bot.table.service import GameService, TableError
from bot.telegram.callbacks import LevelTap, SoloGo, SoloStep, SoloTap
from bot.telegram.outbox import Outbox
from bot.telegram.people import Person
from bot.words import texts
from bot.words.refusals import Refusal
from engine.players import LEVELS

router = Router(name="solo")


@router.callback_query(SoloTap.filter())
async def solo_tap(
    query: CallbackQuery, callback_data: SoloTap, person: Person, service: GameService, outbox: Outbox
) -> None:
    message = query.message
    if message is None or message.chat.type != "private":
        await query.answer(Refusal.BROKEN.text, show_alert=True)
        return
    if callback_data.step is SoloStep.MENU:
        await query.answer()
        await outbox.send_text(message.chat.id, texts.choose_rule_set(), keyboards.solo_menu_markup())
        return
    preset = callback_data.preset
    if preset not in texts.PRESET_TITLES:
        await query.answer(Refusal.BROKEN.text, show_alert=True)
        return
    if callback_data.step is SoloStep.PRESET:
        await query.answer()
        text = texts.opponents_prompt(preset)
        await outbox.edit_text(message.chat.id, message.message_id, text, keyboards.opponents_markup(preset))
        return
    if callback_data.step is SoloStep.GO:
        await query.answer()
        await _deal(
            message.chat.id,
            message.message_id,
            person,
            service,
            outbox,
            preset,
            callback_data.opponents,
            DEFAULT_LEVEL,
        )
        return
    await query.answer(Refusal.BROKEN.text, show_alert=True)


@router.callback_query(SoloGo.filter())
async def solo_go(
    query: CallbackQuery, callback_data: SoloGo, person: Person, service: GameService, outbox: Outbox
) -> None:
    message = query.message
    if message is None or message.chat.type != "private":
        await query.answer(Refusal.BROKEN.text, show_alert=True)
        return
    if callback_data.preset not in texts.PRESET_TITLES or callback_data.level not in LEVELS:
        refusal = Refusal.BROKEN if callback_data.preset not in texts.PRESET_TITLES else Refusal.UNKNOWN_LEVEL
        await query.answer(refusal.text, show_alert=True)
        return
    await query.answer()
    await _deal(
        message.chat.id,
        message.message_id,
        person,
        service,
        outbox,
        callback_data.preset,
        callback_data.opponents,
        callback_data.level,
    )


async def _deal(
    chat_id: int,
    menu_id: int,
    person: Person,
    service: GameService,
    outbox: Outbox,
    preset: str,
    opponents: int,
    level: str,
) -> None:
    """Deal the game (its message comes by itself) and take the buttons off the menu.

    The tap is answered already: a refusal (a friend is playing the chat's room, which is then not
    cancelled) comes as a message."""
    try:
        game = await solo.open_solo(service, chat_id, person, preset, opponents, level)
    except TableError as error:
        await outbox.send_text(chat_id, error.refusal.text)
        return
    except ValueError:
        await outbox.send_text(chat_id, Refusal.BROKEN.text)
        return
    await rematch.cancel_pending(service, chat_id, game.id)  # a new game: the rematch is off
    await outbox.edit_markup(chat_id, menu_id, None)


@router.callback_query(LevelTap.filter())
async def level_tap(query: CallbackQuery, callback_data: LevelTap, service: GameService) -> None:
    """Commit the new level under the game's lock, answer, then redraw the game message."""
    message = query.message
    if message is None or message.chat.type != "private":
        await query.answer(Refusal.LEVEL_PRIVATE_ONLY.text, show_alert=True)
        return
    level = callback_data.level
    changed = await solo.set_computer_level(service, callback_data.game, query.from_user.id, level)
    if changed is None:
        await query.answer(texts.level_already(level))
        return
    await query.answer(texts.level_set(level))
    await service.refresh_hand(callback_data.game, query.from_user.id)

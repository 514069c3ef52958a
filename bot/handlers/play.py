"""Taps on tiles in a hand, 💡 under it, and "My hand" under the group's board."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.display import keyboards
from bot.table import hints
from bot.table.service import GameService, TableError
from bot.telegram.callbacks import EndCode, HandTap, HintTap, TileTap
from bot.telegram.outbox import Outbox
from bot.words import hint_texts, texts
from bot.words.refusals import Notice, Refusal
from engine import Tile, TileError, tile_of

router = Router(name="play")


def _tile(code: str) -> Tile | None:
    if len(code) != 2 or not (code.isascii() and code.isdigit()):  # not "²1": int() refuses it
        return None
    try:
        return tile_of(int(code[0]), int(code[1]))
    except TileError:
        return None


@router.callback_query(TileTap.filter())
async def tile_tap(query: CallbackQuery, callback_data: TileTap, service: GameService, outbox: Outbox) -> None:
    game_id = callback_data.game
    user_id = query.from_user.id
    if callback_data.tile == "" and callback_data.end is EndCode.NONE:  # "back" from the choice of ends
        await query.answer()
        await service.refresh_hand(game_id, user_id, back_from=callback_data.version)
        return
    tile = _tile(callback_data.tile)
    end = keyboards.CODE_ENDS.get(callback_data.end)
    if tile is None:
        await query.answer(Refusal.BROKEN.text, show_alert=True)
        return
    try:
        outcome = await service.tap_tile(game_id, user_id, callback_data.version, tile, end)
    except TableError as error:
        await query.answer(error.refusal.text, show_alert=error.refusal is not Refusal.STALE)
        if error.refusal is Refusal.STALE:
            await service.refresh_hand(game_id, user_id)
        return
    if not outcome.played:
        await query.answer(Notice.CHOOSE_END.text)
        if query.message is not None and outcome.tile is not None:
            where = (query.message.chat.id, query.message.message_id)
            ends = list(outcome.choose_ends)
            await service.offer_ends(game_id, user_id, callback_data.version, outcome.tile, ends, where)  # type: ignore[arg-type]
        return
    # Through the outbox, which never raises: a tap that waited too long cannot be answered, and
    # the committed move must still be shown and the computers and the clock set going.
    await outbox.answer(query.id, texts.you_played(tile))
    await service.after_tap(outcome)


@router.callback_query(HandTap.filter())
async def hand_tap(query: CallbackQuery, callback_data: HandTap, service: GameService) -> None:
    try:
        await service.show_hand(callback_data.game, query.from_user.id)
    except TableError as error:
        await query.answer(error.refusal.text, show_alert=True)
        return
    await query.answer(Notice.HAND_SENT.text)


@router.callback_query(HintTap.filter())
async def hint_tap(query: CallbackQuery, callback_data: HintTap, service: GameService) -> None:
    try:
        given = await hints.give_hint(service, callback_data.game, query.from_user.id, callback_data.version)
    except TableError as error:
        await query.answer(error.refusal.text, show_alert=error.refusal is not Refusal.STALE)
        if error.refusal is Refusal.STALE:
            await service.refresh_hand(callback_data.game, query.from_user.id)
        return
    await query.answer(hint_texts.hint_answer(given.hint, ends=given.ends), show_alert=True)

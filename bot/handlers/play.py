"""Taps on tiles in a hand, 💡 under it, and "My hand" under the group's board."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from functools import partial
from typing import TypeVar

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.display import keyboards
from bot.table import hints
from bot.table.service import GameService, StaleTap, TableError, TapOutcome
from bot.telegram.callbacks import EndCode, HandTap, HintTap, TileTap
from bot.telegram.outbox import Outbox
from bot.words import hint_texts, texts
from bot.words.refusals import Notice, Refusal
from engine import Tile, TileError, tile_of

router = Router(name="play")
T = TypeVar("T")

# Telegram shows a spinner on a tapped button until the tap is answered. A tap that has to wait
# longer than this for its game (whose lock a message waiting for the chat's budget may hold) is
# answered without a word meanwhile: what it did then shows in the hand.
ANSWER_WITHIN = 0.8


class Tap:
    """One tap's answer, given once, through the outbox (which never raises: a failed answer only
    costs the spinner, and what the tap committed must still be shown)."""

    def __init__(self, query: CallbackQuery, outbox: Outbox) -> None:
        self.query = query
        self.outbox = outbox
        self.answered = False

    async def answer(self, text: str = "", *, alert: bool = False) -> None:
        if not self.answered:
            self.answered = True
            await self.outbox.answer(self.query.id, text, alert=alert)

    async def after(self, work: Awaitable[T]) -> T:
        """``work``'s result; the tap is answered without a word once it has waited :data:`ANSWER_WITHIN`."""
        task = asyncio.ensure_future(work)
        try:
            done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN)
            if not done:
                await self.answer()
            return await task
        except asyncio.CancelledError:
            task.cancel()
            raise

    async def refused(self, error: TableError) -> None:
        if isinstance(error, StaleTap) and not error.to_move:
            # A tap on a hand still waiting for its turn: that is what there is to say (a hand is
            # redrawn when its turn comes, so "here is the current one" would promise nothing).
            await self.answer(Refusal.NOT_YOUR_TURN.text)
        else:
            await self.answer(error.refusal.text, alert=error.refusal is not Refusal.STALE)


def _tile(code: str) -> Tile | None:
    if len(code) != 2 or not (code.isascii() and code.isdigit()):  # not "²1": int() refuses it
        return None
    try:
        return tile_of(int(code[0]), int(code[1]))
    except TileError:
        return None


async def _played(tap: Tap, tile: Tile, outcome: TapOutcome) -> None:
    await tap.answer(texts.you_played(tile))


@router.callback_query(TileTap.filter())
async def tile_tap(query: CallbackQuery, callback_data: TileTap, service: GameService, outbox: Outbox) -> None:
    game_id = callback_data.game
    user_id = query.from_user.id
    tap = Tap(query, outbox)
    if callback_data.tile == "" and callback_data.end is EndCode.NONE:  # "back" from the choice of ends
        await tap.answer()
        await service.refresh_hand(game_id, user_id, back_from=callback_data.version)
        return
    tile = _tile(callback_data.tile)
    end = keyboards.CODE_ENDS.get(callback_data.end)
    if tile is None:
        await tap.answer(Refusal.BROKEN.text, alert=True)
        return
    try:
        # Answered once committed, before the move is shown (which may wait for the chat's budget).
        answered = partial(_played, tap, tile)
        outcome = await tap.after(
            service.play_tap(game_id, user_id, callback_data.version, tile, end, answered=answered)
        )
    except TableError as error:
        await tap.refused(error)
        if error.refusal is Refusal.STALE:
            await service.catch_up_hand(game_id, user_id)
        return
    if not outcome.played:
        await tap.answer(Notice.CHOOSE_END.text)
        if query.message is not None and outcome.tile is not None:
            where = (query.message.chat.id, query.message.message_id)
            ends = list(outcome.choose_ends)
            await service.offer_ends(game_id, user_id, callback_data.version, outcome.tile, ends, where)  # type: ignore[arg-type]
        return


@router.callback_query(HandTap.filter())
async def hand_tap(query: CallbackQuery, callback_data: HandTap, service: GameService, outbox: Outbox) -> None:
    tap = Tap(query, outbox)
    try:
        await tap.after(service.show_hand(callback_data.game, query.from_user.id))
    except TableError as error:
        await tap.answer(error.refusal.text, alert=True)
        return
    await tap.answer(Notice.HAND_SENT.text)


@router.callback_query(HintTap.filter())
async def hint_tap(query: CallbackQuery, callback_data: HintTap, service: GameService) -> None:
    try:
        given = await hints.give_hint(service, callback_data.game, query.from_user.id, callback_data.version)
    except TableError as error:
        if error.refusal is not Refusal.STALE:
            raise  # answered with its alert (bot/handlers/errors.py)
        await query.answer(error.refusal.text, show_alert=False)  # and the hand brought up to date
        await service.catch_up_hand(callback_data.game, query.from_user.id)
        return
    await query.answer(hint_texts.hint_answer(given.hint, ends=given.ends), show_alert=True)

"""Under a final result: 🎬 Replay and /replay [N], the whole game as an animation (bot/display/replays.py);
📈 Review and /review [N], one's costliest moves, privately (bot/display/reviews.py)."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.display.names import shown_names
from bot.display.replays import Clip, ReplayMaker
from bot.handlers.scores import belongs, chosen_result
from bot.model import scores
from bot.model.game import DocumentError, TableDoc
from bot.telegram.callbacks import ReplayTap, ReviewTap
from bot.telegram.outbox import Outbox, Unreachable
from bot.telegram.people import Person
from bot.telegram.quiet import QuietAnswers
from bot.words import replay_texts, review_texts
from bot.words.i18n import current
from bot.words.refusals import Refusal
from engine import RecordError
from storage import Database
from storage.results import GameResult

router = Router(name="replays")
log = logging.getLogger(__name__)


@router.message(Command("replay"))
async def replay_command(
    message: Message,
    command: CommandObject,
    db: Database,
    quiet: QuietAnswers,
    outbox: Outbox,
    replays: ReplayMaker,
    person: Person | None = None,
) -> None:
    result = await chosen_result(
        message, command, db, quiet, person, how=replay_texts.replay_how(), nothing=replay_texts.replay_nothing
    )
    if result is None:
        return
    if message.chat.id in replays.drawing:
        await quiet.answer(message, replay_texts.replay_busy(), reply=True)
        return
    if not await send_replay(db, outbox, replays, message.chat.id, result):
        await message.reply(replay_texts.replay_failed())


@router.callback_query(ReplayTap.filter())
async def replay_tap(
    query: CallbackQuery, callback_data: ReplayTap, db: Database, outbox: Outbox, replays: ReplayMaker
) -> None:
    chat = query.message.chat if query.message is not None else None
    result = await db.results.get(callback_data.game)
    in_chat = chat is not None and chat.type != ChatType.PRIVATE
    if (
        chat is None
        or result is None
        or not result.finished
        or not belongs(result, chat.id if in_chat else None, None if in_chat else query.from_user.id)
    ):
        await query.answer(Refusal.NO_GAME.text, show_alert=True)
        return
    if chat.id in replays.drawing:
        await query.answer(replay_texts.replay_busy())
        return
    await query.answer(replay_texts.replay_coming())
    if not await send_replay(db, outbox, replays, chat.id, result):
        await outbox.send_text(chat.id, replay_texts.replay_failed())


async def send_replay(db: Database, outbox: Outbox, replays: ReplayMaker, chat_id: int, result: GameResult) -> bool:
    """Draw (or find) the replay of ``result`` in the reader's language and send it to ``chat_id``."""
    language = current()
    caption = replay_texts.replay_caption(result.game_id, result.preset, scores.date_of(result))
    known = replays.sent_before(result.game_id, language)
    if known is not None:
        file_id, clip = known
        return await _send(outbox, replays, chat_id, result, language, file_id, clip, caption)
    doc = await _stored_doc(db, result)
    if doc is None or doc.game.record is None:
        return False
    replays.drawing.add(chat_id)
    try:
        clip = await replays.draw(doc.game.record, shown_names(doc.seats), language)
    except RecordError:
        log.exception("game %s: its record cannot be replayed", result.game_id)
        return False
    finally:
        replays.drawing.discard(chat_id)
    return await _send(outbox, replays, chat_id, result, language, clip.data, clip, caption)


async def _send(
    outbox: Outbox,
    replays: ReplayMaker,
    chat_id: int,
    result: GameResult,
    language: str,
    animation: bytes | str,
    clip: Clip,
    caption: str,
) -> bool:
    try:
        sent = await outbox.send_animation(
            chat_id, animation, clip.filename, caption, width=clip.width, height=clip.height, seconds=clip.seconds
        )
    except Unreachable:
        return True  # blocked meanwhile: nobody to tell
    if sent is None:
        return False
    replays.remember(result.game_id, language, sent[1], clip)
    return True


# --- 📈 Review ----------------------------------------------------------------------------------


@router.message(Command("review"))
async def review_command(
    message: Message,
    command: CommandObject,
    db: Database,
    quiet: QuietAnswers,
    outbox: Outbox,
    replays: ReplayMaker,
    person: Person | None = None,
) -> None:
    result = await chosen_result(
        message, command, db, quiet, person, how=review_texts.review_how(), nothing=review_texts.review_nothing
    )
    if result is None or person is None:
        return
    if _seat_of(result, person.user_id) is None:
        await message.reply(Refusal.NOT_YOUR_GAME.text)
        return
    if message.chat.type != ChatType.PRIVATE:
        await quiet.answer(message, review_texts.review_coming(), reply=True)
    if not await send_review(db, outbox, replays, person.user_id, result):
        await message.reply(replay_texts.replay_failed())


@router.callback_query(ReviewTap.filter())
async def review_tap(
    query: CallbackQuery, callback_data: ReviewTap, db: Database, outbox: Outbox, replays: ReplayMaker
) -> None:
    result = await db.results.get(callback_data.game)
    if result is None or not result.finished:
        await query.answer(Refusal.NO_GAME.text, show_alert=True)
        return
    if _seat_of(result, query.from_user.id) is None:
        await query.answer(Refusal.NOT_YOUR_GAME.text, show_alert=True)
        return
    await query.answer(review_texts.review_coming())
    if not await send_review(db, outbox, replays, query.from_user.id, result):
        await outbox.send_text(query.from_user.id, replay_texts.replay_failed())


def _seat_of(result: GameResult, user_id: int) -> int | None:
    return next((seat.seat for seat in result.seats if seat.user_id == user_id), None)


async def send_review(db: Database, outbox: Outbox, replays: ReplayMaker, user_id: int, result: GameResult) -> bool:
    """``user_id``'s costliest moves of ``result``, into their private chat; False if it could not be made."""
    seat = _seat_of(result, user_id)
    doc = await _stored_doc(db, result)
    if seat is None or doc is None or doc.game.record is None:
        return False
    try:
        pages = await replays.review(doc.game.record, seat, shown_names(doc.seats), current())
    except RecordError:
        log.exception("game %s: its record cannot be reviewed", result.game_id)
        return False
    try:
        if not pages:
            await outbox.send_text(user_id, review_texts.review_none(result.game_id, result.preset))
            return True
        await outbox.send_text(user_id, review_texts.review_heading(result.game_id, result.preset))
        for page in pages:
            await outbox.send_photo(user_id, page.photo, page.filename, page.caption)
    except Unreachable:
        log.info("game %s: the review cannot reach %s", result.game_id, user_id)
    return True


async def _stored_doc(db: Database, result: GameResult) -> TableDoc | None:
    row = await db.games.get(result.game_id)
    try:
        return TableDoc.from_json(row.data) if row is not None else None
    except DocumentError:
        return None

"""Under a final result: 🎬 Replay and /replay [N], the whole game as an animation (bot/display/replays.py);
📈 Review and /review [N], one's costliest moves, privately (bot/display/reviews.py).

Each is drawn and sent once: a game's replay once per chat, its review once per person (claimed
in storage/sent.py, so a restart or another instance knows it too). A later ask is pointed at the
one sent (a tap's answer says where, which costs the chat nothing; a command is answered with a
reply to it), and an ask while it is being drawn is told so; one that could not be made may be
asked for again.
"""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, ReplyParameters

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
from storage.sent import Claim, Kind

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
    chat_id = message.chat.id
    claim = await _claim_replay(db, replays, result.game_id, chat_id)
    if claim.message_id is not None:
        await quiet.answer(
            message, replay_texts.replay_here(result.game_id), reply_parameters=_quoting(claim.message_id)
        )
    elif not claim.won:
        await quiet.answer(message, replay_texts.replay_busy(), reply=True)
    elif not await _replay_claimed(db, outbox, replays, chat_id, result, claim):
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
    # The answers to a tap are no messages: pointing at the replay sent before costs the chat nothing.
    claim = await _claim_replay(db, replays, result.game_id, chat.id)
    if claim.message_id is not None:
        await query.answer(replay_texts.replay_sent_before(result.game_id))
        return
    if not claim.won:
        await query.answer(replay_texts.replay_busy())
        return
    await query.answer(replay_texts.replay_coming())
    if not await _replay_claimed(db, outbox, replays, chat.id, result, claim):
        await outbox.send_text(chat.id, replay_texts.replay_failed())


async def _claim_replay(db: Database, replays: ReplayMaker, game_id: int, chat_id: int) -> Claim:
    """Claim the replay of ``game_id`` for ``chat_id``; a replay already sent there is pointed at even
    while another game's is being drawn in that chat, which holds up only a new one (one at a time a chat)."""
    claim = await db.sent.claim(game_id, Kind.REPLAY, chat_id)
    if claim.won and chat_id in replays.drawing:
        await db.sent.release(game_id, Kind.REPLAY, chat_id, claim)
        return Claim(won=False)
    return claim


def _quoting(message_id: int) -> ReplyParameters:
    # Sent anyway if someone deleted the message meanwhile.
    return ReplyParameters(message_id=message_id, allow_sending_without_reply=True)


async def _replay_claimed(
    db: Database, outbox: Outbox, replays: ReplayMaker, chat_id: int, result: GameResult, claim: Claim
) -> bool:
    """Draw and send the replay this ask claimed, and store where it went; False if it could not be made."""
    sent: int | None = None
    try:
        sent = await send_replay(db, outbox, replays, chat_id, result)
    except Unreachable:
        return True  # blocked meanwhile: nobody to tell
    finally:
        await _settle(db, Kind.REPLAY, chat_id, result.game_id, claim, sent)
    return sent is not None


async def _settle(db: Database, kind: Kind, target: int, game_id: int, claim: Claim, sent: int | None) -> None:
    """Store the message it was sent in, or give the claim back so that a later ask tries again."""
    if sent is None:
        await db.sent.release(game_id, kind, target, claim)
    else:
        await db.sent.sent(game_id, kind, target, sent)


async def send_replay(
    db: Database, outbox: Outbox, replays: ReplayMaker, chat_id: int, result: GameResult
) -> int | None:
    """Draw (or find) the replay of ``result`` in the reader's language and send it to ``chat_id``;
    the message it is in, or None if it could not be made. Raises :class:`Unreachable`."""
    language = current()
    caption = replay_texts.replay_caption(result.game_id, result.preset, scores.date_of(result))
    known = replays.sent_before(result.game_id, language)
    if known is not None:
        file_id, clip = known
        return await _send(outbox, replays, chat_id, result, language, file_id, clip, caption)
    doc = await _stored_doc(db, result)
    if doc is None or doc.game.record is None:
        return None
    replays.drawing.add(chat_id)
    try:
        clip = await replays.draw(doc.game.record, shown_names(doc.seats), language)
    except RecordError:
        log.exception("game %s: its record cannot be replayed", result.game_id)
        return None
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
) -> int | None:
    sent = await outbox.send_animation(
        chat_id, animation, clip.filename, caption, width=clip.width, height=clip.height, seconds=clip.seconds
    )
    if sent is None:
        return None
    replays.remember(result.game_id, language, sent[1], clip)
    return sent[0]


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
    in_private = message.chat.type == ChatType.PRIVATE
    claim = await db.sent.claim(result.game_id, Kind.REVIEW, person.user_id)
    if claim.message_id is not None:
        if in_private:
            await message.answer(review_texts.review_here(result.game_id), reply_parameters=_quoting(claim.message_id))
        else:
            await quiet.answer(message, review_texts.review_sent_before(result.game_id, in_private=False), reply=True)
        return
    if claim.drawing or not in_private:
        await quiet.answer(message, review_texts.review_coming(in_private), reply=True)
    if claim.won and not await _review_claimed(db, outbox, replays, person.user_id, result, claim):
        await message.reply(replay_texts.replay_failed())


@router.callback_query(ReviewTap.filter())
async def review_tap(
    query: CallbackQuery, callback_data: ReviewTap, db: Database, outbox: Outbox, replays: ReplayMaker
) -> None:
    result = await db.results.get(callback_data.game)
    if result is None or not result.finished:
        await query.answer(Refusal.NO_GAME.text, show_alert=True)
        return
    user_id = query.from_user.id
    if _seat_of(result, user_id) is None:
        await query.answer(Refusal.NOT_YOUR_GAME.text, show_alert=True)
        return
    # Tapped in the private chat the review goes to, or in a group.
    in_private = query.message is not None and query.message.chat.id == user_id
    claim = await db.sent.claim(result.game_id, Kind.REVIEW, user_id)
    if claim.message_id is not None:
        await query.answer(review_texts.review_sent_before(result.game_id, in_private))
        return
    await query.answer(review_texts.review_coming(in_private))
    if claim.won and not await _review_claimed(db, outbox, replays, user_id, result, claim):
        await outbox.send_text(user_id, replay_texts.replay_failed())


def _seat_of(result: GameResult, user_id: int) -> int | None:
    return next((seat.seat for seat in result.seats if seat.user_id == user_id), None)


async def _review_claimed(
    db: Database, outbox: Outbox, replays: ReplayMaker, user_id: int, result: GameResult, claim: Claim
) -> bool:
    """Make and send the review this ask claimed, and store where it went; False if it could not be made."""
    sent: int | None = None
    try:
        sent = await send_review(db, outbox, replays, user_id, result)
    except Unreachable:
        log.info("game %s: the review cannot reach %s", result.game_id, user_id)
        return True
    finally:
        await _settle(db, Kind.REVIEW, user_id, result.game_id, claim, sent)
    return sent is not None


async def send_review(
    db: Database, outbox: Outbox, replays: ReplayMaker, user_id: int, result: GameResult
) -> int | None:
    """``user_id``'s costliest moves of ``result``, into their private chat: the message that heads
    them, or None if they could not be made. Raises :class:`Unreachable`."""
    seat = _seat_of(result, user_id)
    doc = await _stored_doc(db, result)
    if seat is None or doc is None or doc.game.record is None:
        return None
    try:
        pages = await replays.review(doc.game.record, seat, shown_names(doc.seats), current())
    except RecordError:
        log.exception("game %s: its record cannot be reviewed", result.game_id)
        return None
    if not pages:
        return await outbox.send_text(user_id, review_texts.review_none(result.game_id, result.preset))
    heading = await outbox.send_text(user_id, review_texts.review_heading(result.game_id, result.preset))
    if heading is None:
        return None
    for page in pages:
        await outbox.send_photo(user_id, page.photo, page.filename, page.caption)
    return heading


async def _stored_doc(db: Database, result: GameResult) -> TableDoc | None:
    row = await db.games.get(result.game_id)
    try:
        return TableDoc.from_json(row.data) if row is not None else None
    except DocumentError:
        return None

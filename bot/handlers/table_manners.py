"""/leave, /kick and /kill in a group, and "Take my seat back" in a private chat (bot/table/manners.py)."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.table import manners
from bot.table.service import GameService
from bot.telegram import admins
from bot.telegram.callbacks import AwayTap
from bot.telegram.outbox import Outbox
from bot.telegram.people import Person
from bot.telegram.quiet import QuietAnswers
from bot.words import manners_texts
from bot.words.refusals import Notice, Refusal
from storage import Database, GameRow

router = Router(name="manners")
GROUPS = F.chat.type.in_({ChatType.GROUP, ChatType.SUPERGROUP})


async def may_rule(bot: Bot, game: GameRow, message: Message) -> bool:
    """The game's creator, a chat administrator (asked from Telegram now: someone demoted a moment
    ago may not), or the group itself (an anonymous administrator)."""
    if message.sender_chat is not None and message.sender_chat.id == message.chat.id:
        return True
    user = message.from_user
    if user is None:
        return False
    return user.id == game.creator_id or await admins.is_admin_now(bot, message.chat.id, user.id)


@router.message(Command("leave"), GROUPS)
async def leave_command(message: Message, person: Person, service: GameService, quiet: QuietAnswers) -> None:
    # A refusal changes nothing: a quiet reply (bot/handlers/errors.py), never at a game's expense.
    await manners.leave(service, message.chat.id, person)


@router.message(Command("kill"), GROUPS)
async def kill_command(
    message: Message, person: Person, service: GameService, db: Database, bot: Bot, quiet: QuietAnswers
) -> None:
    game = await db.games.active_in_chat(message.chat.id)
    if game is None:
        await quiet.answer(message, Refusal.NO_GAME_HERE.text, reply=True)
        return
    if not await may_rule(bot, game, message):
        await quiet.answer(message, Refusal.KILL_REFUSED.text, reply=True)
        return
    await manners.kill(service, game.id, person)


@router.message(Command("kick"), GROUPS)
async def kick_command(
    message: Message, person: Person, service: GameService, db: Database, bot: Bot, quiet: QuietAnswers
) -> None:
    replied = message.reply_to_message
    target = replied.from_user if replied is not None else None
    if target is None or target.is_bot:
        await quiet.answer(message, manners_texts.kick_how(), reply=True)
        return
    game = await db.games.active_in_chat(message.chat.id)
    if game is None:
        await quiet.answer(message, Refusal.NO_GAME_HERE.text, reply=True)
        return
    if not await may_rule(bot, game, message):
        await quiet.answer(message, Refusal.KICK_REFUSED.text, reply=True)
        return
    await manners.kick(service, game.id, person, target.id)


@router.callback_query(AwayTap.filter())
async def take_back_tap(query: CallbackQuery, callback_data: AwayTap, service: GameService, outbox: Outbox) -> None:
    """Commit the return under the game's lock, answer the tap, then show the game."""
    game = await manners.take_back(service, callback_data.game, query.from_user.id)
    await outbox.answer(query.id, Notice.WELCOME_BACK.text)  # never raises
    message = query.message
    if isinstance(message, Message) and message.text is not None:  # the take-back message, not a hand
        await outbox.edit_text(message.chat.id, message.message_id, manners_texts.back_private())
    await manners.after_take_back(service, game, query.from_user.id)

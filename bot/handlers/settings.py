"""A group's /settings (its administrators choose the defaults of new games), and a group that
became a supergroup (its games and settings move to the new chat id)."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message, ReplyParameters

from bot.display.settings_message import saved_text, settings_markup, settings_text
from bot.model import chat_defaults
from bot.model.game import TableDoc
from bot.table.service import GameService
from bot.table.supergroup import move_chat
from bot.telegram.admins import is_admin, is_admin_now
from bot.telegram.callbacks import SettingsTap
from bot.telegram.outbox import Outbox
from bot.telegram.quiet import QuietAnswers
from bot.words import settings_texts
from bot.words.i18n import current
from bot.words.languages import Languages
from bot.words.refusals import Notice, Refusal
from storage import Database, GameRow, GameStatus

router = Router(name="settings")
GROUP_TYPES = {ChatType.GROUP, ChatType.SUPERGROUP}
GROUPS = F.chat.type.in_(GROUP_TYPES)


async def sent_by_admin(message: Message, bot: Bot) -> bool:
    """An administrator wrote it: as themselves, or anonymously (as the group itself)."""
    if message.sender_chat is not None:
        return message.sender_chat.id == message.chat.id
    if message.from_user is None:
        return False
    return await is_admin(bot, message.chat.id, message.from_user.id)


@router.message(Command("settings"), GROUPS)
async def settings_command(
    message: Message, bot: Bot, service: GameService, db: Database, languages: Languages
) -> None:
    admin = await sent_by_admin(message, bot)
    # A group without a language takes its writer's (this very reply's), as with its first /new.
    await languages.adopt(message.chat.id, message.chat.type, current())
    defaults = await chat_defaults.chat_defaults(db, message.chat.id)
    markup = settings_markup(defaults) if admin else None
    await message.answer(settings_text(defaults, admin=admin), reply_markup=markup)


@router.message(Command("settings"), F.chat.type == ChatType.PRIVATE)
async def settings_in_private(message: Message) -> None:
    await message.answer(settings_texts.settings_private())


@router.callback_query(SettingsTap.filter())
async def settings_tap(
    query: CallbackQuery,
    callback_data: SettingsTap,
    bot: Bot,
    service: GameService,
    db: Database,
    languages: Languages,
    outbox: Outbox,
) -> None:
    message = query.message
    if message is None or message.chat.type not in GROUP_TYPES:
        await query.answer(Refusal.BROKEN.text, show_alert=True)
        return
    chat = message.chat
    # A change: decided on the tapper's rights now, not on the minute-old list the buttons were shown by.
    if not await is_admin_now(bot, chat.id, query.from_user.id):
        await query.answer(Refusal.SETTINGS_ADMINS_ONLY.text, show_alert=True)
        return
    try:
        defaults, changed = await chat_defaults.change(db, chat.id, chat.type, callback_data.key, callback_data.value)
    except ValueError:
        await query.answer(Refusal.BROKEN.text, show_alert=True)
        return
    if not changed:
        await query.answer(Notice.SETTINGS_SAME.text)
        return
    languages.forget_chat(chat.id)
    await query.answer(saved_text(defaults, callback_data.key))
    async with languages.speaking_to(chat.id):
        text, markup = settings_text(defaults, admin=True), settings_markup(defaults)
    await outbox.edit_text(chat.id, message.message_id, text, markup)


async def point_to_game(message: Message, running: GameRow, quiet: QuietAnswers) -> None:
    """/new while a game is open: answer with a reply to its lobby or board message (changing nothing)."""
    lobby = running.status is GameStatus.LOBBY
    state = TableDoc.from_json(running.data).game
    target = state.lobby_message if lobby else state.board_message
    text = settings_texts.game_running_here(lobby)
    if target is None:
        await quiet.answer(message, Refusal.GAME_RUNNING.text)
        return
    reply = ReplyParameters(message_id=target, allow_sending_without_reply=True)
    await quiet.answer(message, text, reply_parameters=reply)


@router.message(F.migrate_to_chat_id)
async def group_upgraded(message: Message, service: GameService) -> None:
    """Said in the old group: it is now the supergroup ``migrate_to_chat_id``."""
    assert message.migrate_to_chat_id is not None
    await move_chat(service, message.chat.id, message.migrate_to_chat_id)


@router.message(F.migrate_from_chat_id)
async def supergroup_from_group(message: Message, service: GameService) -> None:
    """Said in the new supergroup: it was the group ``migrate_from_chat_id``."""
    assert message.migrate_from_chat_id is not None
    await move_chat(service, message.migrate_from_chat_id, message.chat.id)

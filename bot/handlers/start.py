"""/start (with or without a deep-link payload), /help and /rules."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.display import keyboards
from bot.table import lobbies
from bot.table.lobbies import refresh_lobby
from bot.table.service import GameService
from bot.telegram.callbacks import RulesTap
from bot.telegram.outbox import Outbox
from bot.telegram.people import Person
from bot.telegram.quiet import QuietAnswers
from bot.words import texts
from bot.words.languages import Languages
from bot.words.refusals import Notice, Refusal

router = Router(name="common")

JOIN_PREFIX = "j"
TEAM_SUFFIXES = {"a": 0, "b": 1}
GAME_ID_DIGITS = 18  # a longer number is no game id (SQLite's integers stop at 19 digits)


@router.message(CommandStart(deep_link=True), F.chat.type == ChatType.PRIVATE)
async def start_with_payload(message: Message, command: CommandObject, person: Person, service: GameService) -> None:
    payload = command.args or ""
    number = payload[1:]
    # "j<game>a" / "j<game>b": the link a partnership lobby's "Join team A / B" answered with.
    team = TEAM_SUFFIXES.get(number[-1:])
    if team is not None:
        number = number[:-1]
    if payload.startswith(JOIN_PREFIX) and number.isascii() and number.isdigit() and len(number) <= GAME_ID_DIGITS:
        game = await lobbies.join(service, int(number), person, team)
        await message.answer(Notice.JOINED.text)
        await refresh_lobby(service, game)
        return
    await start(message, person)


@router.message(CommandStart(), F.chat.type == ChatType.PRIVATE)
async def start(message: Message, person: Person) -> None:
    await message.answer(texts.greeting(person.name), reply_markup=keyboards.solo_menu_markup())


@router.message(Command("help"))
async def help_command(message: Message) -> None:
    await message.answer(texts.help_text())


@router.message(Command("rules"))
async def rules_command(message: Message, command: CommandObject, quiet: QuietAnswers) -> None:
    word = (command.args or "").strip().lower()
    if word and word not in texts.PRESET_TITLES:  # in a group: quietly (bot/telegram/quiet.py)
        await quiet.answer(message, texts.unknown_preset(word, "rules"))
        return
    await message.answer(texts.rules_text(word or None), reply_markup=None if word else keyboards.rules_markup())


@router.callback_query(RulesTap.filter())
async def rules_tap(
    query: CallbackQuery, callback_data: RulesTap, service: GameService, languages: Languages, outbox: Outbox
) -> None:
    if callback_data.preset not in texts.PRESET_TITLES:
        await query.answer(Refusal.BROKEN.text, show_alert=True)
        return
    await query.answer()
    if query.message is not None:  # a message for the whole chat: in its language, not the tapper's
        chat_id = query.message.chat.id
        async with languages.speaking_to(chat_id):
            text = texts.rules_text(callback_data.preset)
        await outbox.send_text(chat_id, text)

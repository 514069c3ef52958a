"""Group lobbies: /new [preset], /join, and the lobby's buttons."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.deep_linking import create_start_link

from bot.display import captions, keyboards
from bot.handlers.settings import point_to_game
from bot.handlers.start import JOIN_PREFIX
from bot.model import chat_defaults
from bot.table import hints, manners, rematch
from bot.table.lobbies import refresh_lobby, remember_lobby_message
from bot.table.service import GameService, TableError
from bot.telegram.callbacks import LobbyAction, LobbyTap
from bot.telegram.outbox import Outbox
from bot.telegram.people import Person
from bot.telegram.quiet import QuietAnswers
from bot.words import room_texts, texts
from bot.words.languages import Languages
from bot.words.refusals import Notice, Refusal
from storage import Database

router = Router(name="lobby")
GROUPS = F.chat.type.in_({ChatType.GROUP, ChatType.SUPERGROUP})
DEFAULT_PRESET = "draw"


@router.message(Command("new"), GROUPS)
async def new_game(
    message: Message,
    command: CommandObject,
    person: Person,
    service: GameService,
    db: Database,
    languages: Languages,
    language: str,
    quiet: QuietAnswers,
) -> None:
    # The refusals change nothing: they go through ``quiet`` (bot/telegram/quiet.py), so that
    # one person's junk cannot spend the budget a game in this group needs.
    defaults = await chat_defaults.chat_defaults(db, message.chat.id)
    preset = (command.args or defaults.preset).strip().lower()
    if preset not in texts.PRESET_TITLES:
        await quiet.answer(message, texts.unknown_preset(preset, "new"))
        return
    running = await db.games.active_in_chat(message.chat.id)
    if running is not None:
        await point_to_game(message, running, quiet)
        return
    try:
        game = await service.open_lobby(
            message.chat.id,
            person,
            preset,
            seats=defaults.seats_for(preset),
            level=defaults.level,
            clock=defaults.turn_seconds,
        )
    except TableError as error:
        await quiet.answer(message, error.refusal.text)
        return
    # A group speaks the language of whoever opened its first game, until /settings says otherwise.
    await languages.adopt(message.chat.id, message.chat.type, language)
    await rematch.cancel_pending(service, message.chat.id, game.id)  # a new game: the rematch is off
    sent = await message.answer(captions.lobby_text(game), reply_markup=keyboards.lobby_markup(game))
    await remember_lobby_message(service, game, sent.message_id)
    if not person.private_ok:
        link = await create_start_link(message.bot, f"{JOIN_PREFIX}{game.id}")  # type: ignore[arg-type]
        await message.answer(texts.open_link_to_sit(person.name, link))


@router.message(Command("new"), F.chat.type == ChatType.PRIVATE)
async def new_in_private(message: Message) -> None:
    await message.answer(room_texts.menu_prompt(), reply_markup=keyboards.solo_menu_markup())


@router.message(Command("join"), GROUPS)
async def join_command(
    message: Message, person: Person, service: GameService, db: Database, bot: Bot, quiet: QuietAnswers
) -> None:
    active = await db.games.active_in_chat(message.chat.id)
    if active is None:
        await quiet.answer(message, texts.no_open_game())
        return
    try:
        game = await service.join(active.id, person)
    except TableError as error:
        if error.refusal is Refusal.NEED_PRIVATE:
            link = await create_start_link(bot, f"{JOIN_PREFIX}{active.id}")
            await quiet.answer(message, texts.open_link_to_start(link), reply=True)
            return
        await quiet.answer(message, error.refusal.text, reply=True)
        return
    await refresh_lobby(service, game)


@router.callback_query(LobbyTap.filter())
async def lobby_tap(
    query: CallbackQuery, callback_data: LobbyTap, person: Person, service: GameService, outbox: Outbox, bot: Bot
) -> None:
    action = callback_data.action
    switched = False
    try:
        if action is LobbyAction.JOIN:
            game = await service.join(callback_data.game, person)
        elif action.team is not None:
            game, switched = await service.join_team(callback_data.game, person, action.team)
        elif action is LobbyAction.LEAVE:
            game = await service.leave(callback_data.game, person)
        elif action is LobbyAction.ADD:  # a keyboard from before the levels: the lobby's last chosen level
            game = await service.add_computer(callback_data.game, person)
        elif action.level is not None:
            game = await service.add_computer(callback_data.game, person, action.level)
        elif action is LobbyAction.SEATS:
            game = await service.cycle_seats(callback_data.game, person)
        elif action is LobbyAction.CLOCK:
            game = await manners.cycle_clock(service, callback_data.game, person)
        elif action is LobbyAction.HINTS:
            game = await hints.switch_lobby_hints(service, callback_data.game, person)
        elif action is LobbyAction.CANCEL:
            game = await service.cancel(callback_data.game, person)
        elif action is LobbyAction.START:
            # Deal and commit first, so that a refusal (not the creator, lobby closed) is answered
            # with its alert; the pictures are drawn and sent after the answer.
            game = await service.start(callback_data.game, person, show=False)
            await outbox.answer(query.id)  # never raises: the deal is committed
            game = await service.show(game)
            await refresh_lobby(service, game)
            return
        else:
            raise TableError(Refusal.BROKEN)
    except TableError as error:
        if error.refusal is Refusal.NEED_PRIVATE:
            # The link takes the seat in one tap, with the team tapped ("j<game>a"), bot/handlers/start.py.
            team = "" if action.team is None else "ab"[action.team]
            await query.answer(url=await create_start_link(bot, f"{JOIN_PREFIX}{callback_data.game}{team}"))
            return
        await query.answer(error.refusal.text, show_alert=True)
        return
    if switched:
        await query.answer(Notice.TEAM_CHANGED.text)
    else:
        await query.answer(Notice.JOINED.text if action is LobbyAction.JOIN or action.team is not None else None)
    await refresh_lobby(service, game)

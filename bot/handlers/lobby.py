"""Group lobbies: /new [preset], /join, and the lobby's buttons (one handler per button).

A refusal is answered by bot/handlers/errors.py (an alert, or a quiet reply); only a seat that needs
the person's private chat first is answered here, with the link that takes it.
"""

from __future__ import annotations

from functools import partial

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.deep_linking import create_start_link

from bot.display import captions, keyboards
from bot.handlers.settings import point_to_game
from bot.handlers.start import JOIN_PREFIX
from bot.model import chat_defaults
from bot.model.game import Game
from bot.table import lobbies, rematch
from bot.table.lobbies import GameRunning, refresh_lobby, remember_lobby_message
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
TEAMS = (LobbyAction.TEAM_A, LobbyAction.TEAM_B)
# The creator's buttons that change the lobby (answered without a word, then shown).
CREATORS_CHANGES = {
    LobbyAction.SEATS: lobbies.cycle_seats,
    LobbyAction.CLOCK: lobbies.cycle_clock,
    LobbyAction.HINTS: lobbies.switch_hints,
    LobbyAction.CANCEL: lobbies.cancel,
}


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
    try:
        game = await lobbies.open_lobby(
            service,
            message.chat.id,
            person,
            preset,
            seats=defaults.seats_for(preset),
            level=defaults.level,
            clock=defaults.turn_seconds,
        )
    except GameRunning as running:  # a reply to the running game's message
        await point_to_game(message, running.running, quiet)
        return
    except TableError as error:  # not a reply: /new itself is fine, the chat is not free
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
        game = await lobbies.join(service, active.id, person)
    except TableError as error:
        if error.refusal is not Refusal.NEED_PRIVATE:
            raise
        link = await create_start_link(bot, f"{JOIN_PREFIX}{active.id}")
        await quiet.answer(message, texts.open_link_to_start(link), reply=True)
        return
    await refresh_lobby(service, game)


@router.callback_query(LobbyTap.filter(F.action == LobbyAction.JOIN))
async def join_tap(
    query: CallbackQuery, callback_data: LobbyTap, person: Person, service: GameService, bot: Bot
) -> None:
    seated = await _seat(query, callback_data.game, person, service, bot, team=None)
    if seated is not None:
        await query.answer(Notice.JOINED.text)
        await refresh_lobby(service, seated[0])


@router.callback_query(LobbyTap.filter(F.action.in_(TEAMS)))
async def team_tap(
    query: CallbackQuery, callback_data: LobbyTap, person: Person, service: GameService, bot: Bot
) -> None:
    """A partnership lobby's "Join team A / B": sit down with that team, or move over to it."""
    team = callback_data.action.team
    seated = await _seat(query, callback_data.game, person, service, bot, team=team)
    if seated is not None:
        game, switched = seated
        await query.answer(Notice.TEAM_CHANGED.text if switched else Notice.JOINED.text)
        await refresh_lobby(service, game)


async def _seat(
    query: CallbackQuery, game_id: int, person: Person, service: GameService, bot: Bot, *, team: int | None
) -> tuple[Game, bool] | None:
    """The lobby with ``person`` seated (and whether they changed teams); None when they must open
    the bot's private chat first: the tap is then answered with the link that seats them in one tap,
    with the team tapped ("j<game>a", bot/handlers/start.py)."""
    try:
        return await lobbies.join_team(service, game_id, person, team)
    except TableError as error:
        if error.refusal is not Refusal.NEED_PRIVATE:
            raise
    suffix = "" if team is None else "ab"[team]
    await query.answer(url=await create_start_link(bot, f"{JOIN_PREFIX}{game_id}{suffix}"))
    return None


@router.callback_query(LobbyTap.filter(F.action == LobbyAction.LEAVE))
async def leave_tap(query: CallbackQuery, callback_data: LobbyTap, person: Person, service: GameService) -> None:
    game = await lobbies.leave(service, callback_data.game, person)
    await query.answer()
    await refresh_lobby(service, game)


@router.callback_query(LobbyTap.filter(F.action.startswith(LobbyAction.ADD.value)))
async def add_tap(query: CallbackQuery, callback_data: LobbyTap, person: Person, service: GameService) -> None:
    """A computer of the level tapped; a bare "add" (a keyboard from before the levels): of the lobby's last one."""
    game = await lobbies.add_computer(service, callback_data.game, person, callback_data.action.level)
    await query.answer()
    await refresh_lobby(service, game)


@router.callback_query(LobbyTap.filter(F.action.in_(CREATORS_CHANGES)))
async def creators_tap(query: CallbackQuery, callback_data: LobbyTap, person: Person, service: GameService) -> None:
    """Seats, clock, hints, cancel (its creator only)."""
    game = await CREATORS_CHANGES[callback_data.action](service, callback_data.game, person)
    await query.answer()
    await refresh_lobby(service, game)


@router.callback_query(LobbyTap.filter(F.action == LobbyAction.START))
async def start_tap(
    query: CallbackQuery, callback_data: LobbyTap, person: Person, service: GameService, outbox: Outbox
) -> None:
    # Dealt and committed first, so that a refusal (not the creator, lobby closed) is answered with
    # its alert; the pictures are drawn and sent after the answer (which never raises).
    game = await lobbies.start(service, callback_data.game, person, answered=partial(outbox.answer, query.id))
    await refresh_lobby(service, game)

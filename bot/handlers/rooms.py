"""Play with a friend: the friend menu, the room message's buttons, and the invitation link.

The link's /start comes here before :mod:`bot.handlers.start` (see :func:`bot.handlers.all_routers`).
"""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message
from aiogram.utils.deep_linking import create_start_link

from bot.display import keyboards
from bot.display.names import shown_names
from bot.model.game import Game
from bot.table import lobbies, rematch, rooms
from bot.table.service import GameService, TableError
from bot.telegram.callbacks import RoomAction, RoomTap
from bot.telegram.outbox import Outbox
from bot.telegram.people import Person
from bot.words import hint_texts, room_texts, texts
from bot.words.languages import Languages
from bot.words.refusals import Notice, Refusal

router = Router(name="rooms")


@router.message(CommandStart(deep_link=True, magic=F.args.regexp(rooms.PAYLOAD)), F.chat.type == ChatType.PRIVATE)
async def room_link(
    message: Message,
    command: CommandObject,
    person: Person,
    service: GameService,
    languages: Languages,
    outbox: Outbox,
    bot: Bot,
) -> None:
    parsed = rooms.parse(command.args or "")
    if parsed is None:
        await message.answer(Refusal.ROOM_UNKNOWN.text)
        return
    entered = await rooms.enter(service, person, *parsed)
    game = entered.game
    if entered.answer is Notice.JOINED:
        creator = game.doc.seats[0]
        await message.answer(room_texts.room_joined(creator.name if creator else "?", game.row.preset))
        game = await service.show(game)
        lobby_message = game.doc.game.lobby_message
        if lobby_message is not None:
            async with languages.speaking_to(game.row.chat_id):  # the creator's chat
                started = room_texts.room_started(game.row.preset, shown_names(game.doc.seats))
            await outbox.edit_text(game.row.chat_id, lobby_message, started)
    elif entered.answer is Notice.ROOM_SEAT_FREE:
        # The creator opened their own link: the room message again, at the bottom of the chat.
        await message.answer(Notice.ROOM_SEAT_FREE.text)
        await _send_room_message(service, outbox, bot, game, message.chat.id)


@router.callback_query(RoomTap.filter())
async def room_tap(
    query: CallbackQuery, callback_data: RoomTap, person: Person, service: GameService, outbox: Outbox, bot: Bot
) -> None:
    message = query.message
    if message is None or message.chat.type != ChatType.PRIVATE:
        await query.answer(Refusal.BROKEN.text, show_alert=True)
        return
    chat_id, message_id = message.chat.id, message.message_id
    action = callback_data.action
    if action is RoomAction.MENU:
        await query.answer()
        await outbox.edit_text(chat_id, message_id, room_texts.friend_prompt(), rooms.presets_markup())
    elif action is RoomAction.BACK:
        await query.answer()
        await outbox.edit_text(chat_id, message_id, room_texts.menu_prompt(), keyboards.solo_menu_markup())
    elif action is RoomAction.PRESET:
        if callback_data.preset not in rooms.presets():
            # goat, partners: four seats, never a two-seat room; anything else is no rule set at all
            known = callback_data.preset in texts.PRESET_TITLES
            raise TableError(Refusal.ROOM_TWO_SEATS if known else Refusal.BROKEN)
        opened = await rooms.open_room(service, person, callback_data.preset)
        await query.answer()
        closed = opened.closed
        if closed is not None and closed.doc.game.lobby_message is not None:
            await outbox.edit_text(closed.row.chat_id, closed.doc.game.lobby_message, room_texts.room_closed())
        await rematch.cancel_pending(service, opened.game.row.chat_id, opened.game.id)
        await _show_room_message(service, outbox, bot, opened.game, chat_id, message_id)
    elif action is RoomAction.RESET:
        game = await rooms.reset(service, person, callback_data.game)
        await query.answer(Notice.ROOM_NEW_LINK.text)
        await _show_room_message(service, outbox, bot, game, chat_id, message_id)
    elif action is RoomAction.HINTS:
        game = await rooms.switch_hints(service, person, callback_data.game)
        await query.answer()
        await _show_room_message(service, outbox, bot, game, chat_id, message_id)
    elif action is RoomAction.CANCEL:
        await rooms.close(service, person, callback_data.game)
        await query.answer()
        await outbox.edit_text(chat_id, message_id, room_texts.room_closed())


def _room_words(game: Game, link: str) -> str:
    text = room_texts.room_text(game.row.preset, link)
    return text + "\n\n" + hint_texts.lobby_hints_line() if game.doc.options.hints else text


async def _show_room_message(
    service: GameService, outbox: Outbox, bot: Bot, game: Game, chat_id: int, message_id: int
) -> None:
    """Turn ``message_id`` into the room's message (the link and its buttons), and remember it."""
    link = await create_start_link(bot, rooms.payload(game))
    await outbox.edit_text(chat_id, message_id, _room_words(game, link), rooms.room_markup(game, link))
    if game.doc.game.lobby_message != message_id:
        await lobbies.set_lobby_message(service, game, message_id)


async def _send_room_message(service: GameService, outbox: Outbox, bot: Bot, game: Game, chat_id: int) -> None:
    """The room's message as a new message; the old one loses its buttons."""
    link = await create_start_link(bot, rooms.payload(game))
    sent = await outbox.send_text(chat_id, _room_words(game, link), rooms.room_markup(game, link))
    if sent is None:
        return
    old = game.doc.game.lobby_message
    await lobbies.set_lobby_message(service, game, sent)
    if old is not None:
        await outbox.edit_markup(chat_id, old, None)

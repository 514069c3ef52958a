"""Play with a friend: the friend menu, the room message's buttons, and the invitation link.

The link's /start comes here before :mod:`bot.handlers.start` (see :func:`bot.handlers.all_routers`).
"""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message
from aiogram.utils.deep_linking import create_start_link

from bot.display import views
from bot.model.game import Game
from bot.table import rematch, rooms
from bot.table.service import GameService, TableError
from bot.telegram.callbacks import RoomTap
from bot.telegram.people import Person
from bot.words import texts

router = Router(name="rooms")


@router.message(CommandStart(deep_link=True, magic=F.args.regexp(rooms.PAYLOAD)), F.chat.type == ChatType.PRIVATE)
async def room_link(message: Message, command: CommandObject, person: Person, service: GameService, bot: Bot) -> None:
    parsed = rooms.parse(command.args or "")
    if parsed is None:
        await message.answer(texts.alert("room_unknown"))
        return
    try:
        entered = await rooms.enter(service, person, *parsed)
    except TableError as error:
        await message.answer(texts.alert(error.key))
        return
    game = entered.game
    outbox = service.presenter.outbox
    if entered.key == "joined":
        creator = game.doc.seats[0]
        await message.answer(texts.room_joined(creator.name if creator else "?", game.row.preset))
        game = await service.show(game)
        if game.doc.lobby_message is not None:
            async with service.presenter.languages.speaking_to(game.row.chat_id):  # the creator's chat
                started = texts.room_started(game.row.preset, game.doc.names())
            await outbox.edit_text(game.row.chat_id, game.doc.lobby_message, started)
    elif entered.key == "room_seat_free":
        # The creator opened their own link: the room message again, at the bottom of the chat.
        await message.answer(texts.alert("room_seat_free"))
        await _send_room_message(service, bot, game, message.chat.id)


@router.callback_query(RoomTap.filter())
async def room_tap(
    query: CallbackQuery, callback_data: RoomTap, person: Person, service: GameService, bot: Bot
) -> None:
    message = query.message
    if message is None or message.chat.type != ChatType.PRIVATE:
        await query.answer(texts.alert("broken"), show_alert=True)
        return
    chat_id, message_id = message.chat.id, message.message_id
    outbox = service.presenter.outbox
    action = callback_data.action
    try:
        if action == "menu":
            await query.answer()
            await outbox.edit_text(chat_id, message_id, texts.friend_prompt(), rooms.presets_markup())
        elif action == "back":
            await query.answer()
            await outbox.edit_text(chat_id, message_id, texts.menu_prompt(), views.solo_menu_markup())
        elif action == "preset":
            if callback_data.preset not in rooms.presets():
                raise TableError("broken")
            opened = await rooms.open_room(service, person, callback_data.preset)
            await query.answer()
            closed = opened.closed
            if closed is not None and closed.doc.lobby_message is not None:
                await outbox.edit_text(closed.row.chat_id, closed.doc.lobby_message, texts.room_closed())
            await rematch.cancel_pending(service, opened.game.row.chat_id, opened.game.id)
            await _show_room_message(service, bot, opened.game, chat_id, message_id)
        elif action == "reset":
            game = await rooms.reset(service, person, callback_data.game)
            await query.answer(texts.alert("room_new_link"))
            await _show_room_message(service, bot, game, chat_id, message_id)
        elif action == "cancel":
            await rooms.close(service, person, callback_data.game)
            await query.answer()
            await outbox.edit_text(chat_id, message_id, texts.room_closed())
        else:
            raise TableError("broken")
    except TableError as error:
        await query.answer(texts.alert(error.key), show_alert=True)


async def _show_room_message(service: GameService, bot: Bot, game: Game, chat_id: int, message_id: int) -> None:
    """Turn ``message_id`` into the room's message (the link and its buttons), and remember it."""
    link = await create_start_link(bot, rooms.payload(game))
    text, markup = texts.room_text(game.row.preset, link), rooms.room_markup(game, link)
    await service.presenter.outbox.edit_text(chat_id, message_id, text, markup)
    if game.doc.lobby_message != message_id:
        await service.set_lobby_message(game, message_id)


async def _send_room_message(service: GameService, bot: Bot, game: Game, chat_id: int) -> None:
    """The room's message as a new message; the old one loses its buttons."""
    outbox = service.presenter.outbox
    link = await create_start_link(bot, rooms.payload(game))
    sent = await outbox.send_text(chat_id, texts.room_text(game.row.preset, link), rooms.room_markup(game, link))
    if sent is None:
        return
    old = game.doc.lobby_message
    await service.set_lobby_message(game, sent)
    if old is not None:
        await outbox.edit_markup(chat_id, old, None)

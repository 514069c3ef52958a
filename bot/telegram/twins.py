"""A message whose buttons act on a game gets them only once the bot knows which message it is.

Telegram has no idempotency key. A ``sendPhoto`` can take effect and lose its answer (a dropped
connection, a timeout); the outbox cannot tell that from a request that never arrived, so it
sends again, and the chat then holds two copies: the one whose id came back, which the bot
stores, edits, freezes and deletes in its time, and a twin it never learned of. The Bot API
cannot list a chat's messages, and guessing the twin's id is not safe: ids between two known
ones may be a person's messages (in a group, anyone's; in private chats and small groups the
ids also count the bot's messages in every other such chat). A twin with live buttons would
stay on screen for good, a hand still "to play" or a board still offering "My hand".

So a hand, a board or a final result goes out as a plain picture, and its buttons are put on
by an edit of the message whose id Telegram answered: a copy made by an attempt whose answer
was lost is a picture without buttons, nothing to tap. It costs one edit per such new message
(a new hand or board, not one per move: those are edits in place).
"""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup

from bot.telegram.outbox import Outbox


async def send_photo_then_buttons(
    outbox: Outbox,
    chat_id: int,
    photo: bytes,
    filename: str,
    caption: str,
    markup: InlineKeyboardMarkup | None,
    *,
    notify: bool = True,
) -> int | None:
    """Send the photo without buttons, then give the message ``markup``; its id (None: not sent)."""
    message_id = await outbox.send_photo(chat_id, photo, filename, caption, None, notify=notify)
    if message_id is not None:
        await add_buttons(outbox, chat_id, message_id, markup)
    return message_id


async def add_buttons(outbox: Outbox, chat_id: int, message_id: int, markup: InlineKeyboardMarkup | None) -> None:
    """Put ``markup`` on a message sent without it (nothing to do for none)."""
    if markup is not None and markup.inline_keyboard:
        await outbox.edit_markup(chat_id, message_id, markup)

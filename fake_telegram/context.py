"""One Bot API call as the method handlers see it, and the chat access rules they share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import fake_telegram.errors as errors

from .errors import ApiError, forbidden, migrated
from .media import Upload
from .state import KICKED, LEFT, Chat, Message, World
from .validation import Note, Validator

if TYPE_CHECKING:
    from .updates import UpdateQueue


@dataclass
class Settings:
    callback_expiry: float = 15.0  # seconds after the tap when answerCallbackQuery stops working
    # Webhook mode (webhook.py).
    webhook_timeout: float = 60.0  # seconds for one delivery (connect, send, answer) before "Read timeout expired"
    webhook_retry_delay: float = 1.0  # seconds before a failed delivery is tried again
    webhook_queues: str = "telegram"  # "telegram": the Bot API server's delivery queues; "chat": one per chat
    webhook_local_mode: bool = True  # as ``telegram-bot-api --local``: http:// URLs, any port, any IP address
    webhook_set_interval: float = 1.0  # setWebhook with a URL at most once per this many seconds (0: no limit)


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    files: dict[str, Upload]
    world: World
    validator: Validator
    settings: Settings
    note: Note
    now: float  # monotonic seconds
    queue: UpdateQueue | None = None  # the update queue, for the webhook methods

    def chat(self, ref: Any, *, write: bool) -> Chat:
        return resolve_chat(self.world, ref, write=write)

    def markup(self) -> dict[str, Any] | None:
        return self.validator.reply_markup(self.params.get("reply_markup"), self.note)


def resolve_chat(world: World, ref: Any, *, write: bool) -> Chat:
    """The chat a call targets, with Telegram's errors for chats the bot cannot use.

    ``write`` adds the private-chat rules: a user who never opened the bot cannot be messaged
    (403 "bot can't initiate conversation with a user"), nor one who blocked it.
    """
    chat = world.chat_by_ref(ref)
    if chat is None and isinstance(ref, int) and ref in world.users and ref != world.bot.id:
        chat = world.private_chat(world.users[ref])
    if chat is None:
        raise ApiError(400, errors.CHAT_NOT_FOUND)
    if chat.migrated_to is not None:
        raise migrated(chat.migrated_to)
    if chat.type == "private":
        user = world.users[chat.user_id or chat.id]
        if write and user.blocked:
            raise forbidden(errors.BLOCKED)
        if write and not user.started:
            raise forbidden(errors.CANT_INITIATE)
    elif chat.bot_status == KICKED:
        raise forbidden(f"Forbidden: bot was kicked from the {chat.type} chat")
    elif chat.bot_status == LEFT:
        raise forbidden(f"Forbidden: bot is not a member of the {chat.type} chat")
    return chat


def target_message(call: Call, *, purpose: str) -> Message:
    """The message an edit (``purpose="edit"``) or deletion targets."""
    params = call.params
    if params.get("inline_message_id") and params.get("chat_id") is None:
        raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
    if params.get("chat_id") is None and params.get("message_id") is None:
        raise ApiError(400, "Bad Request: message identifier is not specified")
    if params.get("chat_id") is None:
        raise ApiError(400, "Bad Request: chat_id is empty")
    chat = call.chat(params["chat_id"], write=purpose == "edit")
    not_found = errors.MESSAGE_TO_EDIT_NOT_FOUND if purpose == "edit" else errors.MESSAGE_TO_DELETE_NOT_FOUND
    message = chat.messages.get(int(params.get("message_id") or 0))
    if message is None or message.deleted:
        raise ApiError(400, not_found)
    if purpose == "edit" and not message.sent_by_bot:
        raise ApiError(400, errors.MESSAGE_CANT_BE_EDITED)
    return message

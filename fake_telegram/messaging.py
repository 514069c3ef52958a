"""Methods that put things into chats: send, edit, delete, chat actions, callback answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import fake_telegram.errors as errors

from .context import Call, target_message
from .errors import ApiError, bad_request
from .formatting import FormattedText
from .media import Upload, animation_facts, check_photo
from .shapes import message_json
from .state import ADMIN, CREATOR, Chat, Message

CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)


def _reply_to(call: Call, chat_messages: dict[int, Message]) -> int | None:
    reply = call.params.get("reply_parameters")
    message_id = reply.get("message_id") if isinstance(reply, dict) else call.params.get("reply_to_message_id")
    if message_id is None:
        return None
    target = chat_messages.get(int(message_id))
    if target is None or target.deleted:
        allow = isinstance(reply, dict) and reply.get("allow_sending_without_reply")
        if allow or call.params.get("allow_sending_without_reply"):
            return None
        raise ApiError(400, "Bad Request: message to be replied not found")
    return int(message_id)


def _check_buttons_allowed(chat: Chat, markup: dict[str, Any] | None) -> None:
    """Telegram allows ``web_app`` buttons in private chats only (groups get the Mini App's t.me link)."""
    if chat.type == "private" or not markup:
        return
    for row in markup.get("inline_keyboard") or ():
        for button in row:
            if isinstance(button, dict) and "web_app" in button:
                raise bad_request(errors.BUTTON_TYPE_INVALID, violation="web_app_button")


def _new_message(call: Call, chat_id: int, **content: Any) -> dict[str, Any]:
    chat = call.world.chats[chat_id]
    _check_buttons_allowed(chat, content.get("reply_markup"))
    message = Message(
        chat_id=chat.id,
        message_id=chat.new_message_id(),
        sender_id=call.world.bot.id,
        date=call.world.now(),
        sent_by_bot=True,
        **content,
    )
    chat.messages[message.message_id] = message
    return message_json(message, call.world)


def send_message(call: Call) -> dict[str, Any]:
    text = call.validator.message_text(call.params)
    markup = call.markup()
    chat = call.chat(call.params["chat_id"], write=True)
    reply_to = _reply_to(call, chat.messages)
    preview = call.params.get("link_preview_options")
    return _new_message(call, chat.id, text=text, reply_markup=markup, reply_to=reply_to, link_preview_options=preview)


def _photo_sizes(call: Call, value: Any) -> list[dict[str, Any]]:
    if isinstance(value, Upload):
        width, height = check_photo(value.data)
        return call.world.files.add_photo(value.data, width, height)
    return list(call.world.files.resolve(str(value), "photo").sizes)


def _document(call: Call, value: Any) -> dict[str, Any]:
    files = call.world.files
    if isinstance(value, Upload):
        return files.add_document(value)
    stored = files.resolve(str(value), "document")
    return {
        "file_name": stored.file_name,
        "mime_type": stored.mime_type or "application/octet-stream",
        "file_id": stored.file_id,
        "file_unique_id": stored.file_unique_id,
        "file_size": len(stored.data),
    }


def send_photo(call: Call) -> dict[str, Any]:
    caption = call.validator.caption(call.params)
    markup = call.markup()
    chat = call.chat(call.params["chat_id"], write=True)
    reply_to = _reply_to(call, chat.messages)
    photo = _photo_sizes(call, call.params["photo"])
    return _new_message(call, chat.id, photo=photo, caption=caption, reply_markup=markup, reply_to=reply_to)


def send_document(call: Call) -> dict[str, Any]:
    caption = call.validator.caption(call.params)
    markup = call.markup()
    chat = call.chat(call.params["chat_id"], write=True)
    reply_to = _reply_to(call, chat.messages)
    document = _document(call, call.params["document"])
    return _new_message(call, chat.id, document=document, caption=caption, reply_markup=markup, reply_to=reply_to)


def send_animation(call: Call) -> dict[str, Any]:
    """An MP4 (H.264, no sound) or a GIF, played inline. Telegram's message has the file twice:
    as ``animation`` (with its size, length and type, read from the file) and as ``document``."""
    caption = call.validator.caption(call.params)
    markup = call.markup()
    chat = call.chat(call.params["chat_id"], write=True)
    reply_to = _reply_to(call, chat.messages)
    value = call.params["animation"]
    document = _document(call, value)  # a file id sent again keeps its ids, as Telegram's do
    data = value.data if isinstance(value, Upload) else call.world.files.resolve(str(value), "document").data
    facts = animation_facts(data)
    if facts is None:  # neither an MP4 nor a GIF: Telegram sends it as a file
        return _new_message(call, chat.id, document=document, caption=caption, reply_markup=markup, reply_to=reply_to)
    width, height, duration, mime = facts
    animation = {**document, "mime_type": mime, "width": width, "height": height, "duration": duration}
    return _new_message(
        call, chat.id, animation=animation, document=document, caption=caption, reply_markup=markup, reply_to=reply_to
    )


def _inline_only(markup: dict[str, Any] | None) -> dict[str, Any] | None:
    return markup if markup and "inline_keyboard" in markup else None


def _same(a: FormattedText | None, b: FormattedText | None) -> bool:
    a_text, a_entities = (a.text, a.entities) if a else ("", ())
    b_text, b_entities = (b.text, b.entities) if b else ("", ())
    return a_text == b_text and a_entities == b_entities


def _finish_edit(call: Call, message: Message) -> dict[str, Any]:
    message.edit_date = call.world.now()
    message.edits += 1
    return message_json(message, call.world)


def edit_message_text(call: Call) -> dict[str, Any]:
    if "rich_message" in call.params:
        raise bad_request("rich_message is not emulated by the fake Bot API", violation="fake_unsupported")
    text = call.validator.message_text(call.params)
    markup = _inline_only(call.markup())
    message = target_message(call, purpose="edit")
    _check_buttons_allowed(call.world.chats[message.chat_id], markup)
    if message.text is None:
        raise ApiError(400, errors.NO_TEXT_TO_EDIT)
    if _same(message.text, text) and message.reply_markup == markup:
        raise ApiError(400, errors.NOT_MODIFIED)
    message.text, message.reply_markup = text, markup
    message.link_preview_options = call.params.get("link_preview_options")
    return _finish_edit(call, message)


def edit_message_caption(call: Call) -> dict[str, Any]:
    caption = call.validator.caption(call.params)
    markup = _inline_only(call.markup())
    message = target_message(call, purpose="edit")
    _check_buttons_allowed(call.world.chats[message.chat_id], markup)
    if message.photo is None and message.document is None:
        raise ApiError(400, errors.NO_CAPTION_TO_EDIT)
    if _same(message.caption, caption) and message.reply_markup == markup:
        raise ApiError(400, errors.NOT_MODIFIED)
    message.caption, message.reply_markup = caption, markup
    return _finish_edit(call, message)


def edit_message_media(call: Call) -> dict[str, Any]:
    media: dict[str, Any] = call.params["media"]
    markup = _inline_only(call.markup())
    caption = call.validator.caption(media)
    source = media.get("media")
    if isinstance(source, str) and source.startswith("attach://"):
        upload = call.files.get(source[len("attach://") :])
        if upload is None:
            raise bad_request("can't parse InputMedia: media not found", violation="missing_file", detail=source)
        source = upload
    message = target_message(call, purpose="edit")
    _check_buttons_allowed(call.world.chats[message.chat_id], markup)
    if message.photo is None and message.document is None:
        raise ApiError(400, errors.NO_MEDIA_TO_EDIT)
    kind = media.get("type")
    if kind == "photo":
        sizes = _photo_sizes(call, source)
        unchanged = message.photo is not None and message.photo[-1]["file_id"] == sizes[-1]["file_id"]
        new_content: dict[str, Any] = {"photo": sizes, "document": None}
    elif kind == "document":
        document = _document(call, source)
        unchanged = message.document is not None and message.document["file_id"] == document["file_id"]
        new_content = {"photo": None, "document": document}
    else:
        raise bad_request(f'can\'t parse InputMedia: type "{kind}" is unsupported by the fake Bot API')
    if unchanged and _same(message.caption, caption) and message.reply_markup == markup:
        raise ApiError(400, errors.NOT_MODIFIED)
    message.photo, message.document = new_content["photo"], new_content["document"]
    message.caption, message.reply_markup = caption, markup
    return _finish_edit(call, message)


def edit_message_reply_markup(call: Call) -> dict[str, Any]:
    markup = _inline_only(call.markup())
    message = target_message(call, purpose="edit")
    _check_buttons_allowed(call.world.chats[message.chat_id], markup)
    if message.reply_markup == markup:
        raise ApiError(400, errors.NOT_MODIFIED)
    message.reply_markup = markup
    return _finish_edit(call, message)


def _can_delete(call: Call, message: Message) -> bool:
    chat = call.world.chats[message.chat_id]
    if message.sent_by_bot or chat.type == "private":
        return True
    status = chat.bot_status
    return status == CREATOR or (status == ADMIN and chat.bot_can_delete)


def delete_message(call: Call) -> bool:
    message = target_message(call, purpose="delete")
    if not _can_delete(call, message):
        raise ApiError(400, errors.MESSAGE_CANT_BE_DELETED)
    message.deleted = True
    return True


def delete_messages(call: Call) -> bool:
    chat = call.chat(call.params["chat_id"], write=False)
    ids = call.params["message_ids"]
    if not ids or len(ids) > 100:
        raise bad_request(
            "Message identifiers are not specified" if not ids else "Too many message identifiers specified",
            violation="message_ids",
        )
    for message_id in ids:
        message = chat.messages.get(int(message_id))
        if message is not None and not message.deleted and _can_delete(call, message):
            message.deleted = True
    return True


def send_chat_action(call: Call) -> bool:
    if call.params["action"] not in CHAT_ACTIONS:
        raise bad_request(
            "wrong parameter action in request", violation="chat_action", detail=str(call.params["action"])
        )
    call.chat(call.params["chat_id"], write=True)
    return True


def answer_callback_query(call: Call) -> bool:
    call.validator.callback_answer(call.params, call.note)
    query = call.world.callbacks.get(str(call.params["callback_query_id"]))
    problem = ""
    if query is None:
        problem = "unknown callback_query_id"
    elif query.answered:
        problem = "answered twice"
    elif call.now - query.created_at > call.settings.callback_expiry:
        problem = (
            f"answered {call.now - query.created_at:.1f} s after the tap (limit {call.settings.callback_expiry:.0f} s)"
        )
    if problem:
        if query is not None:
            query.answer_errors.append(problem)
        # A tap delivered again (its first delivery was not confirmed: the bot died, a webhook
        # answer was lost) may have been answered already, and the bot cannot know: answering it
        # again is refused as Telegram refuses it, but it is no fault of the bot's.
        redelivered = query is not None and query.deliveries > 1
        raise bad_request(errors.QUERY_TOO_OLD, violation=None if redelivered else "callback_query", detail=problem)
    assert query is not None
    query.answered_at = call.now
    query.answer = {key: call.params[key] for key in ("text", "show_alert", "url", "cache_time") if key in call.params}
    return True


HANDLERS: dict[str, Callable[[Call], Any]] = {
    "sendMessage": send_message,
    "sendPhoto": send_photo,
    "sendDocument": send_document,
    "sendAnimation": send_animation,
    "editMessageText": edit_message_text,
    "editMessageCaption": edit_message_caption,
    "editMessageMedia": edit_message_media,
    "editMessageReplyMarkup": edit_message_reply_markup,
    "deleteMessage": delete_message,
    "deleteMessages": delete_messages,
    "sendChatAction": send_chat_action,
    "answerCallbackQuery": answer_callback_query,
}

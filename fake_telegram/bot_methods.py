"""Methods about the bot and chats: getMe, getChat*, commands, descriptions, menu button, files (webhooks: webhook)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import fake_telegram.errors as errors

from .context import Call
from .errors import ApiError, bad_request
from .shapes import chat_full_json, member_json, user_json
from .state import ADMIN, CREATOR, LEFT, PRESENT, Chat


def get_me(call: Call) -> dict[str, Any]:
    return user_json(call.world.bot, full=True)


def get_chat(call: Call) -> dict[str, Any]:
    chat = call.chat(call.params["chat_id"], write=False)
    return chat_full_json(chat, call.world)


def _status(call: Call, chat: Chat, user_id: int) -> str:
    if user_id == call.world.bot.id:
        return ADMIN if chat.bot_status == ADMIN else chat.bot_status
    if chat.type == "private":
        return "member" if user_id == chat.user_id else LEFT
    return chat.members.get(user_id, LEFT)


def get_chat_member(call: Call) -> dict[str, Any]:
    chat = call.chat(call.params["chat_id"], write=False)
    user = call.world.user(int(call.params["user_id"]))
    if user is None:
        raise ApiError(400, errors.USER_NOT_FOUND)
    return member_json(chat, user, _status(call, chat, user.id), call.world)


def get_chat_administrators(call: Call) -> list[dict[str, Any]]:
    chat = call.chat(call.params["chat_id"], write=False)
    if chat.type == "private":
        raise ApiError(400, "Bad Request: there are no administrators in the private chat")
    world = call.world
    admins = [member_json(chat, world.users[uid], s, world) for uid, s in chat.members.items() if s in (CREATOR, ADMIN)]
    if chat.bot_status == ADMIN:
        admins.append(member_json(chat, world.bot, ADMIN, world))
    return admins


def get_chat_member_count(call: Call) -> int:
    chat = call.chat(call.params["chat_id"], write=False)
    if chat.type == "private":
        return 2
    humans = sum(1 for status in chat.members.values() if status in PRESENT)
    return humans + (1 if chat.bot_status in PRESENT else 0)


def leave_chat(call: Call) -> bool:
    chat = call.chat(call.params["chat_id"], write=False)
    if chat.type == "private":
        raise ApiError(400, "Bad Request: chat member status can't be changed in private chats")
    chat.bot_status = LEFT
    return True


def _scope_key(call: Call) -> tuple[str, str]:
    scope = call.params.get("scope") or {"type": "default"}
    if "chat_id" in scope:
        chat = call.chat(scope["chat_id"], write=False)
        scope = {**scope, "chat_id": chat.id}
    return json.dumps(scope, sort_keys=True), str(call.params.get("language_code") or "")


def set_my_commands(call: Call) -> bool:
    commands: list[dict[str, Any]] = call.params["commands"]
    if len(commands) > 100:
        raise bad_request("too many commands specified", violation="bot_command")
    call.validator.bot_commands(commands)
    call.world.commands[_scope_key(call)] = [
        {"command": c["command"], "description": c["description"]} for c in commands
    ]
    return True


def get_my_commands(call: Call) -> list[dict[str, Any]]:
    return list(call.world.commands.get(_scope_key(call), []))


def delete_my_commands(call: Call) -> bool:
    call.world.commands.pop(_scope_key(call), None)
    return True


def _bot_text(key: str) -> tuple[Callable[[Call], bool], Callable[[Call], dict[str, Any]]]:
    def setter(call: Call) -> bool:
        call.world.bot_texts[(key, str(call.params.get("language_code") or ""))] = str(call.params.get(key) or "")
        return True

    def getter(call: Call) -> dict[str, Any]:
        texts = call.world.bot_texts
        lang = str(call.params.get("language_code") or "")
        value = texts.get((key, lang), texts.get((key, ""), call.world.bot.first_name if key == "name" else ""))
        return {key: value}

    return setter, getter


def set_chat_menu_button(call: Call) -> bool:
    button = call.params.get("menu_button") or {"type": "default"}
    if "chat_id" in call.params:
        call.chat(call.params["chat_id"], write=False).menu_button = button
    else:
        call.world.default_menu_button = button
    return True


def get_chat_menu_button(call: Call) -> dict[str, Any]:
    if "chat_id" in call.params:
        chat = call.chat(call.params["chat_id"], write=False)
        if chat.menu_button is not None:
            return chat.menu_button
    return call.world.default_menu_button


def get_file(call: Call) -> dict[str, Any]:
    stored = call.world.files.get(str(call.params["file_id"]))
    if stored is None:
        raise ApiError(400, "Bad Request: invalid file_id")
    return stored.file_json()


def pin_chat_message(call: Call) -> bool:
    chat = call.chat(call.params["chat_id"], write=True)
    message = chat.messages.get(int(call.params["message_id"]))
    if message is None or message.deleted:
        raise ApiError(400, "Bad Request: message to pin not found")
    if chat.is_group and chat.bot_status not in (ADMIN, CREATOR):
        raise ApiError(400, "Bad Request: not enough rights to manage pinned messages in the chat")
    return True


def unpin_chat_message(call: Call) -> bool:
    call.chat(call.params["chat_id"], write=True)
    return True


def ok(call: Call) -> bool:
    return True


_set_description, _get_description = _bot_text("description")
_set_short, _get_short = _bot_text("short_description")
_set_name, _get_name = _bot_text("name")

HANDLERS: dict[str, Callable[[Call], Any]] = {
    "getMe": get_me,
    "logOut": ok,
    "close": ok,
    "getChat": get_chat,
    "getChatMember": get_chat_member,
    "getChatAdministrators": get_chat_administrators,
    "getChatMemberCount": get_chat_member_count,
    "leaveChat": leave_chat,
    "setMyCommands": set_my_commands,
    "getMyCommands": get_my_commands,
    "deleteMyCommands": delete_my_commands,
    "setMyDescription": _set_description,
    "getMyDescription": _get_description,
    "setMyShortDescription": _set_short,
    "getMyShortDescription": _get_short,
    "setMyName": _set_name,
    "getMyName": _get_name,
    "setChatMenuButton": set_chat_menu_button,
    "getChatMenuButton": get_chat_menu_button,
    "getFile": get_file,
    "pinChatMessage": pin_chat_message,
    "unpinChatMessage": unpin_chat_message,
}

"""JSON shapes of Bot API objects, built the way the Bot API server builds them (``Client.cpp``)."""

from __future__ import annotations

from typing import Any

from .state import ADMIN, CREATOR, KICKED, LEFT, Chat, Message, User, World

ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_pin_messages",
    "can_manage_topics",
    "can_send_welcome_messages",  # required since Bot API 10.3 (aiogram 3.31 insists); absent from 10.1
)


def user_json(user: User, *, full: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {"id": user.id, "is_bot": user.is_bot, "first_name": user.first_name}
    if user.last_name:
        data["last_name"] = user.last_name
    if user.username:
        data["username"] = user.username
    if user.language_code:
        data["language_code"] = user.language_code
    if user.is_premium:
        data["is_premium"] = True
    if full and user.is_bot:
        data.update(
            can_join_groups=True,
            can_read_all_group_messages=False,
            supports_inline_queries=False,
            can_connect_to_business=False,
            has_main_web_app=False,
            has_topics_enabled=False,
        )
    return data


def chat_json(chat: Chat, world: World) -> dict[str, Any]:
    data: dict[str, Any] = {"id": chat.id}
    if chat.type == "private":
        user = world.users[chat.user_id or chat.id]
        data["first_name"] = user.first_name
        if user.last_name:
            data["last_name"] = user.last_name
        if user.username:
            data["username"] = user.username
        data["type"] = "private"
        return data
    data["title"] = chat.title or ""
    if chat.username:
        data["username"] = chat.username
    data["type"] = chat.type
    if chat.type == "group":
        data["all_members_are_administrators"] = chat.all_members_are_administrators
    return data


def chat_full_json(chat: Chat, world: World) -> dict[str, Any]:
    """ChatFullInfo (getChat): the Chat fields plus the required extras of Bot API 10.1."""
    data = chat_json(chat, world)
    data.update(
        accent_color_id=chat.id % 7,
        max_reaction_count=11,
        accepted_gift_types={
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    )
    if chat.is_group:
        data["permissions"] = {
            "can_send_messages": True,
            "can_send_audios": True,
            "can_send_documents": True,
            "can_send_photos": True,
            "can_send_videos": True,
            "can_send_video_notes": True,
            "can_send_voice_notes": True,
            "can_send_polls": True,
            "can_send_other_messages": True,
            "can_add_web_page_previews": True,
            "can_change_info": chat.all_members_are_administrators,
            "can_invite_users": True,
            "can_pin_messages": chat.all_members_are_administrators,
            "can_manage_topics": False,
        }
    return data


def message_json(message: Message, world: World, *, with_reply: bool = True) -> dict[str, Any]:
    chat = world.chats[message.chat_id]
    data: dict[str, Any] = {"message_id": message.message_id}
    sender = world.users.get(message.sender_id)
    if sender is not None:
        data["from"] = user_json(sender)
    data["chat"] = chat_json(chat, world)
    data["date"] = message.date
    if message.edit_date is not None:
        data["edit_date"] = message.edit_date
    if with_reply and message.reply_to is not None:
        replied = chat.messages.get(message.reply_to)
        if replied is not None and not replied.deleted:
            data["reply_to_message"] = message_json(replied, world, with_reply=False)
    if message.text is not None:
        data["text"] = message.text.text
        if message.text.entities:
            data["entities"] = message.text.json_entities()
        if message.link_preview_options:
            data["link_preview_options"] = message.link_preview_options
    if message.animation is not None:
        data["animation"] = message.animation
    if message.document is not None:
        data["document"] = message.document
    if message.photo is not None:
        data["photo"] = message.photo
    if message.caption is not None and message.caption.text:
        data["caption"] = message.caption.text
        if message.caption.entities:
            data["caption_entities"] = message.caption.json_entities()
    data.update(message.service)
    if message.inline_keyboard:
        data["reply_markup"] = {"inline_keyboard": message.inline_keyboard}
    return data


def member_json(chat: Chat, user: User, status: str, world: World) -> dict[str, Any]:
    data: dict[str, Any] = {"user": user_json(user), "status": status}
    if status == CREATOR:
        data["is_anonymous"] = False
    elif status == ADMIN:
        can_delete = chat.bot_can_delete if user.id == world.bot.id else True
        data.update(can_be_edited=False, is_anonymous=False)
        data.update(dict.fromkeys(ADMIN_RIGHTS, True))
        data["can_delete_messages"] = can_delete
        data["can_promote_members"] = False
        if chat.type == "group":
            data.pop("can_manage_topics")
    elif status == KICKED:
        data["until_date"] = 0
    elif status == LEFT:
        pass
    return data

"""What the page shows: the fake's chats and messages as the JSON of ``PROTOCOL.md``.

Formatted text arrives at the page as HTML made here from the message's entities (offsets in
UTF-16 code units, as Telegram counts them), every character escaped, so the page can insert it
as it is.

>>> from fake_telegram.formatting import FormattedText, normalize_url
>>> entities = ({"type": "bold", "offset": 0, "length": 4}, {"type": "italic", "offset": 6, "length": 2})
>>> text_html(FormattedText("Ann's <b> ok", entities))
"<b>Ann'</b>s <i>&lt;b</i>&gt; ok"
>>> text_html(FormattedText("🁣 line\\nnext", ({"type": "code", "offset": 3, "length": 4},)))
'🁣 <code>line</code><br>next'
>>> text_html(FormattedText("a b", ({"type": "text_link", "offset": 0, "length": 1, "url": "javascript:alert(1)"},)))
'a b'
>>> text_html(FormattedText("🁣 t.me/x?start=r1", ({"type": "url", "offset": 3, "length": 15},)))
'🁣 <a href="http://t.me/x?start=r1" target="_blank" rel="noopener">t.me/x?start=r1</a>'
"""

from __future__ import annotations

import html
import json
from typing import Any

from fake_telegram.formatting import FormattedText, normalize_url
from fake_telegram.state import ADMIN, CREATOR, PRESENT, Chat, Message, User, World

LANGUAGES = ("en", "ru", "uk")
LINK_SCHEMES = ("https://", "http://", "tg://")  # anything else (javascript:, data:) stays plain text
_SIMPLE_TAGS = {
    "bold": "b",
    "italic": "i",
    "underline": "u",
    "strikethrough": "s",
    "code": "code",
    "blockquote": "blockquote",
    "expandable_blockquote": "blockquote",
}


def _utf16_slice(text: str, start: int, length: int) -> str:
    units = text.encode("utf-16-le")
    return units[2 * start : 2 * (start + length)].decode("utf-16-le", errors="ignore")


def _open_tag(entity: dict[str, Any], text: str) -> tuple[str, str]:
    kind = entity.get("type", "")
    if kind == "url":  # a link written out in the text (the bot's t.me invitations): as Telegram, clickable
        entity = {"type": "text_link", "url": normalize_url(_utf16_slice(text, entity["offset"], entity["length"]))}
        kind = "text_link"
    if kind in _SIMPLE_TAGS:
        tag = _SIMPLE_TAGS[kind]
        return f"<{tag}>", f"</{tag}>"
    if kind == "pre":
        return "<pre>", "</pre>"
    if kind == "spoiler":
        return '<span class="tg-spoiler">', "</span>"
    if kind == "text_link" and str(entity.get("url", "")).lower().startswith(LINK_SCHEMES):
        url = html.escape(str(entity.get("url", "")), quote=True)
        return f'<a href="{url}" target="_blank" rel="noopener">', "</a>"
    return "", ""  # mentions, hashtags, commands: plain text here


def text_html(formatted: FormattedText | None) -> str:
    """The text as safe HTML, its entities as tags (properly nested, as Telegram's are)."""
    if formatted is None:
        return ""
    text = formatted.text
    opens: dict[int, list[tuple[int, str, str]]] = {}
    for entity in formatted.entities:
        start, length = int(entity.get("offset", 0)), int(entity.get("length", 0))
        tags = _open_tag(entity, text)
        if length > 0 and tags[0]:
            opens.setdefault(start, []).append((start + length, *tags))
    out: list[str] = []
    closing: list[tuple[int, str]] = []  # (end, closing tag), innermost last
    position = 0
    for char in text:
        while closing and closing[-1][0] <= position:
            out.append(closing.pop()[1])
        for end, opening, close in sorted(opens.get(position, []), key=lambda item: -item[0]):
            out.append(opening)
            closing.append((end, close))
        out.append("<br>" if char == "\n" else html.escape(char, quote=False))
        position += 2 if ord(char) > 0xFFFF else 1
    while closing:
        out.append(closing.pop()[1])
    return "".join(out)


def _service_text(message: Message, world: World) -> str | None:
    service = message.service
    if not service:
        return None
    actor = world.users.get(message.sender_id)
    who = actor.name if actor else "Someone"
    if "group_chat_created" in service:
        return f"{who} created the group"
    if "new_chat_members" in service:
        names = ", ".join(str(member.get("first_name", "")) for member in service["new_chat_members"])
        return f"{who} joined the group" if names == who else f"{who} added {names}"
    if "left_chat_member" in service:
        left = str(service["left_chat_member"].get("first_name", ""))
        return f"{left} left the group" if left == who else f"{who} removed {left}"
    if "migrate_to_chat_id" in service or "migrate_from_chat_id" in service:
        return "The group was upgraded to a supergroup"
    return ", ".join(service)


def _buttons(message: Message) -> list[list[dict[str, str]]]:
    rows = []
    for row in message.inline_keyboard:
        cells = []
        for button in row:
            cell = {"text": str(button.get("text", ""))}
            if "callback_data" in button:
                cell["data"] = str(button["callback_data"])
            elif "url" in button:
                cell["url"] = normalize_url(str(button["url"])) or str(button["url"])
            elif isinstance(button.get("web_app"), dict):
                cell["web_app"] = str(button["web_app"].get("url", ""))
            cells.append(cell)
        rows.append(cells)
    return rows


def message_view(message: Message, world: World) -> dict[str, Any]:
    sender = world.users.get(message.sender_id)
    photo = message.photo[-1] if message.photo else None
    animation = message.animation
    document = message.document if animation is None else None  # an animation is shown, not offered as a file
    return {
        "id": message.message_id,
        "from": {
            "id": message.sender_id,
            "name": sender.name if sender else "?",
            "is_bot": bool(sender and sender.is_bot),
        },
        "date": message.date,
        "html": text_html(message.text if message.text is not None else message.caption),
        "photo": None
        if photo is None
        else {"url": f"/files/{photo['file_id']}", "width": photo["width"], "height": photo["height"]},
        "animation": None
        if animation is None
        else {
            "url": f"/files/{animation['file_id']}",
            "width": animation.get("width", 0),
            "height": animation.get("height", 0),
        },
        "document": None
        if document is None
        else {
            "url": f"/files/{document['file_id']}",
            "name": document.get("file_name", "document"),
            "size": document.get("file_size", 0),
        },
        "buttons": _buttons(message),
        "edited": message.edit_date is not None,
        "deleted": message.deleted,
        "service": _service_text(message, world),
        "reply_to": message.reply_to,
    }


def _scopes(chat: Chat, person: User) -> list[dict[str, Any]]:
    """Telegram's order for choosing a command menu: the narrowest scope with commands wins."""
    if chat.type == "private":
        return [{"type": "chat", "chat_id": chat.id}, {"type": "all_private_chats"}, {"type": "default"}]
    admin = chat.members.get(person.id) in (ADMIN, CREATOR) or chat.all_members_are_administrators
    scopes: list[dict[str, Any]] = [{"type": "chat_member", "chat_id": chat.id, "user_id": person.id}]
    if admin:
        scopes.append({"type": "chat_administrators", "chat_id": chat.id})
    scopes.append({"type": "chat", "chat_id": chat.id})
    if admin:
        scopes.append({"type": "all_chat_administrators"})
    return [*scopes, {"type": "all_group_chats"}, {"type": "default"}]


def command_menu(chat: Chat, person: User, world: World) -> list[dict[str, str]]:
    for scope in _scopes(chat, person):
        key = json.dumps(scope, sort_keys=True)
        for language in (person.language_code or "", ""):
            commands = world.commands.get((key, language))
            if commands:
                return [dict(command) for command in commands]
    return []


def can_see(chat: Chat, person: User) -> bool:
    if chat.type == "private":
        return chat.user_id == person.id
    return chat.migrated_to is None and chat.members.get(person.id) in PRESENT


def chat_view(chat: Chat, person: User, world: World, title: str) -> dict[str, Any]:
    return {
        "id": chat.id,
        "type": chat.type,
        "title": title,
        "messages": [message_view(m, world) for m in chat.messages.values() if not m.deleted],
        "commands": command_menu(chat, person, world),
        "can_write": chat.type == "private" or chat.members.get(person.id) in PRESENT,
        "needs_start": chat.type == "private" and not person.started,
    }


def person_view(person: User, group: Chat | None) -> dict[str, Any]:
    return {
        "id": person.id,
        "name": person.name,
        "language": person.language_code or "en",
        "started": person.started,
        "blocked": person.blocked,
        "in_group": group is not None and group.members.get(person.id) in PRESENT,
    }

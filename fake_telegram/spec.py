"""The Bot API as data: methods, their parameters, object types, required flags and length limits.

The source is ``api.json`` (the machine-readable spec in ``../shared/telegram``: ``{"methods": {name:
{"fields": [...], "returns": [...]}}, "types": {name: {"fields": [...], "subtypes": [...]}}}``, each
field ``{"name", "types", "required", "description"}``).  Length limits are not separate keys: they
are read from descriptions such as "Text of the message to be sent, 1-4096 characters after entities
parsing" or "Data to be sent in a callback query ..., 1-64 bytes".  Where ``api.json`` is absent a
built-in table covers the methods the bot uses.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Literal

SCALARS = frozenset({"String", "Integer", "Float", "Boolean", "True", "InputFile"})
_LIMIT = re.compile(r"\b(\d+)-(\d+) (characters|bytes)\b", re.IGNORECASE)
_MUST_BE = re.compile(r"(?:must be|always) [\"“”]?([a-z_]+)[\"“”]?")
_AFTER_PARSING = re.compile(r"after entit(?:y|ies) parsing")
_OTHER_THAN = re.compile(r"other than (.+?) must be used")


@dataclass(frozen=True)
class Limit:
    low: int
    high: int
    unit: Literal["characters", "bytes"]
    after_entities: bool  # counted on the text after parse_mode is applied, so checked elsewhere


@dataclass(frozen=True)
class FieldSpec:
    name: str
    types: tuple[str, ...]
    required: bool
    description: str = ""

    @cached_property
    def limit(self) -> Limit | None:
        """The length limit its description states (read once: the validator asks on every call)."""
        match = _LIMIT.search(self.description)
        if match is None or "String" not in self.types:
            return None
        unit: Literal["characters", "bytes"] = "bytes" if match.group(3).lower() == "bytes" else "characters"
        after = bool(_AFTER_PARSING.search(self.description))
        return Limit(int(match.group(1)), int(match.group(2)), unit, after)


@dataclass(frozen=True)
class TypeSpec:
    name: str
    fields: Mapping[str, FieldSpec] = field(default_factory=dict)
    subtypes: tuple[str, ...] = ()
    description: str = ""

    def discriminator(self) -> tuple[str, str] | None:
        """``(field, value)`` that identifies this subtype, e.g. ``("type", "photo")`` for InputMediaPhoto."""
        for key in ("type", "status", "source"):
            spec = self.fields.get(key)
            if spec is not None:
                match = _MUST_BE.search(spec.description)
                if match:
                    return key, match.group(1)
        return None


@dataclass(frozen=True)
class MethodSpec:
    name: str
    fields: Mapping[str, FieldSpec]
    returns: tuple[str, ...]


@dataclass
class ApiSpec:
    """Lookup of methods (case-insensitive, as the Bot API server matches them) and types."""

    methods: dict[str, MethodSpec]
    types: dict[str, TypeSpec]
    version: str
    source: str
    _lower: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._lower = {name.lower(): name for name in self.methods}

    def method(self, name: str) -> MethodSpec | None:
        canonical = self._lower.get(name.lower())
        return self.methods[canonical] if canonical else None

    def type(self, name: str) -> TypeSpec | None:
        return self.types.get(name)

    def subtype_for(self, union: str, value: dict[str, Any]) -> str | None:
        """The subtype of ``union`` (e.g. InputMedia) that an object's discriminator names."""
        spec = self.types.get(union)
        if spec is None:
            return None
        for name in spec.subtypes:
            sub = self.types.get(name)
            disc = sub.discriminator() if sub else None
            if disc and value.get(disc[0]) == disc[1]:
                return name
        return None

    def inline_button_actions(self) -> tuple[str, ...]:
        """InlineKeyboardButton fields of which exactly one must be used (read from its description)."""
        spec = self.types.get("InlineKeyboardButton")
        if spec is None:
            return ()
        others = {"text"}
        match = _OTHER_THAN.search(spec.description)
        if match:
            others |= {part.strip() for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", match.group(1)) if part.strip()}
        return tuple(name for name in spec.fields if name not in others)


def answer_problems(value: Any, type_names: Iterable[str], spec: ApiSpec, path: str = "result") -> list[str]:
    """Where an answer breaks its Bot API type: a missing required field, a wrong scalar, a field
    the type does not have (any one of ``type_names`` may fit; ``[]`` when one does).

    >>> spec = builtin_spec()
    >>> answer_problems({"url": "", "has_custom_certificate": False}, ["WebhookInfo"], spec)
    ['result.pending_update_count: missing (WebhookInfo)']
    """
    best: list[str] | None = None
    for type_name in type_names:
        depth, base = element_type(type_name)
        problems = _answer_problems(value, depth, base, spec, path)
        if not problems:
            return []
        best = problems if best is None or len(problems) < len(best) else best
    return best or []


def _answer_problems(value: Any, depth: int, base: str, spec: ApiSpec, path: str) -> list[str]:
    if depth:
        if not isinstance(value, list):
            return [f"{path}: expected an Array"]
        return [
            problem
            for index, item in enumerate(value)
            for problem in _answer_problems(item, depth - 1, base, spec, f"{path}[{index}]")
        ]
    if base in SCALARS:
        kinds: dict[str, type | tuple[type, ...]] = {"String": str, "Integer": int, "Float": (int, float)}
        expected = kinds.get(base, bool if base in ("Boolean", "True") else object)
        wrong = not isinstance(value, expected) or (base in ("Integer", "Float") and isinstance(value, bool))
        return [f"{path}: expected {base}, got {value!r}"] if wrong else []
    type_spec = spec.type(base)
    if type_spec is None:
        return []
    if not isinstance(value, dict):
        return [f"{path}: expected a {base} object"]
    if type_spec.subtypes:
        return answer_problems(value, type_spec.subtypes, spec, path)
    problems = [
        f"{path}.{f.name}: missing ({base})" for f in type_spec.fields.values() if f.required and f.name not in value
    ]
    for name, item in value.items():
        field_spec = type_spec.fields.get(name)
        if field_spec is None:
            problems.append(f"{path}.{name}: not a field of {base}")
        else:
            problems += answer_problems(item, field_spec.types, spec, f"{path}.{name}")
    return problems


def element_type(type_name: str) -> tuple[int, str]:
    """``"Array of Array of X"`` -> ``(2, "X")``."""
    depth = 0
    while type_name.startswith("Array of "):
        type_name = type_name[len("Array of ") :]
        depth += 1
    return depth, type_name


def _fields(raw: Iterable[Mapping[str, Any]]) -> dict[str, FieldSpec]:
    return {
        f["name"]: FieldSpec(
            f["name"], tuple(f.get("types", ())), bool(f.get("required")), str(f.get("description", ""))
        )
        for f in raw
    }


def _description(raw: Any) -> str:
    return " ".join(raw) if isinstance(raw, list) else str(raw or "")


def parse_spec(data: Mapping[str, Any], source: str) -> ApiSpec:
    methods = {
        name: MethodSpec(name, _fields(m.get("fields", ())), tuple(m.get("returns", ())))
        for name, m in data.get("methods", {}).items()
    }
    types = {
        name: TypeSpec(
            name, _fields(t.get("fields", ())), tuple(t.get("subtypes", ())), _description(t.get("description"))
        )
        for name, t in data.get("types", {}).items()
    }
    return ApiSpec(methods, types, str(data.get("version", "unknown")), source)


def default_spec_path() -> Path:
    """``$FAKE_TELEGRAM_API_JSON``, else ``<repo>/../shared/telegram/api.json``."""
    override = os.environ.get("FAKE_TELEGRAM_API_JSON")
    if override:
        return Path(override)
    repo = Path(__file__).resolve().parents[1]
    return repo.parent / "shared" / "telegram" / "api.json"


@cache
def load_spec(path: Path | None = None) -> ApiSpec:
    """The spec from ``path`` (default: :func:`default_spec_path`), or the built-in table when absent."""
    path = path or default_spec_path()
    if path.is_file():
        return parse_spec(json.loads(path.read_text(encoding="utf-8")), str(path))
    return builtin_spec()


# --- The built-in table: the methods the bot uses, with the fields and limits of Bot API 10.1. ---

_CHAT = ("chat_id", "Integer|String", True, "")
_OPT_CHAT = ("chat_id", "Integer|String", False, "")
_MARKUP_ANY = ("reply_markup", "InlineKeyboardMarkup|ReplyKeyboardMarkup|ReplyKeyboardRemove|ForceReply", False, "")
_MARKUP_INLINE = ("reply_markup", "InlineKeyboardMarkup", False, "")
_SEND_COMMON = [
    ("message_thread_id", "Integer", False, ""),
    ("disable_notification", "Boolean", False, ""),
    ("protect_content", "Boolean", False, ""),
    ("allow_paid_broadcast", "Boolean", False, ""),
    ("message_effect_id", "String", False, ""),
    ("reply_parameters", "ReplyParameters", False, ""),
    ("business_connection_id", "String", False, ""),
]
_CAPTION = [
    ("caption", "String", False, "Caption, 0-1024 characters after entities parsing"),
    ("parse_mode", "String", False, ""),
    ("caption_entities", "Array of MessageEntity", False, ""),
    ("show_caption_above_media", "Boolean", False, ""),
]
_EDIT_TARGET = [
    ("business_connection_id", "String", False, ""),
    _OPT_CHAT,
    ("message_id", "Integer", False, ""),
    ("inline_message_id", "String", False, ""),
]
_SCOPE = [("scope", "BotCommandScope", False, ""), ("language_code", "String", False, "")]

BUILTIN_METHODS: dict[str, tuple[str, list[tuple[str, str, bool, str]]]] = {
    "getMe": ("User", []),
    "logOut": ("Boolean", []),
    "close": ("Boolean", []),
    "getUpdates": (
        "Array of Update",
        [
            ("offset", "Integer", False, ""),
            ("limit", "Integer", False, ""),
            ("timeout", "Integer", False, ""),
            ("allowed_updates", "Array of String", False, ""),
        ],
    ),
    "setWebhook": (
        "Boolean",
        [
            ("url", "String", True, "HTTPS URL to send updates to. Use an empty string to remove webhook integration."),
            ("certificate", "InputFile", False, ""),
            ("ip_address", "String", False, ""),
            ("max_connections", "Integer", False, ""),
            ("allowed_updates", "Array of String", False, ""),
            ("drop_pending_updates", "Boolean", False, ""),
            (
                "secret_token",
                "String",
                False,
                'A secret token to be sent in a header "X-Telegram-Bot-Api-Secret-Token" in every webhook request, '
                "1-256 characters. Only characters A-Z, a-z, 0-9, _ and - are allowed.",
            ),
        ],
    ),
    "deleteWebhook": ("Boolean", [("drop_pending_updates", "Boolean", False, "")]),
    "getWebhookInfo": ("WebhookInfo", []),
    "sendMessage": (
        "Message",
        [
            _CHAT,
            ("text", "String", True, "Text of the message to be sent, 1-4096 characters after entities parsing"),
            ("parse_mode", "String", False, ""),
            ("entities", "Array of MessageEntity", False, ""),
            ("link_preview_options", "LinkPreviewOptions", False, ""),
            *_SEND_COMMON,
            _MARKUP_ANY,
        ],
    ),
    "sendPhoto": (
        "Message",
        [
            _CHAT,
            ("photo", "InputFile|String", True, ""),
            *_CAPTION,
            ("has_spoiler", "Boolean", False, ""),
            *_SEND_COMMON,
            _MARKUP_ANY,
        ],
    ),
    "sendDocument": (
        "Message",
        [
            _CHAT,
            ("document", "InputFile|String", True, ""),
            ("thumbnail", "InputFile|String", False, ""),
            *_CAPTION[:3],
            ("disable_content_type_detection", "Boolean", False, ""),
            *_SEND_COMMON,
            _MARKUP_ANY,
        ],
    ),
    "sendAnimation": (
        "Message",
        [
            _CHAT,
            ("animation", "InputFile|String", True, ""),
            ("duration", "Integer", False, ""),
            ("width", "Integer", False, ""),
            ("height", "Integer", False, ""),
            ("thumbnail", "InputFile|String", False, ""),
            *_CAPTION,
            ("has_spoiler", "Boolean", False, ""),
            *_SEND_COMMON,
            _MARKUP_ANY,
        ],
    ),
    "sendChatAction": (
        "Boolean",
        [
            _CHAT,
            ("action", "String", True, ""),
            ("message_thread_id", "Integer", False, ""),
            ("business_connection_id", "String", False, ""),
        ],
    ),
    "editMessageText": (
        "Message|Boolean",
        [
            *_EDIT_TARGET,
            (
                "text",
                "String",
                False,
                "New text of the message, 1-4096 characters after entity parsing; "
                "required if rich_message isn't specified",
            ),
            ("parse_mode", "String", False, ""),
            ("entities", "Array of MessageEntity", False, ""),
            ("link_preview_options", "LinkPreviewOptions", False, ""),
            ("rich_message", "InputRichMessage", False, ""),
            _MARKUP_INLINE,
        ],
    ),
    "editMessageCaption": ("Message|Boolean", [*_EDIT_TARGET, *_CAPTION, _MARKUP_INLINE]),
    "editMessageMedia": ("Message|Boolean", [*_EDIT_TARGET, ("media", "InputMedia", True, ""), _MARKUP_INLINE]),
    "editMessageReplyMarkup": ("Message|Boolean", [*_EDIT_TARGET, _MARKUP_INLINE]),
    "deleteMessage": ("Boolean", [_CHAT, ("message_id", "Integer", True, "")]),
    "deleteMessages": ("Boolean", [_CHAT, ("message_ids", "Array of Integer", True, "")]),
    "answerCallbackQuery": (
        "Boolean",
        [
            ("callback_query_id", "String", True, ""),
            (
                "text",
                "String",
                False,
                "Text of the notification. If not specified, nothing will be shown to the user, 0-200 characters",
            ),
            ("show_alert", "Boolean", False, ""),
            ("url", "String", False, ""),
            ("cache_time", "Integer", False, ""),
        ],
    ),
    "getChat": ("ChatFullInfo", [_CHAT]),
    "getChatMember": ("ChatMember", [_CHAT, ("user_id", "Integer", True, "")]),
    "getChatAdministrators": ("Array of ChatMember", [_CHAT]),
    "getChatMemberCount": ("Integer", [_CHAT]),
    "leaveChat": ("Boolean", [_CHAT]),
    "getFile": ("File", [("file_id", "String", True, "")]),
    "setMyCommands": ("Boolean", [("commands", "Array of BotCommand", True, ""), *_SCOPE]),
    "getMyCommands": ("Array of BotCommand", _SCOPE),
    "deleteMyCommands": ("Boolean", _SCOPE),
    "setMyDescription": (
        "Boolean",
        [
            ("description", "String", False, "New bot description; 0-512 characters."),
            ("language_code", "String", False, ""),
        ],
    ),
    "getMyDescription": ("BotDescription", [("language_code", "String", False, "")]),
    "setMyShortDescription": (
        "Boolean",
        [
            ("short_description", "String", False, "New short description for the bot; 0-120 characters."),
            ("language_code", "String", False, ""),
        ],
    ),
    "getMyShortDescription": ("BotShortDescription", [("language_code", "String", False, "")]),
    "setMyName": (
        "Boolean",
        [("name", "String", False, "New bot name; 0-64 characters."), ("language_code", "String", False, "")],
    ),
    "getMyName": ("BotName", [("language_code", "String", False, "")]),
    "setChatMenuButton": ("Boolean", [("chat_id", "Integer", False, ""), ("menu_button", "MenuButton", False, "")]),
    "getChatMenuButton": ("MenuButton", [("chat_id", "Integer", False, "")]),
    "pinChatMessage": (
        "Boolean",
        [_CHAT, ("message_id", "Integer", True, ""), ("disable_notification", "Boolean", False, "")],
    ),
    "unpinChatMessage": ("Boolean", [_CHAT, ("message_id", "Integer", False, "")]),
}

BUILTIN_TYPES: dict[str, tuple[str, list[tuple[str, str, bool, str]]]] = {
    "InlineKeyboardMarkup": ("", [("inline_keyboard", "Array of Array of InlineKeyboardButton", True, "")]),
    "InlineKeyboardButton": (
        "Exactly one of the fields other than text, icon_custom_emoji_id, and style must be used "
        "to specify the type of the button.",
        [
            ("text", "String", True, ""),
            ("icon_custom_emoji_id", "String", False, ""),
            ("style", "String", False, ""),
            ("url", "String", False, ""),
            (
                "callback_data",
                "String",
                False,
                "Optional. Data to be sent in a callback query to the bot when the button is pressed, 1-64 bytes",
            ),
            ("web_app", "WebAppInfo", False, ""),
            ("login_url", "LoginUrl", False, ""),
            ("switch_inline_query", "String", False, ""),
            ("switch_inline_query_current_chat", "String", False, ""),
            ("switch_inline_query_chosen_chat", "SwitchInlineQueryChosenChat", False, ""),
            ("copy_text", "CopyTextButton", False, ""),
            ("callback_game", "CallbackGame", False, ""),
            ("pay", "Boolean", False, ""),
        ],
    ),
    "ReplyKeyboardMarkup": (
        "",
        [
            ("keyboard", "Array of Array of KeyboardButton", True, ""),
            ("is_persistent", "Boolean", False, ""),
            ("resize_keyboard", "Boolean", False, ""),
            ("one_time_keyboard", "Boolean", False, ""),
            ("input_field_placeholder", "String", False, "1-64 characters"),
            ("selective", "Boolean", False, ""),
        ],
    ),
    "KeyboardButton": ("", [("text", "String", True, "")]),
    "ReplyKeyboardRemove": ("", [("remove_keyboard", "Boolean", True, ""), ("selective", "Boolean", False, "")]),
    "ForceReply": (
        "",
        [
            ("force_reply", "Boolean", True, ""),
            ("input_field_placeholder", "String", False, "1-64 characters"),
            ("selective", "Boolean", False, ""),
        ],
    ),
    "MessageEntity": (
        "",
        [
            ("type", "String", True, ""),
            ("offset", "Integer", True, ""),
            ("length", "Integer", True, ""),
            ("url", "String", False, ""),
            ("user", "User", False, ""),
            ("language", "String", False, ""),
            ("custom_emoji_id", "String", False, ""),
        ],
    ),
    "LinkPreviewOptions": (
        "",
        [
            ("is_disabled", "Boolean", False, ""),
            ("url", "String", False, ""),
            ("prefer_small_media", "Boolean", False, ""),
            ("prefer_large_media", "Boolean", False, ""),
            ("show_above_text", "Boolean", False, ""),
        ],
    ),
    "ReplyParameters": (
        "",
        [
            ("message_id", "Integer", True, ""),
            ("chat_id", "Integer|String", False, ""),
            ("allow_sending_without_reply", "Boolean", False, ""),
        ],
    ),
    "InputMediaPhoto": (
        "",
        [
            ("type", "String", True, "Type of the result, must be photo"),
            ("media", "String", True, ""),
            *_CAPTION,
            ("has_spoiler", "Boolean", False, ""),
        ],
    ),
    "InputMediaDocument": (
        "",
        [
            ("type", "String", True, "Type of the result, must be document"),
            ("media", "String", True, ""),
            ("thumbnail", "String", False, ""),
            *_CAPTION[:3],
            ("disable_content_type_detection", "Boolean", False, ""),
        ],
    ),
    "BotCommand": (
        "",
        [
            ("command", "String", True, "Text of the command; 1-32 characters."),
            ("description", "String", True, "Description of the command; 1-256 characters."),
        ],
    ),
    "BotCommandScopeDefault": ("", [("type", "String", True, "Scope type, must be default")]),
    "BotCommandScopeAllPrivateChats": ("", [("type", "String", True, "Scope type, must be all_private_chats")]),
    "BotCommandScopeAllGroupChats": ("", [("type", "String", True, "Scope type, must be all_group_chats")]),
    "BotCommandScopeAllChatAdministrators": (
        "",
        [("type", "String", True, "Scope type, must be all_chat_administrators")],
    ),
    "BotCommandScopeChat": ("", [("type", "String", True, "Scope type, must be chat"), _CHAT]),
    "BotCommandScopeChatAdministrators": (
        "",
        [("type", "String", True, "Scope type, must be chat_administrators"), _CHAT],
    ),
    "BotCommandScopeChatMember": (
        "",
        [("type", "String", True, "Scope type, must be chat_member"), _CHAT, ("user_id", "Integer", True, "")],
    ),
    "MenuButtonCommands": ("", [("type", "String", True, "Type of the button, must be commands")]),
    "MenuButtonDefault": ("", [("type", "String", True, "Type of the button, must be default")]),
    "MenuButtonWebApp": (
        "",
        [
            ("type", "String", True, "Type of the button, must be web_app"),
            ("text", "String", True, ""),
            ("web_app", "WebAppInfo", True, ""),
        ],
    ),
    "WebAppInfo": ("", [("url", "String", True, "")]),
    "LoginUrl": (
        "",
        [
            ("url", "String", True, ""),
            ("forward_text", "String", False, ""),
            ("bot_username", "String", False, ""),
            ("request_write_access", "Boolean", False, ""),
        ],
    ),
    "CopyTextButton": ("", [("text", "String", True, "The text to be copied to the clipboard; 1-256 characters")]),
    "CallbackGame": ("", []),
    "WebhookInfo": (
        "Describes the current status of a webhook.",
        [
            ("url", "String", True, ""),
            ("has_custom_certificate", "Boolean", True, ""),
            ("pending_update_count", "Integer", True, ""),
            ("ip_address", "String", False, ""),
            ("last_error_date", "Integer", False, ""),
            ("last_error_message", "String", False, ""),
            ("last_synchronization_error_date", "Integer", False, ""),
            ("max_connections", "Integer", False, ""),
            ("allowed_updates", "Array of String", False, ""),
        ],
    ),
}
BUILTIN_UNIONS: dict[str, tuple[str, ...]] = {
    "InputMedia": ("InputMediaPhoto", "InputMediaDocument"),
    "BotCommandScope": (
        "BotCommandScopeDefault",
        "BotCommandScopeAllPrivateChats",
        "BotCommandScopeAllGroupChats",
        "BotCommandScopeAllChatAdministrators",
        "BotCommandScopeChat",
        "BotCommandScopeChatAdministrators",
        "BotCommandScopeChatMember",
    ),
    "MenuButton": ("MenuButtonCommands", "MenuButtonWebApp", "MenuButtonDefault"),
}


def _raw_fields(rows: list[tuple[str, str, bool, str]]) -> list[dict[str, Any]]:
    return [{"name": n, "types": t.split("|"), "required": r, "description": d} for n, t, r, d in rows]


@cache
def builtin_spec() -> ApiSpec:
    data: dict[str, Any] = {
        "version": "Bot API 10.1 (built-in subset)",
        "methods": {
            name: {"returns": ret.split("|"), "fields": _raw_fields(rows)}
            for name, (ret, rows) in BUILTIN_METHODS.items()
        },
        "types": {
            name: {"description": desc, "fields": _raw_fields(rows)} for name, (desc, rows) in BUILTIN_TYPES.items()
        },
    }
    for union, subtypes in BUILTIN_UNIONS.items():
        data["types"][union] = {"subtypes": list(subtypes)}
    return parse_spec(data, "builtin")

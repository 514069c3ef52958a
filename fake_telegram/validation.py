"""Request validation: parameters against the spec, and the Telegram rules DESIGN.md lists.

Two outcomes for a broken rule, both recorded as violations:

* Telegram rejects the request: an :class:`~.errors.ApiError` with Telegram's text is raised
  (``violation`` set), e.g. callback_data over 64 bytes -> "Bad Request: BUTTON_DATA_INVALID".
* Telegram accepts it although it is wrong (a button with two actions, a deep link whose payload
  has characters outside ``[A-Za-z0-9_-]`` or that names another bot): the request succeeds, as it
  would in production, and ``note(kind, detail)`` records it.

Parameters arrive as text (form fields) or JSON; they are coerced by their spec types the way
the Bot API server reads them (integers parsed, booleans "true"/"1", objects JSON-decoded).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import parse_qs, urlsplit

import fake_telegram.errors as errors

from .errors import ApiError, bad_request
from .formatting import FormattedText, char_count, format_text, normalize_url
from .media import Upload
from .spec import SCALARS, ApiSpec, FieldSpec, MethodSpec, element_type

Note = Callable[[str, str], None]
Path = tuple[str | int, ...]  # ("reply_markup", "inline_keyboard", 0, 1, "text"): rendered only for an error

TEXT_MAX = 4096
CAPTION_MAX = 1024
CALLBACK_TEXT_MAX = 200
CALLBACK_DATA_MAX_BYTES = 64
INLINE_BUTTONS_MAX = 100
DEEP_LINK_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")
DEEP_LINK_HOSTS = frozenset({"t.me", "telegram.me", "telegram.dog"})
BOT_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_INT = re.compile(r"-?\d+")

# Fields whose limits need more than the spec's numbers: checked below with Telegram's own texts.
CUSTOM_LIMITS = frozenset(
    {
        ("InlineKeyboardButton", "callback_data"),
        ("answerCallbackQuery", "text"),
        ("BotCommand", "command"),
        ("setWebhook", "secret_token"),  # webhook.py: "secret token is too long", empty means none
    }
)
# Required parameters the Bot API server reads as "" when absent: setWebhook without a url (aiogram
# leaves out an empty one) removes the webhook, as the documentation's "empty string" does.
EMPTY_ALLOWED = frozenset({("setWebhook", "url")})

# Telegram's words for a missing required parameter, where they are not the generic ones.
MISSING: dict[tuple[str, str], str] = {
    ("*", "chat_id"): "Bad Request: chat_id is empty",
    ("sendMessage", "text"): errors.TEXT_EMPTY,
    ("editMessageText", "text"): errors.TEXT_EMPTY,
    ("sendPhoto", "photo"): "Bad Request: there is no photo in the request",
    ("sendDocument", "document"): "Bad Request: there is no document in the request",
    ("sendAnimation", "animation"): "Bad Request: there is no animation in the request",
    ("deleteMessage", "message_id"): "Bad Request: message identifier is not specified",
    ("answerCallbackQuery", "callback_query_id"): errors.QUERY_TOO_OLD,
    ("getChatMember", "user_id"): "Bad Request: invalid user_id specified",
    ("sendChatAction", "action"): "Bad Request: wrong parameter action in request",
}
JSON_WHAT = {
    "reply_markup": "reply keyboard markup",
    "media": "input media",
    "entities": "entities",
    "caption_entities": "entities",
    "commands": "commands",
    "scope": "BotCommandScope",
    "link_preview_options": "link preview options",
    "reply_parameters": "reply parameters",
    "menu_button": "menu button",
}


@dataclass(frozen=True)
class TypesPlan:
    """What a field's list of types means, worked out once per distinct list (the checks run on every call)."""

    parsed: tuple[tuple[int, str], ...]  # (array depth, base type) of each type
    objects: tuple[str, ...]  # the types that are (arrays of) objects
    has_file: bool  # InputFile is one of them
    structured: bool  # some type is not a scalar: a value may be JSON text
    json_only: bool  # no String/Integer/Float/Boolean: a value must be JSON text
    numeric: bool  # Integer or Float
    is_float: bool
    is_bool: bool  # Boolean or True


@cache
def types_plan(types: tuple[str, ...]) -> TypesPlan:
    parsed = tuple(element_type(t) for t in types)
    return TypesPlan(
        parsed=parsed,
        objects=tuple(t for t, (_, base) in zip(types, parsed, strict=True) if base not in SCALARS),
        has_file="InputFile" in types,
        structured=any(t not in SCALARS for t in types),
        json_only=not set(types) & {"String", "Integer", "Float", "Boolean"},
        numeric="Integer" in types or "Float" in types,
        is_float="Float" in types,
        is_bool="Boolean" in types or "True" in types,
    )


def render_path(path: Path) -> str:
    """``("reply_markup", "inline_keyboard", 0, 1)`` -> ``"reply_markup.inline_keyboard[0][1]"``."""
    out = [str(path[0])] if path else []
    out += [f"[{part}]" if isinstance(part, int) else f".{part}" for part in path[1:]]
    return "".join(out)


@dataclass(frozen=True)
class DeepLink:
    bot: str
    parameter: str  # "start", "startgroup", "startchannel", "startapp" or "" for a plain link to the bot
    payload: str | None


def parse_deep_link(url: str) -> DeepLink | None:
    """``t.me/<bot>?start=<payload>`` (any of Telegram's hosts, with or without a scheme) or ``tg://resolve``."""
    full = url if "://" in url else f"https://{url}"
    parts = urlsplit(full)
    query = parse_qs(parts.query, keep_blank_values=True)
    if parts.scheme == "tg" and parts.netloc == "resolve":
        bot = (query.get("domain") or [""])[0]
    elif parts.netloc.lower() in DEEP_LINK_HOSTS:
        bot = parts.path.strip("/").split("/")[0]
    else:
        return None
    if not bot:
        return None
    for parameter in ("start", "startgroup", "startchannel", "startapp"):
        if parameter in query:
            return DeepLink(bot, parameter, query[parameter][0])
    return DeepLink(bot, "", None)


class Validator:
    def __init__(self, spec: ApiSpec, bot_username: str) -> None:
        self.spec = spec
        self.bot_username = bot_username
        self._required_fields: dict[str, tuple[str, ...] | None] = {}
        self.button_actions = spec.inline_button_actions() or (
            "url",
            "callback_data",
            "web_app",
            "login_url",
            "switch_inline_query",
            "switch_inline_query_current_chat",
            "switch_inline_query_chosen_chat",
            "copy_text",
            "callback_game",
            "pay",
        )
        self._action_set = frozenset(self.button_actions)

    # ------------------------------------------------------------------ parameters
    def coerce(self, method: MethodSpec, raw: Mapping[str, Any], files: Mapping[str, Upload]) -> dict[str, Any]:
        """Typed parameters of a call, or the error Telegram gives for the first bad one."""
        params: dict[str, Any] = {}
        for name, spec in method.fields.items():
            value = raw.get(name)
            if value is None and name in files:
                value = files[name]
            if value is None or value == "":
                if spec.required and (method.name, name) not in EMPTY_ALLOWED:
                    text = (
                        MISSING.get((method.name, name))
                        or MISSING.get(("*", name))
                        or f'Bad Request: parameter "{name}" is required'
                    )
                    raise bad_request(text, violation="missing_parameter", detail=name)
                continue
            value = self._decode(method.name, spec, value, files)
            self._check(value, spec.types, (name,))
            self._check_limit(method.name, spec, value, (name,))
            params[name] = value
        return params

    def _decode(self, method: str, spec: FieldSpec, value: Any, files: Mapping[str, Upload]) -> Any:
        plan = types_plan(spec.types)
        if plan.has_file and isinstance(value, str) and value.startswith("attach://"):
            upload = files.get(value[len("attach://") :])
            if upload is None:
                text = MISSING.get((method, spec.name)) or f'Bad Request: parameter "{spec.name}" is required'
                raise bad_request(text, violation="missing_file", detail=value)
            return upload
        if isinstance(value, bool):
            value = "true" if value else "false"  # a JSON body's scalars are read as text, like form fields
        elif isinstance(value, int | float):
            value = str(value)
        if not isinstance(value, str) or (plan.has_file and value[:1] not in "{["):
            return value
        if plan.structured and (value[:1] in "{[" or plan.json_only):
            try:
                return json.loads(value)
            except ValueError as exc:
                what = JSON_WHAT.get(spec.name, spec.name)
                raise bad_request(f"can't parse {what} JSON object", violation="json", detail=spec.name) from exc
        if plan.numeric and _INT.fullmatch(value.strip()):
            return int(value)
        if plan.is_float:
            try:
                return float(value)
            except ValueError:
                pass
        if plan.is_bool:
            return value.strip().lower() in ("true", "1")
        return value

    def _check(self, value: Any, types: tuple[str, ...], path: Path) -> None:
        plan = types_plan(types)
        parsed = plan.parsed
        objects = plan.objects
        if isinstance(value, dict) and len(objects) > 1:
            fitting = [t for t in objects if self._has_required(t, value)]
            parsed = types_plan(tuple(fitting[:1] or objects[:1])).parsed
        problems: list[ApiError] = []
        for depth, base in parsed:
            problem = self._match(value, depth, base, path)
            if problem is None:
                return
            problems.append(problem)
        if problems:
            raise problems[0]

    def _required(self, type_name: str) -> tuple[str, ...] | None:
        """Required field names of an object type (None for a type the spec does not know)."""
        try:
            return self._required_fields[type_name]
        except KeyError:
            spec = self.spec.type(type_name)
            found = None if spec is None else tuple(f.name for f in spec.fields.values() if f.required)
            self._required_fields[type_name] = found
            return found

    def _has_required(self, type_name: str, value: dict[str, Any]) -> bool:
        required = self._required(type_name)
        return required is not None and all(name in value for name in required)

    def _match(self, value: Any, depth: int, base: str, path: Path) -> ApiError | None:
        if depth:
            if not isinstance(value, list) or (depth > 1 and not all(isinstance(v, list) for v in value)):
                if render_path(path).endswith("inline_keyboard"):
                    return bad_request(
                        'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays',
                        violation="type",
                    )
                return bad_request(f'field "{render_path(path)}" must be an Array', violation="type")
            for index, item in enumerate(value):
                problem = self._match(item, depth - 1, base, (*path, index))
                if problem is not None:
                    return problem
            return None
        if base in SCALARS:
            return (
                None
                if _scalar_ok(value, base)
                else bad_request(f'field "{render_path(path)}" must be of type {base}', violation="type")
            )
        if base == "KeyboardButton" and isinstance(value, str):
            return None
        if not isinstance(value, dict):
            if path == ("reply_markup",):
                return bad_request("object expected as reply markup", violation="type")
            return bad_request(f'field "{render_path(path)}" must be an Object', violation="type")
        spec = self.spec.type(base)
        if spec is None:
            return None
        if spec.subtypes:
            sub = self.spec.subtype_for(base, value)
            if sub is None:
                return bad_request(
                    f"can't parse {base}: unsupported type specified", violation="type", detail=render_path(path)
                )
            return self._match(value, 0, sub, path)
        for name, field_spec in spec.fields.items():
            item = value.get(name)
            if item is None:
                if field_spec.required:
                    what = "inline keyboard button" if base == "InlineKeyboardButton" else base
                    return bad_request(
                        f"can't parse {what}: Can't find field \"{name}\"",
                        violation="missing_field",
                        detail=render_path((*path, name)),
                    )
                continue
            try:
                self._check(item, field_spec.types, (*path, name))
                self._check_limit(base, field_spec, item, (*path, name))
            except ApiError as exc:
                return exc
        return None

    def _check_limit(self, owner: str, spec: FieldSpec, value: Any, path: Path) -> None:
        limit = spec.limit
        if limit is None or limit.after_entities or not isinstance(value, str) or (owner, spec.name) in CUSTOM_LIMITS:
            return
        size = len(value.encode("utf-8")) if limit.unit == "bytes" else char_count(value)
        if size > limit.high:
            raise bad_request(
                f"{spec.name} is too long",
                violation="length",
                detail=f"{render_path(path)}: {size} {limit.unit} > {limit.high}",
            )
        if size < limit.low:
            raise bad_request(
                f"{spec.name} must be non-empty",
                violation="length",
                detail=f"{render_path(path)}: {size} {limit.unit} < {limit.low}",
            )

    # ------------------------------------------------------------------ texts
    def message_text(self, params: Mapping[str, Any]) -> FormattedText:
        text = params.get("text")
        if not text:
            raise bad_request(errors.TEXT_EMPTY, violation="text_empty")
        formatted = format_text(
            text, params.get("parse_mode"), params.get("entities"), allow_empty=False, empty_error=errors.TEXT_EMPTY
        )
        if char_count(formatted.text) > TEXT_MAX:
            raise bad_request(
                errors.TEXT_TOO_LONG,
                violation="text_length",
                detail=f"{char_count(formatted.text)} characters > {TEXT_MAX}",
            )
        return formatted

    def caption(self, source: Mapping[str, Any], parse_mode: str | None = None) -> FormattedText | None:
        caption = source.get("caption")
        if caption is None:
            return None
        entities = source.get("caption_entities")
        formatted = format_text(
            str(caption), source.get("parse_mode", parse_mode), entities, allow_empty=True, empty_error=""
        )
        if char_count(formatted.text) > CAPTION_MAX:
            raise bad_request(
                errors.CAPTION_TOO_LONG,
                violation="caption_length",
                detail=f"{char_count(formatted.text)} characters > {CAPTION_MAX}",
            )
        return formatted

    def callback_answer(self, params: Mapping[str, Any], note: Note) -> None:
        text = params.get("text")
        if isinstance(text, str) and char_count(text) > CALLBACK_TEXT_MAX:
            raise bad_request(
                errors.CALLBACK_TEXT_TOO_LONG,
                violation="callback_text_length",
                detail=f"{char_count(text)} characters > {CALLBACK_TEXT_MAX}",
            )
        url = params.get("url")
        if url:
            link = parse_deep_link(str(url))
            if link is None or link.parameter != "start" or link.bot.lower() != self.bot_username.lower():
                raise bad_request(
                    errors.URL_INVALID,
                    violation="callback_url",
                    detail=f"{url!r}: only t.me/{self.bot_username}?start=... links are allowed",
                )
            self.deep_link(str(url), "answerCallbackQuery url", note)

    # ------------------------------------------------------------------ markup and links
    def reply_markup(self, markup: Any, note: Note) -> dict[str, Any] | None:
        """Checks an (already type-checked) reply_markup; returns it with empty actions dropped."""
        if not isinstance(markup, dict):
            return None
        if "inline_keyboard" not in markup:
            return markup
        rows: list[list[dict[str, Any]]] = markup["inline_keyboard"]
        if sum(len(row) for row in rows) > INLINE_BUTTONS_MAX:
            raise bad_request(
                errors.REPLY_MARKUP_TOO_LONG, violation="markup_size", detail=f"more than {INLINE_BUTTONS_MAX} buttons"
            )
        clean_rows = []
        for row in rows:
            clean_rows.append([self._button(button, note) for button in row])
        return {**markup, "inline_keyboard": clean_rows}

    def _button(self, button: dict[str, Any], note: Note) -> dict[str, Any]:
        label = button.get("text", "")
        actions = self._action_set
        present = [  # the button's own keys (a few) rather than every kind of action; in spec order below
            name
            for name, value in button.items()
            if name in actions and value is not None and not (name in ("url", "callback_data") and value == "")
        ]
        if len(present) > 1:
            present.sort(key=self.button_actions.index)
        if not present:
            raise bad_request(
                errors.TEXT_BUTTONS_UNALLOWED, violation="button_action", detail=f"button {label!r} has no action"
            )
        if len(present) > 1:
            note("button_action", f"button {label!r} has {len(present)} actions {present}; exactly one is allowed")
        if label == "":
            note("button_text", "button with empty text")
        data = button.get("callback_data")
        if isinstance(data, str) and data and len(data.encode("utf-8")) > CALLBACK_DATA_MAX_BYTES:
            raise bad_request(
                errors.BUTTON_DATA_INVALID,
                violation="callback_data",
                detail=f"{data!r} is {len(data.encode())} bytes > {CALLBACK_DATA_MAX_BYTES}",
            )
        url = button.get("url")
        if isinstance(url, str) and url:
            if not normalize_url(url):
                raise bad_request(errors.BUTTON_URL_INVALID, violation="button_url", detail=repr(url))
            self.deep_link(url, f"button {label!r}", note)
        if button.get("url") == "" or button.get("callback_data") == "":
            return {k: v for k, v in button.items() if not (k in ("url", "callback_data") and v == "")}
        return button  # parsed from this request: nobody else holds it

    def deep_link(self, url: str, where: str, note: Note) -> DeepLink | None:
        link = parse_deep_link(url)
        if link is None or not link.parameter:
            return link
        if link.bot.lower() != self.bot_username.lower():
            note("deep_link_bot", f"{where}: {url!r} opens @{link.bot}, not @{self.bot_username}")
        payload = link.payload or ""
        if (payload or link.parameter == "start") and not DEEP_LINK_PAYLOAD.fullmatch(payload):
            note("deep_link_payload", f"{where}: payload {payload!r} of {url!r} is not [A-Za-z0-9_-]{{1,64}}")
        return link

    def bot_commands(self, commands: list[dict[str, Any]]) -> None:
        for command in commands:
            name = command.get("command", "")
            if not BOT_COMMAND.fullmatch(name):
                raise bad_request("BOT_COMMAND_INVALID", violation="bot_command", detail=repr(name))


def _scalar_ok(value: Any, base: str) -> bool:
    if base == "String":
        return isinstance(value, str)
    if base == "Integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, str) and bool(_INT.fullmatch(value))
        )
    if base == "Float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if base in ("Boolean", "True"):
        return isinstance(value, bool)
    if base == "InputFile":
        return isinstance(value, Upload) or (isinstance(value, str) and value.startswith("attach://"))
    return True

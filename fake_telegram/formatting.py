"""Message text as Telegram stores it: parse_mode applied, whitespace trimmed, entities in UTF-16.

Decisions (documented in the package README):

* Length limits (text 1-4096, caption 0-1024, callback answer 0-200) count **Unicode code points
  of the text after entity parsing and trimming**, as TDLib does (``utf8_length`` in
  ``MessageContent.cpp``: ``if (utf8_length(text) > message_text_length_max) "Message is too
  long"``).  Entity ``offset``/``length`` are **UTF-16 code units**, as the Bot API documents.
* HTML, MarkdownV2 and legacy Markdown are parsed with TDLib's rules and error wording
  ("Can't parse entities: Unsupported start tag "x" at byte offset 3", "Character '.' is
  reserved and must be escaped with the preceding '\\'"), byte offsets being UTF-8 offsets into
  the text as sent.  The parsers are our own, faithful to the documented behaviour; rare corner
  cases (nested pre/code languages, expandable block quotes in MarkdownV2) are simplified.
* Leading and trailing whitespace is trimmed (entities shifted and clipped), as TDLib's
  ``fix_formatted_text`` does; links, mentions, hashtags and /commands are detected automatically
  in the stored text, as Telegram does for bots' messages.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

import fake_telegram.errors as errors

from .errors import ApiError, bad_request

HTML_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "span",
        "pre",
        "code",
        "blockquote",
        "tg-time",
    }
)
_HTML_KIND = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "a": "text_link",
    "tg-emoji": "custom_emoji",
    "tg-time": "date_time",
}
_TDLIB_NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "code": "Code",
    "pre": "Pre",
    "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji",
    "blockquote": "BlockQuote",
}
_MDV2_RESERVED = "_*[]()~`>#+-=|{}.!"
_AUTO_TYPES = frozenset(
    {"mention", "hashtag", "cashtag", "bot_command", "url", "email", "phone_number", "bank_card_number"}
)
_NUMERIC_ENTITY = re.compile(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|lt|gt|amp|quot);?")
_HTML_SPECIAL = re.compile(r"[&<]")


def utf16_len(text: str) -> int:
    # str.isascii() is O(1) in CPython (a flag of the string), and ASCII is one UTF-16 unit per character.
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def char_count(text: str) -> int:
    """Characters as Telegram's limits count them: Unicode code points."""
    return len(text)


@dataclass(frozen=True)
class FormattedText:
    text: str
    entities: tuple[dict[str, Any], ...] = ()

    def json_entities(self) -> list[dict[str, Any]]:
        return list(self.entities)  # the dicts are never changed once stored: no need to copy them


class MarkupError(Exception):
    """A parse failure, worded like TDLib (the Bot API prefixes "Bad Request: can't parse entities: ")."""


@dataclass
class _Builder:
    """Collects output characters and entities, tracking the UTF-16 position."""

    parts: list[str] = field(default_factory=list)
    u16: int = 0
    entities: list[dict[str, Any]] = field(default_factory=list)

    def add(self, chunk: str) -> None:
        self.parts.append(chunk)
        self.u16 += utf16_len(chunk)

    def entity(self, kind: str, start: int, **extra: Any) -> None:
        if self.u16 > start:
            self.entities.append({"type": kind, "offset": start, "length": self.u16 - start, **extra})

    def text(self) -> str:
        return "".join(self.parts)


def _byte_offset(source: str, index: int) -> int:
    return len(source[:index].encode("utf-8"))


# ---------------------------------------------------------------- HTML


@dataclass
class _Tag:
    name: str
    attrs: dict[str, str]
    start: int
    byte: int
    language: str = ""


def _decode_entity(source: str, i: int) -> tuple[str | None, int]:
    match = _NUMERIC_ENTITY.match(source, i)
    if not match:
        return None, i
    name = match.group(1)
    if name.startswith("#"):
        code = int(name[2:], 16) if name[1:2] in ("x", "X") else int(name[1:])
        if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            return None, i
        return chr(code), match.end()
    return html.unescape(f"&{name};"), match.end()


def _parse_html_attrs(source: str, i: int, tag: str, byte: int) -> tuple[dict[str, str], int]:
    attrs: dict[str, str] = {}
    n = len(source)
    while True:
        while i < n and source[i].isspace():
            i += 1
        if i >= n:
            raise MarkupError(f'Unclosed start tag "{tag}" at byte offset {byte}')
        if source[i] == ">":
            return attrs, i + 1
        begin = i
        while i < n and not source[i].isspace() and source[i] not in "=>/\"'":
            i += 1
        name = source[begin:i].lower()
        if not name:
            raise MarkupError(f'Empty attribute name in the tag "{tag}" at byte offset {byte}')
        while i < n and source[i].isspace():
            i += 1
        if i >= n:
            raise MarkupError(f'Unclosed start tag "{tag}" at byte offset {byte}')
        if source[i] != "=":
            attrs[name] = ""
            continue
        i += 1
        while i < n and source[i].isspace():
            i += 1
        if i >= n:
            raise MarkupError(f'Unclosed start tag "{tag}" at byte offset {byte}')
        if source[i] in "\"'":
            quote = source[i]
            i += 1
            value: list[str] = []
            while i < n and source[i] != quote:
                if source[i] == "&":
                    decoded, j = _decode_entity(source, i)
                    if decoded is not None:
                        value.append(decoded)
                        i = j
                        continue
                value.append(source[i])
                i += 1
            if i >= n:
                raise MarkupError(f'Unclosed start tag "{tag}" at byte offset {byte}')
            i += 1
            attrs[name] = "".join(value)
        else:
            begin = i
            while i < n and (source[i].isalnum() or source[i] in ".-"):
                i += 1
            if i < n and not source[i].isspace() and source[i] != ">":
                raise MarkupError(f"Unexpected end of name token at byte offset {_byte_offset(source, begin)}")
            attrs[name] = source[begin:i].lower()


def _close_html(out: _Builder, tag: _Tag, stack: list[_Tag]) -> None:
    kind = _HTML_KIND[tag.name]
    if tag.name == "code" and stack and stack[-1].name == "pre":
        stack[-1].language = (
            tag.attrs.get("class", "").removeprefix("language-")
            if tag.attrs.get("class", "").startswith("language-")
            else ""
        )
        return
    if kind == "pre":
        language: dict[str, Any] = {"language": tag.language} if tag.language else {}
        out.entity("pre", tag.start, **language)
    elif kind == "text_link":
        href = tag.attrs.get("href", "")
        if href and not href.startswith("tg://user?id=") and normalize_url(href):
            out.entity("text_link", tag.start, url=normalize_url(href))
    elif kind == "blockquote":
        out.entity("expandable_blockquote" if "expandable" in tag.attrs else "blockquote", tag.start)
    elif kind == "custom_emoji":
        if tag.attrs.get("emoji-id"):
            out.entity("custom_emoji", tag.start, custom_emoji_id=tag.attrs["emoji-id"])
    elif kind == "date_time":
        when: dict[str, Any] = {}
        if tag.attrs.get("unix", "").isdigit():
            when["unix_time"] = int(tag.attrs["unix"])
        if tag.attrs.get("format"):
            when["date_time_format"] = tag.attrs["format"]
        out.entity("date_time", tag.start, **when)
    else:
        out.entity(kind, tag.start)


def parse_html(source: str) -> tuple[str, list[dict[str, Any]]]:
    out = _Builder()
    stack: list[_Tag] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "&":
            decoded, j = _decode_entity(source, i)
            if decoded is not None:
                out.add(decoded)
                i = j
                continue
        if ch != "<":  # plain text (or an "&" that starts no entity) up to the next "&" or "<", in one piece
            special = _HTML_SPECIAL.search(source, i + 1)
            j = special.start() if special else n
            out.add(source[i:j])
            i = j
            continue
        byte = _byte_offset(source, i)
        i += 1
        if i < n and source[i] == "/":
            i += 1
            begin = i
            while i < n and not source[i].isspace() and source[i] != ">":
                i += 1
            name = source[begin:i].lower()
            while i < n and source[i].isspace():
                i += 1
            if i >= n or source[i] != ">":
                raise MarkupError(f"Unclosed end tag at byte offset {byte}")
            i += 1
            if not stack:
                raise MarkupError(f"Unexpected end tag at byte offset {byte}")
            if name and name != stack[-1].name:
                raise MarkupError(
                    f'Unmatched end tag at byte offset {byte}, expected "</{stack[-1].name}>", found "</{name}>"'
                )
            tag = stack.pop()
            _close_html(out, tag, stack)
            continue
        begin = i
        while i < n and not source[i].isspace() and source[i] != ">":
            i += 1
        if i >= n:
            raise MarkupError(f"Unclosed start tag at byte offset {byte}")
        name = source[begin:i].lower()
        if name not in HTML_TAGS:
            raise MarkupError(f'Unsupported start tag "{name}" at byte offset {byte}')
        attrs, i = _parse_html_attrs(source, i, name, byte)
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise MarkupError(f'Tag "span" must have class "tg-spoiler" at byte offset {byte}')
        stack.append(_Tag(name, attrs, out.u16, byte))
    if stack:
        raise MarkupError(f'Can\'t find end tag corresponding to start tag "{stack[-1].name}"')
    return out.text(), out.entities


# ---------------------------------------------------------------- MarkdownV2


@dataclass
class _Open:
    kind: str
    start: int
    byte: int
    language: str = ""
    part: int = 0  # index into the builder's parts where the entity's text begins


def _mdv2_closes(top: _Open, source: str, i: int) -> int:
    """Width of the closing marker of ``top`` at ``i`` (0 if none)."""
    ch = source[i]
    nxt = source[i + 1 : i + 2]
    if top.kind == "bold" and ch == "*":
        return 1
    if top.kind == "italic" and ch == "_" and nxt != "_":
        return 1
    if top.kind == "underline" and source.startswith("__", i):
        return 2
    if top.kind == "strikethrough" and ch == "~":
        return 1
    if top.kind == "spoiler" and source.startswith("||", i):
        return 2
    if top.kind in ("text_link", "custom_emoji") and ch == "]":
        return 1
    return 0


def _mdv2_link_target(source: str, i: int) -> tuple[str | None, int]:
    """After ``]``: the ``(url)`` part, unescaping ``\\)`` and ``\\\\``."""
    if i >= len(source) or source[i] != "(":
        return None, i
    i += 1
    url: list[str] = []
    while i < len(source) and source[i] != ")":
        if source[i] == "\\" and i + 1 < len(source):
            url.append(source[i + 1])
            i += 2
            continue
        url.append(source[i])
        i += 1
    if i >= len(source):
        raise MarkupError(f"Can't find end of a URL at byte offset {_byte_offset(source, i)}")
    return "".join(url), i + 1


def parse_markdown_v2(source: str) -> tuple[str, list[dict[str, Any]]]:
    out = _Builder()
    stack: list[_Open] = []
    quote: _Open | None = None
    line_start = True
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        top = stack[-1] if stack else None
        if ch == "\\" and i + 1 < n and 0 < ord(source[i + 1]) <= 126:
            out.add(source[i + 1])
            line_start = False
            i += 2
            continue
        if top is not None and top.kind in ("code", "pre"):
            if top.kind == "pre" and source.startswith("```", i):
                stack.pop()
                extra = {"language": top.language} if top.language else {}
                out.entity("pre", top.start, **extra)
                i += 3
            elif top.kind == "code" and ch == "`":
                stack.pop()
                out.entity("code", top.start)
                i += 1
            else:
                out.add(ch)
                i += 1
            continue
        if ch == "\n":
            if quote is not None and not source.startswith(">", i + 1):
                out.entity("blockquote", quote.start)
                quote = None
            out.add(ch)
            line_start = True
            i += 1
            continue
        if ch not in _MDV2_RESERVED:
            out.add(ch)
            line_start = False
            i += 1
            continue
        if top is not None and (width := _mdv2_closes(top, source, i)):
            stack.pop()
            i += width
            if top.kind == "text_link":
                url, i = _mdv2_link_target(source, i)
                target = normalize_url(url if url is not None else "".join(out.parts[top.part :]))
                if target and not (url or "").startswith("tg://user?id="):
                    out.entity("text_link", top.start, url=target)
            elif top.kind == "custom_emoji":
                url, i = _mdv2_link_target(source, i)
                emoji_id = (url or "").removeprefix("tg://emoji?id=")
                if not url or not url.startswith("tg://emoji?id="):
                    raise MarkupError("Custom emoji entity must contain a tg://emoji URL")
                out.entity("custom_emoji", top.start, custom_emoji_id=emoji_id)
            else:
                out.entity(top.kind, top.start)
            line_start = False
            continue
        byte = _byte_offset(source, i)
        if ch == ">" and line_start:
            if quote is None:
                quote = _Open("blockquote", out.u16, byte)
            i += 1
            line_start = False
            continue
        if source.startswith("```", i):
            j = i + 3
            end_of_line = source.find("\n", j)
            language = source[j:end_of_line].strip() if end_of_line != -1 else ""
            if language and not re.fullmatch(r"[^\s`]+", language):
                language = ""
            stack.append(_Open("pre", out.u16, byte, language))
            i = end_of_line + 1 if language and end_of_line != -1 else j
            continue
        openers = {"*": ("bold", 1), "~": ("strikethrough", 1), "`": ("code", 1), "[": ("text_link", 1)}
        if source.startswith("__", i):
            kind, width = "underline", 2
        elif ch == "_":
            kind, width = "italic", 1
        elif source.startswith("||", i):
            kind, width = "spoiler", 2
        elif source.startswith("![", i):
            kind, width = "custom_emoji", 2
        elif ch in openers:
            kind, width = openers[ch]
        else:
            raise MarkupError(f"Character '{ch}' is reserved and must be escaped with the preceding '\\'")
        stack.append(_Open(kind, out.u16, byte, part=len(out.parts)))
        i += width
        line_start = False
    if stack:
        top = stack[-1]
        raise MarkupError(f"Can't find end of {_TDLIB_NAMES.get(top.kind, top.kind)} entity at byte offset {top.byte}")
    if quote is not None:
        out.entity("blockquote", quote.start)
    return out.text(), out.entities


# ---------------------------------------------------------------- Markdown (legacy)


def parse_markdown(source: str) -> tuple[str, list[dict[str, Any]]]:
    out = _Builder()
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\" and i + 1 < n and source[i + 1] in "_*`[":
            out.add(source[i + 1])
            i += 2
            continue
        if ch not in "_*`[":
            out.add(ch)
            i += 1
            continue
        byte = _byte_offset(source, i)
        start = out.u16
        if source.startswith("```", i):
            end = source.find("```", i + 3)
            if end == -1:
                raise MarkupError(f"Can't find end of the entity starting at byte offset {byte}")
            body = source[i + 3 : end]
            language = ""
            first, sep, rest = body.partition("\n")
            if sep and first and re.fullmatch(r"[^\s`]+", first):
                language, body = first, rest
            out.add(body)
            out.entity("pre", start, **({"language": language} if language else {}))
            i = end + 3
            continue
        if ch == "[":
            end = source.find("]", i + 1)
            if end == -1:
                raise MarkupError(f"Can't find end of the entity starting at byte offset {byte}")
            out.add(source[i + 1 : end])
            i = end + 1
            if source.startswith("(", i):
                close = source.find(")", i)
                if close == -1:
                    raise MarkupError(f"Can't find end of a URL at byte offset {_byte_offset(source, i)}")
                url = normalize_url(source[i + 1 : close])
                if url:
                    out.entity("text_link", start, url=url)
                i = close + 1
            continue
        end = source.find(ch, i + 1)
        if end == -1:
            raise MarkupError(f"Can't find end of the entity starting at byte offset {byte}")
        out.add(source[i + 1 : end])
        out.entity({"_": "italic", "*": "bold", "`": "code"}[ch], start)
        i = end + 1
    return out.text(), out.entities


# ---------------------------------------------------------------- links and automatic entities

_URL_SCHEME = re.compile(r"^(https?|tg|ton)://", re.IGNORECASE)
_BARE_HOST = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.-]*\.[A-Za-z]{2,}(?:[/?#:]|$)")


def normalize_url(url: str) -> str:
    """The URL Telegram would store for a link, or "" if it is not a valid link."""
    url = url.strip()
    if not url or any(c.isspace() for c in url):
        return ""
    if _URL_SCHEME.match(url):
        return url
    if "://" in url:
        return ""
    if _BARE_HOST.match(url):
        return f"http://{url}"
    return ""


# (type, pattern, a substring every match contains: texts without it are not scanned)
_AUTO = [
    ("bot_command", re.compile(r"(?<![^\s(])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z][A-Za-z0-9_]{2,31})?(?![\w/@])"), "/"),
    ("mention", re.compile(r"(?<![^\s(])@[A-Za-z][A-Za-z0-9_]{3,31}(?![\w@])"), "@"),
    ("hashtag", re.compile(r"(?<![^\s(])#\w+"), "#"),
    ("url", re.compile(r"(?<![^\s(])(?:https?://|tg://|t\.me/)[^\s<>\"]+"), "/"),
]


def detect_entities(
    text: str, existing: list[dict[str, Any]] | tuple[dict[str, Any], ...] = ()
) -> list[dict[str, Any]]:
    """Entities Telegram finds by itself: /commands, @mentions, #hashtags, links."""
    blocked = [(e["offset"], e["offset"] + e["length"]) for e in existing if e["type"] in ("code", "pre", "text_link")]
    found: list[dict[str, Any]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern, needle in _AUTO:
        if needle not in text:
            continue
        for match in pattern.finditer(text):
            value = match.group(0)
            if kind == "url":
                value = value.rstrip(".,;:!?)'")
            start = utf16_len(text[: match.start()])
            end = start + utf16_len(value)
            if any(s < end and start < e for s, e in blocked + taken):
                continue
            taken.append((start, end))
            found.append({"type": kind, "offset": start, "length": end - start})
    return found


def sort_entities(entities: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    return tuple(sorted(entities, key=lambda e: (e["offset"], -e["length"])))


def _trim(text: str, entities: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    stripped_left = text[: len(text) - len(text.lstrip())]
    result = text.strip()
    shift = utf16_len(stripped_left)
    total = utf16_len(result)
    trimmed: list[dict[str, Any]] = []
    for entity in entities:
        start = max(entity["offset"] - shift, 0)
        end = min(entity["offset"] + entity["length"] - shift, total)
        if end > start:
            trimmed.append({**entity, "offset": start, "length": end - start})
    return result, trimmed


def format_text(
    text: str | None,
    parse_mode: str | None,
    entities: list[dict[str, Any]] | None,
    *,
    allow_empty: bool,
    empty_error: str,
) -> FormattedText:
    """Apply ``parse_mode`` (or the explicit ``entities``) the way the Bot API does.

    ``empty_error`` is the text used when nothing is left ("message text is empty" for messages);
    captions pass ``allow_empty=True``.
    """
    text = text or ""
    mode = (parse_mode or "").lower()
    parsed: list[dict[str, Any]]
    had_markup = False
    if text and mode and mode != "none":
        parsers = {"html": parse_html, "markdownv2": parse_markdown_v2, "markdown": parse_markdown}
        if mode not in parsers:
            raise bad_request("unsupported parse_mode", violation="parse_mode", detail=f"parse_mode={parse_mode!r}")
        try:
            text, parsed = parsers[mode](text)
        except MarkupError as exc:
            message = str(exc)
            raise bad_request(
                f"can't parse entities: {message}", violation="parse_entities", detail=f"{parse_mode}: {text!r}"
            ) from exc
        had_markup = True
    else:
        parsed = [dict(e) for e in entities or () if e.get("type") not in _AUTO_TYPES]
    text, parsed = _trim(text, parsed)
    if not text and not allow_empty:
        raise ApiError(400, errors.TEXT_MUST_BE_NON_EMPTY if had_markup else empty_error, violation="text_empty")
    parsed.extend(detect_entities(text, parsed))
    return FormattedText(text, sort_entities(parsed))

"""Request bodies: query strings, ``application/x-www-form-urlencoded``, JSON and ``multipart/form-data``.

aiohttp's own ``request.post()`` and ``request.content_type`` parse every header with the
``email`` package and every Content-Disposition with per-call regular expressions, which made
them most of the fake's CPU per call.  Here the body (read whole by :mod:`.httpserver`, which
enforces the upload limit) is parsed directly; the outcome is the same as aiohttp's for every
well-formed request: the last value of a repeated field wins, text parts are decoded with their
charset (UTF-8 by default), a part with a filename is an upload (``application/octet-stream``
when it names no type).  A body that is not well-formed (no boundary, a part without a name, no
closing delimiter, text that is not UTF-8) is answered with a 400 and recorded as a violation.
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple
from urllib.parse import parse_qsl, unquote

from .errors import ApiError, bad_request
from .httpserver import Request
from .media import Upload

POST_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE", "TRACE"})  # aiohttp reads a form only for these
FORM_TYPES = frozenset({"", "application/x-www-form-urlencoded", "multipart/form-data"})
MALFORMED = "Bad Request: can't parse multipart/form-data request body"
NOT_UTF8 = "Bad Request: strings must be encoded in UTF-8"

_TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
# One ``; key=value`` of a header, the value a token or a quoted-string (RFC 9110 5.6.6).
_PARAM = re.compile(rf'\s*;\s*({_TOKEN})\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;"\s]*))\s*')
_ESCAPED = re.compile(r"\\(.)")
_HEAD_CACHE_SIZE = 4096  # part headers repeat from call to call ('form-data; name="chat_id"'): parsed once


class PartHead(NamedTuple):
    name: str
    filename: str | None
    content_type: str  # as sent ("" if none)
    charset: str


_heads: dict[bytes, PartHead] = {}


def header_params(header: str) -> tuple[str, dict[str, str]]:
    """``'form-data; name="a"; filename*=utf-8''%C3%A9'`` -> ``("form-data", {"name": "a", "filename": "é"})``.

    Keys are lowercased; quoted values unescaped; RFC 5987 ``key*`` values decoded and preferred.
    Raises ``ValueError`` for text that is not a list of parameters.

    >>> header_params('multipart/form-data; boundary="ab c"')
    ('multipart/form-data', {'boundary': 'ab c'})
    """
    main, semicolon, rest = header.partition(";")
    params: dict[str, str] = {}
    if not semicolon:
        return main.strip().lower(), params
    rest = ";" + rest
    pos, end = 0, len(rest.rstrip())
    while pos < end:
        match = _PARAM.match(rest, pos)
        if match is None:
            raise ValueError(f"bad parameters in {header!r}")
        key, quoted, token = match.groups()
        value = (_ESCAPED.sub(r"\1", quoted) if "\\" in quoted else quoted) if quoted is not None else token
        key = key.lower()
        if key.endswith("*"):
            if value.count("'") < 2:  # charset'language'percent-encoded (RFC 5987)
                raise ValueError(f"bad extended parameter in {header!r}")
            charset, _language, encoded = value.split("'", 2)
            try:
                value = unquote(encoded, charset or "utf-8", "strict")
            except (LookupError, UnicodeDecodeError) as exc:
                raise ValueError(f"bad extended parameter in {header!r}") from exc
            params[key[:-1]] = value
        else:
            params.setdefault(key, value)
        pos = match.end()
    return main.strip().lower(), params


def _text(data: bytes, charset: str = "utf-8") -> str:
    try:
        return data.decode(charset)
    except (LookupError, UnicodeDecodeError) as exc:
        raise bad_request(NOT_UTF8, violation="malformed_body", detail=str(exc)) from exc


def _malformed(detail: str) -> ApiError:
    return bad_request(MALFORMED, violation="malformed_body", detail=detail)


def parse_multipart(body: bytes, boundary: str) -> tuple[dict[str, str], dict[str, Upload]]:
    """Fields and uploads of a ``multipart/form-data`` body (RFC 7578, RFC 2046 5.1.1).

    >>> body = b'--b\\r\\nContent-Disposition: form-data; name="chat_id"\\r\\n\\r\\n5\\r\\n--b--\\r\\n'
    >>> parse_multipart(body, "b")
    ({'chat_id': '5'}, {})
    """
    fields: dict[str, str] = {}
    files: dict[str, Upload] = {}
    if not boundary:
        raise _malformed("no boundary in Content-Type")
    dash = b"--" + boundary.encode("latin-1")
    delimiter = b"\r\n" + dash
    if body.startswith(dash):
        pos = len(dash)
    else:  # a preamble before the first delimiter
        found = body.find(delimiter)
        if found < 0:
            raise _malformed("no delimiter")
        pos = found + len(delimiter)
    while True:
        if body.startswith(b"--", pos):
            return fields, files  # the close delimiter; an epilogue after it is ignored
        line_end = body.find(b"\r\n", pos)
        if line_end < 0 or body[pos:line_end].strip(b" \t"):
            raise _malformed("no line break after a delimiter")
        start = line_end + 2
        if body.startswith(b"\r\n", start):
            head, content_start = b"", start + 2
        else:
            head_end = body.find(b"\r\n\r\n", start)
            if head_end < 0:
                raise _malformed("part headers never end")
            head, content_start = body[start:head_end], head_end + 4
        content_end = body.find(delimiter, content_start)
        if content_end < 0:
            raise _malformed("no closing delimiter")
        _add_part(head, body[content_start:content_end], fields, files)
        pos = content_end + len(delimiter)


def part_head(head: bytes) -> PartHead:
    """The name, filename, type and charset in a part's headers (``ValueError`` if they are malformed)."""
    headers: dict[str, str] = {}
    for line in head.decode("utf-8", "replace").split("\r\n"):
        key, colon, value = line.partition(":")
        if not colon:
            raise ValueError(f"bad part header {line!r}")
        headers[key.strip().lower()] = value.strip()
    _, disposition = header_params(headers.get("content-disposition", ""))
    content_type = headers.get("content-type", "")
    type_params = header_params(content_type)[1] if content_type else {}
    name = disposition.get("name")
    if name is None:
        raise ValueError("a part without a name")
    return PartHead(name, disposition.get("filename") or None, content_type, type_params.get("charset", "utf-8"))


def _add_part(head: bytes, content: bytes, fields: dict[str, str], files: dict[str, Upload]) -> None:
    parsed = _heads.get(head)
    if parsed is None:
        try:
            parsed = part_head(head)
        except ValueError as exc:
            raise _malformed(str(exc)) from exc
        if len(_heads) >= _HEAD_CACHE_SIZE:
            _heads.clear()
        _heads[head] = parsed
    if parsed.filename:
        files[parsed.name] = Upload(
            parsed.name, parsed.filename, parsed.content_type or "application/octet-stream", content
        )
    else:
        fields[parsed.name] = _text(content, parsed.charset)


def decode(request: Request) -> tuple[dict[str, Any], dict[str, Upload]]:
    """Parameters and uploaded files of a request, whatever its encoding (query string values first)."""
    if request.too_large:
        raise ApiError(413, "Request Entity Too Large")
    raw: dict[str, Any] = request.query if request.query_string else {}
    files: dict[str, Upload] = {}
    body = request.body
    if not body:
        return raw, files
    header = request.headers.get("content-type")
    try:  # as aiohttp: a body without a Content-Type is application/octet-stream, not a form
        content_type, params = header_params(header) if header is not None else ("application/octet-stream", {})
    except ValueError as exc:
        raise bad_request(MALFORMED, violation="malformed_body", detail=str(exc)) from exc
    if content_type == "application/json":
        if body.strip():
            try:
                data = json.loads(body)
            except ValueError as exc:
                raise ApiError(400, "Bad Request: can't parse JSON request body") from exc
            if not isinstance(data, dict):
                raise ApiError(400, "Bad Request: JSON object expected as request body")
            raw.update(data)
        return raw, files
    if request.method not in POST_METHODS or content_type not in FORM_TYPES:
        return raw, files
    if content_type == "multipart/form-data":
        fields, files = parse_multipart(body, params.get("boundary", ""))
        raw.update(fields)
    else:
        charset = params.get("charset", "utf-8")
        raw.update(parse_qsl(_text(body.rstrip(), charset), keep_blank_values=True, encoding=charset))
    return raw, files

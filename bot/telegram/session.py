"""aiogram's aiohttp session: every request body built in memory and written in one piece, and a
long poll that hangs given up in time.

aiogram gives aiohttp a ``FormData`` whose uploads are async generators; aiohttp then writes a
photo upload as a chunked multipart body, one socket write per boundary, header and chunk. The
bot's pictures are already bytes in memory, so the whole body is built at once and written in
one go, which takes a good part of the event loop's cost per move (see ``bench/bot.py``).
Any other kind of upload goes the library's own way.

A ``getUpdates`` whose connection stays open with nothing coming (a proxy or a half-open
connection that swallowed the answer) would hold the bot's only poll: aiogram waits
``REQUEST_TIMEOUT`` (meant for uploads, up to 300 s) on top of the long poll's own seconds, and
no update is taken meanwhile. Telegram answers a long poll by its ``timeout``, so one that has
said nothing :data:`LONG_POLL_GRACE` seconds later is given up; aiogram's polling loop then asks
again. Every other request keeps the session's timeout (``REQUEST_TIMEOUT``).
"""

from __future__ import annotations

import secrets
from enum import Enum
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlencode

from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods import GetUpdates
from aiogram.types import BufferedInputFile, InputFile
from aiohttp import FormData
from aiohttp.payload import BytesPayload

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import TelegramMethod
    from aiogram.methods.base import TelegramType

# Seconds past its own long-poll timeout that a getUpdates may stay unanswered before it is given up.
LONG_POLL_GRACE = 10


def request_timeout(method: TelegramMethod[Any], timeout: int | None) -> int | None:
    """The seconds ``method`` may take: a long poll its own ``timeout`` and :data:`LONG_POLL_GRACE`
    (or less if the caller asked for less); anything else what the caller asked (None: the session's).

    >>> request_timeout(GetUpdates(timeout=30), 90)
    40
    >>> request_timeout(GetUpdates(), None)
    10
    >>> from aiogram.methods import SendMessage
    >>> request_timeout(SendMessage(chat_id=1, text="a"), None) is None
    True
    """
    if isinstance(method, GetUpdates):
        deadline = (method.timeout or 0) + LONG_POLL_GRACE
        return deadline if timeout is None else min(timeout, deadline)
    return timeout


class OneWriteSession(AiohttpSession):
    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        return await super().make_request(bot, method, request_timeout(method, timeout))

    def build_form_data(self, bot: Bot, method: TelegramMethod[Any]) -> FormData:
        files: dict[str, InputFile] = {}
        fields: list[tuple[str, str]] = []
        for key, value in method.model_dump(warnings=False).items():
            prepared = self.prepare_value(value, bot=bot, files=files)
            if prepared:
                # A str enum (a default parse_mode) as its value: "HTML", not "ParseMode.HTML".
                fields.append((key, str(prepared.value if isinstance(prepared, Enum) else prepared)))
        if not files:
            body = BytesPayload(urlencode(fields).encode(), content_type="application/x-www-form-urlencoded")
        elif all(isinstance(file, BufferedInputFile) for file in files.values()):
            body = multipart(fields, cast(dict[str, BufferedInputFile], files))
        else:
            return super().build_form_data(bot, method)
        # aiohttp takes any payload where a FormData may go (``ClientSession.post(data=...)``).
        return cast(FormData, body)


def multipart(fields: list[tuple[str, str]], files: dict[str, BufferedInputFile]) -> BytesPayload:
    r"""A ``multipart/form-data`` body (RFC 7578) of text fields and in-memory files.

    >>> body = multipart([("chat_id", "5")], {"a": BufferedInputFile(b"PNG", "t.png")})
    >>> body.content_type.startswith("multipart/form-data; boundary=")
    True
    >>> b'name="a"; filename="t.png"' in body._value and body._value.endswith(b"--\r\n")
    True
    """
    boundary = secrets.token_hex(16)
    parts: list[bytes] = []
    for name, value in fields:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, file in files.items():
        filename = (file.filename or name).replace("\\", "\\\\").replace('"', '\\"').replace("\r", "").replace("\n", "")
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        )
        parts.append(head.encode() + file.data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return BytesPayload(b"".join(parts), content_type=f"multipart/form-data; boundary={boundary}")

"""A script's view of the page protocol (``PROTOCOL.md``): one person's chats, kept up to date from the WebSocket.

For tests and benchmarks that drive the sandbox without a browser:

    async with aiohttp.ClientSession() as session:
        page = await Page.open(session, "http://127.0.0.1:8080", person_id)
        message_id, data = await page.wait(lambda: page.button(person_id, "s:preset:"), "the menu")
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import aiohttp

TIMEOUT = 20.0


class Page:
    """What one person's page is told over the WebSocket: the chats, kept up to date."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.chats: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, dict[int, dict[str, Any]]] = {}
        self.answers: list[dict[str, Any]] = []
        self.world: dict[str, Any] = {}
        self.frames = 0

    def take(self, frame: dict[str, Any]) -> None:
        self.frames += 1
        if frame["type"] == "world":
            self.world = frame
        elif frame["type"] == "chat":
            chat = frame["chat"]
            self.chats[chat["id"]] = chat
            self.messages[chat["id"]] = {m["id"]: m for m in chat["messages"]}
        elif frame["type"] == "message":
            message = frame["message"]
            shown = self.messages.setdefault(frame["chat_id"], {})
            if message["deleted"]:
                shown.pop(message["id"], None)
            else:
                shown[message["id"]] = message
        elif frame["type"] == "answer":
            self.answers.append(frame)

    async def wait(self, found: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
        deadline = asyncio.get_running_loop().time() + timeout
        while not (value := found()):
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise AssertionError(f"{what} not seen within {timeout} s; chats: {json.dumps(self.messages)[-3000:]}")
            try:
                frame = await asyncio.wait_for(self.socket.receive_json(), remaining)
            except TimeoutError:
                continue
            self.take(frame)
        return value

    async def settle(self, quiet: float = 2.0) -> None:
        """Until nothing new came for ``quiet`` seconds."""
        while True:
            try:
                self.take(await asyncio.wait_for(self.socket.receive_json(), quiet))
            except TimeoutError:
                return

    def find(
        self, chat_id: int, test: Callable[[dict[str, str]], bool], *, newest_only: bool = False
    ) -> tuple[int, str] | None:
        """The newest message in the chat with a callback button that passes ``test``: (message id, data).
        ``newest_only``: look only at the newest message that has buttons (the current hand)."""
        with_buttons = [m for m in self.messages.get(chat_id, {}).values() if m["buttons"]]
        for message in sorted(with_buttons, key=lambda m: -m["id"])[: 1 if newest_only else None]:
            for row in message["buttons"]:
                for button in row:
                    if "data" in button and test(button):
                        return message["id"], button["data"]
        return None

    def button(self, chat_id: int, prefix: str) -> tuple[int, str] | None:
        """The newest button whose data starts with ``prefix``."""
        return self.find(chat_id, lambda button: button["data"].startswith(prefix))

    def labelled_button(self, chat_id: int, starts: tuple[str, ...]) -> tuple[int, str] | None:
        """A button of the newest keyboard whose label starts with one of ``starts``."""
        return self.find(chat_id, lambda button: button["text"].startswith(starts), newest_only=True)

    def texts(self, chat_id: int) -> list[str]:
        return [m["html"] for m in sorted(self.messages.get(chat_id, {}).values(), key=lambda m: m["id"])]

    @classmethod
    async def open(cls, session: aiohttp.ClientSession, url: str, person: int) -> Page:
        page = cls(await session.ws_connect(f"{url}/ws?person={person}"))
        await page.wait(lambda: page.world and person in page.chats, "the first frames")
        return page

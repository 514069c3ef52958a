"""Pushing what changes to the open pages: one WebSocket per page, frames as in ``PROTOCOL.md``.

Every entry the fake records (a bot request answered, a person's action) marks its chat; soon
after, on the event loop, each marked chat's messages are compared with what was pushed last
(a message's edit count and deleted flag change whenever it does) and the changed ones go to
the pages of the people who see that chat. An answer to a tap goes to the page of the person
who tapped. One lock orders every send, so a page never gets an older state after a newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from aiohttp import web

from fake_telegram import Entry, FakeTelegram
from fake_telegram.state import Chat, User

from .cast import Cast
from .views import can_see, chat_view, message_view, person_view

log = logging.getLogger(__name__)


class Hub:
    def __init__(self, fake: FakeTelegram, cast: Cast) -> None:
        self.fake = fake
        self.cast = cast
        self.pages: dict[int, set[web.WebSocketResponse]] = {}
        self._pushed: dict[tuple[int, int], tuple[int, bool]] = {}
        self._marked: set[int] = set()
        self._answers: list[str] = []
        self._wake = asyncio.Event()
        self._order = asyncio.Lock()
        fake.recorder.listeners.append(self._on_entry)

    async def run(self) -> None:
        """Push what changed, for as long as the sandbox runs (one task)."""
        for chat in self.fake.world.chats.values():  # what a page's first frames hold already
            for message in chat.messages.values():
                self._pushed[chat.id, message.message_id] = (message.edits, message.deleted)
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                async with self._order:
                    await self._flush()
            except Exception:  # a page's trouble must not stop the others' updates
                log.exception("pushing changes to the pages failed")

    # ------------------------------------------------------------------ pages
    def world_frame(self) -> dict[str, Any]:
        bot = self.fake.bot
        group = self.cast.group
        return {
            "type": "world",
            "bot": {"id": bot.id, "username": bot.username, "name": bot.first_name},
            "people": [person_view(person, group) for person in self.cast.people],
            "group": None if group is None else {"id": group.id, "title": group.title, "type": group.type},
        }

    def chat_frames(self, person: User) -> list[dict[str, Any]]:
        frames = []
        group = self.cast.group
        if group is not None and can_see(group, person):
            frames.append({"type": "chat", "chat": chat_view(group, person, self.fake.world, group.title or "")})
        private = self.fake.world.private_chat(person)
        frames.append({"type": "chat", "chat": chat_view(private, person, self.fake.world, self.fake.bot.first_name)})
        return frames

    async def serve(self, page: web.WebSocketResponse, person: User) -> None:
        """Send the whole picture, then keep the page until it goes (it sends nothing we need)."""
        try:
            async with self._order:
                for frame in [self.world_frame(), *self.chat_frames(person)]:
                    await page.send_str(json.dumps(frame, ensure_ascii=False))
                self.pages.setdefault(person.id, set()).add(page)
            async for _ in page:
                pass
        finally:
            self.pages.get(person.id, set()).discard(page)

    async def refresh(self) -> None:
        """People or the group changed: every page gets the world and its chats again."""
        async with self._order:
            await self._flush()
            for person_id in list(self.pages):
                person = self.cast.person(person_id)
                if person is not None:
                    for frame in [self.world_frame(), *self.chat_frames(person)]:
                        await self._send(person_id, frame)

    async def close(self, reason: str) -> None:
        for pages in list(self.pages.values()):
            for page in list(pages):
                with contextlib.suppress(Exception):
                    await page.send_str(json.dumps({"type": "closed", "reason": reason}))
                    await page.close()

    # ------------------------------------------------------------------ changes
    def _on_entry(self, entry: Entry) -> None:
        if entry.chat_id is not None:
            self._marked.add(entry.chat_id)
        if entry.method == "answerCallbackQuery" and entry.ok:
            self._answers.append(str(entry.params.get("callback_query_id", "")))
        if self._marked or self._answers:
            self._wake.set()

    async def _flush(self) -> None:
        marked, self._marked = self._marked, set()
        answers, self._answers = self._answers, []
        for chat_id in marked:
            chat = self.fake.world.chats.get(chat_id)
            if chat is not None:
                await self._push_changes(chat)
        for callback_id in answers:
            await self._push_answer(callback_id)

    async def _push_changes(self, chat: Chat) -> None:
        changed = []
        for message in chat.messages.values():
            key, signature = (chat.id, message.message_id), (message.edits, message.deleted)
            if self._pushed.get(key) != signature:
                self._pushed[key] = signature
                changed.append(message)
        if not changed:
            return
        viewers = [person for person in map(self.cast.person, list(self.pages)) if person and can_see(chat, person)]
        for message in changed:
            frame = {"type": "message", "chat_id": chat.id, "message": message_view(message, self.fake.world)}
            for person in viewers:
                await self._send(person.id, frame)

    async def _push_answer(self, callback_id: str) -> None:
        query = self.fake.world.callbacks.get(callback_id)
        if query is None or query.answer is None:
            return
        answer = query.answer
        frame = {
            "type": "answer",
            "chat_id": query.chat_id,
            "message_id": query.message_id,
            "text": str(answer.get("text") or ""),
            "show_alert": bool(answer.get("show_alert")),
            "url": answer.get("url"),
        }
        await self._send(query.user_id, frame)

    async def _send(self, person_id: int, frame: dict[str, Any]) -> None:
        text = json.dumps(frame, ensure_ascii=False)
        for page in list(self.pages.get(person_id, ())):
            try:
                await page.send_str(text)
            except (ConnectionError, RuntimeError):
                self.pages.get(person_id, set()).discard(page)

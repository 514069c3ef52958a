"""The open table pages, and every committed change of their games sent to them.

The presenter calls :meth:`TablePages.publish` with each game as committed, before it starts
bringing the chat messages up to date (those wait for Telegram's budgets; a page must not).
Each page gets the frame for its own seat, in its reader's language, in the order the changes
were committed: one sender task per game keeps that order, and a page that cannot keep up
(its socket's buffer full) is closed rather than allowed to hold the others back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.display.table_frame import table_frame
from bot.model.game import Game
from bot.words.i18n import speaking

log = logging.getLogger(__name__)

SEND_TIMEOUT = 5.0
CLOSING = {"type": "closed", "reason": "stopping"}  # i18n: not shown (the page says it in its own words)


@dataclass(eq=False)
class TablePage:
    socket: web.WebSocketResponse
    game_id: int
    user_id: int
    seat: int | None  # None: a spectator
    language: str
    sent_version: int = -1
    sent_row: int = -1  # the stored game's version last sent: a commit and then its showing build one frame
    sent_text: str = ""  # the last frame sent: a newer version that shows the same (bookkeeping) is not resent
    closed: asyncio.Event = field(default_factory=asyncio.Event)

    def frame(self, game: Game) -> dict[str, Any]:
        seat = game.doc.seat_of(self.user_id)  # a seat taken over meanwhile (a rematch, a kick) counts
        self.seat = seat
        with speaking(self.language):
            return table_frame(game, seat)


class TablePages:
    def __init__(self) -> None:
        self.pages: dict[int, set[TablePage]] = {}
        self._latest: dict[int, Game] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._senders: dict[int, asyncio.Task[None]] = {}

    def holds(self, game_id: int) -> bool:
        """Whether any page of ``game_id`` is open here."""
        return bool(self.pages.get(game_id))

    def watching(self, game_id: int, user_id: int) -> bool:
        """Whether ``user_id`` has the table of ``game_id`` open now."""
        return any(page.user_id == user_id for page in self.pages.get(game_id, ()))

    async def add(self, page: TablePage, game: Game) -> None:
        """A page that just connected: the table as it is, then every change."""
        self.pages.setdefault(page.game_id, set()).add(page)
        await self._send(page, game)

    def remove(self, page: TablePage) -> None:
        pages = self.pages.get(page.game_id)
        if pages is None or page not in pages:
            return
        pages.discard(page)
        if not pages:
            del self.pages[page.game_id]

    def publish(self, game: Game) -> None:
        """``game`` as committed: its pages are sent it soon, in commit order, without waiting here."""
        if game.id not in self.pages or game.match is None:
            return
        self._latest[game.id] = game
        self._wake.setdefault(game.id, asyncio.Event()).set()
        sender = self._senders.get(game.id)
        if sender is None or sender.done():
            self._senders[game.id] = asyncio.create_task(self._send_changes(game.id), name=f"table-pages-{game.id}")

    async def _send_changes(self, game_id: int) -> None:
        wake = self._wake[game_id]
        while game_id in self.pages:
            wake.clear()
            game = self._latest.pop(game_id, None)
            if game is not None:
                await asyncio.gather(*(self._send(page, game) for page in list(self.pages.get(game_id, ()))))
            if game_id not in self._latest:
                try:
                    await asyncio.wait_for(wake.wait(), 60)
                except TimeoutError:
                    break
        self._senders.pop(game_id, None)
        self._wake.pop(game_id, None)

    async def _send(self, page: TablePage, game: Game) -> None:
        if page.socket.closed:
            self.remove(page)
            return
        if game.row.version == page.sent_row:
            return
        try:
            page.sent_row = game.row.version
            frame = page.frame(game)
            if frame["version"] < page.sent_version:
                return  # an older state than the page has: it came late
            text = json.dumps(frame, ensure_ascii=False)
            if text == page.sent_text:
                return
            page.sent_version, page.sent_text = frame["version"], text
            await asyncio.wait_for(page.socket.send_str(text), SEND_TIMEOUT)
        except (ConnectionError, RuntimeError, TimeoutError):
            self.remove(page)
            with contextlib.suppress(Exception):
                await page.socket.close()
        except Exception:  # one page's trouble must not stop the others
            log.exception("game %s: the table page of %s could not be sent", game.id, page.user_id)

    async def move(self, old_game: int, new_game: int) -> None:
        """The game's pages are told that it goes on as ``new_game`` (a rematch): they open that one."""
        frame = json.dumps({"type": "moved", "game": new_game})
        for page in list(self.pages.get(old_game, ())):
            with contextlib.suppress(Exception):
                await page.socket.send_str(frame)

    async def close(self) -> None:
        for task in self._senders.values():
            task.cancel()
        for pages in list(self.pages.values()):
            for page in list(pages):
                with contextlib.suppress(Exception):
                    await page.socket.send_str(json.dumps(CLOSING))
                    await page.socket.close()
        self.pages.clear()

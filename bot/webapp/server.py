"""The Mini App's web server: the table page, its files, and one WebSocket per open page.

Every connection proves who it is with Telegram's ``initData`` (``bot/telegram/webapp_auth.py``):
refused with 401 before the WebSocket opens, and nothing else is answered. A move from the page
takes exactly the path of a tile button (:meth:`GameService.play_tap`): the game's lock, the
engine's checks, the commit with the move in the log, then showing it, to the chat and to every
open page alike. Junk is refused plainly:
frames over 4 KB close the socket, more than ``MOVES_PER_SECOND`` a second are refused, anything
that is not a move gets a ``refused`` frame and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from bot.display.table_frame import page_texts
from bot.model.documents import load_game
from bot.model.game import DEFAULT_LEVEL, Game
from bot.table import rematch, solo
from bot.table.service import GameService, TableError, TapOutcome
from bot.telegram.people import Person
from bot.telegram.webapp_auth import InitDataError, verify_init_data
from bot.webapp.hub import TablePage, TablePages
from bot.webapp.relay import TableRelay
from bot.words.i18n import language_of, speaking
from bot.words.languages import Languages
from bot.words.refusals import Notice, Refusal
from engine import TileError, tile_of
from engine.line import End
from storage import Database, GameStatus

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
FRAME_LIMIT = 4096
MOVES_PER_SECOND = 10.0  # no one taps faster; a script that does is told to slow down
PREFIX = "/webapp"
TELEGRAM_SCRIPT = "https://telegram.org"
CSP = (
    f"default-src 'self'; script-src 'self' {TELEGRAM_SCRIPT}; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors *; base-uri 'none'; form-action 'none'"
)
_ENDS = {end.value: end for end in End}


def _refusal(status: int, reason: str, error: str) -> web.Response:
    """A connection refused before the WebSocket opens: ``reason`` is what the page words for the person."""
    return web.json_response({"ok": False, "reason": reason, "error": error}, status=status)


class TableSite:
    """The routes of the table page, added to a server of the bot's (its own, or the webhook's)."""

    def __init__(
        self,
        token: str,
        db: Database,
        service: GameService,
        languages: Languages,
        pages: TablePages,
        *,
        public_url: str,
        max_age: float,
        relay: TableRelay | None = None,
    ) -> None:
        self.token = token
        self.db = db
        self.service = service
        self.languages = languages
        self.pages = pages
        self.max_age = max_age
        self.relay = relay
        public = urlsplit(public_url)
        self.origin = f"{public.scheme}://{public.netloc}"
        self._moves: set[asyncio.Task[Any]] = set()  # moves being shown, pages closed being caught up

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get(f"{PREFIX}/", self.index)
        app.router.add_get(PREFIX, self.index)
        app.router.add_static(f"{PREFIX}/static/", STATIC, follow_symlinks=False)
        app.router.add_get(f"{PREFIX}/ws", self.socket)
        app.router.add_get(f"{PREFIX}/words/{{language}}.json", self.words)
        app.middlewares.append(_headers)

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def words(self, request: web.Request) -> web.StreamResponse:
        """The page's words before its first frame, in the language Telegram gave (``uk-UA``, ``ru``;
        any other: English). Public: they are the bot's catalogues, nothing of anyone's."""
        with speaking(language_of(request.match_info["language"][:16])):
            return web.json_response(page_texts(), headers={"Cache-Control": "max-age=3600"})

    async def socket(self, request: web.Request) -> web.StreamResponse:
        try:
            visitor = verify_init_data(
                self.token, request.query.get("init_data", ""), max_age=self.max_age, now=time.time()
            )
        except InitDataError as error:
            return _refusal(401, error.reason.value, f"initData refused: {error.reason}")  # i18n: not shown
        origin = request.headers.get("Origin")  # i18n: not shown
        if origin is not None and origin != self.origin:
            return _refusal(403, "foreign_page", "this table opens from its own page only")  # i18n: not shown
        game_id = _game_id(request.query.get("game"), visitor.start_param)
        row = await self.db.games.get(game_id) if game_id is not None else None
        if row is None:
            return _refusal(404, "no_game", "no such game")  # i18n: not shown
        game = load_game(row)
        if game.match is None:
            return _refusal(404, "not_started", "the game has not started")  # i18n: not shown
        language = await self.languages.of_user(visitor.user_id, visitor.language_code)
        socket = web.WebSocketResponse(heartbeat=30, max_msg_size=FRAME_LIMIT)
        await socket.prepare(request)
        page = TablePage(socket, game.id, visitor.user_id, game.doc.seat_of(visitor.user_id), language)
        await self.pages.add(page, game)
        allowance, last = MOVES_PER_SECOND, time.monotonic()
        try:
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    continue
                now = time.monotonic()
                allowance = min(MOVES_PER_SECOND, allowance + (now - last) * MOVES_PER_SECOND)
                last = now
                if allowance < 1:
                    await self._refuse(page, "slow_down", Refusal.BROKEN.text)
                    continue
                allowance -= 1
                await self._take(page, message.data)
        finally:
            self.pages.remove(page)  # if a failed send has not removed it already
            if not self.pages.watching(page.game_id, page.user_id):
                self._left(page.game_id, page.user_id)  # their last page of the game closed
        return socket

    async def _take(self, page: TablePage, data: str) -> None:
        try:
            move = json.loads(data)
        except ValueError:
            move = None
        if isinstance(move, dict) and move.get("type") == "rematch" and len(move) == 1:
            await self._rematch(page)
            return
        if not isinstance(move, dict) or move.get("type") != "move":
            await self._refuse(page, "broken", Refusal.BROKEN.text)
            return
        parsed = _move(move)
        if parsed is None:
            await self._refuse(page, "broken", Refusal.BROKEN.text)
            return
        version, tile, end = parsed
        with speaking(page.language):
            # Once committed the move is shown in the background: the page's next message is read meanwhile.
            committed: asyncio.Future[TapOutcome] = asyncio.get_running_loop().create_future()

            async def answered(outcome: TapOutcome) -> None:
                committed.set_result(outcome)

            task = asyncio.create_task(
                self.service.play_tap(page.game_id, page.user_id, version, tile, end, answered=answered)
            )
            self._moves.add(task)
            task.add_done_callback(self._moves.discard)
            await asyncio.wait({task, committed}, return_when=asyncio.FIRST_COMPLETED)
            try:
                outcome = committed.result() if committed.done() else task.result()
            except TableError as error:
                await self._refuse(page, error.refusal.name.lower(), error.refusal.text)
                if error.refusal is Refusal.STALE:
                    await self._resend(page)
                return
            if not outcome.played:
                await self._refuse(page, "choose_end", Notice.CHOOSE_END.text)
                return

    async def _rematch(self, page: TablePage) -> None:
        """Rematch from the result at the table: the chat's own paths. In a group or a friend room the
        person confirms the rematch as with its button; a private game against the computer is dealt
        again with the same rules and opponents. The pages of the finished game then move to the new one."""
        row = await self.db.games.get(page.game_id)
        game = load_game(row) if row is not None else None
        with speaking(page.language):
            if game is None or game.row.status is not GameStatus.FINISHED or game.match is None:
                await self._refuse(page, "rematch_closed", Refusal.REMATCH_CLOSED.text)
                return
            new: Game | None
            try:
                if game.row.kind == "private":
                    new = await self._again(game, page)
                else:
                    outcome = await rematch.confirm(self.service, game.id, page.user_id)
                    await self._tell(page, outcome.answer.text)
                    if outcome.changed is not None:
                        await rematch.show(self.service, outcome.changed)
                    new = outcome.new
                    if new is not None:
                        await self.service.show(new)
            except TableError as error:
                await self._refuse(page, error.refusal.name.lower(), error.refusal.text)
                return
        if new is not None:
            await self.pages.move(game.id, new.id)

    async def _again(self, game: Game, page: TablePage) -> Game:
        """The same private game against the computer once more (as the private menu deals one)."""
        seat = game.doc.seat_of(page.user_id)
        mine = game.doc.seats[seat] if seat is not None else None
        if game.row.chat_id != page.user_id or mine is None:
            raise TableError(Refusal.REMATCH_NOT_PLAYER)
        levels = [info.level for info in game.doc.seats if info is not None and info.user_id is None and info.level]
        level = levels[0] if levels else DEFAULT_LEVEL
        person = Person(page.user_id, mine.name)
        opponents = len(game.doc.seats) - 1
        return await solo.open_solo(self.service, game.row.chat_id, person, game.row.preset, opponents, level)

    async def _tell(self, page: TablePage, text: str) -> None:
        await page.socket.send_str(json.dumps({"type": "notice", "text": text}, ensure_ascii=False))

    def _left(self, game_id: int, user_id: int) -> None:
        """Someone closed the table: the chat shows the game as it is now (their hand, their turn)."""
        task = asyncio.create_task(self.service.wake(game_id))
        self._moves.add(task)
        task.add_done_callback(self._moves.discard)

    async def _refuse(self, page: TablePage, reason: str, text: str) -> None:
        frame = {"type": "refused", "reason": reason, "text": text}
        await page.socket.send_str(json.dumps(frame, ensure_ascii=False))

    async def _resend(self, page: TablePage) -> None:
        row = await self.db.games.get(page.game_id)
        if row is not None:
            page.sent_version = page.sent_row = -1
            self.pages.publish(load_game(row))

    async def close(self) -> None:
        if self.relay is not None:
            await self.relay.close()
        await self.pages.close()
        if self._moves:
            await asyncio.wait(self._moves, timeout=10)


def _game_id(query: str | None, start_param: str | None) -> int | None:
    for candidate in (query, start_param.removeprefix("g") if start_param else None):
        if candidate and candidate.isascii() and candidate.isdigit() and len(candidate) <= 18:
            return int(candidate)
    return None


def _move(move: dict[str, Any]) -> tuple[int, Any, End | None] | None:
    version, tile, end = move.get("version"), move.get("tile"), move.get("end")
    if not isinstance(version, int) or isinstance(version, bool):
        return None
    if not (
        isinstance(tile, list) and len(tile) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in tile)
    ):
        return None
    try:
        played = tile_of(tile[0], tile[1])
    except TileError:
        return None
    if end is not None and end not in _ENDS:
        return None
    return version, played, _ENDS.get(end) if end is not None else None


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    if request.path.startswith(PREFIX):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response

"""The sandbox's web server: the page, its files, the WebSocket, the actions and the bot's files.

Only for the machine it runs on (127.0.0.1): a WebSocket or an action from another origin is
refused (a web page elsewhere must not play for you), actions take JSON only (no form a foreign
page could post), and every page is served with a Content-Security-Policy that allows nothing
from outside.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aiohttp import web

from fake_telegram import FakeTelegram

from .actions import ActionError, Actions
from .cast import Cast
from .hub import Hub

STATIC = Path(__file__).with_name("static")
BODY_LIMIT = 64 * 1024
CSP = (
    "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; style-src 'self'; "
    "script-src 'self'; frame-src {table}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def _same_origin(request: web.Request) -> bool:
    """Asked for by this machine's own name (not a foreign name rebound to 127.0.0.1), and from no
    page (a script) or from this very server's."""
    host = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
    if host not in LOCAL_HOSTS:
        return False
    origin = request.headers.get("Origin")
    return origin is None or origin == f"{request.scheme}://{request.host}"


def _refusal(status: int, error: str) -> web.Response:
    return web.json_response({"ok": False, "error": error}, status=status)


class SandboxSite:
    def __init__(self, fake: FakeTelegram, cast: Cast, *, webapp_port: int = 0) -> None:
        self.fake = fake
        self.cast = cast
        self.webapp_port = webapp_port  # the bot's table page (the Mini App), opened in a frame
        self.hub = Hub(fake, cast)
        self.actions = Actions(fake, cast, self.hub, webapp_origin=f"http://127.0.0.1:{webapp_port}")
        self.policy = CSP.format(table=f"http://127.0.0.1:{webapp_port}" if webapp_port else "'none'")

    @web.middleware
    async def _security_headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        response.headers.setdefault("Content-Security-Policy", self.policy)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("Cache-Control", "no-cache")
        return response

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._security_headers], client_max_size=BODY_LIMIT)
        app.router.add_get("/", self.index)
        app.router.add_static("/static/", STATIC, follow_symlinks=False)
        app.router.add_get("/ws", self.socket)
        app.router.add_get("/api/world", self.world)
        app.router.add_post("/api/{action:.+}", self.action)
        app.router.add_get("/files/{file_id}", self.file)
        return app

    async def index(self, request: web.Request) -> web.StreamResponse:
        if not _same_origin(request):
            return _refusal(403, "This sandbox only talks to its own page.")
        return web.FileResponse(STATIC / "index.html")

    async def world(self, request: web.Request) -> web.Response:
        if not _same_origin(request):
            return _refusal(403, "This sandbox only talks to its own page.")
        return web.json_response(self.hub.world_frame())

    async def socket(self, request: web.Request) -> web.StreamResponse:
        if not _same_origin(request):
            return _refusal(403, "This sandbox only talks to its own page.")
        asked = request.query.get("person", "")
        person = self.cast.person(int(asked)) if asked.isascii() and asked.isdigit() and len(asked) < 20 else None
        if asked and person is None:
            return _refusal(400, "There is no such person in the sandbox.")
        page = web.WebSocketResponse(heartbeat=20, max_msg_size=4096)
        await page.prepare(request)
        if person is None:  # a first visit: who is here, so that the page can choose someone
            await page.send_json(self.hub.world_frame())
            await page.close()
            return page
        await self.hub.serve(page, person)
        return page

    async def action(self, request: web.Request) -> web.Response:
        if not _same_origin(request):
            return _refusal(403, "This sandbox only talks to its own page.")
        handler = self.actions.table.get(request.match_info["action"])
        if handler is None:
            return _refusal(404, "There is no such action.")
        if request.content_type != "application/json":
            return _refusal(415, "Actions are JSON.")
        try:
            body = json.loads(await request.read())
        except (ValueError, web.HTTPRequestEntityTooLarge):
            return _refusal(400, "The request is not JSON.")
        if not isinstance(body, dict):
            return _refusal(400, "The request must be a JSON object.")
        try:
            result = await handler(body)
        except ActionError as error:
            return _refusal(400, str(error))
        return web.json_response({"ok": True, **result})

    async def file(self, request: web.Request) -> web.StreamResponse:
        if not _same_origin(request):
            return _refusal(403, "This sandbox only talks to its own page.")
        stored = self.fake.world.files.get(request.match_info["file_id"])
        if stored is None:
            return _refusal(404, "There is no such file (any more).")
        headers = {"Cache-Control": "private, max-age=86400, immutable"}
        if stored.kind == "document" and stored.data[4:8] == b"ftyp":  # an animation, played in the page
            content_type = "video/mp4"
        elif stored.kind == "document":
            name = "".join(c for c in stored.file_name or "document" if c.isprintable()) or "document"
            plain = name.encode("ascii", "replace").decode().replace('"', "").replace("?", "_")
            headers["Content-Disposition"] = f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name)}"
            content_type = stored.mime_type or "application/octet-stream"
        else:
            content_type = "image/png" if stored.data.startswith(PNG_SIGNATURE) else "image/jpeg"
        return web.Response(body=stored.data, content_type=content_type, headers=headers)

"""The table page's line of play in a real browser (headless Chromium): it fills the felt it has, at
every width from a small phone to a desktop, a phone on its side too; a lead is a big tile, never a
giant one; a long line is all in view. The page is served from ``bot/webapp/static`` and fed real
``table`` frames (``table_frame`` of dealt and played games) through a stand-in for its WebSocket.
Screenshots go to ``$WEBAPP_SCREENSHOTS`` (default: the test's temporary folder), to be looked at."""

from __future__ import annotations

import json
import os
import random
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from bot.display.table_frame import page_texts, table_frame
from bot.model.game import Game, Seat, TableDoc
from bot.words.i18n import speaking
from engine import Match, Rules
from storage import GameRow, GameStatus
from tests.browser import chromium, needs_chromium, page_errors

pytestmark = needs_chromium
STATIC = Path(__file__).parents[2] / "bot" / "webapp" / "static"
# Viewports as the Mini App gets them: a small and a common phone, a tablet, a desktop, and two
# phones on their side (Telegram's own bar takes a little of each).
PORTRAIT = [(320, 568), (390, 750), (768, 1024), (1280, 800)]
LANDSCAPE = [(844, 330), (568, 280)]
BIGGEST_TILE_PX = 150  # a lying tile's length at most: a lone lead must not look like a brick

# The page's WebSocket, stood in for: it opens at once and hands the page whatever frame the test delivers.
FAKE_SOCKET = """
(() => {
  window.__sockets = [];
  class FakeSocket extends EventTarget {
    constructor(url) {
      super();
      this.url = url;
      this.readyState = 0;
      window.__sockets.push(this);
      setTimeout(() => { this.readyState = 1; this.dispatchEvent(new Event("open")); }, 0);
    }
    send(data) {}
    close() { this.readyState = 3; this.dispatchEvent(new Event("close")); }
    deliver(frame) { this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) })); }
  }
  Object.assign(FakeSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = FakeSocket;
})();
"""

# Where the line is drawn and where it may be drawn, in CSS pixels, after two frames' layout.
MEASURE = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => {
  const felt = document.querySelector("#table").getBoundingClientRect();
  const box = (node) => node.getBoundingClientRect();
  const parts = [...document.querySelectorAll("#table .tile, #table .badge .disc")].map(box);
  const tiles = [...document.querySelectorAll("#table .tile")].map((n) => n.getBoundingClientRect());
  const union = {
    left: Math.min(...parts.map((r) => r.left)), right: Math.max(...parts.map((r) => r.right)),
    top: Math.min(...parts.map((r) => r.top)), bottom: Math.max(...parts.map((r) => r.bottom)),
  };
  done({
    felt: { left: felt.left, right: felt.right, top: felt.top, bottom: felt.bottom },
    line: union,
    tiles: tiles.length,
    longest: Math.max(...tiles.map((r) => Math.max(r.width, r.height))),
    scrolls: document.documentElement.scrollWidth > innerWidth || document.documentElement.scrollHeight > innerHeight,
  });
}));
"""


class _Page(BaseHTTPRequestHandler):
    """The page's files, as the bot serves them (``bot/webapp/server.py``), and its English words."""

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        path = self.path.split("?")[0].split("#")[0]
        if path in ("/webapp/", "/webapp"):
            body, kind = (STATIC / "index.html").read_bytes(), "text/html"
        elif path.startswith("/webapp/static/") and (STATIC / path.removeprefix("/webapp/static/")).is_file():
            file = STATIC / path.removeprefix("/webapp/static/")
            body, kind = file.read_bytes(), {".js": "text/javascript", ".css": "text/css"}[file.suffix]
        elif path.startswith("/webapp/words/"):
            with speaking("en"):
                body, kind = json.dumps(page_texts()).encode(), "application/json"
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/webapp/?game=7&theme=light#tgWebAppData=user%3D%7B%7D"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("WEBAPP_SCREENSHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _frame(preset: str, seats: int, seed: int, tiles: int | None) -> dict[str, Any]:
    """The frame of the seat to play once the line holds ``tiles`` tiles (None: its longest in the round)."""
    rng = random.Random(seed)
    match = Match.new(Rules.preset(preset), seats, rng)
    positions = [match]
    while not match.round.is_over:
        match = match.apply(rng.choice(match.round.legal_moves()))
        positions.append(match)
    playing = [position for position in positions if not position.round.is_over]
    if tiles is None:
        chosen = max(playing, key=lambda position: len(position.round.line.tiles()))
    else:
        chosen = next(position for position in playing if len(position.round.line.tiles()) == tiles)
    names = tuple(Seat(f"Player {index + 1}", user_id=1000 + index) for index in range(seats))
    row = GameRow(7, -100, "group", GameStatus.PLAYING, preset, 1000, 10**6, {}, 0.0, 0.0)
    with speaking("en"):
        return table_frame(Game(row, TableDoc(seats=names), chosen), chosen.round.turn)


EARLY = {tiles: _frame("block", 2, 1, tiles) for tiles in (1, 2, 3)}
LATE = {
    "draw": _frame("draw", 2, 14, None),  # 27 tiles, two arms snaking
    "fives": _frame("fives", 4, 36, None),  # 24 tiles round a spinner, four arms
}


def _show(driver: Any, frame: dict[str, Any]) -> dict[str, Any]:
    driver.execute_script("window.__sockets[window.__sockets.length - 1].deliver(arguments[0])", frame)
    return dict(driver.execute_async_script(MEASURE))


def _inside(line: dict[str, float], felt: dict[str, float]) -> bool:
    return all(
        (
            line["left"] >= felt["left"] - 1,
            line["right"] <= felt["right"] + 1,
            line["top"] >= felt["top"] - 1,
            line["bottom"] <= felt["bottom"] + 1,
        )
    )


def _share(line: dict[str, float], felt: dict[str, float]) -> float:
    """How much of the felt's width or height (whichever more) the line spans."""
    across = (line["right"] - line["left"]) / (felt["right"] - felt["left"])
    down = (line["bottom"] - line["top"]) / (felt["bottom"] - felt["top"])
    return max(across, down)


@pytest.mark.parametrize("size", PORTRAIT + LANDSCAPE, ids=[f"{w}x{h}" for w, h in PORTRAIT + LANDSCAPE])
def test_the_line_fills_the_felt_it_has(page_url: str, shots: Path, size: tuple[int, int]) -> None:
    width, height = size
    driver = chromium(size)
    try:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        driver.execute_cdp_cmd(  # the tiles are measured where they land, not while they slide in
            "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}
        )
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_SOCKET})
        driver.get(page_url)
        driver.execute_async_script(
            "const done = arguments[0]; const wait = () => window.__sockets && window.__sockets.length "
            "&& window.__sockets[0].readyState === 1 ? done() : setTimeout(wait, 20); wait();"
        )
        for tiles, frame in EARLY.items():
            seen = _show(driver, frame)
            driver.save_screenshot(str(shots / f"table-line-{width}x{height}-early-{tiles}.png"))
            assert seen["tiles"] == tiles and not seen["scrolls"], seen
            assert _inside(seen["line"], seen["felt"]), seen
            # The first tiles fill the felt: a lead and its two numbers span over a third of it,
            # two or three tiles half of it, and no tile is a giant.
            least = 0.35 if tiles == 1 else 0.5
            assert _share(seen["line"], seen["felt"]) >= least, (tiles, seen)
            assert seen["longest"] <= BIGGEST_TILE_PX, seen
        for name, frame in LATE.items():
            seen = _show(driver, frame)
            driver.save_screenshot(str(shots / f"table-line-{width}x{height}-late-{name}.png"))
            assert seen["tiles"] == len(frame["line"]["spots"]) and not seen["scrolls"], seen
            assert _inside(seen["line"], seen["felt"]), (name, seen)  # a long line is all in view
            assert _share(seen["line"], seen["felt"]) >= 0.5, (name, seen)
        assert not page_errors(driver.get_log("browser")), "the table page logged errors"
    finally:
        driver.quit()


# A game of two computers whose names differ only at their end, in Russian, as the bot names them.
RUSSIAN_SEATS = (
    Seat("Александр", user_id=1000),
    Seat("Компьютер 1", level="medium"),
    Seat("Анна", user_id=1001),
    Seat("Компьютер 2", level="medium"),
)
NAMES = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => done(
  [...document.querySelectorAll("#seats .name")].map((n) => [n.textContent, n.scrollWidth <= n.clientWidth])
)));
"""


def _russian_frame() -> dict[str, Any]:
    match = Match.new(Rules.preset("goat"), 4, random.Random(3))
    row = GameRow(7, -100, "group", GameStatus.PLAYING, "goat", 1000, 10**6, {}, 0.0, 0.0)
    with speaking("ru"):
        return table_frame(Game(row, TableDoc(seats=RUSSIAN_SEATS), match), 0)


@pytest.mark.parametrize("width", [320, 390])
def test_seat_names_stay_apart_on_the_narrowest_phone(page_url: str, shots: Path, width: int) -> None:
    """At 320 px even the short names overflowed a seat's card, and the card's own "…" made
    "🤖 Компь…" of both computers."""
    driver = chromium((width, 640))
    try:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": 640, "deviceScaleFactor": 1, "mobile": False},
        )
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_SOCKET})
        driver.get(page_url)
        driver.execute_async_script(
            "const done = arguments[0]; const wait = () => window.__sockets && window.__sockets.length "
            "&& window.__sockets[0].readyState === 1 ? done() : setTimeout(wait, 20); wait();"
        )
        driver.execute_script("window.__sockets[window.__sockets.length - 1].deliver(arguments[0])", _russian_frame())
        names = driver.execute_async_script(NAMES)
        driver.save_screenshot(str(shots / f"table-names-{width}.png"))
        shown = [text for text, _ in names]
        assert len(set(shown)) == len(shown), shown
        # The computers' numbers are in view, not cut off by the card's own "…".
        assert names[1][1] and names[3][1], names
        assert shown[1].endswith("1") and shown[3].endswith("2"), shown
    finally:
        driver.quit()

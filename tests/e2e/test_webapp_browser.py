"""The Mini App table in a real browser: two people, each in their own Chromium at a phone's size,
play a whole group game (``block``, three seats) against each other and a computer at the table
page, opened as Telegram opens it (``#tgWebAppData=`` in the URL, without Telegram's script); a
move at the page (a tap, a drag) shows in the group's board, one made with a chat button (its person's page
closed) in the other page; a reload in the middle loses nothing; a spectator sees no hand;
a bad launch (tampered, another bot's, garbled, old, no such game) is told what is wrong;
dark theme too; the result fits 320 and 430 px and a desktop.
Screenshots go to ``$WEBAPP_SCREENSHOTS`` (default: the test's temporary folder)."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

import pytest
from selenium.webdriver.common.action_chains import ActionChains

from engine import read_record, replay
from engine.events import Drew, Played
from fake_telegram import FakeTelegram, User
from fake_telegram.webapp import init_data
from tests.browser import chromium, needs_chromium, page_errors
from tests.e2e.conftest import running_bot
from tests.e2e.test_webapp import _web_app_url
from tests.kit.launcher import free_port
from tests.kit.people.players import (
    add_computer,
    join,
    open_lobby,
    open_private_game,
    play_from_hand,
    set_seats,
    start_game,
)

pytestmark = [needs_chromium, pytest.mark.asyncio(loop_scope="function")]
WAIT = 20.0
STALL = 60.0  # seconds without a move by the people before the game is taken for stuck


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("WEBAPP_SCREENSHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def browsers() -> Iterator[list[Any]]:
    opened: list[Any] = []
    yield opened
    for driver in opened:
        driver.quit()


# Every frame a page receives, kept in the page (window.__frames) for the audit at the end.
KEEP_FRAMES = """
(() => {
  const Native = window.WebSocket;
  window.__frames = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        try { window.__frames.push(JSON.parse(event.data)); } catch (error) {}
      });
    }
  };
})();
"""


def _open(browsers: list[Any], url: str, token: str, person: User, theme: str = "light", age: float = 0) -> Any:
    driver = chromium()
    browsers.append(driver)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": KEEP_FRAMES})
    driver.get(_signed_url(url, token, person, theme, age))
    return driver


async def _until(driver: Any, script: str, what: str, timeout: float = WAIT) -> Any:
    """Poll a JavaScript expression in the page until it is truthy (the test's loop keeps the bot's fake serving)."""
    import asyncio

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = driver.execute_script(f"return {script}")
        if value:
            return value
        await asyncio.sleep(0.1)
    driver.save_screenshot("/tmp/webapp-failed.png")
    raise AssertionError(f"{what}: not seen within {timeout} s")


def _signed_url(url: str, token: str, person: User, theme: str, age: float = 0) -> str:
    """The page's address as Telegram opens it, with launch data signed ``age`` seconds ago."""
    signed = quote(init_data(token, person, auth_date=int(time.time() - age)), safe="")
    return f"{url}&theme={theme}#tgWebAppData={signed}"


def _board_said(fake: FakeTelegram, group: int, words: str) -> bool:
    """The group's board picture was sent or edited with ``words`` in its caption."""
    return any(
        entry.ok and entry.chat_id == group and words in str(entry.params.get("caption", entry.params.get("media", "")))
        for entry in list(fake.recorder.entries)
        if entry.method in ("sendPhoto", "editMessageMedia", "editMessageCaption")
    )


# The badge of an end the hand's tile ``arguments[0]`` ("65") fits, from the newest frame the page
# received; null for a lead (no end to drag to).
FITTING_BADGE = """
const frames = (window.__frames || []).filter((frame) => frame.type === "table");
const frame = frames[frames.length - 1];
const key = (tile) => `${Math.max(...tile)}${Math.min(...tile)}`;
const entry = frame && frame.hand.find((held) => key(held.tile) === arguments[0]);
const end = entry && entry.ends.find((name) => name !== "lead");
return end ? document.querySelector(`#table [data-end="${end}"]`) : null;
"""


def _tap(driver: Any, tile: Any) -> None:
    """Tap a playable tile, and then the end the page asks for when it fits two."""
    tile.click()
    end = driver.execute_script(
        "return document.querySelector('#table [data-end].choosable, #table [data-end].target')"
    )
    if end is not None:
        end.click()


def _drag_onto_its_end(driver: Any, tile: Any) -> bool:
    """Drag a playable tile onto an end it fits, lifted, carried and let go in one gesture (as a
    finger does: the pointer stays down throughout); False when there is no end to drag it to."""
    badge = driver.execute_script(FITTING_BADGE, tile.get_attribute("data-tile"))
    if badge is None:
        return False
    ActionChains(driver).click_and_hold(tile).move_by_offset(0, -40).move_to_element(badge).release().perform()
    return True


async def test_two_people_and_a_computer_play_a_whole_game_at_the_table(
    fake: FakeTelegram, tmp_path: Path, browsers: list[Any], shots: Path
) -> None:
    import asyncio

    port = free_port()
    base = f"http://127.0.0.1:{port}/webapp"
    async with running_bot(fake, tmp_path, WEBAPP_URL=base, WEBAPP_PORT=str(port), WEBAPP_HOST="127.0.0.1") as process:
        ann, bob, eve = fake.add_user("Ann"), fake.add_user("Bob"), fake.add_user("Eve")
        group = fake.add_group("Domino night", members=[ann, bob, eve])
        fake.start_bot(ann)
        fake.start_bot(bob)
        lobby = await open_lobby(fake, ann, group, "block")
        await set_seats(fake, lobby, ann, 3)
        await join(fake, lobby, bob)
        await add_computer(fake, lobby, ann, "easy")
        await start_game(fake, lobby, ann)
        page = f"{base}/?game={lobby.game_id}"
        pages = {"Ann": _open(browsers, page, fake.token, ann), "Bob": _open(browsers, page, fake.token, bob, "dark")}
        spectator = _open(browsers, page, fake.token, eve)
        for driver in (*pages.values(), spectator):
            await _until(
                driver, "document.body.dataset.connected === 'true' && document.body.dataset.version", "a table"
            )
        assert spectator.execute_script("return document.body.dataset.you") == "none"
        pages["Ann"].save_screenshot(str(shots / "table-first.png"))
        # (Forged and expired launch data: test_a_bad_launch_is_told_what_is_wrong.)

        moves, reloaded, told_the_group, from_the_chat, dragged = 0, False, False, False, False
        frames: dict[str, list[dict[str, Any]]] = {"Ann": [], "Bob": [], "Eve": []}
        # However long the match (2 to 12 rounds here), it must keep moving: a stall guard, no clock.
        progress = time.monotonic()
        while time.monotonic() - progress < STALL:
            if any(d.execute_script("return document.body.dataset.status === 'finished'") for d in pages.values()):
                break
            moved = False
            for name, driver in pages.items():
                tile = driver.execute_script("return document.querySelector('#hand .playable')")
                if tile is None:
                    continue
                other = pages["Bob" if name == "Ann" else "Ann"]
                version = driver.execute_script("return document.body.dataset.version")
                if name == "Bob" and moves >= 4 and not from_the_chat:
                    # Bob closes the table and plays with his hand message's button instead: the
                    # chat brings his hand up to date, and Ann's page shows his move at once.
                    frames[name] += driver.execute_script("return window.__frames")
                    driver.get("about:blank")
                    turn = await play_from_hand(fake, bob, WAIT)
                    await _until(
                        other, f"Number(document.body.dataset.version) > {turn}", "Bob's chat move on Ann's page"
                    )
                    driver.get(_signed_url(page, fake.token, bob, "dark"))
                    await _until(driver, f"Number(document.body.dataset.version) > {turn}", "Bob's table, opened again")
                    from_the_chat = True
                    moves += 1
                    moved = True
                    continue
                key = tile.get_attribute("data-tile")  # "65": the tile [6|5]
                if name == "Ann" and not dragged and _drag_onto_its_end(driver, tile):
                    dragged = True
                else:
                    _tap(driver, tile)
                # The other person's page shows the move, without anyone reloading it.
                await _until(
                    other, f"Number(document.body.dataset.version) > {version}", f"{name}'s move on the other page"
                )
                if not told_the_group:
                    # A move at the page shows in the group's board (within the group's budget).
                    said = f"{name} played [{key[0]}|{key[1]}]"
                    await fake.wait_for(
                        partial(_board_said, fake, group.id, said), WAIT, what=f"{said!r} in the group's board"
                    )
                    told_the_group = True
                moves += 1
                moved = True
                if moves == 3 and not reloaded:
                    driver.save_screenshot(str(shots / "table-before-reload.png"))
                    frames[name] += driver.execute_script("return window.__frames")
                    driver.refresh()
                    await _until(
                        driver, f"Number(document.body.dataset.version) > {version}", "the table after a reload"
                    )
                    reloaded = True
            if moved:
                progress = time.monotonic()
            else:
                await asyncio.sleep(0.2)
        assert moves >= 2 and reloaded and told_the_group and from_the_chat and dragged
        for name, driver in pages.items():
            await _until(
                driver,
                "document.body.dataset.status === 'finished' && !!document.querySelector('#result:not([hidden])')",
                f"the game's result on {name}'s page",
            )
            driver.save_screenshot(str(shots / f"table-result-{name.lower()}.png"))
            for width, height in ((320, 844), (430, 844), (1280, 800)):  # the narrowest and widest phones, a desktop
                driver.set_window_size(width, height)
                await asyncio.sleep(0.3)
                driver.save_screenshot(str(shots / f"table-result-{name.lower()}-{width}.png"))
                overflow = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth")
                assert not overflow, f"{name}'s page is wider than {width} px"
        assert spectator.execute_script("return document.querySelectorAll('#hand [data-tile]').length") == 0
        await _until(spectator, "!!document.querySelector('#result:not([hidden])')", "the result for the spectator")
        assert spectator.execute_script("return document.querySelector('#rematch').hidden"), "a spectator's Rematch"
        assert not pages["Ann"].execute_script("return document.querySelector('#rematch').hidden")
        spectator.save_screenshot(str(shots / "table-spectator.png"))
        for driver in browsers:  # while the bot still runs: afterwards the pages try to reconnect
            assert not page_errors(driver.get_log("browser")), "the table page logged errors"
        for name, driver in (*pages.items(), ("Eve", spectator)):
            frames[name] += driver.execute_script("return window.__frames")
        (stored,) = [game for game in process.games() if game.id == lobby.game_id]
        seats = {"Ann": 0, "Bob": 1, "Eve": None}
        for name, seen in frames.items():
            _audit(seen, stored.data["record"], seats[name], name)
        print(f"webapp browser game: {moves} moves by the people, {len(stored.data['record']['rounds'])} rounds")


def _audit(frames: list[dict[str, Any]], record: dict[str, Any], seat: int | None, name: str) -> None:
    """Every table frame a page received, against the stored record: the hand shown is tiles this
    seat held in that round (dealt or drawn), a spectator's is empty, and nothing else of anyone's
    shows but the line (public) and, once the round is over, the hands the result reveals."""
    parsed = read_record(record)
    match = replay(parsed)
    held: list[set[tuple[int, int]]] = []
    played: list[set[tuple[int, int]]] = []
    for index, state in enumerate(match.rounds):
        mine: set[tuple[int, int]] = set()
        if seat is not None:
            mine = {(t.high, t.low) for t in parsed.rounds[index].hands[seat]}
            for event in state.events:
                if isinstance(event, Drew) and event.seat == seat:
                    mine |= {(t.high, t.low) for t in event.tiles}
        held.append(mine)
        played.append({(e.tile.high, e.tile.low) for e in state.events if isinstance(e, Played)})
    tables = [frame for frame in frames if frame.get("type") == "table"]
    assert tables, f"{name}'s page received no table"
    for frame in tables:
        line = {tuple(spot["tile"]) for spot in frame["line"]["spots"]}
        rounds = [r for r in range(len(played)) if line <= played[r]]
        assert rounds, f"{name}: a line that no round of the record played: {sorted(line)}"
        hand = {tuple(entry["tile"]) for entry in frame["hand"]}
        if seat is None:
            assert not hand, f"a spectator was shown tiles: {sorted(hand)}"
        else:
            assert any(hand <= held[r] for r in rounds), f"{name} was shown tiles not theirs: {sorted(hand)}"
        assert frame["you"] == seat


def _tampered(raw: str, **changes: str) -> str:
    fields = dict(parse_qsl(raw))
    fields.update(changes)
    return urlencode(fields)


async def test_a_bad_launch_is_told_what_is_wrong(
    fake: FakeTelegram, tmp_path: Path, browsers: list[Any], shots: Path
) -> None:
    """Launch data someone changed (Eve's name put in Ann's), signed by another bot, garbled, old, or
    for a game that does not exist: the page says which, in the person's language, and stops; only
    old launch data is told that the link has expired. No frame ever reaches such a page."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/webapp"
    async with running_bot(fake, tmp_path, WEBAPP_URL=base, WEBAPP_PORT=str(port), WEBAPP_HOST="127.0.0.1"):
        ann, olga = fake.add_user("Ann"), fake.add_user("Ольга", language_code="ru")
        await open_private_game(fake, ann, "block", 1)
        page = await fake.wait_for(lambda: _web_app_url(fake, ann), what="the Open the table button")
        now = int(time.time())
        signed = init_data(fake.token, ann, auth_date=now)
        eve = '{"id":100000099,"first_name":"Eve","language_code":"en"}'
        cases = [
            (
                "tampered",
                _tampered(signed, user=eve),
                "forged",
                "This table's link is not valid: open the table again from the chat.",
            ),
            (
                "another bot's",
                init_data("987654:forged", ann, auth_date=now),
                "forged",
                "This table's link is not valid: open the table again from the chat.",
            ),
            (
                "garbled",
                _tampered(signed, hash=""),
                "broken",
                "This table's link is damaged: open it again from the chat.",
            ),
            (
                "old",
                init_data(fake.token, ann, auth_date=now - 2 * 86400),
                "expired",
                "This table's link has expired: open it again from the chat.",
            ),
            (
                "old, in Russian",
                init_data(fake.token, olga, auth_date=now - 2 * 86400),
                "expired",
                "Ссылка на этот стол устарела: откройте его снова из чата.",
            ),
            (
                "old made new, in Russian",
                _tampered(init_data(fake.token, olga, auth_date=now - 2 * 86400), auth_date=str(now)),
                "forged",
                "Ссылка на этот стол недействительна: откройте стол снова из чата.",
            ),
            (
                "no such game",
                signed,
                "no_game",
                "There is no such game: open the table from the game's message in the chat.",
            ),
        ]
        driver = chromium()
        browsers.append(driver)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": KEEP_FRAMES})
        for what, raw, reason, words in cases:
            driver.get("about:blank")  # the next address may differ in its hash only: load it afresh
            address = re.sub(r"game=\d+", "game=999999", page) if reason == "no_game" else page
            driver.get(f"{address}&theme=light#tgWebAppData={quote(raw, safe='')}")
            await _until(driver, f"document.body.dataset.refused === '{reason}'", f"the refusal of a {what} launch")
            await _until(
                driver,
                f"document.querySelector('#offline').textContent === {json.dumps(words)}",
                f"the words for a {what} launch",
            )
            assert driver.execute_script("return window.__frames.length") == 0
            assert driver.execute_script("return document.querySelectorAll('#hand [data-tile]').length") == 0
            driver.save_screenshot(str(shots / f"table-refused-{re.sub('[^a-z]+', '-', what.lower())}.png"))

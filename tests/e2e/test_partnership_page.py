"""The Mini App table of a partnership game (``goat``) in a real browser: four seats, each marked with its
team (red or blue, as the pictures and the captions' 🟥 🟦), and a whole round played at the page.
A screenshot goes to ``$WEBAPP_SCREENSHOTS`` (default: the test's temporary folder)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fake_telegram import FakeTelegram
from tests.browser import chromium, needs_chromium, page_errors
from tests.e2e.conftest import running_bot
from tests.e2e.test_webapp_browser import KEEP_FRAMES, _signed_url, _until
from tests.kit.launcher import free_port
from tests.kit.people.players import add_computer, open_lobby, start_game

pytestmark = [needs_chromium, pytest.mark.asyncio(loop_scope="function")]


@pytest.fixture
def browser() -> Iterator[Any]:
    driver = chromium()
    yield driver
    driver.quit()


async def test_the_table_page_marks_the_teams(fake: FakeTelegram, tmp_path: Path, browser: Any) -> None:
    shots = Path(os.environ.get("WEBAPP_SCREENSHOTS", tmp_path / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}/webapp"
    async with running_bot(fake, tmp_path, WEBAPP_URL=base, WEBAPP_PORT=str(port), WEBAPP_HOST="127.0.0.1"):
        ann = fake.add_user("Ann")
        group = fake.add_group("Козёл", members=[ann])
        fake.start_bot(ann)
        lobby = await open_lobby(fake, ann, group, "goat")
        for level in ("easy", "easy", "easy"):
            await add_computer(fake, lobby, ann, level)
        await start_game(fake, lobby, ann)
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": KEEP_FRAMES})
        browser.get(_signed_url(f"{base}/?game={lobby.game_id}", fake.token, ann, "light"))
        await _until(browser, "document.body.dataset.connected === 'true' && document.body.dataset.version", "a table")
        seats = "[...document.querySelectorAll('#seats .seat')]"
        classes = browser.execute_script(f"return {seats}.map((s) => s.className)")
        assert len(classes) == 4, classes
        assert [("team-0" in c, "team-1" in c) for c in classes] == [(True, False), (False, True)] * 2, classes
        colours = browser.execute_script(f"return {seats}.map((s) => getComputedStyle(s).borderLeftColor)")
        assert colours[0] == colours[2] != colours[1] == colours[3], colours
        browser.save_screenshot(str(shots / "table-goat.png"))
        assert not page_errors(browser.get_log("browser")), "the table page logged errors"

"""The sandbox page in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``,
which ``.ci/run`` installs) driven by Selenium, at a phone's size, playing whole games as people would.

Screenshots go to ``$SANDBOX_SCREENSHOTS`` (default: the test's temporary folder), to be looked at.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.browser import PHONE, chromium, needs_chromium, page_errors
from tests.sandbox.conftest import SandboxRun

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402

pytestmark = needs_chromium
WAIT = 30.0
GAME_OVER = re.compile(r"wins the game!|Game over\.")
T = TypeVar("T")


class Phone:
    """One browser at a phone's size on the sandbox page; it taps as a person would."""

    def __init__(self, driver: Any, run: SandboxRun, shots: Path) -> None:
        self.driver = driver
        self.run = run
        self.shots = shots
        self.people = {name: person["id"] for name, person in run.world()["people"].items()}
        self.results_before = 0

    # ------------------------------------------------------------------ waiting and looking
    def wait(self, found: Callable[[], T | None], what: str, timeout: float = WAIT) -> T:
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = found()
            except (StaleElementReferenceException, WebDriverException):
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                self.shot(f"failed-{re.sub('[^a-z]+', '-', what.lower())}")
                raise AssertionError(f"{what}: not seen within {timeout} s; the chat shows:\n{self.chat_text()}")
            time.sleep(0.1)

    def shot(self, name: str) -> Path:
        path = self.shots / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def all(self, css: str) -> list[WebElement]:
        return list(self.driver.find_elements(By.CSS_SELECTOR, css))

    def one(self, css: str) -> WebElement | None:
        """The first element shown for ``css``; None if there is none, or the page redrew it meanwhile."""
        found = self.all(css)
        try:
            return found[0] if found and found[0].is_displayed() else None
        except StaleElementReferenceException:
            return None

    def chat_text(self) -> str:
        for _ in range(5):
            try:
                return "\n".join(m.text for m in self.all("#chat .message"))[-3000:]
            except StaleElementReferenceException:
                time.sleep(0.1)
        return "(the chat kept changing)"

    def all_text(self) -> str:
        """Everything the open chat shows, service lines included."""
        return str(self.driver.find_element(By.ID, "messages").text)

    def messages(self) -> list[WebElement]:
        return self.all("#chat .message")

    # ------------------------------------------------------------------ doing
    def open(self) -> None:
        self.driver.get(self.run.url + "/")
        self.wait(lambda: self.one('body[data-connected="true"]'), "the page connected")

    def be(self, name: str) -> None:
        """One tap on the person's chip: from now on the page is theirs."""
        person = self.people[name]
        if not self.one(f'[data-person="{person}"]'):
            self.tap_css("#back")
        self.tap_css(f'[data-person="{person}"]')
        self.wait(lambda: self.one(f'[data-person="{person}"].active'), f"{name}'s page")
        self.wait(lambda: self.one('body[data-connected="true"]'), "the page connected")

    def open_chat(self, chat_id: int) -> None:
        if self.one(f'#chat[data-chat-id="{chat_id}"]'):
            return
        # The chat list, or a chat with its back button (asked until one holds: the page redraws).
        where = self.wait(
            lambda: (
                ("list" if self.one(f'[data-chat="{chat_id}"]') else None) or ("chat" if self.one("#back") else None)
            ),
            f"chat {chat_id} in the list, or the back button",
        )
        if where == "chat":
            self.tap_css("#back")
        self.tap_css(f'[data-chat="{chat_id}"]')
        self.wait(lambda: self.one(f'#chat[data-chat-id="{chat_id}"]'), f"chat {chat_id} open")

    def tap_css(self, css: str) -> None:
        self.click(lambda: self.one(css), f"{css} shown")

    def send(self, text: str) -> None:
        field = self.wait(lambda: self.one("#text"), "the text field")
        field.send_keys(text)
        self.tap_css("#send")

    def button(self, test: Callable[[WebElement], bool], *, last_message: bool = True) -> WebElement | None:
        """A keyboard button in the newest message that has a keyboard."""
        keyboards = [m for m in self.messages() if m.find_elements(By.CSS_SELECTOR, ".keyboard button")]
        candidates = keyboards[-1:] if last_message else keyboards
        for message in reversed(candidates):
            for button in message.find_elements(By.CSS_SELECTOR, ".keyboard button"):
                if test(button):
                    return button
        return None

    def tap_button(self, data_prefix: str, what: str) -> None:
        button = self.wait(
            lambda: self.button(
                lambda b: (b.get_attribute("data-data") or "").startswith(data_prefix), last_message=False
            ),
            what,
        )
        button.click()

    def tap_newest(self, data_prefix: str, what: str) -> None:
        """Tap a button of the newest message with a keyboard (not an older message's like it)."""
        self.click(lambda: self.button(lambda b: (b.get_attribute("data-data") or "").startswith(data_prefix)), what)

    def click(self, find: Callable[[], WebElement | None], what: str, timeout: float = WAIT) -> None:
        """Find and tap at once: the page redraws a message when it changes, so a found button can go stale."""

        def tapped() -> bool:
            alert = self.one("#alert-ok")
            if alert is not None and css_not_alert(
                what
            ):  # a late tap's alert ("the game is over"): OK, as a person would
                alert.click()
            element = find()
            if element is None:
                return False
            element.click()
            return True

        self.wait(tapped, what, timeout)

    def play_one_move(self) -> bool:
        """Tap the end the bot asks for, or else a playable tile (🟢 / ⭐); False if the hand offers neither."""
        try:
            end = self.button(lambda b: re.search(r":[lrud]$", b.get_attribute("data-data") or "") is not None)
            tile = end or self.button(lambda b: b.text.startswith(("🟢", "⭐")))
            if tile is None:
                return False
            tile.click()
        except StaleElementReferenceException:
            return False  # the hand was redrawn under the finger: look again
        deadline = time.monotonic() + 10  # until the hand is redrawn, or a toast says why not
        while tile_present(tile) and not self.one("#toast") and time.monotonic() < deadline:
            time.sleep(0.1)
        return True

    def games_over(self) -> int:
        """How many results the open chat shows."""
        try:
            return sum(1 for m in self.messages() if GAME_OVER.search(m.text))
        except StaleElementReferenceException:
            return 0

    def game_over(self) -> bool:
        """The newest game's result shows: more results than when it began (see ``results_before``)."""
        return self.games_over() > self.results_before


def is_lobby(button: WebElement, action: str) -> bool:
    return re.fullmatch(rf"lb:[^:]+:{action}", button.get_attribute("data-data") or "") is not None


def css_not_alert(what: str) -> bool:
    return "#alert" not in what


def tile_present(tile: WebElement) -> bool:
    try:
        return tile.is_displayed()
    except StaleElementReferenceException:
        return False


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("SANDBOX_SCREENSHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def phone(sandbox_run: SandboxRun, shots: Path) -> Iterator[Phone]:
    sandbox_run.start()
    driver = chromium(PHONE)
    try:
        yield Phone(driver, sandbox_run, shots)
        assert not page_errors(driver.get_log("browser")), "the page logged errors"
    finally:
        driver.quit()


def reload_in_the_middle(phone: Phone, chat_id: int) -> None:
    """A reload loses nothing: the same person, the same chat, every message."""
    before = len(phone.messages())
    phone.shot("mid-game-before-reload")
    phone.driver.refresh()
    phone.wait(lambda: phone.one('body[data-connected="true"]'), "the page back after a reload")
    phone.wait(lambda: phone.one(f'#chat[data-chat-id="{chat_id}"]'), "the same chat after the reload")
    phone.wait(lambda: len(phone.messages()) >= before, "every message after the reload")
    phone.shot("mid-game-after-reload")


def play_a_whole_private_game(phone: Phone, name: str, chat: int, tries: int = 5) -> int:
    """From the private menu on screen, the person deals quick block against one computer and plays it
    to its result; returns their moves.  A deal can end before they ever move (the computer leads 5-5
    and nobody holds another five: a fish at once), and then they tap Play again and deal from the
    new menu, as a person would (the e2e kit's ``open_private_game`` does the same)."""

    def hand() -> WebElement | None:
        return phone.button(lambda b: (b.get_attribute("data-data") or "").startswith("t:"))

    for _ in range(tries):
        phone.tap_newest("s:preset:quickblock:", "the rule set button")
        phone.tap_newest("sg:quickblock:1:", "the opponents button")
        phone.wait(lambda: hand() or phone.game_over(), "the hand, or the result")
        phone.shot("private-hand")
        moves = play_until_over(phone, [name], {name: chat}, chat, reload_after=2)
        if moves:
            return moves
        phone.results_before = phone.games_over()
        phone.tap_button("s:menu", "Play again")
    raise AssertionError(f"{tries} deals in a row ended before {name} could move")


def play_until_over(
    phone: Phone, players: list[str], chats: dict[str, int], result_chat: int, *, reload_after: int | None = None
) -> int:
    """Each person in turn plays a move from their private chat whenever offered one, until the result
    shows in ``result_chat``; returns the moves made."""
    moves = 0
    idle_since = time.monotonic()
    while time.monotonic() - idle_since < 60:
        moved = False
        for name in players:
            if len(players) > 1:
                phone.be(name)
            phone.open_chat(chats[name])
            if phone.play_one_move():
                moves += 1
                moved = True
                idle_since = time.monotonic()
                if moves == reload_after:
                    reload_in_the_middle(phone, chats[name])
            time.sleep(0.3)
        if not moved:
            phone.open_chat(result_chat)
            if phone.game_over():
                return moves
    raise AssertionError(f"the game did not end; the chat shows:\n{phone.chat_text()}")


def test_one_person_plays_a_whole_private_game_against_the_computer(phone: Phone) -> None:
    ann = phone.people["Ann"]
    phone.open()
    phone.be("Ann")
    phone.open_chat(ann)
    phone.shot("private-before-start")
    phone.tap_css("#start-button")
    phone.wait(lambda: phone.button(lambda b: "s:preset:quickblock:" in (b.get_attribute("data-data") or "")), "menu")
    phone.shot("private-menu")
    moves = play_a_whole_private_game(phone, "Ann", ann)

    assert moves >= 1
    phone.wait(lambda: phone.one("img.photo"), "the table picture")
    phone.shot("private-result")
    assert phone.game_over()

    # The game's record, as a document to download.
    phone.send("/export")
    link = phone.wait(lambda: phone.one("a.document"), "the exported record")
    with urllib.request.urlopen(str(link.get_attribute("href")), timeout=10) as download:
        disposition = download.headers["Content-Disposition"]
        record = json.loads(download.read())
    assert disposition.startswith("attachment; filename=")
    assert record["preset"] == "quickblock"

    # 🎬 Replay under the result: the animation plays in the page (Debian's Chromium decodes H.264).
    # (A late tap's "the game is over" alert may be up: OK it first, as a person would.)
    def replay() -> WebElement | None:
        return phone.button(lambda b: (b.get_attribute("data-data") or "").startswith("rp:"), last_message=False)

    phone.click(replay, "the Replay button")
    video = phone.wait(lambda: phone.one("video.animation"), "the replay")
    phone.wait(lambda: phone.driver.execute_script("return arguments[0].readyState >= 2", video), "the replay playing")
    assert phone.driver.execute_script("return arguments[0].videoWidth", video) == 720
    phone.shot("private-replay")


def test_two_people_play_a_group_game_from_new_to_the_result(phone: Phone) -> None:
    ann, bob = phone.people["Ann"], phone.people["Bob"]
    group = phone.run.world()["group"]["id"]
    phone.open()
    phone.be("Ann")
    phone.open_chat(ann)
    phone.tap_css("#start-button")
    phone.wait(lambda: phone.button(lambda b: True), "the welcome")
    phone.open_chat(group)
    phone.tap_css("#commands-button")  # the bot's command menu for groups, in Ann's language
    phone.wait(lambda: phone.one('.command[data-command="new"]'), "/new in the command menu")
    phone.shot("group-commands")
    phone.tap_css("#commands-button")
    phone.send("/new quickblock")
    phone.wait(lambda: phone.button(lambda b: is_lobby(b, "join")), "the lobby")
    phone.shot("group-lobby")

    # Bob never opened the bot: Join answers with a link to it, which opens his private chat with /start.
    phone.be("Bob")
    phone.open_chat(group)
    phone.click(lambda: phone.button(lambda b: is_lobby(b, "join")), "Join")
    phone.wait(lambda: phone.one(f'#chat[data-chat-id="{bob}"]'), "Bob's private chat, opened by the link")
    phone.wait(lambda: "/start j" in phone.chat_text(), "the /start payload sent")
    phone.shot("group-bob-joined")

    phone.be("Ann")
    phone.open_chat(group)
    phone.wait(lambda: "Bob" in phone.chat_text(), "Bob in the lobby")
    phone.click(lambda: phone.button(lambda b: is_lobby(b, "start")), "the Start button")
    phone.wait(lambda: phone.one("img.photo"), "the board in the group")
    phone.shot("group-board")

    play_until_over(phone, ["Ann", "Bob"], {"Ann": ann, "Bob": bob}, group, reload_after=3)

    phone.open_chat(group)
    phone.wait(lambda: GAME_OVER.search(phone.chat_text()), "the result in the group")
    phone.shot("group-result")


def test_the_controls_languages_menu_and_table_manners(phone: Phone) -> None:
    cat, dan = phone.people["Cat"], phone.people["Dan"]
    phone.open()
    phone.be("Cat")
    # A Russian-speaking Cat: the bot greets her in Russian and its command menu is in Russian.
    phone.tap_css("#controls-button")
    Select(phone.wait(lambda: phone.one("#language"), "the language choice")).select_by_value("ru")
    phone.wait(lambda: phone.run.world()["people"]["Cat"]["language"] == "ru", "Cat's language changed")
    phone.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    phone.open_chat(cat)
    phone.tap_css("#start-button")
    phone.wait(lambda: "Привет, Cat! Давайте сыграем в домино." in phone.chat_text(), "the Russian greeting")
    phone.tap_css("#commands-button")
    phone.wait(lambda: phone.one('.command[data-command="start"]'), "the private command menu")
    menu = phone.wait(lambda: phone.one("#command-menu"), "the menu").text
    assert "Играть с компьютером или с другом" in menu, menu
    phone.shot("controls-russian")
    phone.tap_css("#commands-button")

    # Dan is added to the group: he sees it, with the service line, and can write there.
    phone.be("Dan")
    group = phone.run.world()["group"]["id"]
    phone.tap_css("#controls-button")
    phone.tap_css("#add-to-group")
    phone.open_chat(group)
    phone.wait(lambda: "Dan joined the group" in phone.all_text(), "Dan's joining in the group")
    phone.wait(lambda: phone.one("#text"), "the text field for Dan")

    # The group becomes a supergroup: a new chat id, where the bot writes from now on.
    phone.tap_css("#controls-button")
    phone.tap_css("#supergroup")
    phone.wait(lambda: phone.run.world()["group"]["type"] == "supergroup", "the supergroup")
    supergroup = phone.run.world()["group"]["id"]
    phone.open_chat(supergroup)
    phone.wait(lambda: "upgraded to a supergroup" in phone.all_text(), "the upgrade in the new chat")
    phone.shot("controls-supergroup")

    # Dan blocks the bot, then unblocks it.
    phone.tap_css("#controls-button")
    phone.tap_css("#block")
    phone.wait(lambda: phone.run.world()["people"]["Dan"]["blocked"], "Dan blocked the bot")
    phone.tap_css("#controls-button")
    phone.wait(lambda: "Unblock" in getattr(phone.one("#block"), "text", ""), "the Unblock control")
    phone.tap_css("#block")
    phone.wait(lambda: not phone.run.world()["people"]["Dan"]["blocked"], "Dan unblocked the bot")
    assert dan in phone.people.values()


def test_the_page_on_a_desktop_and_in_the_dark(phone: Phone) -> None:
    ann = phone.people["Ann"]
    phone.driver.set_window_size(1280, 800)
    phone.driver.get(f"{phone.run.url}/?theme=dark#person={ann}")
    phone.wait(lambda: phone.one('body[data-connected="true"]'), "the page connected")
    phone.open_chat(ann)
    phone.tap_css("#start-button")
    phone.wait(lambda: phone.button(lambda b: "s:preset:" in (b.get_attribute("data-data") or "")), "the menu")
    # Both panes at once on a desktop: the chat list beside the open chat.
    assert phone.one(f'[data-chat="{ann}"]') and phone.one(f'#chat[data-chat-id="{ann}"]')
    phone.shot("desktop-dark")
    phone.driver.set_window_size(*PHONE)
    phone.shot("phone-dark")

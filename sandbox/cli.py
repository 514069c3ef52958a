"""``dominoes-bot sandbox``: the real bot against a Telegram of its own, played in a browser.

One command, no token, no network: the test kit's fake Bot API server on 127.0.0.1, the bot
unmodified against it (``bot_process.py``), the page at ``http://127.0.0.1:$SANDBOX_PORT/``
(``web.py``), and both kept in ``./data`` (the bot's ``sandbox.sqlite3`` and the fake's chats in
``sandbox-telegram/``), so a game goes on after the sandbox is started again. Ctrl-C stops it all.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import socket
import sys
import time
import webbrowser
from pathlib import Path

from aiohttp import web

from fake_telegram import Entry, FakeTelegram, Limits
from fake_telegram.snapshot import SnapshotError, exists, forget_unused_files, load, save

from .bot_process import BotProcess, bot_environment
from .cast import BOT_NAME, BOT_USERNAME, Cast
from .web import SandboxSite

log = logging.getLogger("sandbox")

DEFAULT_PORT = 8080
DATA = Path("data")
DATABASE = "sandbox.sqlite3"
TELEGRAM_STATE = "sandbox-telegram"
SAVE_EVERY = 2.0
FORGET_EVERY = 60.0
READY_TIMEOUT = 60.0
# A fresh Telegram next to a database that saw an earlier one must not hand out update ids that
# the bot has handled already (it skips those): start from the clock, which only goes forward.
EPOCH = 1_700_000_000


def free_port() -> int:
    """A port nobody listens on now (the bot's table page gets it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class SandboxError(Exception):
    """A reason the sandbox cannot start, said in one line."""


def port_from_environment() -> int:
    raw = os.environ.get("SANDBOX_PORT", str(DEFAULT_PORT))
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        raise SandboxError(f"SANDBOX_PORT must be a port number from 1 to 65535, not {raw!r}")  # i18n: not shown
    return int(raw)


class Sandbox:
    def __init__(self, port: int, data: Path) -> None:
        self.port = port
        self.data = data
        self.fake = FakeTelegram(bot_username=BOT_USERNAME, bot_name=BOT_NAME, limits=Limits.telegram())
        self.cast = Cast(self.fake)
        self.site = SandboxSite(self.fake, self.cast, webapp_port=free_port())
        self.bot = BotProcess({})
        self._changed = True
        self._violations_told = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._runner: web.AppRunner | None = None
        self.fake.recorder.listeners.append(self._note_change)

    def _note_change(self, entry: Entry) -> None:
        if not (entry.method == "getUpdates" and entry.ok and not entry.response):  # an idle poll changes nothing
            self._changed = True

    def note_change(self) -> None:
        """Something not in the transcript changed (a person's name or language)."""
        self._changed = True

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def _load_or_create(self) -> None:
        folder = self.data / TELEGRAM_STATE
        if exists(folder):
            try:
                load(self.fake.world, self.fake.queue, folder)
                # The snapshot is a few seconds old after a hard kill: ids handed out since must not
                # come again (the bot skips an update id it handled), so the clock's count as well.
                self.fake.queue.continue_from(int(time.time()) - EPOCH)
                log.info("went on with the chats kept in %s", folder)
                return
            except SnapshotError as error:
                aside = folder.with_name(f"{TELEGRAM_STATE}.unreadable-{int(time.time())}")
                folder.rename(aside)
                log.warning("%s; it was moved to %s and the chats start afresh", error, aside)
        self.fake.queue.continue_from(int(time.time()) - EPOCH)
        self.cast.create()

    async def start(self) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        self._load_or_create()
        api_url = await self.fake.start()
        self._runner = web.AppRunner(self.site.application(), access_log=None)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        except OSError as error:
            await self._runner.cleanup()
            await self.fake.stop()
            raise SandboxError(f"cannot listen on 127.0.0.1:{self.port} ({error.strerror}); set SANDBOX_PORT") from None
        self._tasks = [asyncio.create_task(self.site.hub.run()), asyncio.create_task(self._keep())]
        environment = bot_environment(self.fake.token, api_url, self.data / DATABASE, self.site.webapp_port)
        self.bot = BotProcess(environment)
        await self.bot.start()

    async def wait_ready(self) -> None:
        """Until the bot has started up and asks for updates (its first long poll may wait 30 s for one)."""
        queue = self.fake.queue
        await self.fake.wait_for(lambda: queue.polls_begun > 0, READY_TIMEOUT, what="the bot to start")

    async def _keep(self) -> None:
        """Keep the chats on disk, forget what is no longer shown, and tell of rules the bot broke."""
        forget_at = time.monotonic() + FORGET_EVERY
        while True:
            await asyncio.sleep(SAVE_EVERY)
            try:
                self._tell_violations()
                if time.monotonic() >= forget_at:
                    forget_at = time.monotonic() + FORGET_EVERY
                    forget_unused_files(self.fake.world)
                    self.fake.forget_history()
                if self._changed:
                    self.save()
            except Exception:  # a full disk, say: said, and tried again in a moment
                log.exception("keeping the chats on disk failed")

    def _tell_violations(self) -> None:
        for violation in self.fake.violations:
            if violation.seq > self._violations_told:
                log.warning("the bot broke a Telegram rule: %s", violation)
                self._violations_told = violation.seq

    def save(self) -> None:
        self._changed = False
        save(self.fake.world, self.fake.queue, self.data / TELEGRAM_STATE)

    async def stop(self) -> None:
        await self.bot.stop()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.site.hub.close("The sandbox was stopped.")
        self.save()
        if self._runner is not None:
            await self._runner.cleanup()
        await self.fake.stop()


async def serve(port: int, open_page: bool) -> None:
    begun = time.monotonic()
    sandbox = Sandbox(port, DATA)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def on_signal() -> None:
        if stop.is_set():  # a second Ctrl-C: no more waiting for the bot
            sandbox.bot.kill()
        stop.set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, on_signal)
    await sandbox.start()
    try:
        ready = asyncio.ensure_future(sandbox.wait_ready())
        stopped = asyncio.ensure_future(stop.wait())
        await asyncio.wait({ready, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if ready.done() and ready.exception() is None:
            log.info("ready in %.1f s: open %s (Ctrl-C stops the sandbox)", time.monotonic() - begun, sandbox.url)
            if open_page:
                _open_browser(sandbox.url)
        elif ready.done():
            log.error("the bot did not start within %.0f s; its log is above", READY_TIMEOUT)
            stop.set()
        await stop.wait()
        ready.cancel()
    finally:
        log.info("stopping")
        await sandbox.stop()
        log.info("stopped; the games and chats are kept in %s", DATA.resolve())


def _open_browser(url: str) -> None:
    try:
        webbrowser.get()
    except webbrowser.Error:
        log.info("no browser here to open; open %s where you have one", url)
        return
    webbrowser.open(url)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="dominoes-bot sandbox",
        description="Play with the real bot in a browser, against a Telegram of its own: no token, no network. "
        "The page is at http://127.0.0.1:$SANDBOX_PORT/ (default 8080); games are kept in ./data.",
    )
    parser.add_argument("--open", action="store_true", help="open the page in a browser, where there is one")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s sandbox: %(message)s", stream=sys.stderr)
    try:
        asyncio.run(serve(port_from_environment(), args.open))
    except SandboxError as error:
        print(f"dominoes-bot sandbox: {error}", file=sys.stderr)
        raise SystemExit(2) from None

"""The real bot, unmodified, as a child process pointed at the sandbox's Telegram.

It runs exactly as in production (``python -m bot``, long polling, the settings it reads from
the environment and ``.env``) with four of them set: the fake's token and address, the sandbox's
SQLite file, and no webhook or Redis (a ``.env`` meant for production must not send the sandbox's
bot elsewhere). Its log goes to the sandbox's terminal. It runs in a session of its own, so that
Ctrl-C reaches the sandbox alone, which then stops it the way a service manager would (SIGTERM,
and SIGKILL if it has not stopped in time). If it stops by itself, it is started again. If the
sandbox itself is killed, Linux sends the bot SIGTERM (``PR_SET_PDEATHSIG``): no bot is left
polling a Telegram that is gone, holding the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
STOP_TIMEOUT = 10.0
RESTART_DELAY = 2.0
# Settings that would point the bot somewhere other than the sandbox's Telegram and database.
OVERRIDDEN = (
    "BOT_TOKEN",
    "TELEGRAM_API_URL",
    "DATABASE_URL",
    "WEBHOOK_URL",
    "WEBHOOK_SECRET",
    "REDIS_URL",
    "WEBAPP_URL",
    "WEBAPP_HOST",
    "WEBAPP_PORT",
)


def bot_environment(
    token: str, api_url: str, database: Path, webapp_port: int, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The bot's settings: the caller's, with the sandbox's Telegram, database and table page (on
    ``webapp_port`` of this machine, so that the Mini App can be tried here too)."""
    env = {key: value for key, value in (os.environ if base is None else base).items() if key not in OVERRIDDEN}
    env.update(
        BOT_TOKEN=token,
        TELEGRAM_API_URL=api_url,
        DATABASE_URL=f"sqlite:///{database.resolve()}",
        WEBHOOK_URL="",
        REDIS_URL="",
        WEBAPP_URL=webapp_url(webapp_port),
        WEBAPP_HOST="127.0.0.1",
        WEBAPP_PORT=str(webapp_port),
    )
    return env


def _stop_with_parent() -> None:
    """In the child, before the bot starts: SIGTERM when the sandbox dies (Linux; elsewhere nothing)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def webapp_url(port: int) -> str:
    return f"http://127.0.0.1:{port}/webapp"


class BotProcess:
    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = dict(env)
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._stopping = False
        self._keeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._spawn()
        self._keeper = asyncio.create_task(self._keep_running())

    async def _spawn(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=self.env, start_new_session=True, preexec_fn=_stop_with_parent
        )
        self.starts += 1

    async def _keep_running(self) -> None:
        while not self._stopping:
            assert self.process is not None
            code = await self.process.wait()
            if self._stopping:
                return
            log.warning("the bot stopped (exit status %s); starting it again in %.0f s", code, RESTART_DELAY)
            await asyncio.sleep(RESTART_DELAY)
            if not self._stopping:
                await self._spawn()

    def kill(self) -> None:
        """SIGKILL now (a second Ctrl-C): :meth:`stop`, if waiting, sees it end at once."""
        self._stopping = True
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()

    async def stop(self) -> int | None:
        self._stopping = True
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        process = self.process
        if process is None or process.returncode is not None:
            return None if process is None else process.returncode
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(process.wait(), STOP_TIMEOUT)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            return await process.wait()

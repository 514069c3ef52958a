"""Starting and stopping the real bot process against a :class:`FakeTelegram`: one way, for the tests and the bench.

``tests/e2e/conftest.py`` (the ``bot`` fixtures) and ``bench/bot.py`` (the load benchmark) both
run ``python -m bot`` as a subprocess with :class:`BotLauncher`:

* :func:`bot_env` builds its environment: the caller's, without ``BOT_*``/``TELEGRAM_*`` variables
  that would point it elsewhere, plus the fake's token and URL, a SQLite file, no computer delays
  and a 1-second long poll;
* :meth:`BotLauncher.start` starts it (stdout and stderr appended to one log file), notes the start
  in the fake's transcript, and waits until it polls: a ``getUpdates`` that began after that note
  was answered, so the bot has finished starting up (and resumed its games);
* :meth:`BotLauncher.stop` sends SIGTERM, as a service manager would, and SIGKILL if the bot has
  not exited in time; :meth:`BotLauncher.kill` is SIGKILL at once (its picture workers are left to
  notice on their own; :meth:`BotLauncher.children` lists them first);
* :meth:`BotLauncher.log` / :meth:`BotLauncher.log_tail` read what it wrote.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.e2e.fake_telegram import FakeTelegram

REPO = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
LOG_TAIL = 200


def bot_env(
    fake: FakeTelegram,
    database: Path,
    *,
    log_level: str = "INFO",
    heartbeat: Path | None = None,
    extra: Mapping[str, str] | None = None,
    base: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The bot's environment: ``base`` (default ``os.environ``) without BOT_*/TELEGRAM_*, then the fake's."""
    source = os.environ if base is None else base
    env = {key: value for key, value in source.items() if not key.startswith(("BOT_", "TELEGRAM_"))}
    env.update(fake.env())
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        COMPUTER_DELAY="0",
        PRIVATE_COMPUTER_DELAY="0",
        POLLING_TIMEOUT="1",
        LOG_LEVEL=log_level,
        PYTHONUNBUFFERED="1",
        # Games here move as fast as the machine allows; Telegram's budgets would only slow them
        # down. tests/e2e/test_limits.py plays with the real budgets against the fake's flood model.
        GROUP_MESSAGES_PER_MINUTE="0",
        CHAT_MESSAGES_PER_SECOND="0",
        MESSAGES_PER_SECOND="0",
    )
    if heartbeat is not None:
        env["HEARTBEAT_FILE"] = str(heartbeat)
    env.update(extra or {})
    return env


class BotLauncher:
    """The bot as a subprocess of this event loop: ``command`` (default ``python -m bot``) run in ``cwd``."""

    def __init__(
        self,
        fake: FakeTelegram,
        log_path: Path,
        env: Mapping[str, str],
        *,
        command: Sequence[str] | None = None,
        cwd: Path = REPO,
        new_session: bool = False,
    ) -> None:
        self.fake = fake
        self.log_path = log_path
        self.environment = dict(env)
        self.command = list(command or [sys.executable, "-m", "bot"])
        self.cwd = cwd
        self.new_session = new_session  # its own process group: a Ctrl-C meant for the caller does not reach it
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    @property
    def pid(self) -> int:
        assert self.process is not None, "the bot was never started"
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        return None if self.process is None else self.process.returncode

    async def start(self, *, wait: bool = True, timeout: float = READY_TIMEOUT) -> None:
        """Start the bot and (``wait``) wait until it polls; raises if it exits or does not poll in time."""
        assert not self.running, "the bot is already running"
        self.starts += 1
        # Requests of a killed process may be recorded late (a long poll cut short); only what
        # begins after this note counts as the new process.
        mark = self.fake.recorder.user_action("bot", f"start {self.starts} of the bot process").seq
        with self.log_path.open("a", encoding="utf-8") as log:
            log.write(f"===== start {self.starts} =====\n")
            log.flush()
            self.process = await asyncio.create_subprocess_exec(
                *self.command,
                cwd=self.cwd,
                env=self.environment,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=self.new_session,
            )
        if wait:
            await self.wait_polling(mark, timeout)

    async def wait_polling(self, mark: int, timeout: float = READY_TIMEOUT) -> None:
        """Until a ``getUpdates`` that began after transcript entry ``mark`` has been answered."""
        process = self.process
        assert process is not None
        recorder = self.fake.recorder

        def ready() -> bool:
            if process.returncode is not None:
                raise RuntimeError(f"the bot exited with status {process.returncode}:\n{self.log_tail(30)}")
            return recorder.last_poll > mark

        await self.fake.wait_for(ready, timeout, what="the bot to start polling")

    async def stop(self, timeout: float = STOP_TIMEOUT) -> int | None:
        """SIGTERM (aiogram stops polling, the bot closes its database); SIGKILL if still there after ``timeout``."""
        process = self.process
        if process is None or process.returncode is not None:
            return self.returncode
        self.fake.recorder.user_action("bot", "SIGTERM to the bot process")
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(process.wait(), timeout)
        except TimeoutError:
            await self.kill()
            return process.returncode

    async def kill(self) -> list[int]:
        """SIGKILL: the process dies on the spot, whatever it was doing; returns the ids of its children."""
        process = self.process
        if process is None:
            return []
        children = self.children()
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGKILL)
                self.fake.recorder.user_action("bot", "SIGKILL to the bot process")
        await process.wait()
        return children

    def children(self) -> list[int]:
        """Processes the bot started (picture workers and the like); empty where there is no /proc."""
        if self.process is None or self.process.returncode is not None:
            return []
        return [pid for pid, parent in processes() if parent == self.process.pid]

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = LOG_TAIL) -> str:
        return "\n".join(self.log().splitlines()[-lines:])


def processes() -> list[tuple[int, int]]:
    """(pid, parent pid) of every process, from /proc (nothing where there is none)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2 :].split()  # after "pid (command) ": state, ppid, ...
        found.append((int(stat.parent.name), int(fields[1])))
    return found

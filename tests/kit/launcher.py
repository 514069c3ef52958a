"""Starting and stopping the real bot process against a :class:`FakeTelegram`: one way, for the tests and the bench.

``tests/e2e/conftest.py`` (the ``bot`` fixtures) and ``bench/bot.py`` (the load benchmark) both
run ``python -m bot`` as a subprocess with :class:`BotLauncher`:

* :func:`bot_env` builds its environment: the caller's, without ``BOT_*``/``TELEGRAM_*`` variables
  (nor webhook, Redis or wake-up ones) that would point it elsewhere, plus the fake's token and
  URL, a SQLite file, no computer delays, a 1-second long poll and no picture worker processes
  (``RENDER_WORKERS=0``; ``extra`` sets it for tests about the workers);
* :meth:`BotLauncher.start` starts it (stdout and stderr appended to one log file), notes the start
  in the fake's transcript, and waits until it polls: a ``getUpdates`` that began after that note
  was answered, so the bot has finished starting up (and resumed its games);
* :meth:`BotLauncher.stop` sends SIGTERM, as a service manager would, and SIGKILL if the bot has
  not exited in time; :meth:`BotLauncher.kill` is SIGKILL at once (its picture workers are left to
  notice on their own; :meth:`BotLauncher.children` lists them first);
* :meth:`BotLauncher.log` / :meth:`BotLauncher.log_tail` read what it wrote.

Webhook mode (several instances behind ``tests/kit/balancer.py``): :func:`webhook_env` adds the
``WEBHOOK_*`` settings (and ``REDIS_URL``, a PostgreSQL ``DATABASE_URL``, ``WAKE_GRACE_SECONDS``)
to :func:`bot_env`'s environment, :func:`free_port` picks a port for each instance, and
``start(ready="webhook")`` / :meth:`BotLauncher.wait_serving` wait until the instance answers
``GET /health`` with 200 instead of waiting for a long poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from fake_telegram import FakeTelegram

REPO = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 60.0  # a loaded machine (CI beside browsers) takes many seconds just to import aiogram
STOP_TIMEOUT = 10.0
LOG_TAIL = 200
# What webhook_env sets: a value inherited from the caller's environment must not leak in.
WEBHOOK_SETTINGS = (
    "WEBHOOK_URL",
    "WEBHOOK_SECRET",
    "WEBHOOK_HOST",
    "WEBHOOK_PORT",
    "WEBHOOK_MAX_CONNECTIONS",
    "REDIS_URL",
    "WAKE_GRACE_SECONDS",
)
HEALTH_PATH = "/health"
# The bot refuses WEBHOOK_URL without WEBHOOK_SECRET, and every instance behind one webhook must
# check the same secret (Telegram sends one): a fixed default, not a random one per instance.
DEFAULT_WEBHOOK_SECRET = "e2e_webhook_secret"


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
    # Nor settings of several instances (webhook_env sets them where wanted).
    env = {
        key: value
        for key, value in source.items()
        if not key.startswith(("BOT_", "TELEGRAM_", "WEBHOOK_", "REDIS_", "WAKE_"))
    }
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
        QUIET_ANSWER_SECONDS="0",  # every refusal answered: tests look at each
        CHAT_MESSAGES_PER_SECOND="0",
        MESSAGES_PER_SECOND="0",
        # Pictures drawn in a thread of the bot's own process: spawning and warming up picture
        # workers costs each start seconds of CPU. Tests about the workers set RENDER_WORKERS.
        RENDER_WORKERS="0",
    )
    if heartbeat is not None:
        env["HEARTBEAT_FILE"] = str(heartbeat)
    env.update(extra or {})
    return env


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now (the system's choice for port 0); another process could
    still take it before the caller binds it, which on loopback in a test run is rare enough."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def webhook_env(
    fake: FakeTelegram,
    database: Path | str,
    *,
    url: str,
    port: int,
    secret: str | None = DEFAULT_WEBHOOK_SECRET,
    host: str = "127.0.0.1",
    max_connections: int | None = None,
    redis_url: str | None = None,
    wake_grace_seconds: float | None = None,
    log_level: str = "INFO",
    heartbeat: Path | None = None,
    extra: Mapping[str, str] | None = None,
    base: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment of one bot instance in webhook mode: :func:`bot_env`'s, plus

    * ``WEBHOOK_URL=url``: where the fake POSTs updates (the balancer's URL when there are several
      instances, else this instance's own ``http://127.0.0.1:<port>/<path>``); setting it is what
      puts the bot in webhook mode;
    * ``WEBHOOK_HOST``/``WEBHOOK_PORT``: where this instance listens (loopback by default in tests,
      where the bot's own default is 0.0.0.0); ``WEBHOOK_SECRET`` (:data:`DEFAULT_WEBHOOK_SECRET`
      unless given; ``None`` leaves it out); ``WEBHOOK_MAX_CONNECTIONS``, ``REDIS_URL`` and
      ``WAKE_GRACE_SECONDS`` when given;
    * ``DATABASE_URL``: ``database`` as given when it is a URL (``postgresql://...``), a SQLite file
      when it is a path.

    Those names are removed from ``base`` first, so a developer's own settings do not leak in;
    ``extra`` is applied last.
    """
    source = os.environ if base is None else base
    clean = {key: value for key, value in source.items() if key not in WEBHOOK_SETTINGS}
    sqlite = database if isinstance(database, Path) else Path("unused.sqlite3")
    env = bot_env(fake, sqlite, log_level=log_level, heartbeat=heartbeat, base=clean)
    if not isinstance(database, Path):
        env["DATABASE_URL"] = database
    env.update(WEBHOOK_URL=url, WEBHOOK_HOST=host, WEBHOOK_PORT=str(port))
    if secret is not None:
        env["WEBHOOK_SECRET"] = secret
    if max_connections is not None:
        env["WEBHOOK_MAX_CONNECTIONS"] = str(max_connections)
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    if wake_grace_seconds is not None:
        env["WAKE_GRACE_SECONDS"] = f"{wake_grace_seconds:g}"
    env.update(extra or {})
    return env


async def http_status(host: str, port: int, path: str = HEALTH_PATH, timeout: float = 1.0) -> int | None:
    """The status of ``GET http://host:port/path``, or None if nothing answers (a plain socket: no client session)."""
    writer = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            line = await reader.readline()
    except (OSError, TimeoutError):
        return None
    finally:
        if writer is not None:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
    parts = line.split()
    return int(parts[1]) if len(parts) >= 2 and parts[0].startswith(b"HTTP/") and parts[1].isdigit() else None


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

    async def start(
        self, *, wait: bool = True, timeout: float = READY_TIMEOUT, ready: str = "polling", port: int | None = None
    ) -> None:
        """Start the bot and (``wait``) wait until it is ready; raises if it exits or is not ready in time.

        ``ready="polling"`` (the default): until it polls (:meth:`wait_polling`).  ``ready="webhook"``:
        until it answers ``GET /health`` on ``port`` (default: its ``WEBHOOK_PORT``) with 200
        (:meth:`wait_serving`).
        """
        if ready not in ("polling", "webhook"):
            raise ValueError(f'ready must be "polling" or "webhook", not {ready!r}')
        if wait and ready == "webhook" and port is None:
            port = int(self.environment["WEBHOOK_PORT"])
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
        if wait and ready == "webhook":
            assert port is not None
            await self.wait_serving(port, timeout)
        elif wait:
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

    async def wait_serving(
        self, port: int, timeout: float = READY_TIMEOUT, *, host: str = "127.0.0.1", path: str = HEALTH_PATH
    ) -> None:
        """Until ``GET http://host:port/health`` answers 200 (an instance in webhook mode is up);
        raises ``RuntimeError`` with the log's tail if the process exits first, ``TimeoutError`` after ``timeout``."""
        process = self.process
        assert process is not None, "the bot was never started"
        deadline = time.monotonic() + timeout
        last: int | None = None
        while True:
            if process.returncode is not None:
                raise RuntimeError(f"the bot exited with status {process.returncode}:\n{self.log_tail(30)}")
            last = await http_status(host, port, path, timeout=min(1.0, max(0.05, deadline - time.monotonic())))
            if last == 200:
                return
            if time.monotonic() >= deadline:
                answer = "nothing answered" if last is None else f"the last answer was {last}"
                raise TimeoutError(
                    f"the bot did not serve {path} on {host}:{port} within {timeout} s ({answer}):\n{self.log_tail(30)}"
                )
            await asyncio.sleep(0.05)

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

"""End-to-end fixtures: a fake Bot API server on loopback and the real bot process talking to it.

``fake`` is a started :class:`FakeTelegram`; ``bot`` is a :class:`BotProcess` that runs
``python -m bot`` against it with a fresh SQLite file, and can be stopped, killed (SIGKILL)
and started again on the same database.  When a test fails, its report gets the fake's
transcript and the bot's log as extra sections.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Generator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.players import StoredGame, read_games

REPO = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
ORPHAN_TIMEOUT = 15.0
LOG_TAIL = 200
TRANSCRIPT_TAIL = 200


class BotProcess:
    """The real bot (``python -m bot``) as a subprocess, with its database and log in ``workdir``."""

    def __init__(self, fake: FakeTelegram, workdir: Path) -> None:
        self.fake = fake
        self.workdir = workdir
        self.database = workdir / "bot.sqlite3"
        self.log_path = workdir / "bot.log"
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.spawned: set[int] = set()  # children of killed processes

    def env(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith(("BOT_", "TELEGRAM_"))}
        env.update(self.fake.env())
        env.update(
            DATABASE_URL=f"sqlite:///{self.database}",
            COMPUTER_DELAY="0",
            PRIVATE_COMPUTER_DELAY="0",
            POLLING_TIMEOUT="1",
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
            HEARTBEAT_FILE=str(self.workdir / "heartbeat"),
        )
        return env

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def start(self) -> None:
        """Start the bot and wait until it polls for updates (it has resumed its games by then)."""
        assert not self.running, "the bot is already running"
        self.starts += 1
        # Requests of a killed process may be recorded late (a long poll cut short); only what
        # begins after this note counts as the new process.
        mark = self.fake.recorder.user_action("bot", f"start {self.starts} of the bot process").seq
        with self.log_path.open("a", encoding="utf-8") as log:
            log.write(f"===== start {self.starts} =====\n")
            log.flush()
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=REPO,
                env=self.env(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        process = self.process

        def ready() -> bool:
            if process.returncode is not None:
                raise AssertionError(f"the bot exited with {process.returncode}:\n{self.log_tail()}")
            return any(e.seq > mark and e.ok for e in self.fake.calls("getUpdates"))

        await self.fake.wait_for(ready, READY_TIMEOUT, what="the bot to start polling")

    async def stop(self) -> int | None:
        """SIGTERM, as a service manager would; SIGKILL if it does not exit in time."""
        process = self.process
        if process is None or process.returncode is not None:
            return None if process is None else process.returncode
        self.fake.recorder.user_action("bot", "SIGTERM to the bot process")
        process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(process.wait(), STOP_TIMEOUT)
        except TimeoutError:
            await self.kill()
            return process.returncode

    async def kill(self) -> list[int]:
        """SIGKILL: the process dies on the spot, whatever it was doing; returns its children's ids."""
        process = self.process
        if process is None:
            return []
        children = self.children()
        self.spawned.update(children)
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
        return [pid for pid, parent in _processes() if parent == self.process.pid]

    def mine(self, pid: int) -> bool:
        """Whether ``pid`` is still one of this bot's processes (ids can be reused)."""
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            return False
        return f"HEARTBEAT_FILE={self.workdir / 'heartbeat'}".encode() in environ.split(b"\0")

    async def wait_gone(self, pids: list[int], timeout: float = ORPHAN_TIMEOUT) -> list[int]:
        """Wait for the killed bot's children to end; returns those still running after ``timeout``."""
        with contextlib.suppress(TimeoutError):
            await self.fake.wait_for(
                lambda: not any(self.mine(pid) for pid in pids), timeout, what="the dead bot's children to end"
            )
        return [pid for pid in pids if self.mine(pid)]

    def reap_orphans(self) -> None:
        """Test hygiene: end whatever a killed bot left behind (by id, and only if it is ours)."""
        for pid in sorted(self.spawned):
            if self.mine(pid):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = LOG_TAIL) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def errors_in_log(self, since: int = 0) -> list[str]:
        """Tracebacks and ERROR lines the bot logged (a failed update, a crashed computer turn)."""
        lines = self.log()[since:].splitlines()
        return [line for line in lines if " ERROR " in line or line.startswith("Traceback")]

    def games(self) -> list[StoredGame]:
        return read_games(self.database)


def _processes() -> list[tuple[int, int]]:
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


class Checkpoint:
    """Where a test began in a fake and a bot that several tests share: what is new since then."""

    def __init__(self, fake: FakeTelegram, bot: BotProcess) -> None:
        self.fake = fake
        self.bot = bot
        self.violations = len(fake.violations)
        self.callbacks = {query.id for query in fake.callback_queries}
        self.log_offset = len(bot.log())

    def new_violations(self) -> list[str]:
        return [str(v) for v in self.fake.violations[self.violations :]]

    def unanswered(self) -> list[str]:
        return [f"{q.id} {q.data!r}" for q in self.fake.unanswered_callbacks() if q.id not in self.callbacks]

    def new_errors(self) -> list[str]:
        return self.bot.errors_in_log(since=self.log_offset)

    def assert_clean(self) -> None:
        """No invalid request, every tap answered, nothing went wrong inside the bot."""
        assert self.new_violations() == [], "the bot broke Telegram rules"
        assert self.unanswered() == [], "callback queries left unanswered"
        assert self.new_errors() == [], "the bot logged errors"


def _attach(report: pytest.TestReport, values: dict[str, object]) -> None:
    for value in values.values():
        if isinstance(value, FakeTelegram):
            report.sections.append(("fake telegram transcript", value.transcript_text(last=TRANSCRIPT_TAIL)))
            if value.violations:
                report.sections.append(("fake telegram violations", "\n".join(str(v) for v in value.violations)))
        elif isinstance(value, BotProcess):
            report.sections.append(("bot log", value.log_tail()))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, object, object]:
    """On failure, attach what the fake saw and what the bot logged to the test's report."""
    report = yield
    if isinstance(report, pytest.TestReport) and report.failed and call.when in ("setup", "call"):
        _attach(report, getattr(item, "funcargs", {}))
    return report


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest_asyncio.fixture
async def bot(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot, started against ``fake`` with an empty database; stopped (or killed) afterwards."""
    process = BotProcess(fake, tmp_path)
    await process.start()
    try:
        yield process
    finally:
        await process.stop()
        process.reap_orphans()


# One fake and one bot for a whole module of independent games (each test has its own people
# and chats): starting the bot costs seconds of CPU, a game often less.
@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_bot(shared_fake: FakeTelegram, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotProcess]:
    process = BotProcess(shared_fake, tmp_path_factory.mktemp("bot"))
    await process.start()
    try:
        yield process
    finally:
        await process.stop()
        process.reap_orphans()

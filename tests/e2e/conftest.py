"""End-to-end fixtures: a fake Bot API server on loopback and the real bot process talking to it.

``fake`` is a started :class:`FakeTelegram`; ``bot`` is a :class:`BotProcess` that runs
``python -m bot`` against it with a fresh SQLite file, and can be stopped, killed (SIGKILL)
and started again on the same database.  Starting, waiting until it polls and stopping are
:class:`tests.kit.launcher.BotLauncher`'s, shared with ``bench/bot.py``.  When a test fails,
its report gets the fake's transcript and the bot's log as extra sections.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import AsyncIterator, Generator
from pathlib import Path

import pytest
import pytest_asyncio

from fake_telegram import Chat, FakeTelegram, Limits, Message, User
from tests.kit.launcher import REPO, BotLauncher, bot_env
from tests.kit.people import players
from tests.kit.people.players import StoredGame, read_games

__all__ = ["CHAOS_LARGE", "REPO", "BotProcess", "Checkpoint", "results_after"]

ORPHAN_TIMEOUT = 15.0
# The size of the chaos scenarios (tests/e2e/test_chaos_*.py, tests/kit/scenarios/*): small by default,
# the sizes of ``bench/chaos.py`` without ``--quick`` with ``CHAOS_SIZE=large``.
CHAOS_LARGE = os.environ.get("CHAOS_SIZE", "small").strip().lower() == "large"
TRANSCRIPT_TAIL = 200


class BotProcess(BotLauncher):
    """The real bot (``python -m bot``) as a subprocess, with its database and log in ``workdir``."""

    def __init__(self, fake: FakeTelegram, workdir: Path) -> None:
        self.workdir = workdir
        self.database = workdir / "bot.sqlite3"
        self.heartbeat = workdir / "heartbeat"
        env = bot_env(fake, self.database, log_level="INFO", heartbeat=self.heartbeat)
        super().__init__(fake, workdir / "bot.log", env)
        self.spawned: set[int] = set()  # children of killed processes

    def env(self) -> dict[str, str]:
        return dict(self.environment)

    async def kill(self) -> list[int]:
        """SIGKILL: the process dies on the spot, whatever it was doing; returns its children's ids."""
        children = await super().kill()
        self.spawned.update(children)
        return children

    def mine(self, pid: int) -> bool:
        """Whether ``pid`` is still one of this bot's processes (ids can be reused)."""
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            return False
        return f"HEARTBEAT_FILE={self.heartbeat}".encode() in environ.split(b"\0")

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

    def errors_in_log(self, since: int = 0) -> list[str]:
        """Tracebacks and ERROR lines the bot logged (a failed update, a crashed computer turn)."""
        lines = self.log()[since:].splitlines()
        return [line for line in lines if " ERROR " in line or line.startswith("Traceback")]

    def games(self) -> list[StoredGame]:
        return read_games(self.database)


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


@contextlib.asynccontextmanager
async def running_bot(fake: FakeTelegram, workdir: Path, **environment: str | None) -> AsyncIterator[BotProcess]:
    """The bot, started against ``fake`` with an empty database in ``workdir``; stopped (or killed)
    afterwards. ``environment`` sets settings (``None`` drops one, leaving the bot's default)."""
    process = BotProcess(fake, workdir)
    for name, value in environment.items():
        if value is None:
            process.environment.pop(name, None)
        else:
            process.environment[name] = value
    await process.start()
    try:
        yield process
    finally:
        await process.stop()
        process.reap_orphans()


@pytest_asyncio.fixture
async def bot(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    async with running_bot(fake, tmp_path) as process:
        yield process


@pytest_asyncio.fixture
async def bot_with_workers(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot with a picture worker process (the other fixtures draw in the bot's own process):
    for tests of what a killed bot leaves behind."""
    async with running_bot(fake, tmp_path, RENDER_WORKERS="1") as process:
        yield process


# One fake and one bot for a whole module of independent games (each test has its own people
# and chats): starting the bot costs seconds of CPU, a game often less.
@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_bot(shared_fake: FakeTelegram, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotProcess]:
    async with running_bot(shared_fake, tmp_path_factory.mktemp("bot")) as process:
        yield process


@pytest_asyncio.fixture
async def limited_fake() -> AsyncIterator[FakeTelegram]:
    """A fake with Telegram's real flood limits (20 a minute into a group, 1 a second into a chat)."""
    async with FakeTelegram(limits=Limits.telegram()) as server:
        yield server


@pytest_asyncio.fixture
async def budgeted_bot(limited_fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot against ``limited_fake`` with its default budgets and pauses, as a deployment runs it."""
    defaults = dict.fromkeys(
        (
            "GROUP_MESSAGES_PER_MINUTE",
            "CHAT_MESSAGES_PER_SECOND",
            "MESSAGES_PER_SECOND",
            "COMPUTER_DELAY",
            "QUIET_ANSWER_SECONDS",
        )
    )
    async with running_bot(limited_fake, tmp_path, **defaults) as process:  # as a deployment runs
        yield process


def results_after(monkeypatch: pytest.MonkeyPatch, floor: dict[int, int]) -> None:
    """Make :class:`players.Table` see only results newer than ``floor`` (chat id -> message id):
    a rematch is played where the finished game's result still stands."""
    original = players.final_result

    def newer(fake: FakeTelegram, chat: Chat | User) -> Message | None:
        found = original(fake, chat)
        chat_id = fake._as_chat(chat).id
        if found is not None and found.message_id <= floor.get(chat_id, 0):
            return None
        return found

    monkeypatch.setattr(players, "final_result", newer)

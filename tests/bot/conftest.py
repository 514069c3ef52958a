"""The game service most tests of the bot's parts stand on: a real database, no Telegram."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import cast

import pytest_asyncio

from bot.display.presenter import Presenter
from bot.model.documents import Documents
from bot.table.service import GameService
from bot.telegram.locks import GameLocks
from bot.telegram.outbox import Outbox
from storage import Database
from tests.bot.test_levels import StoringPresenter


@pytest_asyncio.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    """The service on a real SQLite database; its presenter only stores, and its computers wait an
    hour before each move, so nothing changes a game behind a test's back."""
    db = await Database.open(f"sqlite:///{tmp_path / 'service.sqlite3'}")
    await db.migrate()
    presenter = cast(Presenter, StoringPresenter())
    # Nothing is sent: a send would fail the test.
    outbox = cast(Outbox, None)
    service = GameService(Documents(db), presenter, outbox, GameLocks(), group_delay=3600, private_delay=3600)
    try:
        yield service
    finally:
        await service.close()
        await db.close()

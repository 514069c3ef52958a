"""Start-up against the fake Bot API: a token Telegram rejects is one line and exit status 2."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from fake_telegram import FakeTelegram
from tests.e2e.conftest import running_bot

WRONG = "987654321:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"


async def test_a_token_telegram_rejects_exits_2(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        env = {
            **os.environ,
            **fake.env(),
            "BOT_TOKEN": WRONG,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.sqlite3'}",
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            env=env,
            cwd=tmp_path,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 2
    assert stdout == b""
    lines = stderr.decode().strip().splitlines()
    assert lines == ["dominoes-bot: Telegram rejected BOT_TOKEN (401 Unauthorized)"]


async def test_a_normal_stop_is_said_at_info_not_as_a_warning(tmp_path: Path) -> None:
    """SIGTERM is how a service manager (and the sandbox's Ctrl-C) stops the bot: nothing went
    wrong, so the log says it is stopping at INFO, and no WARNING appears (aiogram's own signal
    handler logged "WARNING ... Received SIGTERM signal")."""
    async with FakeTelegram() as fake, running_bot(fake, tmp_path) as bot:
        ann = fake.add_user("Ann")
        fake.start_bot(ann)
        await fake.wait_for(lambda: fake.last_message(ann), 60, what="the bot to answer /start")
        assert await bot.stop() == 0, bot.log_tail()
        log = bot.log()
    assert " WARNING " not in log and "Received SIGTERM" not in log, log
    (stopping,) = [line for line in log.splitlines() if "stopping (SIGTERM received)" in line]
    assert " INFO " in stopping, stopping

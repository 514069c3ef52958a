"""Start-up against the fake Bot API: a token Telegram rejects is one line and exit status 2."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from testkit.fake_telegram import FakeTelegram

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

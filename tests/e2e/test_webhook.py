"""Webhook mode, one instance on SQLite (no other server): the bot asks for its webhook, checks the
secret on every request, plays a game by webhook, stops cleanly, and takes its updates by
polling again once started without ``WEBHOOK_URL``."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.app import main
from fake_telegram import FakeTelegram
from tests.kit.launcher import DEFAULT_WEBHOOK_SECRET, BotLauncher, bot_env, free_port, webhook_env
from tests.kit.people.players import Table, open_private_game, settle

pytestmark = pytest.mark.asyncio


def webhook_bot(fake: FakeTelegram, workdir: Path, port: int, **extra: str) -> BotLauncher:
    env = webhook_env(
        fake,
        workdir / "bot.sqlite3",
        url=f"http://127.0.0.1:{port}/telegram",
        port=port,
        max_connections=7,
        extra=extra,
    )
    return BotLauncher(fake, workdir / "bot.log", env)


async def test_a_game_by_webhook_then_back_to_polling(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        port = free_port()
        bot = webhook_bot(fake, tmp_path, port)
        await bot.start(ready="webhook")
        try:
            await fake.wait_for(lambda: bool(fake.webhook.url), 20.0, what="setWebhook")
            info = fake.webhook_info()
            assert info["url"] == f"http://127.0.0.1:{port}/telegram"
            assert info["max_connections"] == 7
            assert "callback_query" in info["allowed_updates"] and "message" in info["allowed_updates"]
            assert fake.calls("getUpdates") == []  # updates come by webhook only

            # A request without the secret (or with another) is refused and changes nothing.
            async with aiohttp.ClientSession() as client:
                for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "not-the-secret"}):
                    async with client.post(
                        f"http://127.0.0.1:{port}/telegram", json={"update_id": 1}, headers=headers
                    ) as response:
                        assert response.status == 401

            ann = fake.add_user("Ann")
            await open_private_game(fake, ann, "duel", 1)
            result = await Table(fake, [ann], results=ann, rng=random.Random(5)).play_to_end()
            assert result is not None
            await settle(fake)
            assert fake.unanswered_callbacks() == []
            assert fake.violations == []
        finally:
            assert await bot.stop() == 0
        assert " ERROR " not in bot.log() and "Traceback" not in bot.log(), bot.log_tail()

        # The same database without WEBHOOK_URL: the webhook is removed and polling takes over.
        polling = BotLauncher(fake, tmp_path / "polling.log", bot_env(fake, tmp_path / "bot.sqlite3"))
        await polling.start()
        try:
            assert fake.webhook.url == ""
            bob = fake.add_user("Bob")
            await open_private_game(fake, bob, "duel", 1)
        finally:
            assert await polling.stop() == 0


async def test_webhook_settings_are_checked_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async with FakeTelegram() as fake:
        port = free_port()
        # One real process: the exit status and the one line on its output.
        bot = webhook_bot(fake, tmp_path, port, WEBHOOK_SECRET="")
        await bot.start(wait=False)
        assert bot.process is not None
        assert await bot.process.wait() == 2, bot.log_tail()
        last = bot.log().strip().splitlines()[-1]
        assert "WEBHOOK_SECRET must be set with WEBHOOK_URL" in last, last
        assert "Traceback" not in bot.log()

        # The other settings through the same entry point (bot.app.main, what ``python -m bot``
        # runs) in this process: the settings are checked before anything starts.
        monkeypatch.chdir(tmp_path)  # no .env file
        for extra, complaint in (
            ({"WEBHOOK_SECRET": "has spaces"}, "WEBHOOK_SECRET may hold"),
            ({"REDIS_URL": "localhost:6379"}, "REDIS_URL must start with redis://"),
            ({"WEBHOOK_URL": "telegram.example.com"}, "WEBHOOK_URL must be an http(s) URL"),
            ({"DATABASE_URL": "mysql://root@localhost/db"}, "DATABASE_URL"),
        ):
            with monkeypatch.context() as settings:
                for name in list(os.environ):
                    settings.delenv(name)
                for name, value in webhook_bot(fake, tmp_path, port, **extra).environment.items():
                    settings.setenv(name, value)
                settings.setattr(sys, "argv", ["python -m bot"])  # not pytest's own arguments
                with pytest.raises(SystemExit) as exited:
                    main()
            out, err = capsys.readouterr()
            assert exited.value.code == 2, err
            assert out == ""
            lines = err.strip().splitlines()
            assert len(lines) == 1 and complaint in lines[0], err
            assert "Traceback" not in err
            assert DEFAULT_WEBHOOK_SECRET not in err


async def test_servers_that_do_not_answer_are_one_line_at_start(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        port = free_port()
        for extra, complaint in (
            ({"DATABASE_URL": f"postgresql://bot:s3cret@127.0.0.1:{free_port()}/none"}, "cannot open the database"),
            ({"REDIS_URL": f"redis://:s3cret@127.0.0.1:{free_port()}/0"}, "the Redis server of REDIS_URL"),
        ):
            bot = webhook_bot(fake, tmp_path, port, **extra)
            await bot.start(wait=False)
            assert bot.process is not None
            assert await bot.process.wait() == 1, bot.log_tail()
            last = bot.log().strip().splitlines()[-1]
            assert complaint in last, last
            assert "Traceback" not in bot.log() and "s3cret" not in bot.log()

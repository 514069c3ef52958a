"""Hostile input, the fast part of ``tests/kit/scenarios/hostile.py``: about a thousand forged
updates (junk and over-long callback data, every prefix with wrong fields, finished games,
other chats and seats, old turns, replays, messages that do not exist, commands with junk
arguments, edited messages) against running games, lobbies, rooms and finished games, between
legit moves.  Nothing crashes, no game changes but by the rules, every forged tap is answered,
and every request the bot makes is valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from fake_telegram import FakeTelegram
from tests.e2e.conftest import CHAOS_LARGE
from tests.kit.scenarios.arena import bot_running
from tests.kit.scenarios.hostile import attack

pytestmark = pytest.mark.asyncio(loop_scope="function")


async def test_a_thousand_forged_updates(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, bot_running(fake, tmp_path) as bot:
        updates = 10_000 if CHAOS_LARGE else 1000
        result = await attack(
            fake, bot, updates=updates, burst=250 if CHAOS_LARGE else 100, seed="hostile-test", report=False
        )
    assert result["forged_updates"] >= updates, result
    assert result["bot_alive"], result
    assert result["log_errors"] == 0, result["log_error_lines"]
    assert result["illegal_changes"] == 0, result["illegal_change_lines"]
    assert result["taps_answered"] == result["forged_taps"], result["unanswered"]
    assert result["violations"] == 0, result["violation_lines"]
    assert result["legit_moves"] > 0, result

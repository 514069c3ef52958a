"""Concurrency, the fast part of ``tests/kit/scenarios/concurrency.py``: 100 taps at once on the
same turn (the player's same tile and other moves, the other player, someone not in the game),
over several turns of a group game and of a private game.  Exactly one move applies, exactly
one tap is answered "You played", every other tap gets a polite answer.  No timing assertions."""

from __future__ import annotations

from pathlib import Path

import pytest

from fake_telegram import FakeTelegram
from tests.e2e.conftest import CHAOS_LARGE
from tests.kit.scenarios.arena import bot_running
from tests.kit.scenarios.concurrency import storm

pytestmark = pytest.mark.asyncio(loop_scope="function")


async def test_a_hundred_taps_on_one_turn_apply_one_move(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, bot_running(fake, tmp_path) as bot:
        per_game, games = (10, 2) if CHAOS_LARGE else (3, 1)
        result = await storm(fake, bot, turns=per_game, games=games, seed="storm-test", report=False)
    turns = result["turns"]
    assert turns == 2 * per_game * games, result  # a group game and a private game each
    assert result["moves_applied_per_turn"] == [1] * turns, result
    assert result["turns_with_one_played_answer"] == turns, result
    assert result["unanswered"] == 0, result
    assert result["answered_without_a_word"] == 0, result["wordless_lines"]
    assert result["problems"] == [], result["problems"]
    assert result["log_errors"] == 0, result["log_error_lines"]
    assert result["violations"] == 0, result["violation_lines"]

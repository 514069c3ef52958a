"""Crashes, small: the crash scenario of ``bench/chaos.py`` with a few games and three SIGKILLs.

The bot is killed mid-move, mid-send and when a round changes, restarted on the same database,
and every game must finish with no move lost or applied twice, the SQLite file intact after
each kill, and nothing unhandled in the bot's log (``tests/kit/scenarios/crash.py``).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import CHAOS_LARGE
from tests.kit.scenarios import crash

pytestmark = pytest.mark.asyncio


async def test_games_survive_kills() -> None:
    figures = await crash.run(quick=not CHAOS_LARGE)
    assert figures["kills"] == 3 * (5 if CHAOS_LARGE else 1)  # three in each wave
    assert figures["integrity failures"] == 0, figures["problems"]
    assert figures["not resumed"] == 0, figures["problems"]
    assert figures["finished"] == figures["games"], figures["problems"]
    assert figures["moves lost"] == 0, figures["problems"]
    assert figures["moves applied twice"] == 0, figures["problems"]
    assert figures["log/record mismatches"] == 0, figures["problems"]
    assert figures["log errors"] == 0, figures["problems"]
    # Every kill hits running games; which ones depends on timing (a game may end before the next kill).
    assert figures["games through a kill"] >= 1

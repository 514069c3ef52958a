"""Two bot instances in webhook mode behind a balancer, on PostgreSQL and Redis, one killed mid-game.

The quick form of ``tests/kit/scenarios/instances.py`` (``python -m bench.chaos --scenario instances``
runs the longer one): games where consecutive taps land on different instances, turn clocks that
run out, instance 1 SIGKILLed and started again. Skipped where no PostgreSQL or Redis answers
(``TEST_POSTGRES_URL``, ``TEST_INSTANCES_REDIS_URL``); failed instead under ``CI=true``.
"""

from __future__ import annotations

import pytest

from tests.conftest import server_missing
from tests.e2e.conftest import CHAOS_LARGE
from tests.kit.scenarios import instances

pytestmark = pytest.mark.asyncio


async def test_two_instances_finish_every_game_through_a_kill() -> None:
    reason = await instances.unavailable()
    if reason is not None:
        server_missing(reason)
    figures = await instances.run(quick=not CHAOS_LARGE)
    problems = figures["problems"]
    assert figures["finished"] == figures["games"], problems
    assert figures["moves lost"] == 0, problems
    assert figures["moves applied twice"] == 0, problems
    assert figures["log/record mismatches"] == 0, problems
    assert figures["log errors"] == 0, problems
    # Every turn a person let run out was played by the clock, and each turn the clock played
    # (a tap that came too late on a loaded machine too) was told to its person once.
    assert figures["clock: let run out"] > 0
    assert figures["clock: played by the clock"] >= figures["clock: let run out"], problems
    assert figures["clock: told"] == figures["clock: played by the clock"], problems
    # The balancer spread the games: consecutive taps of one game went to different instances.
    assert figures["taps changing instance"] > 0
    assert figures["games served by both"] >= 1

"""Faults, small: the faults scenario of ``bench/chaos.py`` with three games.

About 10 % of the bot's Bot API calls answer 429 (retry after 1 s) or 500, hang past the bot's
request timeout, or lose their connection; every game must finish with no move lost or applied
twice, no message left with a game's live buttons beside its current one, no exception in the
bot's log and no Telegram rule broken (``tests/kit/scenarios/faults.py``).
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import CHAOS_LARGE
from tests.kit.scenarios import faults

pytestmark = pytest.mark.asyncio


async def test_games_complete_under_faults() -> None:
    figures = await faults.run(quick=not CHAOS_LARGE)
    assert isinstance(figures["faults"], int) and figures["faults"] > 0
    assert figures["not finished"] == 0, figures["problems"]
    assert figures["finished"] == figures["games"], figures["problems"]
    assert figures["moves lost"] == 0, figures["problems"]
    assert figures["moves applied twice"] == 0, figures["problems"]
    # A photo sent again after its answer was lost leaves no second copy with live buttons.
    assert figures["visible duplicates"] == 0, figures["visible duplicates by kind"]
    assert figures["log errors"] == 0, figures["problems"]
    assert figures["tracebacks"] == 0, figures["problems"]
    assert figures["violations"] == 0, figures["problems"]

"""Whole games in a private chat against the computer, played by tapping, for every rule set."""

from __future__ import annotations

import random

import pytest

from fake_telegram import FakeTelegram
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import (
    Table,
    assert_game_over_line,
    assert_results_in_order,
    audit_hidden_tiles,
    check_stored_game,
    open_private_game,
    settle,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

# (preset, computer opponents): every preset once, 1 to 3 opponents as the preset allows.
GAMES = [
    ("classic", 3),
    ("draw", 2),
    ("block", 1),
    ("fives", 3),
    ("quickblock", 1),
    ("duel", 1),
    ("hundred", 1),
]


@pytest.mark.parametrize(("preset", "opponents"), GAMES, ids=[f"{p}-{n}cpu" for p, n in GAMES])
async def test_private_game_against_the_computer(
    shared_fake: FakeTelegram, shared_bot: BotProcess, preset: str, opponents: int
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann = fake.add_user("Ann", last_name="Lee")
    await open_private_game(fake, ann, preset, opponents)
    table = Table(fake, [ann], results=ann, rng=random.Random(f"private-{preset}"))

    result = await table.play_to_end()
    await settle(fake)

    assert_game_over_line(result, preset, opponents + 1)
    assert_results_in_order(fake, ann)
    check.assert_clean()
    (game,) = [g for g in bot.games() if g.data["seats"][0]["user_id"] == ann.id]
    assert game.preset == preset
    assert len(game.data["seats"]) == opponents + 1
    check_stored_game(game, table)
    audit_hidden_tiles(fake, ann, game, viewer=ann)

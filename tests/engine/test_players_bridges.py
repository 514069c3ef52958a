"""The benchmark's bridges to OpenSpiel and PyPI ``dominoes`` play legal moves from our observations.

Each bridge checks, every move, that the foreign engine's legal moves are ours,
and raises otherwise; a few whole games against ``medium`` exercise both.
"""

from __future__ import annotations

import random

from engine import Match, Rules
from engine.players import Medium, Player


def _random_position(rules: Rules, seats: int, seed: int, moves: int, rng: random.Random) -> Match:
    """A match dealt from ``seed`` (seat 0 leads) after up to ``moves`` random moves (maybe over)."""
    game = Match.new(rules, seats, random.Random(seed), 0)
    for _ in range(moves):
        if game.round.is_over:
            break
        game = game.apply(rng.choice(game.round.legal_moves()))
    return game


def _play(rules: Rules, seats: int, players: list[Player], seed: int) -> Match:
    rng = random.Random(seed)
    game = Match.new(rules, seats, rng, None if rules.forced_lead else 0)
    while not game.round.is_over:
        automatic = game.round.auto_move()
        if automatic is not None:
            game = game.apply(automatic)
            continue
        seat = game.round.turn
        move = players[seat].choose(game.observe(seat), rng)
        assert move in game.round.legal_moves()
        game = game.apply(move, seat)
    return game


def test_openspiel_ismcts_through_the_bridge() -> None:
    from bench.bridges import BLOCK_2X7, OpenSpielISMCTS

    bot = OpenSpielISMCTS(simulations=20)
    for seed in range(3):
        _play(BLOCK_2X7, 2, [bot, Medium()] if seed % 2 else [Medium(), bot], seed)


def test_dominoes_search_through_the_bridge() -> None:
    from bench.bridges import BLOCK_4X7, DominoesSearch

    bot = DominoesSearch(sample_size=2, start_move=14)
    for seed in range(3):
        _play(BLOCK_4X7, 4, [bot, Medium(), bot, Medium()], seed)


def test_the_openspiel_resampler_keeps_what_the_bot_knows() -> None:
    import numpy as np

    from bench.bridges import BLOCK_2X7, OpenSpielISMCTS

    bot = OpenSpielISMCTS(simulations=10)
    rng = random.Random(4)
    numbers = np.random.RandomState(0)
    checked = 0
    for seed in range(20):
        game = _random_position(BLOCK_2X7, 2, seed, rng.randrange(1, 10), rng)
        if game.round.is_over:
            continue
        seat = game.round.turn
        state = bot.state_from(game.observe(seat), numbers)
        again = bot.resample(state, seat, numbers)
        assert again.information_state_string(seat) == state.information_state_string(seat)
        assert again.legal_actions() == state.legal_actions()
        checked += 1
    assert checked >= 10


def test_openspiel_team_ismcts_through_the_bridge() -> None:
    from bench.bridges import TEAM_4X7, OpenSpielTeamISMCTS

    bot = OpenSpielTeamISMCTS(simulations=10)
    for seed in range(2):
        _play(TEAM_4X7, 4, [bot, Medium(), bot, Medium()] if seed % 2 else [Medium(), bot, Medium(), bot], seed)


def test_the_team_resampler_keeps_what_the_bot_knows_and_what_the_skips_show() -> None:
    import numpy as np

    from bench.bridges import TEAM_4X7, OpenSpielTeamISMCTS

    bot = OpenSpielTeamISMCTS(simulations=10)
    rng = random.Random(5)
    numbers = np.random.RandomState(0)
    checked = 0
    for seed in range(30):
        game = _random_position(TEAM_4X7, 4, seed, rng.randrange(8, 24), rng)  # late: seats have been skipped
        if game.round.is_over:
            continue
        seat = game.round.turn
        state = bot.state_from(game.observe(seat), numbers)
        for _ in range(5):
            again = bot.resample(state, seat, numbers)
            # The same seat to play (every skip still a skip) and the same private view.
            assert again.current_player() == state.current_player() == seat
            assert again.information_state_string(seat) == state.information_state_string(seat)
        checked += 1
    assert checked >= 10

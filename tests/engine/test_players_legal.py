"""Every level plays only legal moves, in every preset and seat count, over thousands of games.

Seats are filled with a mix of levels, so each game checks several of them.
``hard`` runs with a small playout budget here (its legality does not depend
on the budget, its time does); ``PLAYER_GAMES`` scales the number of games.
"""

from __future__ import annotations

import os
import random

import pytest

from engine import PRESETS, Match, Rules
from engine.players import LEVELS, Easy, Hard, Medium, NotMyTurnError, Player, UnknownLevelError, player_for

GAMES = int(os.environ.get("PLAYER_GAMES", "200"))
"""Games per preset and seat count (200 gives 2,800 matches of several rounds each)."""

CASES = [(preset, seats) for preset, rules in PRESETS.items() for seats in range(rules.min_seats, rules.max_seats + 1)]


def play_match(rules: Rules, seats: int, players: list[Player], rng: random.Random) -> Match:
    """A whole match; every move must be one of the engine's legal moves, with its end named."""
    game = Match.new(rules, seats, rng, None if rules.forced_lead else rng.randrange(seats))
    while not game.is_over:
        if game.round.is_over:
            game = game.deal_next(rng)
            continue
        seat = game.round.turn
        seen = game.observe(seat)
        move = players[seat].choose(seen, random.Random(rng.random()))
        legal = game.round.legal_moves()
        assert move in legal, (players[seat].level, move, legal)
        assert (move.end is None) == (game.round.line.lead is None)
        game = game.apply(move, seat)
    return game


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_easy_and_medium_play_legally(preset: str, seats: int) -> None:
    rng = random.Random(f"legal {preset} {seats}")
    rules = Rules.preset(preset)
    for game_number in range(GAMES):
        players: list[Player] = [Easy() if (seat + game_number) % 2 else Medium() for seat in range(seats)]
        play_match(rules, seats, players, rng)


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_hard_plays_legally(preset: str, seats: int) -> None:
    rng = random.Random(f"legal hard {preset} {seats}")
    rules = Rules.preset(preset)
    quick = Hard(effort=0.02)
    for game_number in range(max(1, GAMES // 10)):
        players: list[Player] = [quick if (seat + game_number) % 2 else Medium() for seat in range(seats)]
        play_match(rules, seats, players, rng)


def test_full_strength_hard_plays_legally() -> None:
    rng = random.Random("full hard")
    for preset in ("fives", "draw"):
        play_match(Rules.preset(preset), 2, [Hard(), Hard()], rng)


def test_levels_by_name() -> None:
    assert [player_for(level).level for level in LEVELS] == list(LEVELS)
    with pytest.raises(UnknownLevelError):
        player_for("expert")


def test_a_player_refuses_a_seat_that_is_not_to_play() -> None:
    game = Match.new(Rules.preset("block"), 2, random.Random(1), first=0)
    for level in LEVELS:
        with pytest.raises(NotMyTurnError):
            player_for(level).choose(game.observe(1), random.Random(0))

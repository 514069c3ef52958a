"""Matches to ask a player about or to draw: a few plays into a round (sometimes a later one), or played out."""

from __future__ import annotations

import random

from engine import Match, Rules
from engine.players import Medium


def random_position(rules: Rules, seats: int, rng: random.Random) -> Match:
    """A match some plays (by a medium player) into a round (sometimes a later round), with a seat to play."""
    while True:
        game = Match.new(rules, seats, rng, None if rules.forced_lead else rng.randrange(seats))
        plays = rng.randrange(0, 45)
        player = Medium()
        for _ in range(plays):
            if game.round.is_over:
                if game.is_over:
                    break
                game = game.deal_next(rng)
                continue
            game = game.apply(player.choose(game.observe(game.round.turn), rng))
        if not game.round.is_over:
            return game


def played_out(rules: Rules, seats: int, rng: random.Random) -> Match:
    """A whole match played by medium players, to its end."""
    game = Match.new(rules, seats, rng)
    player = Medium()
    while not game.is_over:
        if game.round.is_over:
            game = game.deal_next(rng)
        game = game.apply(player.choose(game.observe(game.round.turn), rng))
    return game

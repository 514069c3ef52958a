"""📈 A review finds no mistakes in the hard player's own moves, real ones in an easy player's,
judges each from the seat's own view (never a hidden tile), and refuses a broken record."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine import PRESETS, Match, RecordError, Rules, read_record, replay, write_record
from engine.players import Easy, Hard, Medium, Player
from engine.review import CLEAR_CHANCE, CLEAR_POINTS, MISTAKES, choice_seed, review
from tests.engine.test_players_nopeek import hidden_variant

SEED = 7


def slow(preset: str) -> Any:
    return pytest.param(preset, marks=pytest.mark.slow)


def game_of(preset: str, first: Player, key: str) -> Match:
    """Seat 0 plays with ``first`` (the hard player with the review's seeds), the others are medium
    (two seats, or the four of a partnership preset)."""
    rng = random.Random(key)
    rules = Rules.preset(preset)
    game = Match.new(rules, rules.min_seats, rng)
    other = Medium()
    while not game.is_over:
        if game.round.is_over:
            game = game.deal_next(rng)
        seat = game.round.turn
        seed = choice_seed(SEED, len(game.rounds) - 1, len(game.round.plays()))
        player = first if seat == 0 else other
        game = game.apply(player.choose(game.observe(seat), random.Random(seed + ":choose")))
    return game


# The longest match (block: about 30 rounds) is on demand (``-m slow``); the other presets are quick.
@pytest.mark.parametrize("preset", [slow(p) if p == "block" else p for p in sorted(PRESETS)])
def test_the_hard_players_own_moves_are_no_mistakes(preset: str) -> None:
    assert review(write_record(game_of(preset, Hard(), f"hard:{preset}")), 0, seed=SEED) == []


def test_an_easy_players_mistakes_are_real_ones() -> None:
    """Two one-round presets (mistakes judged by the chance of winning the round) and two matches
    (by the points they cost); ``-m slow`` reviews every preset."""
    assert_easy_mistakes_are_real(("classic", "duel", "fives", "goat"))


@pytest.mark.slow
def test_an_easy_players_mistakes_are_real_ones_in_every_preset() -> None:
    assert_easy_mistakes_are_real(sorted(PRESETS))


def assert_easy_mistakes_are_real(presets: Sequence[str]) -> None:
    found = 0
    for preset in presets:
        game = game_of(preset, Easy(), f"easy:{preset}")
        mistakes = review(write_record(game), 0, seed=SEED)
        assert len(mistakes) <= MISTAKES
        assert [m.cost for m in mistakes] == sorted((m.cost for m in mistakes), reverse=True)
        for mistake in mistakes:
            legal = mistake.observation.legal_moves()
            assert mistake.played.tile in {m.tile for m in legal} and mistake.better in legal
            assert mistake.observation.seat == 0 and mistake.move_number >= 1
            if mistake.points is not None:
                assert Rules.preset(preset).is_match and mistake.points >= CLEAR_POINTS
            else:
                assert mistake.chance is not None and mistake.chance >= CLEAR_CHANCE
        found += len(mistakes)
    assert found >= len(presets)  # an easy player gives a review something to say


def test_a_review_never_sees_a_hidden_tile() -> None:
    """A one-round game with a boneyard and a short match with one (each seconds to review);
    ``-m slow`` adds the long matches of draw and block (a minute each without the compiled core)."""
    assert_reviews_alike_whatever_was_hidden(("duel", "fives"))


@pytest.mark.slow
def test_a_review_never_sees_a_hidden_tile_in_long_matches() -> None:
    assert_reviews_alike_whatever_was_hidden(("draw", "fives", "block"))


def assert_reviews_alike_whatever_was_hidden(presets: Sequence[str]) -> None:
    """Records that differ only in what seat 0 could not see in the last round get the same review."""
    compared = 0
    for preset in presets:
        game = game_of(preset, Easy(), f"twins:{preset}")
        record = write_record(game)
        variant = hidden_variant(record, 0, random.Random(preset))
        if variant is None:
            continue
        replay(read_record(variant))
        same = [(m.round_index, m.move_number, m.played, m.better, m.points, m.chance) for m in review(record, 0)]
        twin = [(m.round_index, m.move_number, m.played, m.better, m.points, m.chance) for m in review(variant, 0)]
        assert same == twin
        compared += 1
    assert compared >= 1


def test_a_broken_record_is_refused() -> None:
    record = write_record(game_of("duel", Easy(), "broken"))
    record["rounds"][0]["plays"][0]["tile"] = "9-9"
    with pytest.raises(RecordError):
        review(record, 0)

"""Whole games: targets, the end of a match, extra rounds, and moving on to the next round."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import DealError, GameOverError, Match, RoundNotOverError, Rules, SeatCountError, Starter, Tile
from tests.engine.helpers import (
    CHAIN_FROM_1_1,
    CHAIN_FROM_1_1_PLAYS,
    CHAIN_FROM_6_6,
    CHAIN_FROM_6_6_PLAYS,
    FIVES_FISH_PLAYS,
    SIXES_OUT,
    ended,
    match_from,
    play_match,
    replayed,
    round_record,
    tiles,
    undealt,
)

# --- deals ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "seats", "hand_size"),
    [
        ("classic", 2, 7),
        ("classic", 3, 5),
        ("classic", 4, 5),
        ("draw", 2, 7),
        ("draw", 3, 7),
        ("draw", 4, 6),
        ("block", 2, 7),
        ("block", 3, 5),
        ("block", 4, 5),
        ("fives", 2, 7),
        ("fives", 3, 5),
        ("fives", 4, 5),
        ("quickblock", 2, 7),
        ("duel", 2, 7),
        ("hundred", 2, 7),
    ],
)
def test_tiles_dealt_per_preset_and_seat_count(preset: str, seats: int, hand_size: int) -> None:
    first = 0 if Rules.preset(preset).starter is Starter.MATCH else None
    state = Match.new(Rules.preset(preset), seats, random.Random(3), first=first).round
    assert [len(hand) for hand in state.hands] == [hand_size] * seats
    assert len(state.boneyard) == 28 - seats * hand_size


@pytest.mark.parametrize(
    ("preset", "seats"), [("quickblock", 3), ("duel", 3), ("hundred", 4), ("draw", 5), ("fives", 1)]
)
def test_seat_counts_outside_the_preset_are_refused(preset: str, seats: int) -> None:
    with pytest.raises(SeatCountError) as caught:
        Match.new(Rules.preset(preset), seats, random.Random(0), first=0)
    assert caught.value.code == "bad_seats"


def test_deal_holding_a_tile_twice_or_the_wrong_number_of_tiles_is_refused() -> None:
    with pytest.raises(DealError):  # 6-6 twice, 0-0 missing
        match_from("draw", ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "6-6 5-5 5-4 5-3 5-2 5-1 5-0"], first=0)
    with pytest.raises(DealError):  # six tiles to S1 where draw deals seven to two players
        match_from("draw", ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0"], first=0)


# --- targets -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "seats", "target"),
    [
        ("draw", 2, 100),
        ("draw", 3, 61),
        ("draw", 4, 61),
        ("block", 2, 100),
        ("block", 3, 61),
        ("block", 4, 61),
        ("fives", 2, 150),
        ("fives", 3, 150),
        ("fives", 4, 150),
        ("hundred", 2, 100),
        ("classic", 2, None),
        ("classic", 3, None),
        ("classic", 4, None),
        ("quickblock", 2, None),
        ("duel", 2, None),
    ],
)
def test_target_points_per_preset_and_seat_count(preset: str, seats: int, target: int | None) -> None:
    rules = Rules.preset(preset)
    game = Match.new(rules, seats, random.Random(0), first=0 if preset in ("draw", "block", "fives") else None)
    assert game.target == target


# Block, 3 seats: S0 leads 6-6, nobody holds another 6, all pass: S0 keeps 0-0 1-0 1-1 2-0 (5).
REACH_61 = ["6-6 0-0 1-0 1-1 2-0", "5-5 5-4 5-3 4-4 3-0", "4-3 5-1 4-2 3-3 2-1"]
REACH_60 = ["6-6 0-0 1-0 1-1 2-0", "5-5 5-4 5-3 4-4 3-0", "4-3 5-1 4-2 4-1 2-1"]


def test_three_seat_block_match_ends_when_a_round_reaches_61() -> None:
    # S1 10+9+8+8+3 = 38, S2 7+6+6+6+3 = 28 -> S0 scores 38 + 28 - 5 = 61 = the target.
    game = replayed("block", round_record(REACH_61, ["0: 6-6"], first=0))
    assert game.scores == (61, 0, 0)
    assert (game.is_over, game.winner) == (True, 0)


def test_three_seat_block_match_goes_on_at_60() -> None:
    # S2 holds 4-1 instead of 3-3: 7+6+6+5+3 = 27 -> S0 scores 38 + 27 - 5 = 60 < 61.
    # Round 2 (S0, the winner, starts) with the 61 deal: 121.
    game = replayed("block", round_record(REACH_60, ["0: 6-6"], first=0))
    assert (game.scores, game.is_over, game.winner) == ((60, 0, 0), False, None)
    game = play_match(game.next_round([tiles(hand) for hand in REACH_61], tiles(undealt(REACH_61))), "0: 6-6")
    assert (game.scores, game.is_over, game.winner) == ((121, 0, 0), True, 0)


def test_two_seat_block_match_plays_on_past_61_to_100() -> None:
    # S0 leads 6-6 and keeps 0-0 1-0 1-1 2-0 2-1 3-0 (0+1+2+2+3+3 = 11); S1 keeps
    # 5-5 5-4 5-3 4-4 5-2 4-3 5-1 (10+9+8+8+7+7+6 = 55): S0 scores 44 a round. 88 goes on, 132 ends it.
    hands = ["6-6 0-0 1-0 1-1 2-0 2-1 3-0", "5-5 5-4 5-3 4-4 5-2 4-3 5-1"]
    one_round = round_record(hands, ["0: 6-6"], first=0)
    after_two = replayed("block", one_round, one_round)
    assert (after_two.scores, after_two.is_over) == ((88, 0), False)
    after_three = replayed("block", one_round, one_round, one_round)
    assert (after_three.scores, after_three.is_over, after_three.winner) == ((132, 0), True, 0)


# Hundred: the SIXES_OUT line. S1 (1-1 2-1 2-2 = 9 left) draws 6-0 at once; S0 (5-5 4-4 = 18)
# draws 11 tiles (8+7+6+5+7+6+5+4+6+4+3 = 61) and 2-0 0-0 stay out of reach: 79 against 9 ->
# S1 scores 70 a round. The deal makes S0 lead 6-6 every round, whoever won the last.
HUNDRED_HANDS = ["6-6 5-4 6-3 6-2 1-0 5-5 4-4", "6-5 6-4 3-2 6-1 1-1 2-1 2-2"]
HUNDRED_BONEYARD = "6-0 5-3 5-2 5-1 5-0 4-3 4-2 4-1 4-0 3-3 3-1 3-0 2-0 0-0"


def test_hundred_match_ends_at_a_round_end_with_100_or_more() -> None:
    one_round = round_record(HUNDRED_HANDS, SIXES_OUT, HUNDRED_BONEYARD)
    after_one = replayed("hundred", one_round)
    assert ended(after_one.round).points == (0, 70)
    assert (after_one.scores, after_one.is_over) == ((0, 70), False)
    after_two = replayed("hundred", one_round, one_round)
    assert (after_two.scores, after_two.is_over, after_two.winner) == ((0, 140), True, 1)


# Fives, FIVES_FISH_PLAYS (helpers): S0 leads 6-5; S1 scores 10 and S0 scores 10 during play; after
# S0's last play, 6-6, S1 cannot play, draws whatever is left and passes, and S0 passes.
# S0 keeps 0-0; S1 ends with every other non-line tile: 82 pips -> 80. S0 +90, S1 +10 a round.
FIVES_WIN = round_record(
    ["6-5 4-3 6-4 6-2 1-0 6-6 0-0", "5-4 6-3 4-2 6-1 6-0 3-3 2-2"],
    FIVES_FISH_PLAYS,
    "5-5 5-3 5-2 5-1 5-0 4-4 4-1 4-0 3-2 3-1 3-0 2-1 2-0 1-1",
    first=0,
)
# S0 draws 5-3 4-4 5-2 1-1 before 6-6: 41 against 41, a tie: only the 10 + 10 of play count.
FIVES_TIE = round_record(
    ["6-5 4-3 6-4 6-2 1-0 5-5 3-3", "5-4 6-3 4-2 6-1 6-0 0-0 2-2"],
    FIVES_FISH_PLAYS,
    "5-3 4-4 5-2 1-1 6-6 5-1 5-0 4-1 4-0 3-2 3-1 3-0 2-1 2-0",
    first=0,  # S0, the winner of FIVES_WIN, when this is round 2
)


def test_fives_match_goes_on_at_100_points() -> None:
    # 90 + 10 = 100 for S0, 10 + 10 = 20 for S1: under fives' 150.
    game = replayed("fives", FIVES_WIN, FIVES_TIE)
    assert (game.scores, game.is_over, game.winner) == ((100, 20), False, None)


def test_fives_match_ends_when_a_round_ends_with_150_or_more() -> None:
    game = replayed("fives", FIVES_WIN, FIVES_WIN)
    assert (game.scores, game.is_over, game.winner) == ((180, 20), True, 0)


# A house rule built from the fives row (dataclasses.replace, as RULES.md intends): two tiles each and
# a target of 10, so that a whole round is three plays. S0 leads 5-5 (lone spinner: 10, S0 +10);
# S1 plays 5-0 on the right (spinner 10 + 0 = 10, S1 +10); S0 plays 5-1 on the left (1 + 0 = 1) and
# dominoes; S1's last tile is rounded: 2-0 (2) -> 0, 3-0 (3) -> 5.
SHORT_FIVES = dataclasses.replace(
    Rules.preset("fives"), id="fives-short", hand_sizes={2: 2, 3: 2, 4: 2}, targets={2: 10, 3: 10, 4: 10}
)
SHORT_PLAYS = ("0: 5-5", "1: 5-0 right", "0: 5-1 left")


def short_deal(s1_keeps: str) -> tuple[list[tuple[Tile, ...]], tuple[Tile, ...]]:
    hands = ["5-5 5-1", f"5-0 {s1_keeps}"]
    return [tiles(hand) for hand in hands], tiles(undealt(hands))


def short_round(game: Match | None, s1_keeps: str) -> Match:
    """One whole round of the short fives rule (S0 leads every round here: it always wins)."""
    hands, boneyard = short_deal(s1_keeps)
    game = Match.from_deal(SHORT_FIVES, hands, boneyard, first=0) if game is None else game.next_round(hands, boneyard)
    return play_match(game, *SHORT_PLAYS)


def test_points_scored_during_play_do_not_end_the_match_before_the_round_ends() -> None:
    hands, boneyard = short_deal("3-0")
    game = play_match(Match.from_deal(SHORT_FIVES, hands, boneyard, first=0), "0: 5-5")
    assert game.scores == (10, 0)  # at the target, mid-round
    assert (game.is_over, game.winner) == (False, None)
    with pytest.raises(RoundNotOverError):
        game.next_round(hands, boneyard)
    game = play_match(game, *SHORT_PLAYS[1:])  # S1 +10; S0 dominoes and adds round(3) = 5
    assert game.scores == (15, 10)
    assert (game.is_over, game.winner) == (True, 0)


def test_shared_top_score_at_the_target_plays_one_more_round_and_again_while_still_shared() -> None:
    game = short_round(None, "2-0")
    assert game.scores == (10, 10)
    assert (game.is_over, game.winner) == (False, None)
    game = short_round(game, "2-0")
    assert game.scores == (20, 20)
    assert (game.is_over, game.winner) == (False, None)
    game = short_round(game, "3-0")  # S0 adds round(3) = 5 at the end
    assert game.scores == (35, 30)
    assert (game.is_over, game.winner) == (True, 0)


# --- single-round presets --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "hands", "plays"),
    [
        ("classic", CHAIN_FROM_1_1, CHAIN_FROM_1_1_PLAYS),
        ("quickblock", CHAIN_FROM_6_6, CHAIN_FROM_6_6_PLAYS),
        ("duel", CHAIN_FROM_6_6, CHAIN_FROM_6_6_PLAYS),
    ],
    ids=["classic", "quickblock", "duel"],
)
def test_single_round_presets_end_with_their_round(preset: str, hands: list[str], plays: tuple[str, ...]) -> None:
    game = play_match(match_from(preset, hands), *plays)
    assert (game.is_over, game.winner) == (True, 0)
    with pytest.raises(GameOverError):
        game.deal_next(random.Random(1))
    with pytest.raises(GameOverError):
        game.next_round([tiles(hand) for hand in hands], tiles(undealt(hands)))


def test_finished_match_refuses_a_next_round() -> None:
    game = replayed("block", round_record(REACH_61, ["0: 6-6"], first=0))
    with pytest.raises(GameOverError) as caught:
        game.next_round([tiles(hand) for hand in REACH_61], tiles(undealt(REACH_61)))
    assert caught.value.code == "game_over"
    with pytest.raises(GameOverError):
        game.deal_next(random.Random(1))


@pytest.mark.parametrize(
    ("preset", "hands", "lead", "first"),
    [
        ("draw", CHAIN_FROM_1_1, "0: 1-1", 0),
        ("classic", CHAIN_FROM_1_1, "0: 1-1", None),
        ("hundred", CHAIN_FROM_6_6, "0: 6-6", None),
    ],
    ids=["draw", "classic", "hundred"],
)
def test_next_round_is_refused_while_the_round_is_being_played(
    preset: str, hands: list[str], lead: str, first: int | None
) -> None:
    dealt = match_from(preset, hands, first=first)
    for game in (dealt, play_match(dealt, lead)):
        with pytest.raises(RoundNotOverError) as caught:
            game.next_round([tiles(hand) for hand in hands], tiles(undealt(hands)))
        assert isinstance(caught.value, ValueError)
        assert caught.value.code == "round_not_over"
        with pytest.raises(RoundNotOverError):
            game.deal_next(random.Random(1))


# --- moving on ------------------------------------------------------------------------------------


def test_next_first_is_the_round_winner_under_the_match_starter() -> None:
    game = replayed("block", round_record(REACH_60, ["0: 6-6"], first=0))
    assert game.next_first() == 0


def test_next_first_is_left_to_the_deal_under_the_highest_starter() -> None:
    game = replayed("hundred", round_record(HUNDRED_HANDS, SIXES_OUT, HUNDRED_BONEYARD))
    assert game.next_first() is None


def test_deal_next_starts_the_seat_the_rules_name() -> None:
    # Block 2 seats, S0 leads 6-6, both pass: S0 keeps 5-5 4-4 3-3 2-2 1-1 0-0 = 30,
    # S1 5-1 5-0 4-1 3-2 4-0 1-0 2-0 = 6+5+5+5+4+1+2 = 28 -> S1 wins and leads any shuffled round 2.
    hands = ["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "5-1 5-0 4-1 3-2 4-0 1-0 2-0"]
    game = replayed("block", round_record(hands, ["0: 6-6"], first=0))
    assert ended(game.round).winners == (1,)
    for seed in range(5):
        following = game.deal_next(random.Random(seed))
        assert (following.round.turn, following.round.forced) == (1, None)
        assert len(following.rounds) == 2


def test_deal_next_in_hundred_leads_the_highest_dealt_double() -> None:
    game = replayed("hundred", round_record(HUNDRED_HANDS, SIXES_OUT, HUNDRED_BONEYARD))
    for seed in range(5):
        following = game.deal_next(random.Random(seed)).round
        dealt = [t for hand in following.hands for t in hand]
        doubles = [t for t in dealt if t.is_double]
        # The highest dealt double, else the heaviest tile (pips, then the higher half).
        expected = max(doubles) if doubles else max(dealt, key=lambda t: (t.pips, t.high))
        assert following.forced == expected
        assert expected in following.hands[following.turn]


def test_scores_include_points_scored_during_a_round_under_way() -> None:
    # Fives, the FIVES_WIN line: after 6-4 on the left S1 has 10 (5-4) and S0 10 (6-4).
    game = replayed("fives", {**FIVES_WIN, "plays": FIVES_WIN["plays"][:5]})
    assert game.scores == (10, 10)
    assert game.round.outcome() is None


def test_match_winner_has_the_most_points() -> None:
    game = replayed("hundred", *[round_record(HUNDRED_HANDS, SIXES_OUT, HUNDRED_BONEYARD)] * 2)
    assert game.winner == 1
    assert max(game.scores) == game.scores[1]

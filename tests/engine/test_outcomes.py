"""How rounds end and what they score, preset by preset (RULES.md "Outcomes and scoring").

Each test replays an explicit record and compares ``summary`` with values worked
out by hand in the comments. Pips: a tile's two halves added up.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import round_to_five
from tests.engine.helpers import (
    CHAIN_FROM_1_1,
    CHAIN_FROM_1_1_PLAYS,
    CHAIN_FROM_6_6,
    CHAIN_FROM_6_6_PLAYS,
    FIVES_FISH_PLAYS,
    SIXES_OUT,
    ended,
    replayed,
    round_record,
    summarized,
)


def outcome(
    end: str, winners: list[int], points: list[int], pips: list[int], draws: list[int], fives: list[int] | None = None
) -> dict[str, Any]:
    return {
        "end": end,
        "winners": winners,
        "points": points,
        "fives": fives if fives is not None else [0] * len(points),
        "pips": pips,
        "draws": draws,
    }


# --- scripted rounds used by several presets (see also the chains in helpers) -------------------

# SIXES_OUT deals (helpers.SIXES_OUT): S1 lacks 0 and 6 at its last turn and draws 3 tiles before
# 6-0; then S0 draws what is left (no 6 in it) and passes, S1 passes: fish. Non-line tiles hold
# 90 pips in all (168 in the set - 63 in the 6-tiles - 5-4 3-2 1-0 = 15).
#
# Tie: S0 keeps 3-3 2-2 (10) + draws 5-1 4-2 3-1 2-1 1-1 5-0 4-0 3-0 2-0 0-0 (6+6+4+3+2+5+4+3+2+0 = 35)
# = 45; S1 keeps 5-5 5-3 4-4 (26) + drew 5-2 4-3 4-1 (7+7+5 = 19) = 45.
SIXES_TIE = ["6-6 5-4 6-3 6-2 1-0 3-3 2-2", "6-5 6-4 3-2 6-1 5-5 5-3 4-4"]
SIXES_TIE_BONEYARD = "5-2 4-3 4-1 6-0 5-1 4-2 3-1 2-1 1-1 5-0 4-0 3-0 2-0 0-0"
# Difference: S0 holds 5-5 instead of 3-3 and S1 3-3 instead of 5-5 (same boneyard):
# S0 10+4+35 = 49, S1 6+8+8+19 = 41 -> S1 has the lower count, the difference is 8.
SIXES_APART = ["6-6 5-4 6-3 6-2 1-0 5-5 2-2", "6-5 6-4 3-2 6-1 3-3 5-3 4-4"]


# --- classic: win / loss / shared win, no points ------------------------------------------------


def test_classic_domino_wins_the_game_without_points() -> None:
    result = summarized("classic", round_record(CHAIN_FROM_1_1, CHAIN_FROM_1_1_PLAYS))
    assert result == {
        "rounds": [outcome("domino", [0], [0, 0], [0, 10], [0, 0])],
        "scores": [0, 0],
        "finished": True,
        "winner": 0,
    }


# Classic fish deals: only 6-6 and 0-0 are dealt among the doubles, so S0 leads 6-6.
# S1 keeps 5-3 4-3 5-2 (8+7+7 = 22) and draws three tiles before 6-0; S0 keeps 0-0 5-0 (5) and
# draws the ten tiles left.
CLASSIC_FISH = ["6-6 5-4 6-3 6-2 1-0 0-0 5-0", "6-5 6-4 3-2 6-1 5-3 4-3 5-2"]


def test_classic_fish_lowest_count_wins() -> None:
    # S1 draws 5-5 4-4 2-1 (10+8+3 = 21) -> 43. S0 draws 5-1 4-2 4-1 4-0 3-3 3-1 3-0 2-2 2-0 1-1
    # (6+6+5+4+6+4+3+4+2+2 = 42) -> 47. S1 wins the round and the game.
    boneyard = "5-5 4-4 2-1 6-0 5-1 4-2 4-1 4-0 3-3 3-1 3-0 2-2 2-0 1-1"
    result = summarized("classic", round_record(CLASSIC_FISH, SIXES_OUT, boneyard))
    assert result["rounds"] == [outcome("fish", [1], [0, 0], [47, 43], [10, 4])]
    assert (result["finished"], result["winner"]) == (True, 1)


def test_classic_fish_tie_is_a_shared_win() -> None:
    # S1 draws 5-5 4-4 4-1 (23) -> 45; S0 draws the rest, 2-1 instead of 4-1: 42 - 5 + 3 = 40 -> 45.
    boneyard = "5-5 4-4 4-1 6-0 5-1 4-2 2-1 4-0 3-3 3-1 3-0 2-2 2-0 1-1"
    result = summarized("classic", round_record(CLASSIC_FISH, SIXES_OUT, boneyard))
    assert result["rounds"] == [outcome("fish", [0, 1], [0, 0], [45, 45], [10, 4])]
    assert (result["finished"], result["winner"]) == (True, None)


# --- quickblock: win / loss / draw --------------------------------------------------------------


def test_quickblock_domino_wins_without_points() -> None:
    result = summarized("quickblock", round_record(CHAIN_FROM_6_6, CHAIN_FROM_6_6_PLAYS))
    assert result == {
        "rounds": [outcome("domino", [0], [0, 0], [0, 8], [0, 0])],
        "scores": [0, 0],
        "finished": True,
        "winner": 0,
    }


def test_quickblock_fish_lower_count_wins() -> None:
    # 6-6 is led automatically and no other 6 is dealt: both pass. S0 5-5 4-4 3-3 2-2 1-1 0-0 = 30,
    # S1 9+8+7+6+5+7+6 = 48.
    hands = ["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "5-4 5-3 5-2 5-1 5-0 4-3 4-2"]
    result = summarized("quickblock", round_record(hands, ["0: 6-6"]))
    assert result["rounds"] == [outcome("fish", [0], [0, 0], [30, 48], [0, 0])]
    assert (result["finished"], result["winner"]) == (True, 0)


def test_quickblock_fish_tie_is_a_draw() -> None:
    # S0 30 as above; S1 5-1 5-0 4-1 3-2 4-0 3-0 2-0 = 6+5+5+5+4+3+2 = 30.
    hands = ["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "5-1 5-0 4-1 3-2 4-0 3-0 2-0"]
    result = summarized("quickblock", round_record(hands, ["0: 6-6"]))
    assert result["rounds"] == [outcome("fish", [], [0, 0], [30, 30], [0, 0])]
    assert (result["finished"], result["winner"]) == (True, None)


# --- duel and hundred: domino scores the opponent's pips, fish the difference ----------------------


@pytest.mark.parametrize(("preset", "finished"), [("duel", True), ("hundred", False)])
def test_duel_and_hundred_domino_scores_the_opponents_pips(preset: str, finished: bool) -> None:
    # S1 keeps 5-3 = 8. Hundred plays on to 100.
    result = summarized(preset, round_record(CHAIN_FROM_6_6, CHAIN_FROM_6_6_PLAYS))
    assert result["rounds"] == [outcome("domino", [0], [8, 0], [0, 8], [0, 0])]
    assert result["scores"] == [8, 0]
    assert result["finished"] is finished


def test_duel_fish_lower_count_scores_the_difference() -> None:
    # SIXES_APART: S0 49, S1 41 -> S1 scores 49 - 41 = 8 and wins the game.
    result = summarized("duel", round_record(SIXES_APART, SIXES_OUT, SIXES_TIE_BONEYARD))
    assert result["rounds"] == [outcome("fish", [1], [0, 8], [49, 41], [10, 4])]
    assert (result["finished"], result["winner"]) == (True, 1)


def test_duel_fish_with_equal_counts_is_a_draw() -> None:
    result = summarized("duel", round_record(SIXES_TIE, SIXES_OUT, SIXES_TIE_BONEYARD))
    assert result["rounds"] == [outcome("fish", [], [0, 0], [45, 45], [10, 4])]
    assert (result["finished"], result["winner"]) == (True, None)


# Hundred keeps the last two tiles (2-0 0-0) out of reach: S1 draws 5-2 4-3 3-1 (18) before 6-0,
# S0 draws only 5-1 4-2 4-1 2-1 1-1 5-0 4-0 3-0 (6+6+5+3+2+5+4+3 = 34).
HUNDRED_BONEYARD = "5-2 4-3 3-1 6-0 5-1 4-2 4-1 2-1 1-1 5-0 4-0 3-0 2-0 0-0"


def test_hundred_fish_lower_count_scores_the_difference() -> None:
    # S0 5-5 2-2 (14) + 34 = 48; S1 3-3 5-3 4-4 (22) + 18 = 40 -> S1 scores 8; the match goes on.
    result = summarized("hundred", round_record(SIXES_APART, SIXES_OUT, HUNDRED_BONEYARD))
    assert result["rounds"] == [outcome("fish", [1], [0, 8], [48, 40], [8, 4])]
    assert (result["scores"], result["finished"]) == ([0, 8], False)


def test_hundred_fish_with_equal_counts_is_a_draw() -> None:
    # S0 3-3 2-2 (10) + 34 = 44; S1 5-5 5-3 4-4 (26) + 18 = 44. The reserve's 2 pips count for nobody.
    result = summarized("hundred", round_record(SIXES_TIE, SIXES_OUT, HUNDRED_BONEYARD))
    assert result["rounds"] == [outcome("fish", [], [0, 0], [44, 44], [8, 4])]
    assert (result["scores"], result["finished"]) == ([0, 0], False)


# --- draw and block: others' pips minus own -----------------------------------------------------


@pytest.mark.parametrize("preset", ["draw", "block"])
def test_draw_and_block_domino_scores_the_others_pips(preset: str) -> None:
    # S0 leads 1-1 by choice and dominoes; S1 keeps 5-5: 10 - 0 = 10.
    result = summarized(preset, round_record(CHAIN_FROM_1_1, CHAIN_FROM_1_1_PLAYS, first=0))
    assert result["rounds"] == [outcome("domino", [0], [10, 0], [0, 10], [0, 0])]
    assert (result["scores"], result["finished"]) == ([10, 0], False)


def test_draw_fish_winner_scores_the_others_pips_minus_its_own() -> None:
    # SIXES_APART under draw rules (S0 named first): S1 41 against S0 49 -> S1 scores 49 - 41 = 8.
    result = summarized("draw", round_record(SIXES_APART, SIXES_OUT, SIXES_TIE_BONEYARD, first=0))
    assert result["rounds"] == [outcome("fish", [1], [0, 8], [49, 41], [10, 4])]


def test_block_fish_winner_scores_all_other_hands_minus_its_own() -> None:
    # Block, 3 seats: S0 leads 6-6, nobody holds another 6: fish after three passes.
    # S0 5-5 4-1 3-0 1-1 = 10+5+3+2 = 20; S1 5-2 4-0 3-1 2-0 2-2 = 7+4+4+2+4 = 21;
    # S2 4-3 3-2 2-1 1-0 5-0 = 7+5+3+1+5 = 21 -> S0 scores 21 + 21 - 20 = 22.
    # "Never below zero" cannot bind: with one lowest count p every other hand holds at least p + 1,
    # so others - own >= (seats - 1) * (p + 1) - p > 0. These hands are that tightest case.
    hands = ["6-6 5-5 4-1 3-0 1-1", "5-2 4-0 3-1 2-0 2-2", "4-3 3-2 2-1 1-0 5-0"]
    result = summarized("block", round_record(hands, ["0: 6-6"], first=0))
    assert result["rounds"] == [outcome("fish", [0], [22, 0, 0], [20, 21, 21], [0, 0, 0])]


def test_block_two_seat_fish_won_by_one_pip_scores_one() -> None:
    # S0 leads 6-6, both pass. S0 5-5 4-4 3-3 2-2 1-1 0-0 = 30; S1 5-1 5-0 4-1 3-2 4-0 3-0 2-1
    # = 6+5+5+5+4+3+3 = 31 -> S0 scores 31 - 30 = 1, the least a single winner can score.
    hands = ["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "5-1 5-0 4-1 3-2 4-0 3-0 2-1"]
    result = summarized("block", round_record(hands, ["0: 6-6"], first=0))
    assert result["rounds"] == [outcome("fish", [0], [1, 0], [30, 31], [0, 0])]


def test_block_four_seat_fish_adds_up_three_other_hands() -> None:
    # Block, 4 seats, S3 leads 6-6, the other 6-tiles sleep: S0 S1 S2 S3 pass. Pips:
    # S0 5-5 5-4 5-3 4-4 5-2 = 10+9+8+8+7 = 42; S1 5-0 4-1 3-1 2-0 1-0 = 5+5+4+2+1 = 17;
    # S2 3-2 4-0 3-0 2-1 2-2 = 5+4+3+3+4 = 19; S3 5-1 4-3 4-2 3-3 = 6+7+6+6 = 25
    # -> S1 scores 42 + 19 + 25 - 17 = 69 (>= 61: the match is over).
    hands = ["5-5 5-4 5-3 4-4 5-2", "5-0 4-1 3-1 2-0 1-0", "3-2 4-0 3-0 2-1 2-2", "6-6 5-1 4-3 4-2 3-3"]
    result = summarized("block", round_record(hands, ["3: 6-6"], first=3))
    assert result["rounds"] == [outcome("fish", [1], [0, 69, 0, 0], [42, 17, 19, 25], [0, 0, 0, 0])]
    assert (result["finished"], result["winner"]) == (True, 1)


def test_draw_fish_tie_nobody_scores_and_the_next_seat_starts() -> None:
    # SIXES_TIE under draw rules: 45 against 45 -> nobody scores; S0 started, so S1 starts next.
    game = replayed("draw", round_record(SIXES_TIE, SIXES_OUT, SIXES_TIE_BONEYARD, first=0))
    result = summarized("draw", round_record(SIXES_TIE, SIXES_OUT, SIXES_TIE_BONEYARD, first=0))
    assert result["rounds"] == [outcome("fish", [], [0, 0], [45, 45], [10, 4])]
    assert (result["finished"], result["winner"]) == (False, None)
    assert game.next_first() == 1


def test_block_fish_tie_nobody_scores_and_the_next_seat_starts() -> None:
    # S0 leads 6-6; S0 keeps 5-5 4-4 3-3 2-2 1-1 0-0 = 30, S1 5-1 5-0 4-1 3-2 4-0 3-0 2-0 = 30.
    hands = ["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "5-1 5-0 4-1 3-2 4-0 3-0 2-0"]
    game = replayed("block", round_record(hands, ["0: 6-6"], first=0))
    assert ended(game.round).winners == ()
    assert ended(game.round).points == (0, 0)
    assert game.next_first() == 1


# --- fives: rounded pips at the end of the round --------------------------------------------------


@pytest.mark.parametrize("pips", [0, 1, 2, 3, 7, 8, 12, 13, 14, 72])
def test_round_to_five_is_the_nearest_multiple_of_five(pips: int) -> None:
    expected = {0: 0, 1: 0, 2: 0, 3: 5, 7: 5, 8: 10, 12: 10, 13: 15, 14: 15, 72: 70}[pips]
    assert round_to_five(pips) == expected


# Fives along CHAIN_FROM_1_1 (S0 first): the 1-1 lead is the spinner and its left side is never
# played on, so it counts 2 all round. Counts: 1-1 2; 2-1 2+2 = 4; 3-2 2+3 = 5 (S0 +5); 4-3 6; 5-4 7;
# 6-5 8; 6-6 2+12 = 14; 6-0 2; 0-0 2; 2-0 4; 2-2 2+4 = 6; 4-2 6; 4-4 2+8 = 10 (S0 +10): S0 15, S1 0.
@pytest.mark.parametrize(
    ("kept", "pips", "bonus"), [("1-0", 1, 0), ("3-0", 3, 5), ("5-2", 7, 5), ("5-3", 8, 10)], ids=str
)
def test_fives_domino_scores_the_others_pips_rounded_to_five(kept: str, pips: int, bonus: int) -> None:
    hands = [CHAIN_FROM_1_1[0], f"2-1 4-3 6-5 6-0 2-0 4-2 {kept}"]
    result = summarized("fives", round_record(hands, CHAIN_FROM_1_1_PLAYS, first=0))
    assert result["rounds"] == [outcome("domino", [0], [bonus, 0], [0, pips], [0, 0], fives=[15, 0])]
    assert result["scores"] == [15 + bonus, 0]


def test_fives_domino_rounds_twelve_down_to_ten() -> None:
    # S1 keeps 6-6 (12 -> 10). Chain on the right from a 1-1 spinner lead; counts 2 (lead),
    # 4, 5 (3-2, S0 +5), 6, 7, 8, 2 (6-0), 2 (0-0), 4, 6 (2-2), 6, 10 (4-4, S1 +10), 2 (4-0, domino).
    hands = ["1-1 3-2 5-4 6-0 2-0 4-2 4-0", "2-1 4-3 6-5 0-0 2-2 4-4 6-6"]
    plays = [
        "0: 1-1",
        "1: 2-1 right",
        "0: 3-2",
        "1: 4-3",
        "0: 5-4",
        "1: 6-5",
        "0: 6-0",
        "1: 0-0",
        "0: 2-0",
        "1: 2-2",
        "0: 4-2",
        "1: 4-4",
        "0: 4-0",
    ]
    result = summarized("fives", round_record(hands, plays, first=0))
    assert result["rounds"] == [outcome("domino", [0], [10, 0], [0, 12], [0, 0], fives=[5, 10])]
    assert result["scores"] == [15, 10]


def test_fives_rounds_the_sum_of_all_other_hands_once() -> None:
    # 3 seats, the chain above dealt round the table; S2 scores 3-2 (5) and 4-4 (10).
    # S0 dominoes; S1 keeps 6-1 (7), S2 keeps 5-2 (7): round(7 + 7 = 14) = 15, not 5 + 5 = 10.
    hands = ["1-1 4-3 6-0 2-2 4-0", "2-1 5-4 0-0 4-2 6-1", "3-2 6-5 2-0 4-4 5-2"]
    plays = [
        "0: 1-1",
        "1: 2-1 right",
        "2: 3-2",
        "0: 4-3",
        "1: 5-4",
        "2: 6-5",
        "0: 6-0",
        "1: 0-0",
        "2: 2-0",
        "0: 2-2",
        "1: 4-2",
        "2: 4-4",
        "0: 4-0",
    ]
    result = summarized("fives", round_record(hands, plays, first=0))
    assert result["rounds"] == [outcome("domino", [0], [15, 0, 0], [0, 7, 7], [0, 0, 0], fives=[0, 0, 15])]
    assert result["scores"] == [15, 0, 15]


# FIVES_FISH_PLAYS (helpers): S0 +10 and S1 +10 during play, S0 plays the last tile, 6-6.


def test_fives_fish_winner_scores_the_others_pips_rounded_with_nothing_off_for_its_own() -> None:
    # S0 keeps 5-5 (10). S1 keeps 3-3 2-2 and draws all 14 (62): 72 -> 70. Others-minus-own
    # would give 62 -> 60; fives takes nothing off.
    hands = ["6-5 4-3 6-4 6-2 1-0 6-6 5-5", "5-4 6-3 4-2 6-1 6-0 3-3 2-2"]
    boneyard = "5-3 5-2 5-1 5-0 4-4 4-1 4-0 3-2 3-1 3-0 2-1 2-0 1-1 0-0"
    result = summarized("fives", round_record(hands, FIVES_FISH_PLAYS, boneyard, first=0))
    assert result["rounds"] == [outcome("fish", [0], [70, 0], [10, 72], [0, 14], fives=[10, 10])]
    assert result["scores"] == [80, 10]


def test_fives_fish_tie_keeps_the_points_scored_during_play() -> None:
    # S0 (5-5 3-3 left) must draw for its last play: 5-3 4-4 5-2 1-1, then 6-6 -> 10+6+8+8+7+2 = 41.
    # S1 keeps 0-0 2-2 and draws the other nine (6+5+5+4+5+4+3+3+2 = 37) -> 41. Tie: nobody scores
    # at the end, the 10 + 10 scored during play stay, and S1 (after the starter S0) starts next.
    hands = ["6-5 4-3 6-4 6-2 1-0 5-5 3-3", "5-4 6-3 4-2 6-1 6-0 0-0 2-2"]
    boneyard = "5-3 4-4 5-2 1-1 6-6 5-1 5-0 4-1 4-0 3-2 3-1 3-0 2-1 2-0"
    game = replayed("fives", round_record(hands, FIVES_FISH_PLAYS, boneyard, first=0))
    result = summarized("fives", round_record(hands, FIVES_FISH_PLAYS, boneyard, first=0))
    assert result["rounds"] == [outcome("fish", [], [0, 0], [41, 41], [5, 9], fives=[10, 10])]
    assert (result["scores"], result["finished"]) == ([10, 10], False)
    assert game.next_first() == 1

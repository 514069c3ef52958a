"""Who leads a round and with what (RULES.md, "Who starts").

Every deal is explicit; the boneyard defaults to the undealt tiles in set order,
which never matters here because starter rules look only at the dealt hands.
"""

from __future__ import annotations

import random

import pytest

from engine import DealError, Match, MissingFirstError, Move, RecordError, RoundState, Rules, Tile, WrongFirstError
from engine.rules import PRESETS
from tests.engine.helpers import (
    CHAIN_FROM_6_6,
    CHAIN_FROM_6_6_PLAYS,
    ended,
    match_from,
    play_match,
    replayed,
    round_record,
    start,
    tile,
    tiles,
    undealt,
)

HIGHEST_PRESETS = ["quickblock", "duel", "hundred"]
MATCH_PRESETS = ["draw", "block", "fives"]


def leader(state: RoundState) -> tuple[int, Tile | None]:
    """The seat to lead and the tile it is held to (None: any tile)."""
    return state.turn, state.forced


# --- classic starter ----------------------------------------------------------------------


def test_classic_holder_of_1_1_leads_it_before_any_other_double() -> None:
    # S0 holds 6-6, 5-5 and 0-0 but 1-1 (S1) comes first in the classic order.
    state = start("classic", ["6-6 5-5 0-0 6-5 6-4 6-3 6-2", "1-1 2-2 5-4 5-3 5-2 5-1 5-0"])
    assert leader(state) == (1, tile("1-1"))
    assert state.starter == 1


@pytest.mark.parametrize(
    ("hands", "double"),
    [
        # 1-1 sleeps in the boneyard; S0 holds 0-0 and every double above the lowest dealt one.
        (["0-0 3-3 4-4 5-5 6-6 6-5 6-4", "2-2 6-3 6-2 6-1 6-0 5-4 5-3"], "2-2"),
        (["0-0 4-4 5-5 6-6 6-5 6-4 6-3", "3-3 6-2 6-1 6-0 5-4 5-3 5-2"], "3-3"),
        (["0-0 5-5 6-6 6-5 6-4 6-3 6-2", "4-4 6-1 6-0 5-4 5-3 5-2 5-1"], "4-4"),
        (["0-0 6-6 6-5 6-4 6-3 6-2 6-1", "5-5 6-0 5-4 5-3 5-2 5-1 5-0"], "5-5"),
    ],
    ids=["2-2", "3-3", "4-4", "5-5"],
)
def test_classic_without_1_1_the_lowest_dealt_double_from_2_2_up_leads(hands: list[str], double: str) -> None:
    state = start("classic", hands)
    assert leader(state) == (1, tile(double))


def test_classic_1_1_in_the_boneyard_does_not_lead() -> None:
    # 1-1 and 2-2 are undealt; 3-3 (S0) is the lowest dealt double although 1-1 exists in the set.
    state = start("classic", ["3-3 6-6 6-5 6-4 6-3 6-2 6-1", "4-4 5-5 6-0 5-4 5-3 5-2 5-1"])
    assert tile("1-1") in state.boneyard
    assert leader(state) == (0, tile("3-3"))


def test_classic_6_6_leads_before_0_0_when_only_those_doubles_are_dealt() -> None:
    # 4 players; 1-1..5-5 sleep in the boneyard. Order 1-1 .. 6-6 then 0-0: S3's 6-6, not S0's 0-0.
    state = start(
        "classic",
        [
            "0-0 6-5 6-4 5-4 4-3",
            "6-3 6-2 5-3 5-2 4-2",
            "6-1 6-0 5-1 5-0 4-1",
            "6-6 4-0 3-2 3-1 3-0",
        ],
        boneyard="1-1 2-2 3-3 4-4 5-5 2-1 2-0 1-0",
    )
    assert leader(state) == (3, tile("6-6"))


def test_classic_0_0_leads_when_it_is_the_only_double_dealt() -> None:
    # S0 holds the heaviest tiles, but any dealt double beats "heaviest tile".
    state = start("classic", ["6-5 6-4 6-3 6-2 6-1 6-0 5-4", "0-0 5-3 5-2 5-1 5-0 4-3 4-2"])
    assert leader(state) == (1, tile("0-0"))


def test_classic_without_doubles_the_heaviest_tile_leads() -> None:
    # 3 players, all seven doubles undealt: 6-5 (11 pips, S1) beats 6-4 (10, S0) and 5-4 (9, S2).
    state = start("classic", ["6-4 6-3 5-2 4-1 3-0", "6-5 2-1 2-0 1-0 3-1", "5-4 5-3 6-2 6-1 6-0"])
    assert leader(state) == (1, tile("6-5"))


# --- heaviest tile, shared by the classic and highest starters ------------------------------

# 6-5, 6-4 and every double are undealt: 6-3 and 5-4 both weigh 9; 6-3 has the higher half.
NINE_PIP_TIE = ["5-4 5-3 5-2 4-3 4-2 3-2 1-0", "6-3 6-2 6-1 6-0 5-1 5-0 4-1"]
# 6-5 6-4 6-3 5-4 and every double are undealt: 6-2 and 5-3 both weigh 8; 6-2 wins.
EIGHT_PIP_TIE = ["5-3 5-2 4-3 4-2 3-2 1-0 2-1", "6-2 6-1 6-0 5-1 5-0 4-1 4-0"]


@pytest.mark.parametrize("preset", ["classic", *HIGHEST_PRESETS])
@pytest.mark.parametrize(
    ("hands", "heaviest"), [(NINE_PIP_TIE, "6-3"), (EIGHT_PIP_TIE, "6-2")], ids=["9 pips", "8 pips"]
)
def test_heaviest_tile_tie_goes_to_the_tile_with_the_higher_half(preset: str, hands: list[str], heaviest: str) -> None:
    assert leader(start(preset, hands)) == (1, tile(heaviest))
    # The same tiles the other way round: the tile decides, not the seat.
    assert leader(start(preset, hands[::-1])) == (0, tile(heaviest))


# --- highest starter -------------------------------------------------------------------------


@pytest.mark.parametrize("preset", HIGHEST_PRESETS)
@pytest.mark.parametrize(
    ("hands", "double"),
    [
        # S1 holds the highest dealt double, higher doubles sleep, S0 holds the lower ones.
        (["5-5 4-4 3-3 2-2 1-1 0-0 6-5", "6-6 6-4 6-3 6-2 6-1 6-0 5-4"], "6-6"),
        (["4-4 3-3 2-2 1-1 0-0 6-5 6-4", "5-5 6-3 6-2 6-1 6-0 5-4 5-3"], "5-5"),
        (["3-3 2-2 1-1 0-0 6-5 6-4 6-3", "4-4 6-2 6-1 6-0 5-4 5-3 5-2"], "4-4"),
        (["2-2 1-1 0-0 6-5 6-4 6-3 6-2", "3-3 6-1 6-0 5-4 5-3 5-2 5-1"], "3-3"),
        (["1-1 0-0 6-5 6-4 6-3 6-2 6-1", "2-2 6-0 5-4 5-3 5-2 5-1 5-0"], "2-2"),
        (["0-0 6-5 6-4 6-3 6-2 6-1 6-0", "1-1 5-4 5-3 5-2 5-1 5-0 4-3"], "1-1"),
        (["6-5 6-4 6-3 6-2 6-1 6-0 5-4", "0-0 5-3 5-2 5-1 5-0 4-3 4-2"], "0-0"),
    ],
    ids=["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"],
)
def test_highest_dealt_double_leads(preset: str, hands: list[str], double: str) -> None:
    assert leader(start(preset, hands)) == (1, tile(double))


@pytest.mark.parametrize("preset", HIGHEST_PRESETS)
def test_highest_starter_ignores_6_6_asleep_in_the_boneyard(preset: str) -> None:
    state = start(preset, ["4-4 3-3 2-2 1-1 0-0 6-5 6-4", "5-5 6-3 6-2 6-1 6-0 5-4 5-3"])
    assert tile("6-6") in state.boneyard
    assert leader(state) == (1, tile("5-5"))


@pytest.mark.parametrize("preset", HIGHEST_PRESETS)
def test_highest_starter_without_doubles_the_heaviest_tile_leads(preset: str) -> None:
    # Every double sleeps: 6-5 (11 pips, S0) beats S1's 6-4 (10).
    state = start(preset, ["6-5 5-4 5-3 5-2 5-1 5-0 4-3", "6-4 6-3 6-2 6-1 6-0 4-2 4-1"])
    assert leader(state) == (0, tile("6-5"))


# --- a `first` that disagrees with the rules --------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "hands", "rules_first"),
    [
        ("classic", ["6-6 5-5 0-0 6-5 6-4 6-3 6-2", "1-1 2-2 5-4 5-3 5-2 5-1 5-0"], 1),
        ("duel", ["6-6 6-4 6-3 6-2 6-1 6-0 5-4", "5-5 4-4 3-3 2-2 1-1 0-0 6-5"], 0),
    ],
)
def test_first_that_disagrees_with_the_rules_is_an_error(preset: str, hands: list[str], rules_first: int) -> None:
    wrong = 1 - rules_first
    with pytest.raises(WrongFirstError) as caught:
        start(preset, hands, first=wrong)
    assert caught.value.code == "wrong_first"
    with pytest.raises(RecordError) as in_record:
        replayed(preset, round_record(hands, [], first=wrong))
    assert (in_record.value.code, in_record.value.where) == ("wrong_first", "round 0")
    # The same seat written out is accepted.
    assert start(preset, hands, first=rules_first).turn == rules_first


# --- match starter ---------------------------------------------------------------------------

TWO_HANDS = ["1-1 6-6 5-5 6-5 6-4 6-3 6-2", "5-4 5-3 5-2 5-1 5-0 4-3 4-2"]


@pytest.mark.parametrize("preset", MATCH_PRESETS)
def test_match_starter_round_one_needs_first(preset: str) -> None:
    with pytest.raises(MissingFirstError) as caught:
        start(preset, TWO_HANDS)
    assert caught.value.code == "missing_first"
    with pytest.raises(RecordError) as in_record:
        replayed(preset, round_record(TWO_HANDS, []))
    assert (in_record.value.code, in_record.value.where) == ("missing_first", "round 0")


@pytest.mark.parametrize("preset", MATCH_PRESETS)
def test_match_starter_named_seat_may_lead_any_tile(preset: str) -> None:
    # S0 holds 1-1 and 6-6, yet S1 (named first) leads, with any of its tiles.
    state = start(preset, TWO_HANDS, first=1)
    assert leader(state) == (1, None)
    assert sorted(state.legal_moves()) == sorted(Move(t) for t in tiles(TWO_HANDS[1]))


@pytest.mark.parametrize("preset", MATCH_PRESETS)
def test_match_starter_first_must_be_one_of_the_seats(preset: str) -> None:
    with pytest.raises(DealError):
        start(preset, TWO_HANDS, first=2)


# A block round led by S1 that S1 wins by domino: a chain on the right end, the left end stays 6.
# S1 plays 6-6 5-4 3-2 1-1 0-0 2-2 4-4, S0 plays 6-5 4-3 2-1 1-0 2-0 4-2 and keeps 5-3.
S1_CHAIN_HANDS = ["6-5 4-3 2-1 1-0 2-0 4-2 5-3", "6-6 5-4 3-2 1-1 0-0 2-2 4-4"]
S1_CHAIN_PLAYS = [
    "1: 6-6",
    "0: 6-5 right",
    "1: 5-4",
    "0: 4-3",
    "1: 3-2",
    "0: 2-1",
    "1: 1-1",
    "0: 1-0",
    "1: 0-0",
    "0: 2-0",
    "1: 2-2",
    "0: 4-2",
    "1: 4-4",
]
ANY_HANDS = ["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-5 6-4 6-3 6-2 6-1 6-0 5-4"]


def test_domino_winner_leads_the_next_round_with_any_tile() -> None:
    # Round 1: S1 leads and dominoes. Round 2: the winner S1 starts (not S0, the seat after S1),
    # although S0 holds every double, and may lead any of its tiles.
    game = replayed(
        "block",
        round_record(S1_CHAIN_HANDS, S1_CHAIN_PLAYS, first=1),
        round_record(ANY_HANDS, []),
    )
    assert ended(game.rounds[0]).winners == (1,)
    assert leader(game.round) == (1, None)
    assert sorted(game.round.legal_moves()) == sorted(Move(t) for t in tiles(ANY_HANDS[1]))


def test_fish_winner_leads_the_next_round() -> None:
    # Block, 3 seats: S0 leads 6-6 and nobody holds another 6, so S1, S2, S0 pass: fish.
    # Pips: S0 5-5 5-4 5-3 4-4 = 10+9+8+8 = 35, S1 7+7+6+6+6 = 32, S2 5+5+5+3+0 = 18 -> S2 wins
    # and starts round 2 (neither the previous starter S0 nor the seat after it, S1).
    hands = ["6-6 5-5 5-4 5-3 4-4", "5-2 4-3 5-1 4-2 3-3", "5-0 4-1 3-2 2-1 0-0"]
    game = replayed("block", round_record(hands, ["0: 6-6"], first=0), round_record(hands, []))
    assert ended(game.rounds[0]).winners == (2,)
    assert leader(game.round) == (2, None)


def test_after_a_fish_with_no_single_winner_the_seat_after_the_previous_starter_leads() -> None:
    # Block, 4 seats, S3 leads 6-6, the other six 6-tiles sleep: four passes, fish.
    # Pips: S0 10+9+8+8+7 = 42, S1 5+5+4+2+1 = 17, S2 5+4+3+3+2 = 17, S3 7+6+6+6 = 25.
    # S1 and S2 tie for the lowest: nobody scores, and the seat after S3 (wrapping round) is S0.
    hands = [
        "5-5 5-4 5-3 4-4 5-2",
        "5-0 4-1 3-1 2-0 1-0",
        "3-2 4-0 3-0 2-1 1-1",
        "6-6 5-1 4-3 4-2 3-3",
    ]
    game = replayed("block", round_record(hands, ["3: 6-6"], first=3), round_record(hands, []))
    outcome = ended(game.rounds[0])
    assert (outcome.pips, outcome.winners) == ((42, 17, 17, 25), ())
    assert leader(game.round) == (0, None)


def test_later_round_first_must_match_the_rules() -> None:
    # After S1's domino, round 2 belongs to S1; a record naming S0 is rejected.
    with pytest.raises(RecordError) as caught:
        replayed(
            "block",
            round_record(S1_CHAIN_HANDS, S1_CHAIN_PLAYS, first=1),
            round_record(ANY_HANDS, [], first=0),
        )
    assert (caught.value.code, caught.value.where) == ("wrong_first", "round 1")
    game = match_from("block", S1_CHAIN_HANDS, first=1)
    game = play_match(game, *S1_CHAIN_PLAYS)
    with pytest.raises(WrongFirstError):
        game.next_round([tiles(hand) for hand in ANY_HANDS], tiles(undealt(ANY_HANDS)), first=0)


def test_hundred_every_round_starts_with_the_highest_double_not_the_winner() -> None:
    # Round 1 (CHAIN_FROM_6_6): S0 leads 6-6 and dominoes; S1 keeps 5-3 -> S0 scores 8 (< 100).
    # Round 2: S1 holds 6-6, so S1 leads it, whoever won round 1.
    game = replayed(
        "hundred",
        round_record(CHAIN_FROM_6_6, CHAIN_FROM_6_6_PLAYS),
        round_record(CHAIN_FROM_6_6[::-1], []),
    )
    assert game.scores == (8, 0)
    assert leader(game.round) == (1, tile("6-6"))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_rules_say_which_rounds_have_a_forced_lead_as_every_deal_does(preset: str) -> None:
    """``Rules.names_the_lead``, read by captions ("led 1-1 (forced)"), agrees with the deal itself."""
    rules = Rules.preset(preset)
    seats = rules.min_seats
    for seed in range(12):
        rng = random.Random(seed)
        game = Match.new(rules, seats, rng, None if rules.forced_lead else 0)
        while len(game.rounds) < 3 and not game.is_over:
            round_index = len(game.rounds) - 1
            assert rules.names_the_lead(round_index) is (game.round.forced is not None), (preset, seed, round_index)
            game = play_out_round(game, rng)
            if not game.is_over:
                game = game.deal_next(rng)


def play_out_round(game: Match, rng: random.Random) -> Match:
    while not game.round.is_over:
        game = game.apply(rng.choice(game.round.legal_moves()))
    return game

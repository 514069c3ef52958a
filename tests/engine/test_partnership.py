"""The partnership presets (RULES.md, "Partnership presets"): `goat` and `partners`, seats 0+2 against 1+3."""

from __future__ import annotations

import random

import pytest

from engine import (
    Match,
    Move,
    RecordError,
    Rules,
    SeatCountError,
    read_record,
    replay,
    summary,
    write_record,
)
from engine.state import round_score
from tests.engine.helpers import tile

GOAT = Rules.preset("goat")
PARTNERS = Rules.preset("partners")


def random_match(rules: Rules, seed: int) -> Match:
    rng = random.Random(seed)
    game = Match.new(rules, 4, rng)
    while not game.is_over:
        if game.round.is_over:
            game = game.deal_next(rng)
        game = game.apply(rng.choice(game.round.legal_moves()))
    return game


def test_only_four_seats_in_two_teams_of_partners_opposite() -> None:
    for rules in (GOAT, PARTNERS):
        assert rules.sides(4) == ((0, 2), (1, 3))
        assert [rules.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
        for seats in (2, 3):
            with pytest.raises(SeatCountError):
                Match.new(rules, seats, random.Random(0))
    assert not Rules.preset("block").has_teams and Rules.preset("block").sides(4) == ((0,), (1,), (2,), (3,))


def test_all_28_tiles_dealt_and_nobody_draws() -> None:
    state = Match.new(GOAT, 4, random.Random(1)).round
    assert [len(hand) for hand in state.hands] == [7, 7, 7, 7] and state.boneyard == ()
    assert state.drawable == 0


def test_goat_round_one_is_led_with_1_1_by_its_holder_placed_by_itself() -> None:
    for seed in range(20):
        state = Match.new(GOAT, 4, random.Random(seed)).round
        holder = next(seat for seat, hand in enumerate(state.hands) if tile("1-1") in hand)
        assert state.turn == holder
        assert state.legal_moves() == [Move(tile("1-1"))] and state.auto_move() == Move(tile("1-1"))


def test_partners_round_one_is_led_with_6_6_placed_by_the_bot() -> None:
    for seed in range(20):
        state = Match.new(PARTNERS, 4, random.Random(seed)).round
        holder = next(seat for seat, hand in enumerate(state.hands) if tile("6-6") in hand)
        assert state.turn == holder and state.auto_move() == Move(tile("6-6"))


@pytest.mark.parametrize("rules", [GOAT, PARTNERS], ids=lambda rules: rules.id)
def test_later_rounds_start_with_any_tile_by_the_seat_the_rules_name(rules: Rules) -> None:
    seen = 0
    for seed in range(30):
        game = random_match(rules, seed)
        for before, after in zip(game.rounds, game.rounds[1:], strict=False):
            # goat: who played the last tile, domino or fish; partners: the seat after the previous
            # starter, whoever won
            expected = before.plays()[-1].seat if rules is GOAT else (before.starter + 1) % 4
            assert after.starter == expected
            assert after.deal_.first == expected
            first_play = after.plays()[0] if after.plays() else None
            assert first_play is None or first_play.seat == expected
            seen += 1
    assert seen > 30


def test_a_later_round_led_with_any_tile() -> None:
    game = random_match(GOAT, 3)
    state = game.rounds[1]
    replayed = Match.from_deal(GOAT, game.rounds[0].deal_.hands, ())
    for event in game.rounds[0].plays():
        replayed = replayed.apply(Move(event.tile, event.end))
    replayed = replayed.next_round(state.deal_.hands, ())
    assert replayed.round.forced is None
    assert {move.tile for move in replayed.round.legal_moves()} == set(state.deal_.hands[state.starter])


@pytest.mark.parametrize("rules", [GOAT, PARTNERS], ids=lambda rules: rules.id)
def test_partners_always_hold_equal_totals_and_one_team_scores_a_round(rules: Rules) -> None:
    for seed in range(30):
        game = random_match(rules, seed)
        for outcome in game.outcomes():
            assert outcome.points[0] == outcome.points[2] and outcome.points[1] == outcome.points[3]
            assert outcome.points[0] == 0 or outcome.points[1] == 0
            assert outcome.winners in ((), (0, 2), (1, 3))
        scores = game.scores
        assert scores[0] == scores[2] and scores[1] == scores[3]
        assert game.side_scores == (scores[0], scores[1])


def test_goat_charges_the_losing_team_its_own_pips() -> None:
    # Seat 2 went out: team 0 wins; team 1 is charged 30 + 31, nobody pays for seat 0's 19.
    assert round_score(GOAT, True, 2, [19, 30, 0, 31]) == ((0, 2), (0, 61, 0, 61))
    # A fish: team 1 has 5 + 20 = 25 against 3 + 30 = 33; the lowest single hand (3) is team 0's.
    assert round_score(GOAT, False, 0, [3, 5, 30, 20]) == ((1, 3), (33, 0, 33, 0))
    # Equal team counts: nobody wins, nobody is charged.
    assert round_score(GOAT, False, 0, [10, 12, 14, 12]) == ((), (0, 0, 0, 0))


def test_partners_scores_the_pips_in_every_hand_for_the_winning_team() -> None:
    assert round_score(PARTNERS, True, 1, [10, 0, 20, 5]) == ((1, 3), (0, 35, 0, 35))
    assert round_score(PARTNERS, False, 3, [10, 9, 6, 3]) == ((1, 3), (0, 28, 0, 28))  # 16 against 12
    assert round_score(PARTNERS, False, 3, [10, 10, 4, 4]) == ((), (0, 0, 0, 0))


def test_goat_ends_when_a_team_reaches_101_and_that_team_loses() -> None:
    for seed in range(30):
        game = random_match(GOAT, seed)
        totals = game.side_scores
        assert max(totals) >= 101 and min(totals) < 101
        assert game.winner == totals.index(min(totals))
        for rounds in range(1, len(game.rounds)):  # no earlier round ended it
            earlier = Match(GOAT, 4, game.rounds[:rounds], _banked(game, rounds))
            assert not earlier.is_over and earlier.winner is None


def test_partners_ends_when_a_team_reaches_200_and_that_team_wins() -> None:
    for seed in range(20):
        game = random_match(PARTNERS, seed)
        totals = game.side_scores
        assert max(totals) >= 200 and min(totals) < 200
        assert game.winner == totals.index(max(totals))


def _banked(game: Match, rounds: int) -> tuple[int, ...]:
    banked = [0, 0, 0, 0]
    for outcome in game.outcomes()[:rounds]:
        banked = [total + points for total, points in zip(banked, outcome.points, strict=True)]
    return tuple(banked)


@pytest.mark.parametrize("rules", [GOAT, PARTNERS], ids=lambda rules: rules.id)
def test_records_replay_and_show_team_scores(rules: Rules) -> None:
    game = random_match(rules, 11)
    data = write_record(game)
    assert data["teams"] == [[0, 2], [1, 3]]
    assert all("first" not in round_data or isinstance(round_data["first"], int) for round_data in data["rounds"])
    for round_data in data["rounds"]:  # the starters follow from the rules: a record may leave them out
        round_data.pop("first", None)
    again = replay(read_record(data))
    assert again == game
    result = summary(again)
    assert list(result) == ["rounds", "scores", "team_scores", "finished", "winner"]
    assert result["team_scores"] == list(game.side_scores) and result["winner"] in (0, 1)


def test_other_presets_keep_their_record_and_replay_output() -> None:
    rng = random.Random(2)
    game = Match.new(Rules.preset("block"), 4, rng, first=0)
    while not game.round.is_over:
        game = game.apply(rng.choice(game.round.legal_moves()))
    assert "teams" not in write_record(game)
    assert list(summary(game)) == ["rounds", "scores", "finished", "winner"]


def test_a_later_round_led_by_the_wrong_seat_is_refused() -> None:
    game = random_match(PARTNERS, 5)
    data = write_record(game)
    right = data["rounds"][1]["first"]
    data["rounds"][1]["first"] = (right + 1) % 4
    with pytest.raises(RecordError, match="leads this round under the rules"):
        replay(read_record(data))

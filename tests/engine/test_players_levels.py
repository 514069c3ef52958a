"""What each level is made of: the stakes and the exact search of ``hard``, the rules of thumb of ``medium``."""

from __future__ import annotations

import random

import pytest

from engine import Match, Move, RoundState, Rules, Tile
from engine.players import Easy, Hard, Medium, Player
from engine.players.hard import Solver, Stakes, _modelled_move, greedy_playout, modelled_playout
from engine.players.sampler import PlayModel, determinize, sample_world
from engine.players.sim import INDEX, Sim

T = Tile.parse


def _endgame(preset: str, seats: int, plays: int, seed: int, tiles_left: int = 28) -> tuple[Match, Sim] | None:
    """A random position after ``plays`` plays, or once at most ``tiles_left`` tiles are in hands."""
    rng = random.Random(seed)
    rules = Rules.preset(preset)
    game = Match.new(rules, seats, rng, None if rules.forced_lead else 0)
    played = 0
    while played < plays or sum(len(hand) for hand in game.round.hands) > tiles_left:
        if game.round.is_over:
            return None
        game = game.apply(rng.choice(game.round.legal_moves()))
        played += 1
    if game.round.is_over:
        return None
    return game, game.round.to_core()


class _TooBig(Exception):
    pass


def _minimax(sim: Sim, stakes: Stakes, budget: list[int]) -> float:
    """Plain minimax with no pruning, for checking the solver (gives up past ``budget`` positions)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooBig
    if sim.over:
        return stakes.value(sim)
    values = []
    for move in sim.moves():
        child = sim.copy()
        child.play(move)
        values.append(_minimax(child, stakes, budget))
    return max(values) if sim.turn == stakes.me else min(values)


@pytest.mark.parametrize("preset", ["block", "draw", "fives", "hundred"])
def test_alpha_beta_agrees_with_plain_minimax(preset: str) -> None:
    checked = 0
    for seed in range(200):
        found = _endgame(preset, 2, 0, seed, tiles_left=7)
        if found is None:
            continue
        game, sim = found
        stakes = Stakes(game.observe(game.round.turn))
        try:
            expected = _minimax(sim.copy(), stakes, [20000])
        except _TooBig:
            continue
        assert Solver(stakes, 10**7).value(sim.copy()) == pytest.approx(expected)
        checked += 1
        if checked == 12:
            break
    assert checked >= 5


def _cautious(sim: Sim, stakes: Stakes, caution: float, own: float = 1.0) -> float:
    """Each seat's best with probability ``caution`` (the seat's own: ``own``), else any move."""
    if sim.over:
        return stakes.value(sim)
    values = []
    for move in sim.distinct_moves():
        child = sim.copy()
        child.play(move)
        values.append(_cautious(child, stakes, caution, own))
    mean = sum(values) / len(values)
    if sim.turn == stakes.me:
        return own * max(values) + (1 - own) * mean
    return caution * min(values) + (1 - caution) * mean


def test_the_cautious_search_models_players_who_cannot_see() -> None:
    checked = 0
    for seed in range(100):
        found = _endgame("block", 2, 0, seed, tiles_left=8)
        if found is None:
            continue
        game, sim = found
        stakes = Stakes(game.observe(game.round.turn))
        for caution, own in ((0.0, 1.0), (0.6, 1.0), (0.6, 0.7), (1.0, 0.5)):
            expected = _cautious(sim.copy(), stakes, caution, own)
            assert Solver(stakes, 10**7, caution, own).value(sim.copy()) == pytest.approx(expected)
        checked += 1
        if checked == 10:
            break
    assert checked == 10


def test_two_seat_stakes_are_constant_sum() -> None:
    """Alpha-beta is only right if what one seat gains the other loses."""
    for preset in ("block", "fives", "duel", "quickblock", "hundred"):
        rng = random.Random(preset)
        for _ in range(50):
            state = RoundState.deal(Rules.preset(preset), 2, rng, 0 if not Rules.preset(preset).forced_lead else None)
            game = Match(state.rules, 2, (state,), (rng.randrange(150), rng.randrange(150)))
            stakes = Stakes(game.observe(0))
            sim = state.to_core()
            while not sim.over:
                sim.play(rng.choice(sim.moves()))
            first, second = stakes.values(sim)
            assert first + second == pytest.approx(1.0 if stakes.target is None else 0.0)


def test_stakes_see_the_end_of_the_match() -> None:
    rules = Rules.preset("draw")
    rng = random.Random(8)
    state = RoundState.deal(rules, 2, rng, 0)
    sim = state.to_core()
    while not sim.over:
        sim.play(rng.choice(sim.moves()))
    _, winners, points, _ = sim.result()
    if len(winners) != 1 or points[winners[0]] == 0:
        pytest.skip("the random round had no points")
    winner = winners[0]
    near = [0, 0]
    near[winner] = 100 - points[winner]  # this round takes the winner to the target
    far = Stakes(Match(rules, 2, (state,), (0, 0)).observe(winner)).value(sim)
    close = Stakes(Match(rules, 2, (state,), (near[0], near[1])).observe(winner)).value(sim)
    assert close == pytest.approx(far + Stakes.MATCH_WEIGHT)


def test_hard_plays_the_same_move_for_the_same_seed() -> None:
    found = _endgame("fives", 3, 5, 4)
    assert found is not None
    game, _ = found
    seen = game.observe(game.round.turn)
    assert Hard().choose(seen, random.Random(3)) == Hard().choose(seen, random.Random(3))


def test_determinized_worlds_play_on_like_the_real_round() -> None:
    found = _endgame("draw", 2, 6, 2)
    assert found is not None
    game, _ = found
    seen = game.observe(game.round.turn)
    state = determinize(seen, sample_world(seen, random.Random(0)))
    assert state.legal_moves() == game.round.legal_moves()
    assert (state.turn, state.passes, state.fives, state.draws) == (
        game.round.turn,
        game.round.passes,
        game.round.fives,
        game.round.draws,
    )


def _opening(preset: str, hands: list[list[str]]) -> Match:
    used = {T(tile) for hand in hands for tile in hand}
    rest = [tile for tile in _all_tiles() if tile not in used]
    size = Rules.preset(preset).hand_size(len(hands))
    full = [[T(tile) for tile in hand] for hand in hands]
    for hand in full:
        while len(hand) < size:
            hand.append(rest.pop())
    return Match.from_deal(Rules.preset(preset), full, rest, first=0)


def _all_tiles() -> list[Tile]:
    from engine import ALL_TILES

    return list(ALL_TILES)


def _after_a_double_six() -> Sim:
    """Seat 1 to answer 6-6 with 6-2 (heavier, and it holds no other 2) or 6-0 (it holds three 0s)."""
    game = _opening(
        "block",
        [["6-6", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"], ["6-2", "6-0", "3-0", "4-0", "5-0", "3-3", "4-4"]],
    )
    game = game.apply(Move(T("6-6")))
    return game.round.to_core()


@pytest.mark.parametrize(("model", "expected"), [(PlayModel(pips=30.0), "6-2"), (PlayModel(keeps=30.0), "6-0")])
def test_in_a_modelled_playout_the_others_pick_as_the_model_says(model: PlayModel, expected: str) -> None:
    sim = _after_a_double_six()
    rng = random.Random(1)
    picks = [_modelled_move(sim, sim.moves(), rng, model.odds())[0] for _ in range(200)]
    assert picks.count(INDEX[T(expected)]) >= 190


def test_a_modelled_playout_plays_the_round_out() -> None:
    sim = _after_a_double_six()
    modelled_playout(PlayModel(pips=3.5, keeps=4.5), me=0)(sim, random.Random(2))
    assert sim.over


@pytest.mark.parametrize(
    ("preset", "seats", "modelled"),
    [("block", 2, True), ("quickblock", 2, True), ("draw", 2, False), ("fives", 2, False), ("block", 4, False)],
)
def test_hard_plays_out_with_its_model_of_the_others_only_where_the_model_fits(
    preset: str, seats: int, modelled: bool
) -> None:
    """The model is of two-seat play that scores no fives and draws nothing (what it was fitted to)."""
    rules = Rules.preset(preset)
    game = Match.new(rules, seats, random.Random(3), None if rules.forced_lead else 0)
    chosen = Hard()._playout(game.observe(0))
    assert (chosen is not greedy_playout) == modelled
    assert Hard(playout=greedy_playout)._playout(game.observe(0)) is greedy_playout


def test_medium_scores_fives_when_it_can() -> None:
    game = _opening("fives", [["5-5", "6-1", "4-2", "3-1", "2-1", "1-0", "2-0"], ["6-6"]])
    move = Medium().choose(game.observe(0), random.Random(0))
    assert move.tile == T("5-5")  # a 5-5 lead scores 10 at once


def test_medium_sheds_heavy_tiles_and_doubles() -> None:
    game = _opening("draw", [["6-6", "1-0", "2-0", "3-0", "2-1", "3-1", "4-0"], ["5-5"]])
    move = Medium().choose(game.observe(0), random.Random(0))
    assert move.tile == T("6-6")


def test_easy_is_weaker_than_medium_in_a_fixed_sample() -> None:
    """A seeded sanity check (the benchmark measures it properly): medium wins most matches."""
    rules = Rules.preset("block")
    wins = 0
    for number in range(30):
        rng = random.Random(number)
        game = Match.new(rules, 2, rng, number % 2)
        players: list[Player] = [Medium(), Easy()] if number % 2 else [Easy(), Medium()]
        while not game.is_over:
            if game.round.is_over:
                game = game.deal_next(rng)
                continue
            seat = game.round.turn
            game = game.apply(players[seat].choose(game.observe(seat), rng))
        wins += players[game.winner or 0].level == "medium"
    assert wins >= 18

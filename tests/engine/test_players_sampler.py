"""Worlds sampled for the ``hard`` player agree with everything its seat has seen."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from engine import ALL_TILES, PRESETS, Boneyard, Drew, Match, Observation, Passed, Played, Rules, Tile
from engine.players.sampler import (
    Evidence,
    PlayModel,
    World,
    beliefs_of,
    determinize,
    ends_mask,
    likelihood,
    opened_numbers,
    play_evidence,
    sample_world,
)
from engine.players.sim import BIT, FULL_MASK, INDEX, mask_of
from engine.rules import ANCHORS

CASES = [(preset, seats) for preset, rules in PRESETS.items() for seats in range(rules.min_seats, rules.max_seats + 1)]


def random_position(rules: Rules, seats: int, rng: random.Random, plays: int) -> Match | None:
    """A match after up to ``plays`` random moves, with a seat to play (None if the round ended)."""
    game = Match.new(rules, seats, rng, None if rules.forced_lead else rng.randrange(seats))
    for _ in range(plays):
        if game.round.is_over:
            return None
        game = game.apply(rng.choice(game.round.legal_moves()))
    return None if game.round.is_over else game


def _holds_any(hand: tuple[Tile, ...], numbers: tuple[int, ...]) -> bool:
    return any(tile.high in numbers or tile.low in numbers for tile in hand)


def check_world(seen: Observation, world: World) -> None:
    table = seen.table
    assert world.hands[seen.seat] == seen.hand
    assert [len(hand) for hand in world.hands] == list(table.hand_sizes)
    assert len(world.boneyard) == table.boneyard_count
    everything = [tile for hand in world.hands for tile in hand] + list(world.boneyard) + table.line.tiles()
    assert sorted(everything) == sorted(ALL_TILES)
    for seat in range(table.seats):
        if seat == seen.seat:
            continue
        own = [event for event in table.history if event.seat == seat]
        if table.rules.boneyard is Boneyard.NONE:
            # Nobody ever draws: a number a seat once passed on is gone from its hand for good.
            for event in own:
                if type(event) is Passed:
                    assert not _holds_any(world.hands[seat], event.ends), (event, world.hands[seat])
        no_plays = [index for index, event in enumerate(own) if type(event) in (Drew, Passed)]
        if no_plays:
            last = no_plays[-1]
            tail = own[last:]
            # After its latest draw or pass (and the drawn tile it played at once, if any) the seat
            # holds none of those ends' numbers; a seat about to play its drawn tile is the exception.
            latest = own[last]
            assert isinstance(latest, (Drew, Passed))
            if not (type(tail[-1]) is Drew and table.turn == seat):
                assert not _holds_any(world.hands[seat], latest.ends), (latest, world.hands[seat])


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_worlds_fit_what_the_seat_saw(preset: str, seats: int) -> None:
    rng = random.Random(f"worlds {preset} {seats}")
    rules = Rules.preset(preset)
    checked = 0
    while checked < 60:
        game = random_position(rules, seats, rng, rng.randrange(0, 24))
        if game is None:
            continue
        seen = game.observe(game.round.turn)
        beliefs = beliefs_of(seen, rng)
        for _ in range(10):
            world = sample_world(seen, rng, beliefs)
            check_world(seen, world)
            state = determinize(seen, world)
            # The determinized round is a real position: the same legal moves, and it plays on.
            assert state.legal_moves() == seen.legal_moves()
            assert state.drawable == seen.table.drawable
            state.apply(state.legal_moves()[0])
        checked += 1


def test_the_same_seed_gives_the_same_world() -> None:
    rng = random.Random(4)
    game = random_position(Rules.preset("draw"), 3, rng, 9)
    assert game is not None
    seen = game.observe(game.round.turn)
    assert sample_world(seen, random.Random(12)) == sample_world(seen, random.Random(12))


def test_a_forced_lead_shows_which_doubles_were_not_dealt() -> None:
    rules = Rules.preset("classic")
    rng = random.Random(0)
    found = 0
    while found < 20:
        game = Match.new(rules, 2, rng)
        lead = game.round.forced
        if lead is None or lead == Tile(1, 1) or not lead.is_double:
            continue
        game = game.apply(game.round.legal_moves()[0])
        if game.round.is_over or any(type(event) is Drew for event in game.round.events):
            continue
        seen = game.observe(game.round.turn)
        for _ in range(20):
            world = sample_world(seen, rng)
            other = world.hands[1 - seen.seat]
            # The 1-1 leads if dealt, so a round led with another double had it in the boneyard.
            assert Tile(1, 1) not in other
        found += 1


def test_unconstrained_tiles_spread_evenly() -> None:
    rules = Rules.preset("draw")
    game = Match.new(rules, 2, random.Random(3), first=0)
    seen = game.observe(0)
    rng = random.Random(9)
    held = Counter[Tile]()
    worlds = 3000
    for _ in range(worlds):
        held.update(sample_world(seen, rng).hands[1])
    unseen = [tile for tile in ALL_TILES if tile not in seen.hand]
    expected = worlds * 7 / len(unseen)
    for tile in unseen:
        assert abs(held[tile] - expected) < 0.12 * expected, (tile, held[tile], expected)


def test_a_pass_in_block_rules_out_its_numbers() -> None:
    rng = random.Random(21)
    rules = Rules.preset("block")
    seen_passes = 0
    while seen_passes < 30:
        game = random_position(rules, 2, rng, rng.randrange(4, 14))
        if game is None:
            continue
        seen = game.observe(game.round.turn)
        passes = [event for event in seen.table.history if type(event) is Passed and event.seat != seen.seat]
        if not passes or not any(type(e) is Played for e in seen.table.history):
            continue
        for _ in range(10):
            world = sample_world(seen, rng)
            for event in passes:
                assert not _holds_any(world.hands[event.seat], event.ends)
        seen_passes += 1


def test_a_world_where_the_play_was_the_only_choice_explains_it_better() -> None:
    rules = ANCHORS["block-2x7"]
    game = Match.new(rules, 2, random.Random(4), 0)
    lead = game.round.legal_moves()[0]
    game = game.apply(lead)
    reply = game.round.legal_moves()[0]
    game = game.apply(reply)
    evidence = play_evidence(game.observe(0))
    assert [(item.seat, item.tile) for item in evidence] == [(1, INDEX[reply.tile])]
    fitting = [tile for tile in ALL_TILES if tile.has(lead.tile.high) or tile.has(lead.tile.low)]
    others = [tile for tile in fitting if tile not in (lead.tile, reply.tile)][:2]
    alone = [0, 0]
    crowded = [0, mask_of(others)]
    assert likelihood(evidence, alone, 1.0) == 1.0
    assert likelihood(evidence, crowded, 1.0) == pytest.approx(1 / 3)
    assert likelihood(evidence, crowded, 0.0) == 1.0
    heavy = likelihood(evidence, crowded, 1.0, heavy=2.0)
    assert heavy == pytest.approx(
        (1 + 2 * reply.tile.pips / 12) / sum(1 + 2 * tile.pips / 12 for tile in [reply.tile, *others])
    )
    sharper = likelihood(evidence, crowded, 1.0, models=(PlayModel(pips=2.0), PlayModel()))
    assert sharper == pytest.approx(
        math.exp(2 * reply.tile.pips / 12) / sum(math.exp(2 * tile.pips / 12) for tile in [reply.tile, *others])
    )


def test_a_play_that_keeps_the_seat_able_to_follow_its_own_number_is_likelier() -> None:
    """Ends 6 and 1; the other seat played 6-3. A world where it still holds two 3s explains that play
    better than one where it held two tiles that fitted but opened numbers it no longer held."""
    fitting = ends_mask((6, 1))
    played = INDEX[Tile(6, 3)]
    evidence = (Evidence(1, played, fitting, BIT[played], opened_numbers((6, 1), fitting), False),)
    keeping = [0, mask_of([Tile(6, 5), Tile(3, 3), Tile(3, 2)])]  # 6-5 fitted too; 3-3 and 3-2 follow the 3
    stranded = [0, mask_of([Tile(6, 5), Tile(5, 5), Tile(5, 2)])]  # 6-5 would have kept the 5s
    follower = (PlayModel(keeps=4.5), PlayModel())
    assert likelihood(evidence, keeping, 1.0) == likelihood(evidence, stranded, 1.0) == pytest.approx(1 / 2)
    assert likelihood(evidence, keeping, 1.0, models=follower) > 1 / 2
    assert likelihood(evidence, stranded, 1.0, models=follower) < 1 / 2


def test_a_lead_of_the_leaders_choice_is_evidence_a_forced_lead_is_not() -> None:
    free = Match.new(ANCHORS["block-2x7"], 2, random.Random(4), 0)
    lead = free.round.legal_moves()[0]
    free = free.apply(lead)
    assert play_evidence(free.observe(1)) == ()  # unless asked for
    (item,) = play_evidence(free.observe(1), leads=True)
    assert (item.seat, item.tile, item.lead, item.fitting) == (0, INDEX[lead.tile], True, FULL_MASK)
    heavy_leader = (PlayModel(), PlayModel(pips=4.0))
    light = [mask_of([Tile(0, 0), Tile(1, 0)]), 0]
    heavy = [mask_of([Tile(6, 6), Tile(6, 5)]), 0]
    assert likelihood((item,), light, 1.0, models=heavy_leader) > likelihood((item,), heavy, 1.0, models=heavy_leader)

    forced = Match.new(ANCHORS["block-4x7"], 4, random.Random(4))
    forced = forced.apply(forced.round.legal_moves()[0])
    assert play_evidence(forced.observe(forced.round.turn), leads=True) == ()


def test_no_evidence_where_hands_change_by_drawing() -> None:
    game = Match.new(Rules.preset("draw"), 2, random.Random(4), 0)
    for _ in range(4):
        game = game.apply(game.round.legal_moves()[0])
    assert play_evidence(game.observe(game.round.turn)) == ()

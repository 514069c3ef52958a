"""A hint is the hard player's own legal move, never sees a hidden tile, and its reason holds."""

from __future__ import annotations

import random

import pytest

from engine import PRESETS, Match, Move, Rules, Tile, read_record, replay, write_record
from engine.hints import HEAVY_DOUBLE, Reason, as_offered, explain, hint
from engine.line import EMPTY_LINE, End
from engine.players import Hard
from engine.players.base import missing_numbers
from tests.engine.test_players_nopeek import CASES, hidden_variant
from tests.kit.positions import random_position

POSITIONS = 4


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_a_hint_is_the_hard_players_legal_move_and_its_reason_holds(preset: str, seats: int) -> None:
    rng = random.Random(f"hint:{preset}:{seats}")
    for _ in range(POSITIONS):
        game = random_position(Rules.preset(preset), seats, rng)
        observation = game.observe(game.round.turn)
        seed = rng.randrange(1 << 30)
        given = hint(observation, random.Random(seed))
        assert given.move == as_offered(observation, Hard().choose(observation, random.Random(seed)))
        game.round.check(given.move)  # raises if it is not legal
        if given.move.end is not None:  # the end named is one the hand's buttons offer
            assert given.move.end in game.round.distinct_ends(given.move.tile)
        _assert_reason_holds(game, given.move, given.reason, given.points, given.number)


def _assert_reason_holds(game: Match, move: Move, reason: Reason, points: int, number: int | None) -> None:
    state = game.round
    after = game.apply(move).rounds[len(game.rounds) - 1]
    seat = state.turn
    if reason is Reason.ONLY:
        assert len({m.tile for m in state.legal_moves()}) == 1
    elif reason is Reason.DOMINO:
        assert len(state.hands[seat]) == 1
    elif reason is Reason.SCORES:
        assert after.fives[seat] - state.fives[seat] == points > 0
    elif reason is Reason.BLOCKS:
        lacks = missing_numbers(game.observe(seat))[(seat + 1) % state.seats]
        assert number in lacks and all(value in lacks for value in after.line.end_values())
    elif reason is Reason.DOUBLE:
        assert move.tile.is_double and move.tile.high >= HEAVY_DOUBLE
    elif reason is Reason.LONG:
        assert number in after.line.end_values()
        rest = [tile for tile in state.hands[seat] if tile != move.tile]
        assert sum(1 for tile in rest if number in tile) >= 3


@pytest.mark.parametrize(("preset", "seats"), [case for case in CASES if case[1] in (2, 4)])
def test_a_hint_never_sees_a_hidden_tile(preset: str, seats: int) -> None:
    """Two records that differ only where the seat cannot see give the same hint, word for word."""
    rng = random.Random(f"hint-twins:{preset}:{seats}")
    compared = 0
    for _ in range(30):
        game = random_position(Rules.preset(preset), seats, rng)
        seat = game.round.turn
        record = write_record(game)
        variant = hidden_variant(record, seat, rng)
        if variant is None:
            continue
        twin = replay(read_record(variant))
        seed = rng.randrange(1 << 30)
        assert hint(game.observe(seat), random.Random(seed)) == hint(twin.observe(seat), random.Random(seed))
        compared += 1
        if compared == 2:
            break
    assert compared >= 1


def test_the_reasons_people_are_given() -> None:
    rules = Rules.preset("fives")
    game = Match.new(rules, 2, random.Random(4), first=0)
    observation = game.observe(0)
    line = EMPTY_LINE.place(Tile(5, 5), None, spinner=True)
    table = observation.table._replace(line=line, history=())
    # [5|0] on the 5|5 spinner: the ends add up to 10 + 0 = 10.
    scoring = observation._replace(table=table, hand=(Tile(5, 0), Tile(6, 1), Tile(2, 1)), forced=None)
    assert explain(scoring, Move(Tile(5, 0), End.LEFT)).reason is Reason.SCORES
    assert explain(scoring, Move(Tile(5, 0), End.LEFT)).points == 10
    last = observation._replace(table=table, hand=(Tile(5, 1),), forced=None)
    assert explain(last, Move(Tile(5, 1), End.LEFT)).reason is Reason.DOMINO  # two ends to choose: not "only"
    block = PRESETS["block"]
    game = Match.new(block, 2, random.Random(4), first=0)
    observation = game.observe(0)
    line = EMPTY_LINE.place(Tile(6, 3), None, spinner=False)
    table = observation.table._replace(line=line, history=())
    hand = (Tile(6, 6), Tile(3, 2), Tile(2, 2), Tile(2, 1), Tile(2, 0), Tile(1, 0))
    doubles = observation._replace(table=table, hand=hand, forced=None)
    assert explain(doubles, Move(Tile(6, 6), End.LEFT)).reason is Reason.DOUBLE
    long = explain(doubles, Move(Tile(3, 2), End.RIGHT))
    assert long.reason is Reason.LONG and long.number == 2  # [2|2], [2|1], [2|0] are left


def test_a_hint_names_the_side_of_a_lone_double_a_person_is_offered() -> None:
    """[5|2] on a lone [2|2] makes the same game on either side, so the hand offers no choice (the
    left side is taken): a hint for the right side would name a button that is not there."""
    block = PRESETS["block"]
    observation = Match.new(block, 2, random.Random(4), first=0).observe(0)
    line = EMPTY_LINE.place(Tile(2, 2), None, spinner=False)
    lone_double = observation._replace(
        table=observation.table._replace(line=line, history=()), hand=(Tile(5, 2), Tile(6, 6)), forced=None
    )
    assert as_offered(lone_double, Move(Tile(5, 2), End.RIGHT)) == Move(Tile(5, 2), End.LEFT)
    assert as_offered(lone_double, Move(Tile(5, 2), End.LEFT)) == Move(Tile(5, 2), End.LEFT)
    assert as_offered(lone_double, Move(Tile(5, 2))) == Move(Tile(5, 2))

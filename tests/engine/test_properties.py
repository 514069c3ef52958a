"""Properties of random games: every preset, every seat count it allows, random legal moves.

Hypothesis draws the shuffle-and-move seed; each example plays a whole game (every
round of a match) with moves picked at random among ``legal_moves()`` and checks one
invariant after every move.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    ALL_TILES,
    ENDS,
    PRESETS,
    Drew,
    End,
    Line,
    Match,
    Move,
    Passed,
    Played,
    RoundEnd,
    RoundState,
    Rules,
    SpinnerAt,
    Tile,
    loads,
    read_record,
    replay,
    summary,
    tile_of,
    write_record,
)

GAMES = [(preset, seats) for preset, rules in PRESETS.items() for seats in range(rules.min_seats, rules.max_seats + 1)]
GAME_IDS = [f"{preset}-{seats}" for preset, seats in GAMES]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
EXAMPLES = settings(max_examples=45, deadline=None)


class Step(NamedTuple):
    before: Match
    move: Move
    after: Match

    @property
    def new_events(self) -> tuple[Any, ...]:
        return self.after.round.events[len(self.before.round.events) :]


@functools.lru_cache(maxsize=64)
def random_game(preset: str, seats: int, seed: int) -> tuple[Step, ...]:
    """Every move of one whole game with random legal moves (new rounds dealt as needed)."""
    rng = random.Random(seed)
    game = Match.new(Rules.preset(preset), seats, rng)
    steps: list[Step] = []
    while True:
        if game.round.is_over:
            if game.is_over:
                return tuple(steps)
            game = game.deal_next(rng)
        choice = rng.choice(game.round.legal_moves())
        after = game.apply(choice, seat=game.round.turn)
        steps.append(Step(game, choice, after))
        game = after


def rounds_seen(steps: tuple[Step, ...]) -> Iterator[RoundState]:
    """Each round as dealt, then after every move."""
    for step in steps:
        if step.before.round.line.is_empty:
            yield step.before.round
        yield step.after.round


# --- the set --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "seats"), GAMES, ids=GAME_IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_every_tile_is_in_exactly_one_place_at_every_step(preset: str, seats: int, seed: int) -> None:
    for state in rounds_seen(random_game(preset, seats, seed)):
        everywhere = [t for hand in state.hands for t in hand] + list(state.boneyard) + state.line.tiles()
        assert Counter(everywhere) == Counter(ALL_TILES)


# --- the line ---------------------------------------------------------------------------------------


def spinner_tile(line: Line) -> Tile | None:
    at = line.spinner
    if at is None:
        return None
    if at.arm is None:
        return line.lead
    return line.arm(at.arm)[at.position].tile


def check_line(line: Line, rules: Rules, plays: list[Played]) -> None:
    lead = line.lead
    if lead is None:
        assert line == Line(None, ((), (), (), ()), None, (None, None, None, None))
        return
    spinner = spinner_tile(line)
    anchors = {End.LEFT: lead.high, End.RIGHT: lead.low, End.UP: None, End.DOWN: None}
    if spinner is not None:
        anchors[End.UP] = anchors[End.DOWN] = spinner.high
    for index, end in enumerate(ENDS):
        arm = line.arm(end)
        showing = anchors[end]
        for placed in arm:
            assert placed.inner == showing, f"{placed} does not match {showing} on the {end} arm"
            assert placed.tile == tile_of(placed.inner, placed.outer)
            showing = placed.outer
        if end in (End.UP, End.DOWN) and line.ends[index] is None:
            assert arm == ()
        else:
            assert line.ends[index] == showing
    if not rules.spinner:
        assert line.spinner is None
        assert line.ends[2:] == (None, None)
        return
    doubles = [played.tile for played in plays if played.tile.is_double]
    assert spinner == (doubles[0] if doubles else None), "the spinner is the first double played"
    if spinner is not None:
        at = line.spinner
        assert isinstance(at, SpinnerAt)
        if at.arm is None:
            covered = bool(line.arm(End.LEFT)) and bool(line.arm(End.RIGHT))
        else:
            covered = len(line.arm(at.arm)) > at.position + 1
        assert (line.ends[2] is not None) == covered
        assert (line.ends[3] is not None) == covered


@pytest.mark.parametrize(("preset", "seats"), GAMES, ids=GAME_IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_adjacent_halves_match_along_every_arm(preset: str, seats: int, seed: int) -> None:
    for state in rounds_seen(random_game(preset, seats, seed)):
        check_line(state.line, state.rules, state.plays())


# --- turns, draws and passes ---------------------------------------------------------------------------


def fits(tile: Tile, line: Line) -> bool:
    return bool(line.ends_for(tile))


def check_step(step: Step) -> None:
    before, after = step.before.round, step.after.round
    seats = before.seats
    events = step.new_events
    played = events[0]
    assert isinstance(played, Played)
    assert (played.seat, played.tile) == (before.turn, step.move.tile), "only the seat to play plays"
    if after.end is RoundEnd.DOMINO:
        assert events == (played,)
        assert after.hands[played.seat] == ()
        return
    line = after.line  # nobody plays while the turn moves on, so the ends stay as they are
    values = line.end_values()
    boneyard = list(before.boneyard)
    seat = played.seat
    index = 1
    passed_any = False
    while True:
        seat = (seat + 1) % seats
        group = []
        while index < len(events) and events[index].seat == seat and not isinstance(events[index], Played):
            group.append(events[index])
            index += 1
        drew = [event for event in group if isinstance(event, Drew)]
        passed = [event for event in group if isinstance(event, Passed)]
        assert len(drew) <= 1 and len(passed) <= 1 and group == drew + passed
        if drew:
            (draw,) = drew
            assert draw.ends == values
            assert draw.number == len(draw.tiles) > 0
            assert list(draw.tiles) == boneyard[: draw.number], "draws come off the top of the boneyard"
            del boneyard[: draw.number]
            assert not any(fits(t, line) for t in draw.tiles[:-1]), "drawing stops at the first playable tile"
            assert not passed_any, "nobody draws after a seat passed for want of tiles"
        if passed:
            assert passed[0].ends == values
            # A pass: nothing in hand fits and nothing may be drawn any more.
            assert not any(fits(t, line) for t in after.hands[seat])
            assert len(boneyard) <= after.rules.reserve or not after.rules.draws
            passed_any = True
            if after.end is RoundEnd.FISH and index == len(events):
                break
            continue
        # The first seat that did not pass has the turn, with something to play.
        assert index == len(events)
        assert after.end is None
        assert after.turn == seat
        assert after.legal_moves()
        if drew:
            assert fits(drew[0].tiles[-1], line)
        break
    assert tuple(boneyard) == after.boneyard
    assert len(after.boneyard) >= after.rules.reserve, "the reserve is never drawn"


@pytest.mark.parametrize(("preset", "seats"), GAMES, ids=GAME_IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_turn_passes_in_seat_order_with_draws_and_passes_only_when_forced(preset: str, seats: int, seed: int) -> None:
    for step in random_game(preset, seats, seed):
        check_step(step)


# --- the end of a round ---------------------------------------------------------------------------------


def passes_since_last_play(events: tuple[Any, ...]) -> int:
    count = 0
    for event in reversed(events):
        if isinstance(event, Played):
            break
        if isinstance(event, Passed):
            count += 1
    return count


@pytest.mark.parametrize(("preset", "seats"), GAMES, ids=GAME_IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_round_ends_exactly_on_a_domino_or_after_every_seat_passed(preset: str, seats: int, seed: int) -> None:
    for state in rounds_seen(random_game(preset, seats, seed)):
        passes = passes_since_last_play(state.events)
        assert state.passes == passes
        if state.end is RoundEnd.DOMINO:
            assert isinstance(state.events[-1], Played)
            assert state.hands[state.events[-1].seat] == ()
        elif state.end is RoundEnd.FISH:
            assert passes == state.seats
        else:
            assert passes < state.seats
            assert all(state.hands)


@pytest.mark.parametrize(("preset", "seats"), GAMES, ids=GAME_IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_scores_are_never_negative(preset: str, seats: int, seed: int) -> None:
    previous = (0,) * seats
    for step in random_game(preset, seats, seed):
        scores = step.after.scores
        assert all(score >= 0 for score in scores)
        assert all(now >= then for now, then in zip(scores, previous, strict=True)), "points are never taken away"
        previous = scores
        outcome = step.after.round.outcome()
        if outcome is not None:
            assert all(points >= 0 for points in outcome.points)
            assert all(points >= 0 for points in outcome.fives)


def open_ends_count(line: Line) -> int:
    """RULES.md's count, written from the rule: each open end's number, a double at an end twice;
    a lone lead is its pips; a spinner nobody has played on at a side counts both halves there;
    up and down count only once played on."""
    lead = line.lead
    assert lead is not None
    left, right = line.arm(End.LEFT), line.arm(End.RIGHT)
    if not left and not right:
        return lead.pips
    total = 0
    for arm, lead_half in ((left, lead.high), (right, lead.low), (line.arm(End.UP), 0), (line.arm(End.DOWN), 0)):
        if arm:
            total += arm[-1].outer * (2 if arm[-1].tile.is_double else 1)
        else:
            total += lead_half * (2 if lead.is_double else 1)
    return total


@pytest.mark.parametrize(("preset", "seats"), GAMES, ids=GAME_IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_fives_scores_the_open_ends_when_they_make_a_positive_multiple_of_five(
    preset: str, seats: int, seed: int
) -> None:
    for step in random_game(preset, seats, seed):
        played = step.new_events[0]
        if not step.after.rules.spinner:
            assert played.scored == 0
            continue
        count = open_ends_count(step.after.round.line)
        assert played.scored == (count if count > 0 and count % 5 == 0 else 0)


@pytest.mark.parametrize(("preset", "seats"), GAMES, ids=GAME_IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_points_scored_during_play_add_up_to_each_seats_fives(preset: str, seats: int, seed: int) -> None:
    for state in rounds_seen(random_game(preset, seats, seed)):
        totals = [0] * state.seats
        for played in state.plays():
            totals[played.seat] += played.scored
        assert tuple(totals) == state.fives


# --- records -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "seats"), GAMES, ids=GAME_IDS)
@EXAMPLES
@given(seed=SEEDS, cut=st.floats(min_value=0, max_value=1))
def test_written_record_replays_to_the_same_game(preset: str, seats: int, seed: int, cut: float) -> None:
    steps = random_game(preset, seats, seed)
    finished = steps[-1].after
    in_progress = steps[int(cut * (len(steps) - 1))].after  # a game stopped after any move
    for game in (finished, in_progress):
        data = write_record(game)
        again = replay(read_record(data))
        assert again == game
        assert summary(again) == summary(game)
        assert replay(loads(json.dumps(data))) == game


# --- hidden information ----------------------------------------------------------------------------------


def tiles_inside(value: object) -> Iterator[Tile]:
    """Every tile reachable from ``value`` through tuples, lists and dicts (rules are plain data)."""
    if isinstance(value, Tile):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from tiles_inside(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from tiles_inside(item)


@pytest.mark.parametrize(("preset", "seats"), GAMES, ids=GAME_IDS)
@EXAMPLES
@given(seed=SEEDS)
def test_observation_never_shows_another_seats_tile(preset: str, seats: int, seed: int) -> None:
    for step in random_game(preset, seats, seed):
        game = step.after
        state = game.round
        on_table = set(state.line.tiles())
        for seat in range(seats):
            seen = game.observe(seat)
            assert Counter(seen.hand) == Counter(state.hands[seat])  # the same tiles, in any order
            others = {t for other, hand in enumerate(state.hands) if other != seat for t in hand}
            assert others.isdisjoint(seen.hand)
            assert all(event.tiles == () for event in seen.table.history if isinstance(event, Drew))
            assert set(tiles_inside(tuple(seen))) <= set(seen.hand) | on_table
            assert seen.table.hand_sizes == tuple(len(hand) for hand in state.hands)
            assert seen.table.boneyard_count == len(state.boneyard)
            expected = state.legal_moves() if seat == state.turn else []
            assert Counter(seen.legal_moves()) == Counter(expected)
        assert set(tiles_inside(tuple(game.table()))) <= on_table

"""No peeking: records that differ only in what the seat cannot see get the same move.

For random positions of every preset and seat count, the deal of the round
under way is changed where the seat to play cannot see it: two of its hidden
tiles (in other hands or in the boneyard, never played, never drawn by the
seat) trade places, and the boneyard tiles nobody has drawn are reordered. A
variant counts when the replayed record shows that seat exactly what the
original shows it; then every level, asked through ``engine.suggest`` with the
same seed, must give the same answer.
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any

import pytest

from engine import PRESETS, RecordError, Rules, Tile, read_record, replay, write_record
from engine.players import LEVELS
from engine.suggest import answer
from tests.kit.positions import random_position

POSITIONS = int(os.environ.get("NOPEEK_POSITIONS", "12"))
"""Positions per preset and seat count (``hard`` is asked at a third of them: it takes ~50 ms a move)."""

CASES = [(preset, seats) for preset, rules in PRESETS.items() for seats in range(rules.min_seats, rules.max_seats + 1)]


def hidden_variant(record: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any] | None:
    """The record with the last round's deal changed where ``seat`` cannot see it (None if that
    changed what the seat sees, or made the record unplayable)."""
    original = replay(read_record(record))
    state = original.round
    played = {event.tile for event in state.plays()}
    mine = set(state.deal_.hands[seat]) | set(state.hands[seat])
    variant = copy.deepcopy(record)
    deal = variant["rounds"][-1]
    places: list[tuple[list[str], int]] = [
        (hand, index) for other, hand in enumerate(deal["hands"]) if other != seat for index in range(len(hand))
    ]
    drawn = len(state.deal_.boneyard) - len(state.boneyard)
    places += [(deal["boneyard"], index) for index in range(drawn, len(deal["boneyard"]))]
    hidden = [(where, index) for where, index in places if Tile.parse(where[index]) not in played | mine]
    if len(hidden) < 2:
        return None
    (first, i), (second, j) = rng.sample(hidden, 2)
    first[i], second[j] = second[j], first[i]
    tail = deal["boneyard"][drawn:]
    rng.shuffle(tail)
    deal["boneyard"][drawn:] = tail
    try:
        changed = replay(read_record(variant))
    except RecordError:
        return None
    if changed.observe(seat) != original.observe(seat) or variant == record:
        return None
    return variant


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_hidden_tiles_do_not_change_the_move(preset: str, seats: int) -> None:
    rng = random.Random(f"no peeking {preset} {seats}")
    rules = Rules.preset(preset)
    compared = 0
    attempts = 0
    while compared < POSITIONS and attempts < POSITIONS * 20:
        attempts += 1
        game = random_position(rules, seats, rng)
        seat = game.round.turn
        record = write_record(game)
        variant = hidden_variant(record, seat, rng)
        if variant is None:
            continue
        levels = LEVELS if compared % 3 == 0 else ("easy", "medium")
        for level in levels:
            seed = rng.randrange(10**6)
            asked = {"record": record, "seat": seat, "level": level, "seed": seed}
            reply = answer(asked)
            assert "error" not in reply, reply
            assert answer({**asked, "record": variant}) == reply, (level, record, variant)
        compared += 1
    assert compared == POSITIONS, f"only {compared} variants in {attempts} attempts"

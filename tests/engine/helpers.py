"""Small builders for scripted deals, so that a test reads like the position it sets up.

Tiles are written as in records (``"6-5"``), hands as one string per seat
(``"6-6 5-4 3-1"``) and plays as ``"seat: tile [end]"``:

>>> state = start("block", ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 5-4 5-3 5-2 5-1 5-0 4-4"], first=0)
>>> state = play(state, "0: 6-6")
>>> state.turn, state.events[-1]
(0, Passed(seat=1, ends=(6, 6)))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import (
    ALL_TILES,
    End,
    Match,
    Move,
    Outcome,
    RoundState,
    Rules,
    Tile,
    read_record,
    replay,
    summary,
)


def ended(state: RoundState) -> Outcome:
    """The outcome of a round that must be over."""
    outcome = state.outcome()
    assert outcome is not None, "the round is still being played"
    return outcome


def tile(text: str) -> Tile:
    return Tile.parse(text)


def tiles(text: str) -> tuple[Tile, ...]:
    """``"6-6 5-4"`` -> (Tile(6, 6), Tile(5, 4)); an empty string is no tiles."""
    return tuple(Tile.parse(word) for word in text.split())


def move(text: str) -> Move:
    """``"6-5"`` or ``"6-5 right"``."""
    words = text.split()
    return Move(Tile.parse(words[0]), End(words[1]) if len(words) > 1 else None)


def undealt(hands: Sequence[str]) -> str:
    """The tiles no hand holds, in set order (6-6, 6-5, ..., 0-0): a boneyard for deals that never draw."""
    dealt = {t for hand in hands for t in tiles(hand)}
    return " ".join(str(t) for t in ALL_TILES if t not in dealt)


def start(preset: str, hands: Sequence[str], boneyard: str | None = None, first: int | None = None) -> RoundState:
    """A round of ``preset`` from explicit hands; ``boneyard`` (first drawn first) defaults to :func:`undealt`."""
    if boneyard is None:
        boneyard = undealt(hands)
    return RoundState.start(Rules.preset(preset), [tiles(hand) for hand in hands], tiles(boneyard), first)


def match_from(preset: str, hands: Sequence[str], boneyard: str | None = None, first: int | None = None) -> Match:
    if boneyard is None:
        boneyard = undealt(hands)
    return Match.from_deal(Rules.preset(preset), [tiles(hand) for hand in hands], tiles(boneyard), first)


def _seat_and_move(text: str) -> tuple[int, Move]:
    seat, _, rest = text.partition(":")
    return int(seat), move(rest)


def play(state: RoundState, *plays: str) -> RoundState:
    """Apply ``"seat: tile [end]"`` plays in order; the seat is checked like a record's."""
    for text in plays:
        seat, chosen = _seat_and_move(text)
        state = state.apply(chosen, seat=seat)
    return state


def play_match(game: Match, *plays: str) -> Match:
    for text in plays:
        seat, chosen = _seat_and_move(text)
        game = game.apply(chosen, seat=seat)
    return game


def round_record(
    hands: Sequence[str], plays: Sequence[str], boneyard: str | None = None, first: int | None = None
) -> dict[str, Any]:
    """One round of a record; plays are ``"seat: tile [end]"`` strings."""
    if boneyard is None:
        boneyard = undealt(hands)
    data: dict[str, Any] = {
        "hands": [hand.split() for hand in hands],
        "boneyard": boneyard.split(),
        "plays": [],
    }
    if first is not None:
        data["first"] = first
    for text in plays:
        seat, chosen = _seat_and_move(text)
        entry: dict[str, Any] = {"seat": seat, "tile": str(chosen.tile)}
        if chosen.end is not None:
            entry["end"] = chosen.end.value
        data["plays"].append(entry)
    return data


def record(preset: str, *rounds: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "dominoes-record/1",
        "preset": preset,
        "seats": len(rounds[0]["hands"]),
        "rounds": list(rounds),
    }


def replayed(preset: str, *rounds: dict[str, Any]) -> Match:
    return replay(read_record(record(preset, *rounds)))


def summarized(preset: str, *rounds: dict[str, Any]) -> dict[str, Any]:
    return summary(replayed(preset, *rounds))


# The line that puts all seven 6-tiles down with 6 showing on both ends, S0 leading 6-6
# (the worked examples' line). S0 plays 6-6 5-4 6-3 6-2 1-0, S1 plays 6-5 6-4 3-2 6-1 6-0.
# Ends after each play: 6/6, 6/5, 6/4, 6/6, 3/6, 2/6, 6/6, 1/6, 0/6, 6/6. Nobody can play on it
# again, so whatever is left is drawn (where the preset draws) and the round is a fish.
SIXES_OUT = (
    "0: 6-6",
    "1: 6-5 right",
    "0: 5-4",
    "1: 6-4 right",
    "0: 6-3 left",
    "1: 3-2",
    "0: 6-2 left",
    "1: 6-1 left",
    "0: 1-0",
    "1: 6-0 left",
)

# S0 leads 6-6 and plays a chain on the right end while the left end stays 6; S0's 4-4, its 7th
# tile, is a domino. S1 keeps 5-3 (8 pips). Right end after each play: 6 5 4 3 2 1 1 0 0 2 2 4.
CHAIN_FROM_6_6 = ["6-6 5-4 3-2 1-1 0-0 2-2 4-4", "6-5 4-3 2-1 1-0 2-0 4-2 5-3"]
CHAIN_FROM_6_6_PLAYS = (
    "0: 6-6",
    "1: 6-5 right",
    "0: 5-4",
    "1: 4-3",
    "0: 3-2",
    "1: 2-1",
    "0: 1-1",
    "1: 1-0",
    "0: 0-0",
    "1: 2-0",
    "0: 2-2",
    "1: 4-2",
    "0: 4-4",
)

# The same kind of chain led by 1-1 (the classic starter), the left end staying 1. S1 keeps 5-5 (10).
CHAIN_FROM_1_1 = ["1-1 3-2 5-4 6-6 0-0 2-2 4-4", "2-1 4-3 6-5 6-0 2-0 4-2 5-5"]
CHAIN_FROM_1_1_PLAYS = (
    "0: 1-1",
    "1: 2-1 right",
    "0: 3-2",
    "1: 4-3",
    "0: 5-4",
    "1: 6-5",
    "0: 6-6",
    "1: 6-0",
    "0: 0-0",
    "1: 2-0",
    "0: 2-2",
    "1: 4-2",
    "0: 4-4",
)

# A fives line with all seven 6-tiles down: S0 leads 6-5 and plays the last tile, 6-6, on the left
# end (the first double, a spinner whose outer side is never played on). Ends and counts:
# 6-5 6/5 11; 5-4 6/4 10 (S1 +10); 4-3 6/3 9; 6-3 6/6 12; 6-4 4/6 10 (S0 +10); 4-2 2/6 8;
# 6-2 6/6 12; 6-1 1/6 7; 1-0 0/6 6; 6-0 6/6 12; 6-6 6/6 with the double at the end 12 + 6 = 18.
FIVES_FISH_PLAYS = (
    "0: 6-5",
    "1: 5-4",
    "0: 4-3",
    "1: 6-3 right",
    "0: 6-4 left",
    "1: 4-2",
    "0: 6-2 left",
    "1: 6-1 left",
    "0: 1-0",
    "1: 6-0 left",
    "0: 6-6 left",
)

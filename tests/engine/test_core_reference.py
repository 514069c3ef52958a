"""The engine's one core (engine/core.py) against a straightforward reference of the rules.

The public API and the search's simulator are both views of the core, so comparing them
with each other proves little. Here a plain, slow model written with tiles and lists (the
rules as the engine had them before the core: place a tile, open the spinner, count the
ends for fives, draw until playable above the reserve, pass, the fish) plays the same
random games of every preset and seat count, and everything must agree move by move:
the hands in their order, the boneyard, the line, the turn, passes, fives, draws, the end,
the legal moves in their order and the events.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from engine import PRESETS, Drew, End, Move, Passed, Played, RoundEnd, RoundState, Rules
from engine.events import Event
from engine.rules import InPlay
from engine.tiles import Tile

CASES = [(preset, seats) for preset, rules in PRESETS.items() for seats in range(rules.min_seats, rules.max_seats + 1)]
ENDS = (End.LEFT, End.RIGHT, End.UP, End.DOWN)


@dataclass
class Reference:
    rules: Rules
    hands: list[list[Tile]]
    boneyard: list[Tile]
    turn: int
    forced: Tile | None
    lead: Tile | None = None
    arms: list[list[tuple[Tile, int]]] = field(default_factory=lambda: [[], [], [], []])  # (tile, outer)
    spinner: tuple[int, int] | None = None  # (arm or -1 for the lead, position)
    ends: list[int | None] = field(default_factory=lambda: [None, None, None, None])
    passes: int = 0
    fives: list[int] = field(default_factory=list)
    draws: list[int] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    end: RoundEnd | None = None

    def legal_moves(self) -> list[Move]:
        if self.end is not None:
            return []
        if self.lead is None:
            return [Move(self.forced)] if self.forced is not None else [Move(tile) for tile in self.hands[self.turn]]
        return [
            Move(tile, ENDS[index])
            for tile in self.hands[self.turn]
            for index, value in enumerate(self.ends)
            if value is not None and value in tile
        ]

    def count(self) -> int:
        if self.lead is None:
            return 0

        def at(index: int, half: int) -> int:
            arm = self.arms[index]
            if not arm:
                return 2 * half if self.lead is not None and self.lead.is_double else half
            tile, outer = arm[-1]
            return 2 * outer if tile.is_double else outer

        if not self.arms[0] and not self.arms[1]:
            total = self.lead.pips
        else:
            total = at(0, self.lead.high) + at(1, self.lead.low)
        for index in (2, 3):
            if self.arms[index]:
                tile, outer = self.arms[index][-1]
                total += 2 * outer if tile.is_double else outer
        return total

    def play(self, move: Move) -> None:
        seat, tile = self.turn, move.tile
        self.hands[seat].remove(tile)
        spinner_rule = self.rules.spinner
        if self.lead is None:
            self.lead, end = tile, None
            self.ends = [tile.high, tile.low, None, None]
            if spinner_rule and tile.is_double:
                self.spinner = (-1, 0)
        else:
            fitting = [i for i, value in enumerate(self.ends) if value is not None and value in tile]
            index = fitting[0] if move.end is None else ENDS.index(move.end)
            end = ENDS[index]
            value = self.ends[index]
            assert value is not None
            outer = tile.low if tile.high == value else tile.high
            self.arms[index].append((tile, outer))
            self.ends[index] = outer
            if spinner_rule and self.spinner is None and tile.is_double:
                self.spinner = (index, len(self.arms[index]) - 1)
            if self.spinner is not None and self.ends[2] is None:
                arm, position = self.spinner
                opens = (self.arms[0] and self.arms[1]) if arm == -1 else len(self.arms[arm]) > position + 1
                if opens:
                    self.ends[2] = self.ends[3] = self.lead.high if arm == -1 else self.arms[arm][position][0].high
        scored = 0
        if self.rules.in_play is InPlay.FIVES and self.count() and self.count() % 5 == 0:
            scored = self.count()
            self.fives[seat] += scored
        self.events.append(Played(seat, tile, end, scored))
        self.passes = 0
        if not self.hands[seat]:
            self.end = RoundEnd.DOMINO
            return
        seat = (seat + 1) % len(self.hands)
        values = tuple(value for value in self.ends if value is not None)

        def can_play(hand: list[Tile]) -> bool:
            return any(value in tile for tile in hand for value in values)

        while not can_play(self.hands[seat]):
            drawn: list[Tile] = []
            while self.rules.draws and len(self.boneyard) > self.rules.reserve:
                drawn.append(self.boneyard.pop(0))
                if can_play(drawn[-1:]):
                    break
            if drawn:
                self.hands[seat] += drawn
                self.draws[seat] += len(drawn)
                self.events.append(Drew(seat, len(drawn), values, tuple(drawn)))
                if can_play(drawn[-1:]):
                    break
            self.events.append(Passed(seat, values))
            self.passes += 1
            if self.passes >= len(self.hands):
                self.end = RoundEnd.FISH
                break
            seat = (seat + 1) % len(self.hands)
        self.turn = seat


def _check_same(state: RoundState, ref: Reference) -> None:
    assert state.hands == tuple(tuple(hand) for hand in ref.hands)
    assert state.boneyard == tuple(ref.boneyard)
    line = state.line
    assert line.lead == ref.lead
    assert [[(placed.tile, placed.outer) for placed in arm] for arm in line.arms] == ref.arms
    assert line.ends == tuple(ref.ends)
    assert (line.spinner is None) == (ref.spinner is None)
    assert line.fives_count() == ref.count()
    assert (state.turn, state.passes, state.end) == (ref.turn, ref.passes, ref.end)
    assert state.fives == tuple(ref.fives) and state.draws == tuple(ref.draws)
    assert state.events == tuple(ref.events)
    assert state.legal_moves() == ref.legal_moves()


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_the_core_plays_like_the_reference(preset: str, seats: int) -> None:
    rng = random.Random(f"reference {preset} {seats}")
    rules = Rules.preset(preset)
    for _ in range(60):
        state = RoundState.deal(rules, seats, rng)
        ref = Reference(
            rules,
            [list(hand) for hand in state.hands],
            list(state.boneyard),
            state.turn,
            state.forced,
            fives=[0] * seats,
            draws=[0] * seats,
        )
        while True:
            _check_same(state, ref)
            if state.is_over:
                break
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            if move.end is not None and rng.random() < 0.3 and len(state.line.ends_for(move.tile)) == 1:
                move = Move(move.tile)  # the end left out where only one fits
            state = state.apply(move)
            ref.play(move)


def test_an_earlier_state_reads_the_same_after_later_moves() -> None:
    """apply copies: the state it was applied to keeps its own core, which nothing changes afterwards."""
    rng = random.Random(3)
    state = RoundState.deal(Rules.preset("draw"), 2, rng, first=0)
    seen = []
    while not state.is_over:
        seen.append((state.hands, state.boneyard, state.turn, state.legal_moves()))
        state = state.apply(rng.choice(state.legal_moves()))
    earlier = state
    for expected in reversed(seen):
        assert earlier._parent is not None
        earlier = earlier._parent
        assert earlier._core is not None  # kept, not taken over by the state after it and rebuilt
        assert (earlier.hands, earlier.boneyard, earlier.turn, earlier.legal_moves()) == expected


def test_the_simulator_plays_on_a_copy_of_a_state() -> None:
    """to_core() is the simulator's start: playing it out in place leaves the state as it was."""
    state = RoundState.deal(Rules.preset("fives"), 3, random.Random(8))
    before = (state.hands, state.boneyard, state.line, state.turn, state.fives, state.draws, state.legal_moves())
    sim = state.to_core()
    while not sim.over:
        sim.play(sim.moves()[-1])
    assert (state.hands, state.boneyard, state.line, state.turn, state.fives, state.draws) == before[:-1]
    assert state.legal_moves() == before[-1] and not state.is_over


def test_a_move_is_known_by_its_value() -> None:
    """A move made anew (a record's, a tap's) plays as the equal one legal_moves() handed out."""
    rng = random.Random(11)
    state = RoundState.deal(Rules.preset("fives"), 2, rng, first=0)
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        anew = Move(Tile(*move.tile), None if move.end is None else End(move.end.value))
        assert anew is not move
        assert state.apply(anew) == state.apply(move)
        state = state.apply(anew)


def test_the_engine_keeps_no_reference_count_or_identity_tricks() -> None:
    """The public value copies; nothing in the engine asks how many refer to a state or which object a move is."""
    from pathlib import Path

    import engine

    folder = Path(engine.__file__).parent
    for path in [*folder.glob("*.py"), *folder.glob("players/*.py")]:
        text = path.read_text(encoding="utf-8")
        assert "getrefcount" not in text, path
        assert "id(move)" not in text, path
    core = (folder / "core.py").read_text(encoding="utf-8")
    assert "line: Any" not in core and "state: Any" not in core  # the core takes a line as numbers

"""A fast, mutable copy of the round rules for the search of the ``hard`` player.

:meth:`engine.state.RoundState.apply` is exact and immutable, and costs about
10 µs a move (new tuples, events, a new :class:`~engine.line.Line`). The search
plays hundreds of thousands of moves a second in sampled worlds, so it runs on
this compact model instead: tiles are numbers 0..27 (the order of
:data:`~engine.tiles.ALL_TILES`), a hand is a 28-bit mask, the line is four
open-end values plus what ``fives`` needs to count them. No events are kept.

It follows :mod:`engine.state` exactly (draw until playable, the untouchable
reserve, passes and the fish, the spinner and fives scoring, the round-end
points); ``tests/engine/test_players_sim.py`` plays thousands of random games
on both and compares them move by move.

>>> import random
>>> from engine.rules import Rules
>>> from engine.state import RoundState
>>> state = RoundState.deal(Rules.preset("fives"), 2, random.Random(4), first=0)
>>> sim = Sim.from_state(state)
>>> while not sim.over:
...     sim.play(sim.moves()[0])
>>> sim.result()[0] in ("domino", "fish")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.line import ENDS, End
from engine.players.base import without_mirror_images
from engine.rules import InPlay, Rules
from engine.state import Move, RoundState, find_starter, round_score
from engine.tiles import ALL_TILES, Tile

TILE_COUNT = len(ALL_TILES)
INDEX: dict[Tile, int] = {tile: index for index, tile in enumerate(ALL_TILES)}
HIGH: tuple[int, ...] = tuple(tile.high for tile in ALL_TILES)
LOW: tuple[int, ...] = tuple(tile.low for tile in ALL_TILES)
PIPS: tuple[int, ...] = tuple(tile.high + tile.low for tile in ALL_TILES)
DOUBLE: tuple[bool, ...] = tuple(tile.high == tile.low for tile in ALL_TILES)
BIT: tuple[int, ...] = tuple(1 << index for index in range(TILE_COUNT))
NUMBER_MASK: tuple[int, ...] = tuple(
    sum(BIT[index] for index, tile in enumerate(ALL_TILES) if number in (tile.high, tile.low)) for number in range(7)
)
"""``NUMBER_MASK[n]``: the tiles that show ``n`` on either half."""
FULL_MASK = (1 << TILE_COUNT) - 1

NOT_OVER, DOMINO, FISH = 0, 1, 2
LEAD = -1  # the "end" of a lead move

SimMove = tuple[int, int]
"""(tile index, end index 0..3, or LEAD)."""


def mask_of_indices(indices: Sequence[int]) -> int:
    mask = 0
    for index in indices:
        mask |= BIT[index]
    return mask


def mask_of(tiles: Sequence[Tile]) -> int:
    mask = 0
    for tile in tiles:
        mask |= BIT[INDEX[tile]]
    return mask


def tiles_of(mask: int) -> list[int]:
    """The tile indices in ``mask``, lowest first."""
    found = []
    while mask:
        low_bit = mask & -mask
        found.append(low_bit.bit_length() - 1)
        mask ^= low_bit
    return found


def mask_pips(mask: int) -> int:
    total = 0
    while mask:
        low_bit = mask & -mask
        total += PIPS[low_bit.bit_length() - 1]
        mask ^= low_bit
    return total


def to_move(move: SimMove) -> Move:
    tile, end = move
    return Move(ALL_TILES[tile], None if end == LEAD else ENDS[end])


def from_move(move: Move) -> SimMove:
    return (INDEX[move.tile], LEAD if move.end is None else ENDS.index(End(move.end)))


class Sim:
    """One round in play, mutable; :meth:`copy` before trying a move you want to take back."""

    __slots__ = (
        "arm_count",
        "bone_at",
        "boneyard",
        "double_end",
        "draws",
        "end",
        "ends",
        "fives",
        "fives_rule",
        "forced",
        "hands",
        "lead",
        "passes",
        "reserve",
        "rules",
        "seats",
        "spin_arm",
        "spin_state",
        "spin_value",
        "spinner_rule",
        "turn",
    )

    # spin_state: 0 no spinner yet (or no spinner rule), 1 the lead is a spinner waiting for both
    # long sides, 2 a later spinner waiting for its outer side (arm spin_arm), 3 opened.

    def __init__(self, rules: Rules, hands: list[int], boneyard: list[int], turn: int) -> None:
        self.rules = rules
        self.seats = len(hands)
        self.hands = hands
        self.boneyard = boneyard
        self.bone_at = 0
        self.reserve = rules.reserve if rules.draws else len(boneyard)
        self.fives_rule = rules.in_play is InPlay.FIVES
        self.spinner_rule = rules.spinner
        self.ends = [-1, -1, -1, -1]
        self.double_end = [False, False, False, False]
        self.arm_count = [0, 0, 0, 0]
        self.lead = -1
        self.spin_state = 0
        self.spin_arm = -1
        self.spin_value = -1
        self.turn = turn
        self.passes = 0
        self.fives = [0] * self.seats
        self.draws = [0] * self.seats
        self.end = NOT_OVER
        self.forced = -1

    @staticmethod
    def deal(rules: Rules, seats: int, rng: random.Random, first: int | None = None) -> Sim:
        """A shuffled round at its start, as :meth:`RoundState.deal` deals it (the same starter rules),
        without building the immutable state: for self-play at full speed."""
        size = rules.hand_size(seats)
        order = list(range(TILE_COUNT))
        rng.shuffle(order)
        dealt = [order[i * size : (i + 1) * size] for i in range(seats)]
        hands = [mask_of_indices(indices) for indices in dealt]
        forced_lead = find_starter(rules, [[ALL_TILES[index] for index in indices] for indices in dealt])
        if forced_lead is None:
            sim = Sim(rules, hands, order[seats * size :], rng.randrange(seats) if first is None else first)
        else:
            sim = Sim(rules, hands, order[seats * size :], forced_lead[0])
            sim.forced = INDEX[forced_lead[1]]
        return sim

    @staticmethod
    def from_state(state: RoundState) -> Sim:
        """The model of ``state`` (any point of a round, even over)."""
        sim = Sim(state.rules, [mask_of(hand) for hand in state.hands], [INDEX[t] for t in state.boneyard], state.turn)
        line = state.line
        if line.lead is not None:
            lead = INDEX[line.lead]
            sim.lead = lead
            for index in range(4):
                arm = line.arms[index]
                value = line.ends[index]
                sim.ends[index] = -1 if value is None else value
                sim.arm_count[index] = len(arm)
                if arm:
                    sim.double_end[index] = arm[-1].tile.is_double
                elif index < 2:
                    sim.double_end[index] = DOUBLE[lead]
            spinner = line.spinner
            if spinner is not None:
                if spinner.arm is None:
                    sim.spin_value = HIGH[lead]
                    sim.spin_state = 1
                else:
                    arm_index = ENDS.index(spinner.arm)
                    sim.spin_arm = arm_index
                    sim.spin_value = line.arms[arm_index][spinner.position].tile.high
                    sim.spin_state = 2
                if line.ends[2] is not None:
                    sim.spin_state = 3
        sim.forced = -1 if state.forced is None else INDEX[state.forced]
        sim.passes = state.passes
        sim.fives = list(state.fives)
        sim.draws = list(state.draws)
        sim.end = NOT_OVER if state.end is None else (DOMINO if state.end.value == "domino" else FISH)
        return sim

    def copy(self) -> Sim:
        other = Sim.__new__(Sim)
        other.rules = self.rules
        other.seats = self.seats
        other.hands = self.hands[:]
        other.boneyard = self.boneyard  # never mutated: bone_at moves instead
        other.bone_at = self.bone_at
        other.reserve = self.reserve
        other.fives_rule = self.fives_rule
        other.spinner_rule = self.spinner_rule
        other.ends = self.ends[:]
        other.double_end = self.double_end[:]
        other.arm_count = self.arm_count[:]
        other.lead = self.lead
        other.spin_state = self.spin_state
        other.spin_arm = self.spin_arm
        other.spin_value = self.spin_value
        other.turn = self.turn
        other.passes = self.passes
        other.fives = self.fives[:]
        other.draws = self.draws[:]
        other.end = self.end
        other.forced = self.forced
        return other

    @property
    def over(self) -> bool:
        return self.end != NOT_OVER

    @property
    def drawable(self) -> int:
        return max(0, len(self.boneyard) - self.bone_at - self.reserve)

    # --- moves --------------------------------------------------------------------------

    def moves(self) -> list[SimMove]:
        """The legal moves of the seat to play, like :meth:`RoundState.legal_moves` (other order)."""
        if self.end:
            return []
        hand = self.hands[self.turn]
        if self.lead < 0:
            if self.forced >= 0:
                return [(self.forced, LEAD)]
            return [(tile, LEAD) for tile in tiles_of(hand)]
        found: list[SimMove] = []
        ends = self.ends
        for end in range(4):
            value = ends[end]
            if value >= 0:
                fitting = hand & NUMBER_MASK[value]
                while fitting:
                    low_bit = fitting & -fitting
                    found.append((low_bit.bit_length() - 1, end))
                    fitting ^= low_bit
        return found

    def distinct_moves(self) -> list[SimMove]:
        """:meth:`moves` without the mirror duplicates: without a spinner, two ends showing the
        same number lead to the same position (the line's two arms are interchangeable)."""
        ends = self.ends
        return without_mirror_images(
            self.moves(), spinner=self.spinner_rule, led=self.lead >= 0, left=ends[0], right=ends[1], right_end=1
        )

    def count(self) -> int:
        """The open ends added up as ``fives`` counts them (:meth:`Line.fives_count`)."""
        lead = self.lead
        if lead < 0:
            return 0
        arm_count = self.arm_count
        ends = self.ends
        double_end = self.double_end
        if not arm_count[0] and not arm_count[1]:
            total = PIPS[lead]
        else:
            total = ends[0] * (2 if double_end[0] else 1) + ends[1] * (2 if double_end[1] else 1)
        if arm_count[2]:
            total += ends[2] * (2 if double_end[2] else 1)
        if arm_count[3]:
            total += ends[3] * (2 if double_end[3] else 1)
        return total

    def score_of(self, move: SimMove) -> int:
        """What ``move`` would score at once under ``fives`` (0 elsewhere), without playing it."""
        if not self.fives_rule:
            return 0
        tile, end = move
        if end == LEAD:
            total = PIPS[tile]
        else:
            ends = self.ends
            arm_count = self.arm_count
            double_end = self.double_end
            value = ends[end]
            outer = LOW[tile] if HIGH[tile] == value else HIGH[tile]
            total = outer * (2 if DOUBLE[tile] else 1)
            for other in range(4):
                if other != end and (other < 2 or arm_count[other]):
                    total += ends[other] * (2 if double_end[other] else 1)
        return total if total % 5 == 0 else 0

    def play(self, move: SimMove) -> None:
        """Play a legal move (not checked) and every automatic draw and pass after it."""
        tile, end = move
        seat = self.turn
        self.hands[seat] &= ~BIT[tile]
        if end == LEAD:
            self.lead = tile
            self.ends[0] = HIGH[tile]
            self.ends[1] = LOW[tile]
            self.double_end[0] = self.double_end[1] = DOUBLE[tile]
            self.forced = -1
            if self.spinner_rule and DOUBLE[tile]:
                self.spin_state = 1
                self.spin_value = HIGH[tile]
        else:
            ends = self.ends
            value = ends[end]
            ends[end] = LOW[tile] if HIGH[tile] == value else HIGH[tile]
            self.double_end[end] = DOUBLE[tile]
            self.arm_count[end] += 1
            spin_state = self.spin_state
            if spin_state == 0:
                if self.spinner_rule and DOUBLE[tile]:
                    self.spin_state = 2
                    self.spin_arm = end
                    self.spin_value = HIGH[tile]
            elif spin_state == 1:
                if self.arm_count[0] and self.arm_count[1]:
                    ends[2] = ends[3] = self.spin_value
                    self.spin_state = 3
            elif spin_state == 2 and end == self.spin_arm:
                ends[2] = ends[3] = self.spin_value
                self.spin_state = 3
        if self.fives_rule:
            total = self.count()
            if total and total % 5 == 0:
                self.fives[seat] += total
        self.passes = 0
        if not self.hands[seat]:
            self.end = DOMINO
            return
        self._advance((seat + 1) % self.seats)

    def _advance(self, seat: int) -> None:
        ends = self.ends
        playable = 0
        for value in ends:
            if value >= 0:
                playable |= NUMBER_MASK[value]
        hands = self.hands
        seats = self.seats
        boneyard = self.boneyard
        limit = len(boneyard) - self.reserve
        while True:
            if hands[seat] & playable:
                break
            drawn = 0
            fitted = False
            while self.bone_at < limit:
                tile = boneyard[self.bone_at]
                self.bone_at += 1
                hands[seat] |= BIT[tile]
                drawn += 1
                if BIT[tile] & playable:
                    fitted = True
                    break
            if drawn:
                self.draws[seat] += drawn
                if fitted:
                    break
            self.passes += 1
            if self.passes >= seats:
                self.end = FISH
                break
            seat = (seat + 1) % seats
        self.turn = seat

    # --- the end of the round -------------------------------------------------------------

    def pips(self) -> list[int]:
        return [mask_pips(hand) for hand in self.hands]

    def result(self) -> tuple[str, tuple[int, ...], list[int], list[int]]:
        """(``"domino"`` or ``"fish"``, winners, round-end points, pips), as :meth:`RoundState.outcome`."""
        pips = self.pips()
        winners, scored = round_score(self.rules, self.end == DOMINO, self.turn, pips)
        points = list(scored)
        return ("domino" if self.end == DOMINO else "fish", winners, points, pips)


def random_playout(sim: Sim, rng: random.Random) -> None:
    """Play ``sim`` to the end with uniformly random legal moves (a baseline policy)."""
    while not sim.end:
        moves = sim.moves()
        sim.play(moves[int(rng.random() * len(moves))])

"""The rules of a round, written once: the compact, mutable model both the public API and the search use.

Tiles are numbers 0..27 (the order of :data:`~engine.tiles.ALL_TILES`), a hand
is a 28-bit mask, the line is its four open-end values plus what ``fives`` and
the spinner need (the lead, whether each end shows a double, how many tiles lie
on each arm, the spinner's state). :class:`Core` holds one round and knows every
rule of play: the legal moves, placing a tile (the spinner opening its sides,
the ``fives`` count), drawing until playable with the untouchable reserve,
passing, the fish; :func:`find_starter` the starter rules and
:func:`round_score` the points at the end. Nothing else in the engine decides
any of these:

- :class:`engine.state.RoundState` is an immutable value: each ``apply`` plays
  the move on a copy of its core; hands as tiles, the line and the events are
  built only when someone reads them;
- :class:`engine.players.sim.Sim` is the core itself, mutable, for the search
  (:meth:`engine.state.RoundState.to_core` starts one from a state);
- :meth:`engine.line.Line.place` and :meth:`~engine.line.Line.fives_count` ask a
  core given the line as numbers (:meth:`Core.set_line`); the core knows no
  :class:`~engine.line.Line`.

>>> import random
>>> from engine.rules import Rules
>>> core = Core.deal(Rules.preset("fives"), 2, random.Random(4), first=0)
>>> while not core.end:
...     core.play(core.moves()[0])
>>> core.result()[0] in ("domino", "fish")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from engine.errors import DealError
from engine.rules import FishTie, InPlay, LaterStarter, RoundScoring, Rules, Starter
from engine.tiles import ALL_TILES, Tile, heaviness

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
OUTER: tuple[tuple[int, ...], ...] = tuple(
    tuple(LOW[index] if HIGH[index] == value else HIGH[index] for index in range(TILE_COUNT)) for value in range(7)
)
"""``OUTER[v][t]``: the half of tile ``t`` left showing when it is matched against an end showing ``v``."""

NOT_OVER, DOMINO, FISH = 0, 1, 2
LEAD = -1  # the "end" of a lead move

SimMove = tuple[int, int]
"""(tile index, end index 0..3, or LEAD)."""

SpinnerPart = tuple[int, int] | None
"""Where the spinner lies, for :meth:`Core.set_line`: (LEAD, its number) on the lead, (the arm's end
index, its number) on an arm; None before any."""

DREW, PASSED = "drew", "passed"
Logged = tuple[Any, ...]
"""What :meth:`Core.play` logs of the draws and passes after a move: ``(DREW, seat, tiles, ends)``
and ``(PASSED, seat, ends)``, tiles and the numbers showing as :class:`~engine.tiles.Tile` and
ints (:mod:`engine.events` makes events of them; the core sits below the line and the events)."""


def without_mirror_images(
    moves: list[Any], *, spinner: bool, led: bool, left: object, right: object, right_end: object
) -> list[Any]:
    """``moves`` less the mirror images: without a spinner the line's two arms are alike, so a tile
    on the left end showing n is the same move as on the right end showing n, and only the left one
    is kept. ``left`` and ``right`` are the numbers those ends show, ``right_end`` is how a move
    names the right end (``End.RIGHT``, or the core's end index 1).

    The one rule for both the players' :func:`~engine.players.base.distinct_moves` and the core's
    :meth:`Core.distinct_moves`:

    >>> moves = [("6-3", "left"), ("6-3", "right"), ("5-3", "left")]
    >>> without_mirror_images(moves, spinner=False, led=True, left=3, right=3, right_end="right")
    [('6-3', 'left'), ('5-3', 'left')]
    >>> without_mirror_images(moves, spinner=True, led=True, left=3, right=3, right_end="right") == moves
    True
    """
    if spinner or not led or left != right:
        return moves
    return [move for move in moves if move[1] != right_end]


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


# --- who leads, and the score at the end: the rules outside play ----------------------------


def find_starter(rules: Rules, hands: Sequence[Sequence[Tile]], *, later: bool = False) -> tuple[int, Tile] | None:
    """The seat that must lead and its tile, for the forced starter rules (None for the match starter).

    ``later``: a round after the first of a match, whose leader the rules' later-round starter may
    name instead of the deal (None then too: the match names the seat, any tile leads).
    """
    found = starter_of_masks(rules, [mask_of(hand) for hand in hands], later=later)
    return None if found is None else (found[0], ALL_TILES[found[1]])


def starter_of_masks(rules: Rules, hands: Sequence[int], *, later: bool = False) -> tuple[int, int] | None:
    """:func:`find_starter` for hands as masks: the seat and the index of the tile it must lead."""
    if rules.starter is Starter.MATCH or (later and rules.later_starter is not LaterStarter.OWN):
        return None
    order = _CLASSIC_DOUBLES if rules.starter is Starter.CLASSIC else _HIGHEST_DOUBLES
    for tiles in (order, _HEAVIEST_FIRST):  # the first double of the order held, else the heaviest tile
        for tile in tiles:
            bit = BIT[tile]
            for seat, hand in enumerate(hands):
                if hand & bit:
                    return seat, tile
    return None


_CLASSIC_DOUBLES = tuple(INDEX[Tile(n, n)] for n in (1, 2, 3, 4, 5, 6, 0))
_HIGHEST_DOUBLES = tuple(INDEX[Tile(n, n)] for n in (6, 5, 4, 3, 2, 1, 0))
_HEAVIEST_FIRST = tuple(sorted(range(TILE_COUNT), key=lambda index: heaviness(ALL_TILES[index]), reverse=True))


def round_score(
    rules: Rules, domino: bool, last_seat: int, pips: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The winners of a finished round and what each seat scores (or, in ``goat``, is charged) at its end.

    ``domino``: ``last_seat`` went out; otherwise a fish, won by the side with the lowest pip count.
    A side is a seat, or a team whose count is its hands' sum and whose points go to each partner.

    >>> from engine.rules import Rules
    >>> round_score(Rules.preset("goat"), True, 2, [19, 30, 0, 31])
    ((0, 2), (0, 61, 0, 61))
    >>> round_score(Rules.preset("partners"), False, 1, [10, 5, 4, 8])  # a fish: 14 against 13
    ((1, 3), (0, 27, 0, 27))
    """
    seats = len(pips)
    sides = rules.sides(seats)
    counts = [sum(pips[seat] for seat in side) for side in sides]
    if domino:
        won: list[int] = [rules.side_of(last_seat)]
    else:
        lowest = min(counts)
        won = [index for index, count in enumerate(counts) if count == lowest]
        if len(won) > 1 and rules.fish_tie is not FishTie.SHARED_WIN:
            won = []
    winners = tuple(sorted(seat for index in won for seat in sides[index]))
    points = [0] * seats
    if len(won) == 1:
        winner = won[0]
        others = sum(counts) - counts[winner]
        scoring = rules.round_scoring
        if scoring is RoundScoring.LOSERS_OWN:
            for index, side in enumerate(sides):
                if index != winner:
                    for seat in side:
                        points[seat] = counts[index]
        else:
            if scoring is RoundScoring.OTHERS_MINUS_OWN:
                gained = max(0, others - counts[winner])
            elif scoring is RoundScoring.OTHERS_ROUNDED:
                gained = round_to_five(others)
            elif scoring is RoundScoring.ALL_HANDS:
                gained = others + counts[winner]
            else:
                gained = 0
            for seat in sides[winner]:
                points[seat] = gained
    return winners, tuple(points)


def round_to_five(points: int) -> int:
    """The nearest multiple of 5 (12 -> 10, 13 -> 15)."""
    return (points + 2) // 5 * 5


class Dealt:
    """A shuffled deal as tile indices: the hands in the order dealt (and as masks), the boneyard,
    who leads, and the tile they must lead (-1: any)."""

    __slots__ = ("boneyard", "first", "forced", "hands", "masks")

    def __init__(self, hands: list[list[int]], masks: list[int], boneyard: list[int], first: int, forced: int) -> None:
        self.hands = hands
        self.masks = masks
        self.boneyard = boneyard
        self.first = first
        self.forced = forced


def shuffle_deal(rules: Rules, seats: int, rng: random.Random, first: int | None, *, later: bool = False) -> Dealt:
    """Shuffle with ``rng`` and deal; ``first`` names the leader for the match starter (random if None).

    Where the rules name the leader (a forced lead), ``first`` is not used. ``later``: a round after
    the first of a match (see :func:`find_starter`). The one deal of :meth:`Core.deal` and
    :meth:`engine.state.RoundState.deal`, so both deal the same round from the same ``rng``.
    """
    size = rules.hand_size(seats)
    order = shuffled_tiles(rng)
    hands = [order[i * size : (i + 1) * size] for i in range(seats)]
    masks = [mask_of_indices(hand) for hand in hands]
    forced_lead = starter_of_masks(rules, masks, later=later)
    if forced_lead is not None:
        return Dealt(hands, masks, order[seats * size :], *forced_lead)
    if first is None:
        first = rng.randrange(seats)
    elif not 0 <= first < seats:
        raise DealError(f"first seat {first} is not one of the {seats} seats")
    return Dealt(hands, masks, order[seats * size :], first, -1)


def shuffled_tiles(rng: random.Random) -> list[int]:
    """The tile indices in the order ``rng.shuffle`` puts them, drawing the same numbers from ``rng``.

    For a plain :class:`random.Random` this is ``shuffle``'s own loop written out (a third of its
    time); any other generator shuffles by itself.
    """
    order = list(range(TILE_COUNT))
    if type(rng) is not random.Random:
        rng.shuffle(order)
        return order
    getrandbits = rng.getrandbits
    for i, n, k in _SHUFFLE_STEPS:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    return order


_SHUFFLE_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, TILE_COUNT)))


class Core:
    """One round in play, mutable; :meth:`copy` before trying a move you want to take back.

    Compiled with mypyc where the package is built with it (see :data:`COMPILED`): keep it to what
    mypyc compiles (typed attributes, no subclasses, no ``__new__``: see :func:`_blank`).
    """

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
        "tracks",
        "turn",
    )

    # spin_state: 0 no spinner yet (or no spinner rule), 1 the lead is a spinner waiting for both
    # long sides, 2 a later spinner waiting for its outer side (arm spin_arm), 3 opened.
    # boneyard is never mutated (bone_at moves instead), and fives and draws are copied on write,
    # so that copies share all three. double_end and arm_count are kept only where something reads
    # them (tracks: the fives count, the spinner).

    def __init__(self, rules: Rules, hands: list[int], boneyard: list[int], turn: int, *, blank: bool = False) -> None:
        """A round at its start; ``blank``: a core whose fields the caller sets (see :func:`_blank`)."""
        self.rules = rules
        if blank:
            return
        self.seats = len(hands)
        self.hands = hands
        self.boneyard = boneyard
        self.bone_at = 0
        self.reserve = rules.reserve if rules.draws else len(boneyard)
        self.fives_rule = rules.in_play is InPlay.FIVES
        self.spinner_rule = rules.spinner
        self.tracks = self.fives_rule or self.spinner_rule
        self._clear_line()
        self.turn = turn
        self.passes = 0
        self.fives = [0] * self.seats
        self.draws = [0] * self.seats
        self.end = NOT_OVER
        self.forced = -1

    @classmethod
    def deal(
        cls, rules: Rules, seats: int, rng: random.Random, first: int | None = None, *, later: bool = False
    ) -> Core:
        """A shuffled round at its start, dealt exactly as :meth:`RoundState.deal` deals it."""
        dealt = shuffle_deal(rules, seats, rng, first, later=later)
        core = cls(rules, dealt.masks, dealt.boneyard, dealt.first)
        core.forced = dealt.forced
        return core

    @classmethod
    def of_parts(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        turn: int,
        forced: Tile | None,
        passes: int,
        fives: Sequence[int],
        draws: Sequence[int],
        end: int,
    ) -> Core:
        """The model of a round at any point (even over), from its parts as tiles; the line is set
        next (:meth:`set_line`: the core does not know :class:`engine.line.Line`, which asks it)."""
        core = cls(rules, [mask_of(hand) for hand in hands], [INDEX[t] for t in boneyard], turn)
        core.forced = -1 if forced is None else INDEX[forced]
        core.passes = passes
        core.fives = list(fives)
        core.draws = list(draws)
        core.end = end
        return core

    def _clear_line(self) -> None:
        """No tile on the table: no open end, no spinner."""
        self.ends = [-1, -1, -1, -1]
        self.double_end = [False, False, False, False]
        self.arm_count = [0, 0, 0, 0]
        self.lead = -1
        self.spin_state = 0
        self.spin_arm = -1
        self.spin_value = -1

    def set_line(
        self, lead: int, ends: Sequence[int], arm_counts: Sequence[int], doubles: Sequence[bool], spinner: SpinnerPart
    ) -> None:
        """Take the line of play as numbers: the lead's tile index, the four open ends' numbers (-1:
        closed), the tiles on each arm, whether each end shows a double, and the spinner (see
        :data:`SpinnerPart`). :meth:`engine.line.Line.core_parts` gives them for a line.
        """
        self._clear_line()
        self.lead = lead
        for index in range(4):
            self.ends[index] = ends[index]
            self.arm_count[index] = arm_counts[index]
            self.double_end[index] = doubles[index]
        if spinner is None:
            return
        arm, self.spin_value = spinner
        if arm == LEAD:
            self.spin_state = 1
        else:
            self.spin_arm = arm
            self.spin_state = 2
        if ends[2] >= 0:
            self.spin_state = 3

    def copy(self) -> Core:
        other = _blank()
        other.rules = self.rules
        other.seats = self.seats
        other.hands = self.hands[:]
        other.boneyard = self.boneyard
        other.bone_at = self.bone_at
        other.reserve = self.reserve
        other.fives_rule = self.fives_rule
        other.spinner_rule = self.spinner_rule
        other.tracks = tracks = self.tracks
        other.ends = self.ends[:]
        if tracks:
            other.double_end = self.double_end[:]
            other.arm_count = self.arm_count[:]
        else:  # never changed: shared
            other.double_end = self.double_end
            other.arm_count = self.arm_count
        other.lead = self.lead
        other.spin_state = self.spin_state
        other.spin_arm = self.spin_arm
        other.spin_value = self.spin_value
        other.turn = self.turn
        other.passes = self.passes
        other.fives = self.fives
        other.draws = self.draws
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
        """The legal moves of the seat to play, end by end, lowest tile first (empty once over)."""
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

    def offer(self, order: Sequence[Sequence[int]], table: Sequence[Sequence[Any]]) -> list[Any]:
        """The legal moves as ``table[end + 1][tile]`` (``table[0]``: the lead), tile by tile in the
        seat's ``order`` of its hand and, for each tile, end by end: the public API's ``legal_moves()``.

        ``order[seat]`` lists the tile indices of the seat's hand (and maybe tiles it no longer holds).
        """
        if self.end:
            return []
        turn = self.turn
        hand = self.hands[turn]
        if self.lead < 0:
            leads = table[0]
            if self.forced >= 0:
                return [leads[self.forced]]
            return [leads[index] for index in order[turn] if hand >> index & 1]
        ends = self.ends
        left = NUMBER_MASK[ends[0]]
        right = NUMBER_MASK[ends[1]]
        found: list[Any] = []
        if ends[2] < 0:  # the usual case: two open ends
            fitting = hand & (left | right)
            if not fitting:
                return found
            lefts = table[1]
            rights = table[2]
            if not fitting & (fitting - 1):  # one tile fits: no order to keep
                index = fitting.bit_length() - 1
                if left >> index & 1:
                    found.append(lefts[index])
                if right >> index & 1:
                    found.append(rights[index])
                return found
            for index in order[turn]:
                if fitting >> index & 1:
                    if left >> index & 1:
                        found.append(lefts[index])
                    if right >> index & 1:
                        found.append(rights[index])
                    fitting ^= 1 << index
                    if not fitting:
                        break
            return found
        masks = (left, right, NUMBER_MASK[ends[2]], NUMBER_MASK[ends[3]])
        fitting = hand & (left | right | masks[2] | masks[3])
        for index in order[turn]:
            if fitting >> index & 1:
                for end in range(4):
                    if masks[end] >> index & 1:
                        found.append(table[end + 1][index])
        return found

    def allows(self, move: SimMove, seat: int) -> bool:
        """Whether the seat to play may play ``move`` (a tile and its end, or LEAD: lead it); ``seat``
        -1: whoever is to play, else it must be that seat."""
        if self.end or (seat >= 0 and seat != self.turn):
            return False
        tile, end = move
        if not self.hands[self.turn] >> tile & 1:
            return False
        if end == LEAD:
            return self.lead < 0 and self.forced in (-1, tile)
        value = self.ends[end]
        return value >= 0 and bool(NUMBER_MASK[value] >> tile & 1)

    def played_copy(self, move: SimMove, seat: int, log: list[Logged]) -> Core | None:
        """A copy with ``move`` played as :meth:`play` plays it (its draws and passes go to ``log``),
        or None where :meth:`allows` refuses it: the step of :meth:`engine.state.RoundState.apply`,
        in one call. This core does not change."""
        if not self.allows(move, seat):
            return None
        other = self.copy()
        other.play(move, log)
        return other

    def count(self) -> int:
        """The open ends added up as ``fives`` counts them: a double at an end counts both halves, a
        lone double lead counts once, spinner sides nobody has played on do not count.

        Kept up to date only where it matters (``tracks``: the fives or the spinner rule).
        """
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
            total = OUTER[ends[end]][tile] * (2 if DOUBLE[tile] else 1)
            for other in range(4):
                if other != end and (other < 2 or arm_count[other]):
                    total += ends[other] * (2 if double_end[other] else 1)
        return total if total % 5 == 0 else 0

    def place(self, tile: int, end: int) -> None:
        """Lay ``tile`` on the line at ``end`` (LEAD for the lead), opening the spinner's sides when due.

        Only the line changes: :meth:`play` is this and the rest of a turn.
        """
        if end == LEAD:
            self.lead = tile
            self.ends[0] = HIGH[tile]
            self.ends[1] = LOW[tile]
            if self.tracks:
                self.double_end[0] = self.double_end[1] = DOUBLE[tile]
            self.forced = -1
            if self.spinner_rule and DOUBLE[tile]:
                self.spin_state = 1
                self.spin_value = HIGH[tile]
            return
        ends = self.ends
        ends[end] = OUTER[ends[end]][tile]
        if not self.tracks:
            return
        self.double_end[end] = DOUBLE[tile]
        arm_count = self.arm_count
        arm_count[end] += 1
        spin_state = self.spin_state
        if spin_state == 3:
            return
        if spin_state == 0:
            if self.spinner_rule and DOUBLE[tile]:
                self.spin_state = 2
                self.spin_arm = end
                self.spin_value = HIGH[tile]
        elif spin_state == 1:
            if arm_count[0] and arm_count[1]:
                ends[2] = ends[3] = self.spin_value
                self.spin_state = 3
        elif end == self.spin_arm:
            ends[2] = ends[3] = self.spin_value
            self.spin_state = 3

    def play(self, move: SimMove, log: list[Logged] | None = None) -> None:
        """Play a legal move (not checked) and every automatic draw and pass after it.

        ``log``, when given, receives those draws and passes (see :data:`Logged`).
        """
        tile, end = move
        seat = self.turn
        hands = self.hands
        hand = hands[seat] & ~BIT[tile]
        hands[seat] = hand
        if end < 0 or self.tracks:
            self.place(tile, end)
        else:  # place() without the spinner and the count to keep: only the end changes
            ends = self.ends
            ends[end] = OUTER[ends[end]][tile]
        if self.fives_rule:
            total = self.count()
            if total and total % 5 == 0:
                self.fives = fives = self.fives[:]
                fives[seat] += total
        self.passes = 0
        if not hand:
            self.end = DOMINO
            return
        seat += 1
        if seat == self.seats:
            seat = 0
        ends = self.ends
        if ends[2] < 0:
            playable = NUMBER_MASK[ends[0]] | NUMBER_MASK[ends[1]]
        else:
            playable = NUMBER_MASK[ends[0]] | NUMBER_MASK[ends[1]] | NUMBER_MASK[ends[2]] | NUMBER_MASK[ends[3]]
        if hands[seat] & playable:  # the usual case: nobody draws or passes
            self.turn = seat
            return
        self._advance(seat, playable, log)

    def _advance(self, seat: int, playable: int, log: list[Logged] | None) -> None:
        """Give the turn to ``seat`` or the next seat that can play, drawing and passing as the rules make them."""
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
            values = () if log is None else tuple([value for value in self.ends if value >= 0])
            if drawn:
                self.draws = draws = self.draws[:]
                draws[seat] += drawn
                if log is not None:
                    taken = tuple([ALL_TILES[index] for index in boneyard[self.bone_at - drawn : self.bone_at]])
                    log.append((DREW, seat, taken, values))
                if fitted:
                    break
            if log is not None:
                log.append((PASSED, seat, values))
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
        return ("domino" if self.end == DOMINO else "fish", winners, list(scored), pips)


COMPILED: Final = not __file__.endswith(".py")
"""Whether this module is the compiled one (mypyc, built by ``pip install``; see setup.py) rather than
this source file. Both behave alike; the compiled one is several times faster."""
_BLANK_RULES: Final = Rules.preset("block")
_NOTHING: Final[list[int]] = []  # what a blank core is dealt: its __init__ keeps none of it


def _blank() -> Core:
    """A core whose every field the caller sets next (a copy, a line's count): made through
    ``__init__`` (a compiled class has no other way) without the work of a deal, which would take
    most of the time of :meth:`Core.copy`, the step of every :meth:`engine.state.RoundState.apply`."""
    return Core(_BLANK_RULES, _NOTHING, _NOTHING, 0, blank=True)


def empty_line_core(spinner: bool) -> Core:
    """A core with nothing of a round but an empty line under the spinner rule given: what
    :meth:`engine.line.Line.place` and :meth:`~engine.line.Line.fives_count` set their line on."""
    core = _blank()
    core.spinner_rule = spinner
    core.tracks = True
    core._clear_line()
    core.forced = -1
    return core

"""One round: the deal, legal moves, ``apply`` and the outcome.

A :class:`RoundState` is an immutable value; :meth:`RoundState.apply` returns a
new one, after every automatic draw and pass that follows the move.

>>> import random
>>> from engine.rules import Rules
>>> state = RoundState.deal(Rules.preset("duel"), 2, random.Random(7))
>>> state.legal_moves()  # the highest double, a forced lead
[Move(tile=Tile(high=5, low=5), end=None)]
>>> state = state.apply(state.legal_moves()[0])
>>> while not state.is_over:
...     state = state.apply(state.legal_moves()[0])
>>> state.outcome().end
<RoundEnd.DOMINO: 'domino'>
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import NamedTuple

from engine.core import (
    DOMINO,
    DREW,
    FISH,
    INDEX,
    LEAD,
    NOT_OVER,
    Core,
    Logged,
    SimMove,
    find_starter,
    mask_of_indices,
    round_score,
    round_to_five,
    shuffle_deal,
)
from engine.errors import (
    DealError,
    EndNotOpenError,
    EndRequiredError,
    ForcedLeadError,
    GameOverError,
    MissingFirstError,
    PositionError,
    TileDoesNotFitError,
    TileNotInHandError,
    WrongFirstError,
    WrongSeatError,
)
from engine.events import Drew, Event, Passed, Played
from engine.line import EMPTY_LINE, ENDS, End, Line, core_of
from engine.rules import InPlay, Rules
from engine.tiles import ALL_TILES, Tile

__all__ = [
    "Deal",
    "Move",
    "Outcome",
    "RoundEnd",
    "RoundState",
    "find_starter",
    "legal_moves_for",
    "line_after",
    "round_score",
    "round_to_five",
]


class Move(NamedTuple):
    """A tile to play and the end to play it on (None for the lead, or where only one end fits)."""

    tile: Tile
    end: End | None = None

    def __str__(self) -> str:
        return f"{self.tile}" if self.end is None else f"{self.tile} {self.end.value}"


class RoundEnd(enum.StrEnum):
    DOMINO = "domino"  # a player played their last tile
    FISH = "fish"  # blocked: every seat in turn passed


class Deal(NamedTuple):
    """The hands as dealt, the boneyard in drawing order, and the seat that leads."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    first: int


class Outcome(NamedTuple):
    """How a round ended and what each seat scored."""

    end: RoundEnd
    winners: tuple[int, ...]  # several for a shared win; empty for a draw or when nobody scores
    points: tuple[int, ...]  # scored at the end of the round
    fives: tuple[int, ...]  # scored during play
    pips: tuple[int, ...]  # left in each hand
    draws: tuple[int, ...]  # tiles each seat drew

    @property
    def is_draw(self) -> bool:
        return not self.winners


def legal_moves_for(hand: Sequence[Tile], line: Line, forced: Tile | None = None) -> list[Move]:
    """Every (tile, end) that ``hand`` can play on ``line``; only ``forced`` when a forced lead is due.

    The core decides (:meth:`~engine.core.Core.offer`), as for :meth:`RoundState.legal_moves`, in the
    same order: tile by tile in the order of ``hand``, end by end."""
    core = core_of(line, line.spinner is not None)
    order = [INDEX[tile] for tile in hand]
    core.hands = [mask_of_indices(order)]
    core.turn = 0
    core.end = NOT_OVER
    core.forced = -1 if forced is None else INDEX[forced]
    return core.offer((order,), _MOVE_TABLE)


def line_after(line: Line, move: Move, *, spinner: bool) -> Line:
    """``line`` with ``move`` (a legal one) played; a move without an end takes the one end it fits.

    >>> line_after(EMPTY_LINE, Move(Tile(6, 6)), spinner=False).end_values()
    (6, 6)
    """
    end = move.end
    if end is None and not line.is_empty:
        end = line.ends_for(move.tile)[0]
    return line.place(move.tile, end, spinner=spinner)


def distinct_ends(line: Line, rules: Rules, tile: Tile, ends: Sequence[End]) -> list[End]:
    """Of ``ends`` (where ``tile`` fits ``line``), those that make a difference (see :func:`play_shape`), in
    their order: of ends whose placements differ only in which side is called left or right, such as
    the two sides of a lone double, the first. One end means nothing to choose, though a record still
    names it (RECORD.md: ``end`` is required where several ends fit)."""
    kept: dict[tuple[object, ...], End] = {}
    for end in ends:
        kept.setdefault(play_shape(line.place(tile, end, spinner=rules.spinner), rules), end)
    return list(kept.values())


def play_shape(line: Line, rules: Rules) -> tuple[object, ...]:
    """What the rest of a round can tell of ``line``: equal for two lines that offer the same moves,
    draws, passes and scores ever after, whichever side of them is called left (or up).

    Play reads only the open ends: the number each shows and, where the count of the ends scores or
    a spinner opens (``fives``), whether a double lies there, whether anything was played on that
    side, and which spinner still waits to open. Left and right are mirror images, and so are up and
    down: each pair is compared in either order.

    >>> block, two_two = Rules.preset("block"), line_after(EMPTY_LINE, Move(Tile(2, 2)), spinner=False)
    >>> left, right = (two_two.place(Tile(5, 2), end, spinner=False) for end in (End.LEFT, End.RIGHT))
    >>> play_shape(left, block) == play_shape(right, block)
    True
    """
    tracks = rules.spinner or rules.in_play is not InPlay.NONE
    lead = line.lead
    waiting = line.spinner if line.spinner is not None and line.ends[2] is None else None

    def side(index: int) -> tuple[int, bool, bool, bool]:
        value = line.ends[index]
        shown = -1 if value is None else value
        if not tracks:
            return shown, False, False, False
        arm = line.arms[index]
        double = arm[-1].tile.is_double if arm else (index < 2 and lead is not None and lead.is_double)
        return shown, double, bool(arm), waiting is not None and waiting.arm is ENDS[index]

    left, right, up, down = (side(index) for index in range(4))
    shape: tuple[object, ...] = (min((left, right), (right, left)), min((up, down), (down, up)))
    if tracks:  # a lone lead counts its pips; a waiting spinner opens up and down with its number
        alone = lead is not None and not line.arms[0] and not line.arms[1]
        spinner_number = None
        if waiting is not None and lead is not None:
            spinner_number = lead.high if waiting.arm is None else line.arm(waiting.arm)[waiting.position].tile.high
        shape += (
            lead.pips if alone and lead is not None else -1,
            waiting is not None and waiting.arm is None,
            spinner_number,
        )
    return shape


class RoundState:
    """Everything about one round, hidden hands included (see :mod:`engine.observation` for one seat's view).

    An immutable view of a :class:`~engine.core.Core`, the one place the rules of play live:
    :meth:`apply` checks the move, copies the core and plays the move on the copy. What a
    reader sees as tiles (``hands``, ``boneyard``, ``line``, ``events``) is built from the
    cores on first reading and kept; the events and the line grow from the state before.
    Two states are equal when every public field is (``rules``, ``deal_``, ``hands``,
    ``boneyard``, ``line``, ``turn``, ``forced``, ``passes``, ``fives``, ``draws``,
    ``events``, ``end``), and a state pickles as those fields.
    """

    __slots__ = (
        "_boneyard",
        "_core",
        "_events",
        "_hands",
        "_line",
        "_log",
        "_move",
        "_opened",
        "_parent",
        "_round",
        "_scored",
        "_seat",
    )

    # Every public field is a read-only property; the slots are set when the state is made (the
    # caches on first reading). A state's core stands for the position: nothing changes it once
    # the state is made (apply plays on a copy; the simulator plays on its own, see to_core).
    _round: _Round  # shared by the states of a round until somebody draws
    _core: Core
    _parent: RoundState | None  # the state this one was applied to (None: a start, a resumed position)
    _move: SimMove  # the move played on the parent, as the core's (tile index, end index)
    _seat: int  # the seat that played it
    _scored: int  # what it scored at once (set only when not 0)
    _opened: bool  # it made the tile the spinner (set only when True)
    _log: list[Logged]  # the draws and passes after it, as the core logged them (set only when some)
    _line: Line
    _events: tuple[Event, ...]
    _hands: tuple[tuple[Tile, ...], ...]
    _boneyard: tuple[Tile, ...]

    # --- construction ---------------------------------------------------------------

    @staticmethod
    def deal(
        rules: Rules, seats: int, rng: random.Random, first: int | None = None, *, later: bool = False
    ) -> RoundState:
        """Shuffle with ``rng`` and deal; ``first`` names the leader for the match starter (random if None).

        Where the rules name the leader (a forced lead), ``first`` is not used. ``later``: a round
        after the first of a match (see :func:`find_starter`).
        """
        dealt = shuffle_deal(rules, seats, rng, first, later=later)
        core = Core(rules, dealt.masks, dealt.boneyard, dealt.first)
        core.forced = dealt.forced
        order = tuple([tuple(hand) for hand in dealt.hands])
        return _root(_Round(rules, order, order, dealt.boneyard, dealt.first), core, EMPTY_LINE, ())

    @staticmethod
    def start(
        rules: Rules,
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        first: int | None = None,
        *,
        later: bool = False,
    ) -> RoundState:
        """A round from explicit hands and boneyard (first drawn first).

        ``first`` is required for the match starter and, where the rules decide
        who leads, must be None or the seat they name. ``later``: a round after the
        first of a match (see :func:`find_starter`).
        """
        seats = len(hands)
        rules.check_seats(seats)
        size = rules.hand_size(seats)
        for seat, hand in enumerate(hands):
            if len(hand) != size:
                raise DealError(f"seat {seat} was dealt {len(hand)} tiles; {rules.id} deals {size} to {seats} players")
        everything = [tile for hand in hands for tile in hand] + list(boneyard)
        if len(set(everything)) != len(everything):
            twice = sorted({str(t) for t in everything if everything.count(t) > 1})
            raise DealError(f"tiles dealt twice: {', '.join(twice)}")
        if len(everything) != len(ALL_TILES):
            missing = sorted(str(t) for t in set(ALL_TILES) - set(everything))
            raise DealError(f"tiles missing from the deal: {', '.join(missing)}")
        forced_lead = find_starter(rules, hands, later=later)
        forced: Tile | None = None
        if forced_lead is None:
            if first is None:
                raise MissingFirstError(f"{rules.id} needs the first seat to be named")
            if not 0 <= first < seats:
                raise DealError(f"first seat {first} is not one of the {seats} seats")
        else:
            if first is not None and first != forced_lead[0]:
                raise WrongFirstError(f"seat {forced_lead[0]} leads {forced_lead[1]} under the rules, not seat {first}")
            first, forced = forced_lead
        hand_tuples = tuple(tuple(hand) for hand in hands)
        return _from_fields(
            rules,
            Deal(hand_tuples, tuple(boneyard), first),
            hand_tuples,
            tuple(boneyard),
            EMPTY_LINE,
            first,
            forced,
            0,
            (0,) * seats,
            (0,) * seats,
            (),
            None,
        )

    @staticmethod
    def resume(
        rules: Rules,
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        line: Line,
        turn: int,
        *,
        starter: int,
        forced: Tile | None = None,
        passes: int = 0,
        fives: Sequence[int] | None = None,
        draws: Sequence[int] | None = None,
        end: RoundEnd | None = None,
    ) -> RoundState:
        """A round in progress, from its parts; it plays on exactly as the round they were taken from.

        ``hands``, ``boneyard`` (first drawn first) and ``line`` hold every tile
        once; ``turn`` is the seat to play (the last to play once the round is
        over); ``starter`` the seat that led; ``forced`` the tile the lead must
        be, before it is played; ``passes`` the passes in a row since the last
        play; ``fives`` the points scored during play and ``draws`` the tiles each
        seat drew (zeros by default). The round's history starts here: it has no
        events, and its deal is the position itself.

        Raises :class:`~engine.errors.PositionError` (a ``DealError``) for parts
        that no round of ``rules`` could be made of.

        >>> import random
        >>> from engine.rules import Rules
        >>> real = RoundState.deal(Rules.preset("draw"), 2, random.Random(4), first=0)
        >>> for _ in range(5):
        ...     real = real.apply(real.legal_moves()[0])
        >>> copy = RoundState.resume(
        ...     real.rules, real.hands, real.boneyard, real.line, real.turn,
        ...     starter=real.starter, passes=real.passes, draws=real.draws,
        ... )
        >>> copy.legal_moves() == real.legal_moves(), copy.events
        (True, ())
        >>> RoundState.resume(real.rules, real.hands, real.boneyard[1:], real.line, real.turn, starter=0)
        Traceback (most recent call last):
        ...
        engine.errors.PositionError: tiles missing from the round: 1-1
        """
        seats = len(hands)
        rules.check_seats(seats)
        state = _from_fields(
            rules,
            Deal(tuple(tuple(hand) for hand in hands), tuple(boneyard), starter),
            tuple(tuple(hand) for hand in hands),
            tuple(boneyard),
            line,
            turn,
            forced,
            passes,
            (0,) * seats if fives is None else tuple(fives),
            (0,) * seats if draws is None else tuple(draws),
            (),
            end,
        )
        problem = _position_problem(state)
        if problem is not None:
            raise PositionError(problem)
        return state

    # --- reading --------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._round.rules

    @property
    def deal_(self) -> Deal:
        """The hands as dealt, the boneyard in drawing order, and the seat that leads."""
        return self._round.deal_

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's tiles, in the order it got them (dealt, then drawn)."""
        try:
            return self._hands
        except AttributeError:
            masks = self._core.hands
            hands = tuple(
                [
                    tuple([ALL_TILES[index] for index in order if masks[seat] >> index & 1])
                    for seat, order in enumerate(self._round.order)
                ]
            )
            self._hands = hands
            return hands

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The tiles not dealt and not drawn yet, first drawn first."""
        try:
            return self._boneyard
        except AttributeError:
            core = self._core
            boneyard = tuple([ALL_TILES[index] for index in core.boneyard[core.bone_at :]])
            self._boneyard = boneyard
            return boneyard

    @property
    def line(self) -> Line:
        try:
            return self._line
        except AttributeError:
            parent = self._parent
            assert parent is not None  # a state without a parent is made with its line
            tile, end = self._move
            spinner_opened = getattr(self, "_opened", False)
            line = parent.line.grown(ALL_TILES[tile], end, self._core.ends, spinner_opened=spinner_opened)
            self._line = line
            return line

    @property
    def turn(self) -> int:
        """The seat to choose a move (the last seat to play once the round is over)."""
        return self._core.turn

    @property
    def forced(self) -> Tile | None:
        """The tile the lead must be, until it is played."""
        forced = self._core.forced
        return None if forced < 0 else ALL_TILES[forced]

    @property
    def passes(self) -> int:
        """Passes in a row since the last play."""
        return self._core.passes

    @property
    def fives(self) -> tuple[int, ...]:
        return tuple(self._core.fives)

    @property
    def draws(self) -> tuple[int, ...]:
        return tuple(self._core.draws)

    @property
    def end(self) -> RoundEnd | None:
        return _ROUND_ENDS[self._core.end]

    @property
    def events(self) -> tuple[Event, ...]:
        """What happened since the start (or the resumed position): plays, draws and passes."""
        try:
            return self._events
        except AttributeError:
            parent = self._parent
            assert parent is not None  # a state without a parent is made with its events
            events = parent.events + self._step()
            self._events = events
            return events

    def _step(self) -> tuple[Event, ...]:
        """The events of the move that made this state."""
        tile, end = self._move
        played = Played(self._seat, ALL_TILES[tile], None if end == LEAD else ENDS[end], getattr(self, "_scored", 0))
        log = getattr(self, "_log", None)
        return (played,) if log is None else (played, *[_event_of(entry) for entry in log])

    def to_core(self) -> Core:
        """A mutable copy of the core this state views: where the simulator
        (:class:`engine.players.sim.Sim`) starts from any point of a round, even over. Playing on it
        changes nothing here."""
        return self._core.copy()

    @property
    def seats(self) -> int:
        return self._core.seats

    @property
    def is_over(self) -> bool:
        return self._core.end != NOT_OVER

    @property
    def starter(self) -> int:
        return self._round.first

    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn (the boneyard less any untouchable reserve)."""
        return self._core.drawable

    def plays(self) -> list[Played]:
        return [event for event in self.events if type(event) is Played]

    def legal_moves(self) -> list[Move]:
        """The moves the seat to play may choose from (empty once the round is over): tile by tile in
        the order of the hand, and for each tile the ends it fits, in the order of :data:`ENDS`."""
        return self._core.offer(self._round.order, _MOVE_TABLE)

    def distinct_ends(self, tile: Tile) -> list[End]:
        """The ends ``tile`` may legally go on that make a difference (see :func:`distinct_ends`)."""
        legal = [move.end for move in self.legal_moves() if move.tile == tile and move.end is not None]
        return distinct_ends(self.line, self._round.rules, tile, legal)

    # --- comparing, hashing, pickling -------------------------------------------------

    def _fields(self) -> tuple[object, ...]:
        return (
            self._round.rules,
            self._round.deal_,
            self.hands,
            self.boneyard,
            self.line,
            self.turn,
            self.forced,
            self.passes,
            self.fives,
            self.draws,
            self.events,
            self.end,
        )

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, RoundState):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_from_fields, self._fields())

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={value!r}" for name, value in zip(_FIELD_NAMES, self._fields(), strict=True))
        return f"RoundState({values})"

    def _replace(self, **changes: object) -> RoundState:
        """A copy with some public fields changed, as a NamedTuple's ``_replace`` (for tests and tools)."""
        values = dict(zip(_FIELD_NAMES, self._fields(), strict=True))
        unknown = set(changes) - set(values)
        if unknown:
            raise ValueError(f"RoundState has no fields {sorted(unknown)}")
        values.update(changes)
        return _from_fields(*values.values())  # type: ignore[arg-type]

    def auto_move(self) -> Move | None:
        """The move made by itself: a forced lead, the one legal move, which nobody has to choose."""
        core = self._core
        if not core.end and core.lead < 0 and core.forced >= 0:
            return _LEAD_BY_INDEX[core.forced]
        return None

    def outcome(self) -> Outcome | None:
        """How the round ended, or None while it is being played."""
        if self.end is None:
            return None
        core = self._core
        pips = tuple(core.pips())
        winners, points = round_score(self._round.rules, core.end == DOMINO, core.turn, pips)
        return Outcome(self.end, winners, points, self.fives, pips, self.draws)

    # --- moving ---------------------------------------------------------------------

    def check(self, move: Move, seat: int | None = None) -> End | None:
        """The end ``move`` goes on (None for the lead), or the precise error that :meth:`apply` would raise.

        :meth:`apply` makes exactly these checks, so a caller that wants to know
        whether a move is legal (a UI before it plays a tap) asks here instead of
        repeating them. ``seat``, when given, must be the seat to play. The error
        is a subclass of :class:`~engine.errors.IllegalMoveError`, in this order:
        :class:`~engine.errors.GameOverError` (``game_over``),
        :class:`~engine.errors.WrongSeatError` (``out_of_turn``),
        :class:`~engine.errors.TileNotInHandError` (``not_in_hand``),
        :class:`~engine.errors.ForcedLeadError` (``forced_lead``),
        :class:`~engine.errors.TileDoesNotFitError` (``does_not_fit``),
        :class:`~engine.errors.EndRequiredError` (``missing_end``, with the ``ends``
        that the tile fits) and :class:`~engine.errors.EndNotOpenError` (``end_not_open``).

        >>> from engine.errors import EndRequiredError, IllegalMoveError
        >>> from engine.rules import Rules
        >>> hands = [
        ...     (Tile(6, 6), Tile(6, 5), Tile(6, 4), Tile(6, 3), Tile(6, 2), Tile(6, 1), Tile(5, 5)),
        ...     (Tile(4, 4), Tile(5, 4), Tile(6, 0), Tile(5, 2), Tile(4, 1), Tile(3, 3), Tile(2, 2)),
        ... ]
        >>> boneyard = [tile for tile in ALL_TILES if not any(tile in hand for hand in hands)]
        >>> state = RoundState.start(Rules.preset("duel"), hands, boneyard, 0)
        >>> state.check(Move(Tile(6, 6)), seat=0) is None  # the lead goes on no end
        True
        >>> state = state.apply(Move(Tile(6, 6)))
        >>> try:
        ...     state.check(Move(Tile(6, 0)), seat=1)
        ... except EndRequiredError as error:  # "which end?"
        ...     print(error.code, error.ends)
        missing_end (<End.LEFT: 'left'>, <End.RIGHT: 'right'>)
        >>> state.check(Move(Tile(6, 0), End.LEFT), seat=1)
        <End.LEFT: 'left'>
        >>> for move, seat in [(Move(Tile(4, 4)), 1), (Move(Tile(6, 5)), 1), (Move(Tile(6, 0)), 0)]:
        ...     try:
        ...         state.check(move, seat=seat)
        ...     except IllegalMoveError as error:
        ...         print(f"{error.code}: {error}")
        does_not_fit: 4-4 fits none of the open ends left 6, right 6
        not_in_hand: 6-5 is not in seat 1's hand
        out_of_turn: it is seat 1's turn, not seat 0's
        """
        if self.end is not None:
            raise GameOverError("the round is over")
        if seat is not None and seat != self.turn:
            raise WrongSeatError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        tile = move.tile
        if tile not in self.hands[self.turn]:
            raise TileNotInHandError(f"{tile} is not in seat {self.turn}'s hand")
        if self.line.lead is None:
            if self.forced is not None and tile != self.forced:
                raise ForcedLeadError(f"the round must be led with {self.forced}, not {tile}")
            return None
        fitting = self.line.ends_for(tile)
        if move.end is None:
            if not fitting:
                raise TileDoesNotFitError(f"{tile} fits none of the open ends {_ends_text(self.line)}")
            if len(fitting) > 1:
                names = ", ".join(end.value for end in fitting)
                raise EndRequiredError(f"{tile} fits more than one end ({names}); say which", tuple(fitting))
            return fitting[0]
        if move.end not in fitting:
            value = self.line.ends[ENDS.index(move.end)]
            if value is None:
                raise EndNotOpenError(f"the {move.end.value} end is not open")
            raise TileDoesNotFitError(f"{tile} does not fit the {move.end.value} end, which shows {value}")
        return move.end

    def apply(self, move: Move, seat: int | None = None) -> RoundState:
        """The state after ``move`` by the seat to play and every automatic draw and pass after it.

        Raises a subclass of :class:`~engine.errors.IllegalMoveError` (a ``ValueError``)
        if the move is not legal; ``seat``, when given, must be the seat to play.
        """
        core = self._core
        log: list[Logged] = []
        try:
            found = _CORE_MOVES.get(move)
        except TypeError:  # parts that are no tile or end at all
            found = None
        if found is None:  # no end named where one is needed, or not a move: check() says which end, or what is wrong
            found = self._resolve(move, seat)
        played = core.played_copy(found, -1 if seat is None else seat, log)
        if played is None:  # not as it stands: the move check() finds (the one end it fits), or its error
            found = self._resolve(move, seat)
            played = core.played_copy(found, -1, log)
            assert played is not None
        state = _new(RoundState)
        state._parent = self
        state._move = found
        state._core = played
        state._seat = mover = core.turn
        if core.tracks:  # the fives count or the spinner: what the move scored, whether it became the spinner
            if played.fives is not core.fives:  # copied on write: scored
                state._scored = played.fives[mover] - core.fives[mover]
            if not core.spin_state and played.spin_state:
                state._opened = True
        if log:
            state._log = log
            if played.bone_at != core.bone_at:  # somebody drew: their tiles join their hand's order
                order = list(self._round.order)
                for entry in log:
                    if entry[0] == DREW:
                        order[entry[1]] += tuple([INDEX[drawn] for drawn in entry[2]])
                state._round = self._round.reordered(tuple(order))
                return state
        state._round = self._round
        return state

    def _resolve(self, move: Move, seat: int | None) -> SimMove:
        """``move`` as the core's (tile index, end index), or the error :meth:`check` raises for it."""
        end = self.check(move, seat)
        return (INDEX[move.tile], LEAD if end is None else _END_INDEX[end])


class _Round:
    """What the states of one round share: the rules, the deal, and each seat's tiles in the order it
    got them (dealt, then drawn), which is the order of ``hands`` and of ``legal_moves()``."""

    __slots__ = ("_deal", "boneyard", "dealt", "first", "order", "rules")

    _deal: Deal

    def __init__(
        self,
        rules: Rules,
        order: tuple[tuple[int, ...], ...],
        dealt: tuple[tuple[int, ...], ...],
        boneyard: Sequence[int],
        first: int,
    ) -> None:
        self.rules = rules
        self.order = order
        self.dealt = dealt
        self.boneyard = boneyard
        self.first = first

    @property
    def deal_(self) -> Deal:
        try:
            return self._deal
        except AttributeError:
            self._deal = Deal(
                tuple([tuple([ALL_TILES[index] for index in hand]) for hand in self.dealt]),
                tuple([ALL_TILES[index] for index in self.boneyard]),
                self.first,
            )
            return self._deal

    def reordered(self, order: tuple[tuple[int, ...], ...]) -> _Round:
        other = _Round(self.rules, order, self.dealt, self.boneyard, self.first)
        if hasattr(self, "_deal"):
            other._deal = self._deal
        return other


def _event_of(entry: Logged) -> Event:
    """The event of a draw or pass the core logged."""
    if entry[0] == DREW:
        _, seat, tiles, ends = entry
        return Drew(seat, len(tiles), ends, tiles)
    _, seat, ends = entry
    return Passed(seat, ends)


_FIELD_NAMES = (
    "rules",
    "deal_",
    "hands",
    "boneyard",
    "line",
    "turn",
    "forced",
    "passes",
    "fives",
    "draws",
    "events",
    "end",
)
_ROUND_ENDS: tuple[RoundEnd | None, ...] = (None, RoundEnd.DOMINO, RoundEnd.FISH)
_LEAD_BY_INDEX: tuple[Move, ...] = tuple(Move(tile) for tile in ALL_TILES)
_END_MOVES_BY_INDEX: tuple[tuple[Move, ...], ...] = tuple(tuple(Move(tile, end) for tile in ALL_TILES) for end in ENDS)
_MOVE_TABLE: tuple[tuple[Move, ...], ...] = (_LEAD_BY_INDEX, *_END_MOVES_BY_INDEX)
"""The moves :meth:`RoundState.legal_moves` hands out: ``[0]`` leads, ``[1 + end]`` at an end, by tile index."""
_END_INDEX: dict[End | str, int] = {end: number for number, end in enumerate(ENDS)}
_CORE_MOVES: dict[Move, SimMove] = {
    move: (index, end)
    for end, moves in ((LEAD, _LEAD_BY_INDEX), *enumerate(_END_MOVES_BY_INDEX))
    for index, move in enumerate(moves)
}
"""Every move by its value, as the core's (tile index, end index); a move without an end is a lead."""


_new = object.__new__


def _position_problem(state: RoundState) -> str | None:
    """What makes ``state`` a position no round reaches, or None if it is one."""
    seats = state.seats
    everything = [tile for hand in state.hands for tile in hand] + list(state.boneyard) + state.line.tiles()
    if len(set(everything)) != len(everything):
        twice = sorted({str(t) for t in everything if everything.count(t) > 1})
        return f"tiles in more than one place: {', '.join(twice)}"
    if len(everything) != len(ALL_TILES):
        return f"tiles missing from the round: {', '.join(sorted(str(t) for t in set(ALL_TILES) - set(everything)))}"
    for name, seat in (("seat to play", state.turn), ("starter", state.starter)):
        if not 0 <= seat < seats:
            return f"the {name} {seat} is not one of the {seats} seats"
    for name, counts in (("fives", state.fives), ("draws", state.draws)):
        if len(counts) != seats or min(counts) < 0:
            return f"{name} must be {seats} counts of at least 0, not {counts}"
    if state.rules.in_play is not InPlay.FIVES and any(state.fives):
        return f"{state.rules.id} scores no points during play"
    if not state.rules.draws and any(state.draws):
        return f"nobody draws in {state.rules.id}"
    if state.forced is not None and (state.line.lead is not None or state.forced not in state.hands[state.turn]):
        return f"a forced lead of {state.forced} needs an empty line and the tile in the hand of the seat to play"
    empty = [seat for seat, hand in enumerate(state.hands) if not hand]
    if state.end is None:
        if empty:
            return f"seat {empty[0]} has no tiles left, so the round is over"
        if not 0 <= state.passes < seats:
            return f"{state.passes} passes in a row with {seats} seats and the round still on"
        if not state.legal_moves():
            return f"seat {state.turn} is to play but has no tile that fits"
    elif state.end is RoundEnd.DOMINO:
        if empty != [state.turn] or state.passes:
            return "a round won by domino ends with the seat that played last out of tiles and no passes"
    elif empty or state.passes != seats:
        return f"a blocked round (fish) ends with every seat holding tiles and {seats} passes in a row"
    return None


def _root(round_: _Round, core: Core, line: Line, events: tuple[Event, ...]) -> RoundState:
    """A state with no parent: a round at its start, or a position taken from its parts."""
    state = _new(RoundState)
    state._round = round_
    state._core = core
    state._parent = None
    state._move = (-1, LEAD)
    state._line = line
    state._events = events
    return state


def _from_fields(
    rules: Rules,
    deal_: Deal,
    hands: tuple[tuple[Tile, ...], ...],
    boneyard: tuple[Tile, ...],
    line: Line,
    turn: int,
    forced: Tile | None,
    passes: int,
    fives: tuple[int, ...],
    draws: tuple[int, ...],
    events: tuple[Event, ...],
    end: RoundEnd | None,
) -> RoundState:
    """The state with exactly these public fields (not checked: see :func:`_position_problem`)."""
    ended = NOT_OVER if end is None else (DOMINO if end is RoundEnd.DOMINO else FISH)
    core = Core.of_parts(rules, hands, boneyard, turn, forced, passes, fives, draws, ended)
    if line.lead is not None:
        core.set_line(*line.core_parts())
    order = tuple(tuple(INDEX[tile] for tile in hand) for hand in hands)
    round_ = _Round(rules, order, order, [INDEX[tile] for tile in deal_.boneyard], deal_.first)
    round_._deal = deal_
    return _root(round_, core, line, tuple(events))


def _ends_text(line: Line) -> str:
    return ", ".join(f"{end.value} {value}" for end, value in line.open_ends().items())

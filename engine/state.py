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
from engine.line import EMPTY_LINE, ENDS, End, Line
from engine.rules import FishTie, InPlay, LaterStarter, RoundScoring, Rules, Starter
from engine.tiles import ALL_TILES, Tile, heaviness, pip_count


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


def _fits(tile: Tile, ends: tuple[int | None, ...]) -> bool:
    high, low = tile
    for value in ends:  # noqa: SIM110 - faster than any() on the hot path
        if value is not None and value in (high, low):
            return True
    return False


def _can_play(hand: Sequence[Tile], ends: tuple[int | None, ...]) -> bool:
    for tile in hand:  # noqa: SIM110 - faster than any() on the hot path
        if _fits(tile, ends):
            return True
    return False


def find_starter(rules: Rules, hands: Sequence[Sequence[Tile]], *, later: bool = False) -> tuple[int, Tile] | None:
    """The seat that must lead and its tile, for the forced starter rules (None for the match starter).

    ``later``: a round after the first of a match, whose leader the rules' later-round starter may
    name instead of the deal (None then too: the match names the seat, any tile leads).
    """
    if rules.starter is Starter.MATCH or (later and rules.later_starter is not LaterStarter.OWN):
        return None
    holder = {tile: seat for seat, hand in enumerate(hands) for tile in hand}
    order = _CLASSIC_DOUBLES if rules.starter is Starter.CLASSIC else _HIGHEST_DOUBLES
    for double in order:
        if double in holder:
            return holder[double], double
    heaviest = max(holder, key=heaviness)
    return holder[heaviest], heaviest


_CLASSIC_DOUBLES = tuple(Tile(n, n) for n in (1, 2, 3, 4, 5, 6, 0))
_HIGHEST_DOUBLES = tuple(Tile(n, n) for n in (6, 5, 4, 3, 2, 1, 0))


_LEAD_MOVES: dict[Tile, Move] = {tile: Move(tile) for tile in ALL_TILES}
_END_MOVES: tuple[dict[Tile, Move], ...] = tuple({tile: Move(tile, end) for tile in ALL_TILES} for end in ENDS)


def legal_moves_for(hand: Sequence[Tile], line: Line, forced: Tile | None = None) -> list[Move]:
    """Every (tile, end) that ``hand`` can play on ``line``; only ``forced`` when a forced lead is due."""
    if line.lead is None:
        if forced is not None:
            return [_LEAD_MOVES[forced]]
        return [_LEAD_MOVES[tile] for tile in hand]
    moves = []
    open_ends = [(value, _END_MOVES[index]) for index, value in enumerate(line.ends) if value is not None]
    for tile in hand:
        high, low = tile
        for value, moves_at_end in open_ends:
            if value == high or value == low:  # noqa: SIM109 - faster than a tuple test here
                moves.append(moves_at_end[tile])
    return moves


def line_after(line: Line, move: Move, *, spinner: bool) -> Line:
    """``line`` with ``move`` (a legal one) played; a move without an end takes the one end it fits.

    >>> line_after(EMPTY_LINE, Move(Tile(6, 6)), spinner=False).end_values()
    (6, 6)
    """
    end = move.end
    if end is None and not line.is_empty:
        end = line.ends_for(move.tile)[0]
    return line.place(move.tile, end, spinner=spinner)


class RoundState(NamedTuple):
    """Everything about one round, hidden hands included (see :mod:`engine.observation` for one seat's view)."""

    rules: Rules
    deal_: Deal
    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    line: Line
    turn: int  # the seat to choose a move (the last seat to play once the round is over)
    forced: Tile | None  # the tile the lead must be, until it is played
    passes: int  # passes in a row since the last play
    fives: tuple[int, ...]
    draws: tuple[int, ...]
    events: tuple[Event, ...]
    end: RoundEnd | None

    # --- construction ---------------------------------------------------------------

    @staticmethod
    def deal(
        rules: Rules, seats: int, rng: random.Random, first: int | None = None, *, later: bool = False
    ) -> RoundState:
        """Shuffle with ``rng`` and deal; ``first`` names the leader for the match starter (random if None).

        Where the rules name the leader (a forced lead), ``first`` is not used. ``later``: a round
        after the first of a match (see :func:`find_starter`).
        """
        size = rules.hand_size(seats)
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        hands = tuple(tuple(tiles[i * size : (i + 1) * size]) for i in range(seats))
        forced_lead = find_starter(rules, hands, later=later)
        if forced_lead is not None:
            return _begin(rules, hands, tuple(tiles[seats * size :]), *forced_lead)
        if first is None:
            first = rng.randrange(seats)
        elif not 0 <= first < seats:
            raise DealError(f"first seat {first} is not one of the {seats} seats")
        return _begin(rules, hands, tuple(tiles[seats * size :]), first, None)

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
        return _begin(rules, tuple(tuple(hand) for hand in hands), tuple(boneyard), first, forced)

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
        state = _new_state(
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
    def seats(self) -> int:
        return len(self.hands)

    @property
    def is_over(self) -> bool:
        return self.end is not None

    @property
    def starter(self) -> int:
        return self.deal_.first

    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn (the boneyard less any untouchable reserve)."""
        if not self.rules.draws:
            return 0
        return max(0, len(self.boneyard) - self.rules.reserve)

    def plays(self) -> list[Played]:
        return [event for event in self.events if type(event) is Played]

    def legal_moves(self) -> list[Move]:
        """The moves the seat to play may choose from (empty once the round is over)."""
        if self.end is not None:
            return []
        return legal_moves_for(self.hands[self.turn], self.line, self.forced)

    def auto_move(self) -> Move | None:
        """The move the bot makes by itself: a forced lead that the rules place automatically."""
        if self.end is None and self.line.lead is None and self.forced is not None and self.rules.auto_lead:
            return Move(self.forced)
        return None

    def outcome(self) -> Outcome | None:
        """How the round ended, or None while it is being played."""
        if self.end is None:
            return None
        pips = tuple(pip_count(hand) for hand in self.hands)
        winners, points = round_score(self.rules, self.end is RoundEnd.DOMINO, self.turn, pips)
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
        end = self.check(move, seat)
        seat = self.turn
        tile = move.tile
        rules = self.rules
        line = self.line.place(tile, end, spinner=rules.spinner)
        hands = self.hands
        hand = tuple([t for t in hands[seat] if t != tile])
        hands = hands[:seat] + (hand,) + hands[seat + 1 :]
        fives = self.fives
        scored = 0
        if rules.in_play is InPlay.FIVES:
            count = line.fives_count()
            if count and count % 5 == 0:
                scored = count
                fives = fives[:seat] + (fives[seat] + count,) + fives[seat + 1 :]
        events = self.events + (Played(seat, tile, end, scored),)
        if not hand:
            return _new_state(
                rules, self.deal_, hands, self.boneyard, line, seat, None, 0, fives, self.draws, events, RoundEnd.DOMINO
            )
        return _advance(
            rules, self.deal_, hands, self.boneyard, line, (seat + 1) % len(hands), fives, self.draws, events
        )


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


def _begin(
    rules: Rules, hands: tuple[tuple[Tile, ...], ...], boneyard: tuple[Tile, ...], first: int, forced: Tile | None
) -> RoundState:
    """A round at its start, from a deal already known to be whole."""
    zeros = (0,) * len(hands)
    return _new_state(
        rules, Deal(hands, boneyard, first), hands, boneyard, EMPTY_LINE, first, forced, 0, zeros, zeros, (), None
    )


# Building the tuple directly skips NamedTuple's keyword handling on the hot path.
_new_state_tuple = tuple.__new__


def _new_state(
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
    return _new_state_tuple(
        RoundState, (rules, deal_, hands, boneyard, line, turn, forced, passes, fives, draws, events, end)
    )


def _advance(
    rules: Rules,
    deal_: Deal,
    hands: tuple[tuple[Tile, ...], ...],
    boneyard: tuple[Tile, ...],
    line: Line,
    seat: int,
    fives: tuple[int, ...],
    draws: tuple[int, ...],
    events: tuple[Event, ...],
) -> RoundState:
    """Give the turn to ``seat`` or the next seat that can play, drawing and passing as the rules make them."""
    ends = line.ends
    if _can_play(hands[seat], ends):  # the usual case: nobody draws or passes
        return _new_state(rules, deal_, hands, boneyard, line, seat, None, 0, fives, draws, events, None)
    hand_list = list(hands)
    draw_list = list(draws)
    event_list = list(events)
    passes = 0
    drawable = len(boneyard) - rules.reserve if rules.draws else 0
    seats = len(hand_list)
    end: RoundEnd | None = None
    while True:
        hand = hand_list[seat]
        if _can_play(hand, ends):
            break
        drawn: list[Tile] = []
        while drawable > 0:
            tile = boneyard[len(drawn)]
            drawn.append(tile)
            drawable -= 1
            if _fits(tile, ends):
                break
        values = tuple([value for value in ends if value is not None])
        if drawn:
            boneyard = boneyard[len(drawn) :]
            hand_list[seat] = hand + tuple(drawn)
            draw_list[seat] += len(drawn)
            event_list.append(Drew(seat, len(drawn), values, tuple(drawn)))
            if _fits(drawn[-1], ends):
                break
        event_list.append(Passed(seat, values))
        passes += 1
        if passes >= seats:
            end = RoundEnd.FISH
            break
        seat = (seat + 1) % seats
    return _new_state(
        rules,
        deal_,
        tuple(hand_list),
        boneyard,
        line,
        seat,
        None,
        passes,
        fives,
        tuple(draw_list),
        tuple(event_list),
        end,
    )


def _ends_text(line: Line) -> str:
    return ", ".join(f"{end.value} {value}" for end, value in line.open_ends().items())


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

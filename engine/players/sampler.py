"""Hidden hands that fit everything one seat has seen, and full rounds built on them.

A seat sees its own hand, the line, every hand size, the boneyard count and who
drew or passed at which open ends (docs/rules.md, "What you see"). The
``hard`` player searches in *worlds*: guesses of the other hands and of the
boneyard order that agree with all of it. :func:`sample_world` draws one,
:func:`determinize` turns it into a :class:`~engine.state.RoundState` built from
public fields only.

What the history proves, and how it is kept
-------------------------------------------

Each other seat's current hand is split into *groups* by when the tiles came
in: the tiles dealt, then the tiles of each draw. Every tile of a group carries
the numbers it cannot show (a *forbidden* mask of tiles):

- a seat that draws or passes at open ends {3, 5} held no 3 and no 5 at that
  moment, so every group it held then gets 3s and 5s forbidden. Tiles drawn
  *later* get nothing from it: they may well be 3s;
- the tiles of a draw run all miss the ends they were drawn at, except the
  last one when the seat then plays; that one is the only playable tile the
  seat has, so the tile it plays next is exactly that drawn tile;
- a forced starter says what nobody was dealt: a ``classic`` round led with
  2-2 means that 1-1 was not dealt (it lay in the boneyard, so a later draw
  may have brought it in); a ``duel`` led with 5-5 means the same of 6-6;
- a tile a seat plays came out of one of its groups that could hold it; which
  one is not public, so it is drawn at random, weighted by the group sizes.
  :func:`beliefs_of` keeps a few such *readings* of the history, each checked
  to admit a deal of the unseen tiles (a bipartite matching); if none does,
  the reading that always puts a play in the most constrained group that fits
  (which succeeds on any real history).

Each world picks a reading, then deals the unseen tiles into its groups, most
constrained group first, each uniformly among the tiles it may hold (a random
matching if that greedy fill runs into a dead end), the rest going to the
boneyard in random order; a few random swaps between seats that both have
constraints take off most of the bias of the greedy fill. Hand sizes and the
boneyard count always come out exact. Only the seat to play is sampled for:
a seat that is to play must hold a playable tile, which is not modelled
except for the tile it has just drawn.

What the plays suggest
----------------------

The rest is soft evidence: which tile a seat chose. :func:`play_evidence`
lists the other seats' plays with the tiles that fitted then (on request, a
lead the leader picked freely too, when every tile fitted), and
:func:`likelihood` says how well a world explains them if each seat picked
among the fitting tiles it held with odds growing with the pips, or as a
:class:`PlayModel` says: heavy tiles and doubles first, and tiles that leave
it able to follow the number it opens (the search weighs its worlds by it). A
seat that played a 2 while, in this world, it held five other tiles that
fitted is less likely than one with no other choice; under a
:class:`PlayModel`, one that opened a 3 while holding no other 3 is less
likely than one that kept two. Only where
nothing is drawn (a hand then is its tiles now plus those it played since)
and without a spinner.

>>> import random
>>> from engine.match import Match
>>> from engine.rules import Rules
>>> game = Match.new(Rules.preset("draw"), 3, random.Random(2), first=0)
>>> for _ in range(6):
...     game = game.apply(game.round.legal_moves()[0])
>>> seen = game.observe(game.round.turn)
>>> world = sample_world(seen, random.Random(1))
>>> [len(hand) for hand in world.hands] == list(seen.table.hand_sizes)
True
>>> state = determinize(seen, world)
>>> state.hands[seen.seat] == seen.hand, state.line == seen.table.line
(True, True)
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from typing import NamedTuple

from engine.events import Drew, Passed, Played
from engine.line import EMPTY_LINE
from engine.observation import Observation
from engine.players.sim import BIT, DOUBLE, FULL_MASK, INDEX, NUMBER_MASK, PIPS, TILE_COUNT, mask_of, tiles_of
from engine.rules import Rules, Starter
from engine.state import RoundState
from engine.tiles import ALL_TILES, Tile, heaviness

_CLASSIC_ORDER = (1, 2, 3, 4, 5, 6, 0)
_HIGHEST_ORDER = (6, 5, 4, 3, 2, 1, 0)
_DOUBLES = tuple(INDEX[Tile(n, n)] for n in range(7))


class World(NamedTuple):
    """One guess of the hidden tiles: every seat's hand (the observer's own is exact) and the boneyard."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]  # first drawn first


class Group(NamedTuple):
    """``size`` hidden tiles of one seat that may not be any tile of ``forbidden`` (a tile mask)."""

    size: int
    forbidden: int


class Knowledge(NamedTuple):
    """What the history proves about the hidden tiles, ready for sampling many worlds."""

    unseen: int  # mask: the tiles the observer cannot place (other hands and the boneyard)
    groups: tuple[tuple[Group, ...], ...]  # per seat; empty for the observer


def ends_mask(ends: tuple[int, ...]) -> int:
    """The tiles that fit at least one of ``ends``."""
    mask = 0
    for value in ends:
        mask |= NUMBER_MASK[value]
    return mask


def starter_forbidden(observation: Observation) -> int:
    """The tiles that no hand was dealt, as the forced lead shows (0 under the match starter)."""
    rules = observation.table.rules
    if rules.starter is Starter.MATCH:
        return 0
    lead: Tile | None = observation.table.line.lead
    if lead is None:
        lead = observation.forced
    if lead is None:
        return 0
    order = _CLASSIC_ORDER if rules.starter is Starter.CLASSIC else _HIGHEST_ORDER
    forbidden = 0
    for number in order:
        if number == lead.high == lead.low:
            return forbidden
        forbidden |= BIT[_DOUBLES[number]]
    # No double was dealt: the lead is the heaviest tile dealt.
    for tile in ALL_TILES:
        if heaviness(tile) > heaviness(lead):
            forbidden |= BIT[INDEX[tile]]
    return forbidden


def read_history(observation: Observation, rng: random.Random, *, greedy: bool = False) -> Knowledge | None:
    """Walk the round's public history into per-seat groups (None if the random choices hit a dead end)."""
    table = observation.table
    seats = table.seats
    me = observation.seat
    dealt = table.rules.hand_size(seats)
    at_deal = starter_forbidden(observation)
    counts: list[list[int]] = [[] if seat == me else [dealt] for seat in range(seats)]
    forbidden: list[list[int]] = [[] if seat == me else [at_deal] for seat in range(seats)]
    drawn_tile_due = [False] * seats  # the seat's next play is the last tile it drew
    history = table.history
    for position, event in enumerate(history):
        seat = event.seat
        if seat == me:
            continue
        kind = type(event)
        if kind is Played:
            if drawn_tile_due[seat]:
                drawn_tile_due[seat] = False
                continue
            bit = BIT[INDEX[event.tile]]  # type: ignore[union-attr]
            seat_counts = counts[seat]
            seat_forbidden = forbidden[seat]
            fitting = [g for g in range(len(seat_counts)) if seat_counts[g] and not seat_forbidden[g] & bit]
            if not fitting:
                return None
            if greedy:
                chosen = fitting[0]  # groups are nested, the oldest is the most constrained
            else:
                pick = rng.random() * sum(seat_counts[g] for g in fitting)
                chosen = fitting[-1]
                for g in fitting:
                    pick -= seat_counts[g]
                    if pick < 0:
                        chosen = g
                        break
            seat_counts[chosen] -= 1
        elif kind is Drew or kind is Passed:
            missing = ends_mask(event.ends)  # type: ignore[union-attr]
            seat_forbidden = forbidden[seat]
            for g in range(len(seat_forbidden)):
                seat_forbidden[g] |= missing
            if kind is Drew:
                number: int = event.number  # type: ignore[union-attr]
                following = history[position + 1] if position + 1 < len(history) else None
                if type(following) is Passed and following.seat == seat:
                    counts[seat].append(number)
                    seat_forbidden.append(missing)
                elif following is None:
                    # The seat is to play now with the last drawn tile, the only one that fits.
                    counts[seat].append(number - 1)
                    seat_forbidden.append(missing)
                    counts[seat].append(1)
                    seat_forbidden.append(FULL_MASK & ~missing)
                else:
                    counts[seat].append(number - 1)
                    seat_forbidden.append(missing)
                    drawn_tile_due[seat] = True
    for seat in range(seats):
        if seat != me and sum(counts[seat]) != table.hand_sizes[seat]:
            return None
    unseen = FULL_MASK & ~mask_of(observation.hand) & ~mask_of(table.line.tiles())
    groups = tuple(
        tuple(Group(c, f) for c, f in zip(counts[seat], forbidden[seat], strict=True) if c) for seat in range(seats)
    )
    return Knowledge(unseen, groups)


class Beliefs(NamedTuple):
    """Readings of the history that a real deal can satisfy; each world picks one at random."""

    readings: tuple[Knowledge, ...]


def beliefs_of(observation: Observation, rng: random.Random, readings: int = 6) -> Beliefs:
    """Up to ``readings`` random readings of the history (:func:`read_history`) that some deal
    of the unseen tiles satisfies; the greedy reading if none does; no constraints at all on
    an impossible history (which a real round never gives)."""
    found: list[Knowledge] = []
    for _ in range(readings * 2):
        knowledge = read_history(observation, rng)
        if knowledge is not None and knowledge not in found and _feasible(knowledge):
            found.append(knowledge)
            if len(found) == readings or not _has_choices(knowledge):
                break
    if not found:
        knowledge = read_history(observation, rng, greedy=True)
        found.append(knowledge if knowledge is not None and _feasible(knowledge) else _unconstrained(observation))
    return Beliefs(tuple(found))


def _has_choices(knowledge: Knowledge) -> bool:
    """Whether another reading could differ: only seats that drew have more than one group."""
    return any(len(groups) > 1 for groups in knowledge.groups)


def _feasible(knowledge: Knowledge) -> bool:
    return _match_slots(knowledge, None) is not None


def _match_slots(knowledge: Knowledge, rng: random.Random | None) -> list[int] | None:
    """Hidden hands that satisfy every group (Kuhn's augmenting paths), or None if there are none.
    With ``rng`` the slots and tiles are tried in random order, so the deal is a random valid one."""
    slots = [
        (seat, knowledge.unseen & ~group.forbidden)
        for seat, groups in enumerate(knowledge.groups)
        for group in groups
        for _ in range(group.size)
    ]
    if rng is not None:
        rng.shuffle(slots)
    holder: dict[int, int] = {}  # tile -> slot

    def place(slot: int, tried: set[int]) -> bool:
        candidates = tiles_of(slots[slot][1])
        if rng is not None:
            rng.shuffle(candidates)
        for tile in candidates:
            if tile in tried:
                continue
            tried.add(tile)
            if tile not in holder or place(holder[tile], tried):
                holder[tile] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not place(slot, set()):
            return None
    hands = [0] * len(knowledge.groups)
    for tile, slot in holder.items():
        hands[slots[slot][0]] |= BIT[tile]
    return hands


def _unconstrained(observation: Observation) -> Knowledge:
    table = observation.table
    unseen = FULL_MASK & ~mask_of(observation.hand) & ~mask_of(table.line.tiles())
    groups = tuple(
        () if seat == observation.seat else (Group(table.hand_sizes[seat], 0),) for seat in range(table.seats)
    )
    return Knowledge(unseen, groups)


def _pick(mask: int, count: int, rng: random.Random) -> list[int]:
    """``count`` tile indices chosen uniformly from ``mask``."""
    return rng.sample(tiles_of(mask), count)


def deal_hidden(knowledge: Knowledge, rng: random.Random) -> tuple[list[int], list[int]] | None:
    """Hidden hands (masks, the observer's left 0) and the boneyard order; None on a dead end."""
    seats = len(knowledge.groups)
    slots = [
        ((knowledge.unseen & ~group.forbidden).bit_count(), seat, group)
        for seat in range(seats)
        for group in knowledge.groups[seat]
    ]
    slots.sort(key=lambda slot: slot[0])  # most constrained first; stable, so deterministic
    left = knowledge.unseen
    hands = [0] * seats
    for _, seat, group in slots:
        allowed = left & ~group.forbidden
        if allowed.bit_count() < group.size:
            return None
        for tile in _pick(allowed, group.size, rng):
            hands[seat] |= BIT[tile]
            left &= ~BIT[tile]
    _mix(knowledge, hands, rng)
    boneyard = tiles_of(knowledge.unseen & ~_all(hands))
    rng.shuffle(boneyard)
    return hands, boneyard


def _all(hands: list[int]) -> int:
    mask = 0
    for hand in hands:
        mask |= hand
    return mask


def _mix(knowledge: Knowledge, hands: list[int], rng: random.Random) -> None:
    """Random valid swaps between two constrained seats (or one and the boneyard): a short Markov
    chain whose stationary law is uniform over valid deals, to undo the greedy fill's bias."""
    constrained = [seat for seat, groups in enumerate(knowledge.groups) if any(g.forbidden for g in groups)]
    if not constrained or not all(_nested(groups) for groups in knowledge.groups):
        return
    limits = [_seat_limit(groups) for groups in knowledge.groups]
    boneyard = knowledge.unseen & ~_all(hands)
    owners = [seat for seat, groups in enumerate(knowledge.groups) if groups]
    for _ in range(8 * len(constrained)):
        first = constrained[int(rng.random() * len(constrained))]
        second = owners[int(rng.random() * len(owners))] if rng.random() < 0.7 or not boneyard else -1
        if second == first:
            continue
        first_tiles = tiles_of(hands[first])
        second_tiles = tiles_of(boneyard if second < 0 else hands[second])
        if not first_tiles or not second_tiles:
            continue
        give = first_tiles[int(rng.random() * len(first_tiles))]
        take = second_tiles[int(rng.random() * len(second_tiles))]
        new_first = hands[first] & ~BIT[give] | BIT[take]
        if not _fits_groups(new_first, knowledge.groups[first], limits[first]):
            continue
        if second >= 0:
            new_second = hands[second] & ~BIT[take] | BIT[give]
            if not _fits_groups(new_second, knowledge.groups[second], limits[second]):
                continue
            hands[second] = new_second
        else:
            boneyard = boneyard & ~BIT[take] | BIT[give]
        hands[first] = new_first


def _nested(groups: tuple[Group, ...]) -> bool:
    """Whether the groups' forbidden masks contain one another (always, except for a tile just drawn
    by a seat that is to play, which must fit)."""
    ordered = sorted((group.forbidden for group in groups), key=int.bit_count, reverse=True)
    return all(wide & narrow == narrow for wide, narrow in itertools.pairwise(ordered))


def _seat_limit(groups: tuple[Group, ...]) -> int:
    """The tiles at least one group of the seat may hold."""
    allowed = 0
    for group in groups:
        allowed |= FULL_MASK & ~group.forbidden
    return allowed


def _fits_groups(hand: int, groups: tuple[Group, ...], limit: int) -> bool:
    """Whether ``hand`` can be split into the seat's groups (nested masks: fill the tightest first)."""
    if hand & ~limit:
        return False
    if len(groups) == 1:
        return True
    left = hand
    for group in sorted(groups, key=lambda g: -g.forbidden.bit_count()):
        allowed = tiles_of(left & ~group.forbidden)
        if len(allowed) < group.size:
            return False
        for tile in allowed[: group.size]:
            left &= ~BIT[tile]
    return True


def sample_hidden(beliefs: Beliefs, rng: random.Random) -> tuple[list[int], list[int]]:
    """A valid deal of the hidden tiles under one of the readings: hands (masks, the observer's
    left 0) and the boneyard, first drawn first."""
    readings = beliefs.readings
    knowledge = readings[int(rng.random() * len(readings))] if len(readings) > 1 else readings[0]
    for _ in range(6):
        dealt = deal_hidden(knowledge, rng)
        if dealt is not None:
            return dealt
    hands = _match_slots(knowledge, rng)
    if hands is None:  # only for the unconstrained stand-in of an impossible history
        knowledge = Knowledge(knowledge.unseen, tuple(tuple(Group(g.size, 0) for g in gs) for gs in knowledge.groups))
        hands = _match_slots(knowledge, rng)
        assert hands is not None  # sizes always add up
    _mix(knowledge, hands, rng)
    boneyard = tiles_of(knowledge.unseen & ~_all(hands))
    rng.shuffle(boneyard)
    return hands, boneyard


def sample_world(observation: Observation, rng: random.Random, beliefs: Beliefs | None = None) -> World:
    """One world that agrees with everything ``observation`` shows (pass ``beliefs`` to sample many)."""
    if beliefs is None:
        beliefs = beliefs_of(observation, rng)
    hidden, boneyard = sample_hidden(beliefs, rng)
    hands = tuple(
        observation.hand if seat == observation.seat else tuple(ALL_TILES[t] for t in tiles_of(hidden[seat]))
        for seat in range(observation.table.seats)
    )
    return World(hands, tuple(ALL_TILES[t] for t in boneyard))


def trailing_passes(observation: Observation) -> int:
    """Passes in a row since the last play: what :attr:`RoundState.passes` holds."""
    passes = 0
    for event in reversed(observation.table.history):
        if type(event) is Played:
            break
        if type(event) is Passed:
            passes += 1
    return passes


def draws_so_far(observation: Observation) -> tuple[int, ...]:
    draws = [0] * observation.table.seats
    for event in observation.table.history:
        if type(event) is Drew:
            draws[event.seat] += event.number
    return tuple(draws)


def determinize(observation: Observation, world: World) -> RoundState:
    """The round as it would stand if ``world`` were true, built from public fields and the world only.

    Its events are empty and its deal is the world itself (the original deal is not public);
    it plays on exactly as the real round would with those hands and that boneyard.
    """
    table = observation.table
    return RoundState.resume(
        table.rules,
        world.hands,
        world.boneyard,
        table.line,
        table.turn,
        starter=table.starter,
        forced=observation.forced,
        passes=trailing_passes(observation),
        fives=table.fives,
        draws=draws_so_far(observation),
        end=table.end,
    )


class PlayModel(NamedTuple):
    """How a seat is expected to pick the tile it plays among those that fit, as log-odds.

    A tile's odds are ``exp(pips x tile's pips / 12 + double x (1 if a double) + keeps x k)``,
    where ``k`` is how many of the other tiles in the seat's hand then show a number the tile
    opens (for a lead, either of its numbers): a player sheds heavy tiles and doubles, and plays
    so that it can follow its own number. All zero is a blind pick among the fitting tiles.
    """

    pips: float = 0.0
    double: float = 0.0
    keeps: float = 0.0

    def odds(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """Every tile's odds before ``keeps``, and the factor ``keeps`` gives each count of tiles kept."""
        return _odds(self)


@functools.cache
def _odds(model: PlayModel) -> tuple[tuple[float, ...], tuple[float, ...]]:
    pips, double, keeps = model
    base = tuple(math.exp(pips * PIPS[index] / 12.0 + double * DOUBLE[index]) for index in range(TILE_COUNT))
    kept = tuple(math.exp(keeps * count / 6.0) for count in range(TILE_COUNT))
    return base, kept


class Evidence(NamedTuple):
    """One past play by another seat, for weighing worlds by how well they explain it."""

    seat: int
    tile: int  # the tile it played
    fitting: int  # mask: the tiles that fitted the open ends then (a lead: every tile)
    later: int  # mask: the tile played and those the seat played after it (in its hand then, gone now)
    opens: tuple[tuple[int, ...], ...]  # per tile: masks of the tiles showing a number it would open
    lead: bool  # a lead of the seat's own choice


def play_evidence(observation: Observation, *, leads: bool = False) -> tuple[Evidence, ...]:
    """The other seats' plays on a line with open ends, where a world can say how many tiles the seat
    could have played (``leads``: a lead the rules let the leader pick as well, every tile fitting
    then). Only without a boneyard to draw from and without a spinner (a hand then is its tiles now
    plus those it played since), else nothing."""
    table = observation.table
    rules = table.rules
    if not plays_are_readable(rules):
        return ()
    free_lead = leads and rules.starter is Starter.MATCH
    plays = [event for event in table.history if type(event) is Played]
    found: list[Evidence] = []
    line = EMPTY_LINE
    for position, event in enumerate(plays):
        seat = event.seat
        lead = line.lead is None
        if seat != observation.seat and (free_lead or not lead):
            since = BIT[INDEX[event.tile]]
            for after in plays[position + 1 :]:
                if after.seat == seat:
                    since |= BIT[INDEX[after.tile]]
            ends = tuple(v for v in line.ends if v is not None)
            fitting = FULL_MASK if lead else ends_mask(ends)
            found.append(Evidence(seat, INDEX[event.tile], fitting, since, opened_numbers(ends, fitting), lead))
        line = line.place(event.tile, event.end, spinner=False)
    return tuple(found)


def plays_are_readable(rules: Rules) -> bool:
    """Whether a world can say which tiles a seat held at each of its plays: with nothing drawn and no
    spinner, a hand then was its tiles now plus those it played since."""
    return not rules.draws and not rules.spinner


def opened_numbers(ends: tuple[int, ...], fitting: int) -> tuple[tuple[int, ...], ...]:
    """For each tile that fits ``ends`` (no ends: a lead), the masks of the numbers it would leave open."""
    opens: list[tuple[int, ...]] = []
    for index, tile in enumerate(ALL_TILES):
        if not fitting & BIT[index]:
            opens.append(())
        elif not ends:
            opens.append((NUMBER_MASK[tile.high] | NUMBER_MASK[tile.low],))
        else:
            opened = {tile.other(value) for value in ends if tile.has(value)}
            opens.append(tuple(NUMBER_MASK[value] for value in sorted(opened)))
    return tuple(opens)


def likelihood(
    evidence: tuple[Evidence, ...],
    hands: list[int],
    power: float,
    heavy: float = 0.0,
    models: tuple[PlayModel, PlayModel] | None = None,
) -> float:
    """How well ``hands`` explain the plays, if every seat picked among its fitting tiles at random
    (``heavy`` > 0: with odds 1 + ``heavy`` x pips / 12, so heavier tiles likelier; ``models``: as
    the first :class:`PlayModel` says, a lead as the second): the product of the chances of the
    tiles played, to the ``power`` (0: every world alike)."""
    weight = 1.0
    if models is not None:
        plays, leads = models
        play_odds, lead_odds = plays.odds(), leads.odds()
    for seat, tile, fitting, later, opens, lead in evidence:
        held = hands[seat] | later
        options = held & fitting
        if models is not None:
            base, kept = lead_odds if lead else play_odds
            total = 0.0
            chosen = 0.0
            for index in tiles_of(options):
                rest = held & ~BIT[index]
                count = 0
                for mask in opens[index]:
                    shown = (rest & mask).bit_count()
                    if shown > count:
                        count = shown
                odds = base[index] * kept[count]
                total += odds
                if index == tile:
                    chosen = odds
            weight *= chosen / total
        elif heavy:
            total = 0.0
            for index in tiles_of(options):
                total += 1.0 + heavy * PIPS[index] / 12.0
            weight *= (1.0 + heavy * PIPS[tile] / 12.0) / total
        else:
            count = options.bit_count()
            if count > 1:
                weight /= count
    return weight**power if power != 1.0 else weight

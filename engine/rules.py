"""The rule parameters and the nine presets of RULES.md, as data.

A preset is one value of :class:`Rules`; a house rule is a new value, not new code:

>>> Rules.preset("draw").hand_size(4), Rules.preset("draw").target(3)
(6, 61)
>>> import dataclasses
>>> custom = dataclasses.replace(Rules.preset("block"), id="block7", hand_sizes={2: 7, 3: 7, 4: 7})
>>> custom.hand_size(4)
7
>>> import pickle
>>> pickle.loads(pickle.dumps(custom)) == custom
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType

from engine.errors import SeatCountError as SeatCountError  # their home was here
from engine.errors import UnknownPresetError as UnknownPresetError


class Starter(enum.Enum):
    """Who leads a round and with what (RULES.md, "Who starts")."""

    CLASSIC = "classic"  # 1-1, then 2-2 ... 6-6, then 0-0, else the heaviest tile; forced
    HIGHEST = "highest"  # 6-6 down to 0-0, else the heaviest tile; forced
    MATCH = "match"  # random seat in round 1, then the previous winner; any tile


class Boneyard(enum.Enum):
    NONE = "none"  # block: nobody draws
    DRAW = "draw"  # draw until playable (leaving ``Rules.reserve`` tiles untouched)


class InPlay(enum.Enum):
    NONE = "none"
    FIVES = "fives"  # open ends adding up to a positive multiple of 5 score at once


class RoundScoring(enum.Enum):
    NONE = "none"  # win / loss only
    OTHERS_MINUS_OWN = "others_minus_own"  # others' pips minus own, never below zero
    OTHERS_ROUNDED = "others_rounded"  # others' pips rounded to the nearest 5, nothing off
    ALL_HANDS = "all_hands"  # the winning side scores the pips in every hand, its own included
    LOSERS_OWN = "losers_own"  # every losing side is charged the pips in its own hands


class Teams(enum.Enum):
    """Who plays for whom (RULES.md, "Teams")."""

    NONE = "none"  # every seat for itself
    OPPOSITE = "opposite"  # partners sit opposite: seats 0+2 against 1+3, four seats only


class LaterStarter(enum.Enum):
    """Who leads the rounds after the first one."""

    OWN = "own"  # the starter rule's own: the deal (classic, highest) or the previous winner (match)
    NEXT_SEAT = "next_seat"  # the seat after the previous round's starter, any tile (partners)
    LAST_TILE = "last_tile"  # the seat that played the previous round's last tile, any tile (goat)


class FishTie(enum.Enum):
    """What a blocked round with a tie for the lowest pip count means."""

    SHARED_WIN = "shared_win"
    DRAW = "draw"
    NOBODY_SCORES = "nobody_scores"


class TopTie(enum.Enum):
    EXTRA_ROUND = "extra_round"  # a shared top score at the target means one more round


def _frozen(mapping: Mapping[int, int]) -> Mapping[int, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Rules:
    """Every parameter that tells one rule set from another."""

    id: str
    min_seats: int
    max_seats: int
    hand_sizes: Mapping[int, int]
    boneyard: Boneyard
    starter: Starter
    reserve: int = 0  # boneyard tiles that can never be drawn (hundred: 2)
    spinner: bool = False
    in_play: InPlay = InPlay.NONE
    round_scoring: RoundScoring = RoundScoring.NONE
    fish_tie: FishTie = FishTie.NOBODY_SCORES
    targets: Mapping[int, int] = field(default_factory=dict)  # empty: a single round
    top_tie: TopTie = TopTie.EXTRA_ROUND
    teams: Teams = Teams.NONE
    later_starter: LaterStarter = LaterStarter.OWN
    target_loses: bool = False  # the side that reaches the target loses the match (goat)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand_sizes", _frozen(self.hand_sizes))
        object.__setattr__(self, "targets", _frozen(self.targets))

    def __hash__(self) -> int:
        return hash(self.id)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Mapping proxies do not pickle; plain dicts do, and __post_init__ freezes them again.
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["hand_sizes"] = dict(self.hand_sizes)
        values["targets"] = dict(self.targets)
        return (_rules_from_fields, (values,))

    @staticmethod
    def preset(preset_id: str) -> Rules:
        try:
            return PRESETS[preset_id]
        except KeyError:
            known = ", ".join(PRESETS)
            raise UnknownPresetError(f"unknown preset {preset_id!r} (known: {known})") from None

    @property
    def forced_lead(self) -> bool:
        return self.starter is not Starter.MATCH

    def names_the_lead(self, round_index: int) -> bool:
        """Whether the rules name the tile that leads round ``round_index`` (from 0): a forced lead,
        the one legal move, which is placed by itself. Later rounds of a match whose later-round
        starter is the match's choice are led with any tile."""
        return self.forced_lead and (round_index == 0 or self.later_starter is LaterStarter.OWN)

    @property
    def draws(self) -> bool:
        return self.boneyard is Boneyard.DRAW

    @property
    def is_match(self) -> bool:
        """Whether the game is several rounds played up to a target."""
        return bool(self.targets)

    @property
    def has_teams(self) -> bool:
        return self.teams is not Teams.NONE

    def sides(self, seats: int) -> tuple[tuple[int, ...], ...]:
        """The sides of a game of ``seats``: one seat each, or the two teams (side ``n`` holds seat ``n``).

        >>> Rules.preset("goat").sides(4), Rules.preset("draw").sides(3)
        (((0, 2), (1, 3)), ((0,), (1,), (2,)))
        """
        if self.teams is Teams.OPPOSITE:
            return tuple(tuple(range(team, seats, 2)) for team in range(2))
        return tuple((seat,) for seat in range(seats))

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for: its team's number (its team's lower seat), or the seat itself."""
        return seat % 2 if self.teams is Teams.OPPOSITE else seat

    def check_seats(self, seats: int) -> None:
        if not self.min_seats <= seats <= self.max_seats:
            raise SeatCountError(f"{self.id} is played by {self.min_seats} to {self.max_seats} players, not {seats}")

    def hand_size(self, seats: int) -> int:
        self.check_seats(seats)
        return self.hand_sizes[seats]

    def target(self, seats: int) -> int | None:
        """Points that end a match, or None for a single-round game."""
        self.check_seats(seats)
        return self.targets.get(seats)


def _rules_from_fields(values: dict[str, object]) -> Rules:
    return Rules(**values)  # type: ignore[arg-type]


_SEVEN_THEN_FIVE = {2: 7, 3: 5, 4: 5}

PRESETS: Mapping[str, Rules] = MappingProxyType(
    {
        rules.id: rules
        for rules in (
            Rules(
                id="classic",
                min_seats=2,
                max_seats=4,
                hand_sizes=_SEVEN_THEN_FIVE,
                boneyard=Boneyard.DRAW,
                starter=Starter.CLASSIC,
                fish_tie=FishTie.SHARED_WIN,
            ),
            Rules(
                id="draw",
                min_seats=2,
                max_seats=4,
                hand_sizes={2: 7, 3: 7, 4: 6},
                boneyard=Boneyard.DRAW,
                starter=Starter.MATCH,
                round_scoring=RoundScoring.OTHERS_MINUS_OWN,
                targets={2: 100, 3: 61, 4: 61},
            ),
            Rules(
                id="block",
                min_seats=2,
                max_seats=4,
                hand_sizes=_SEVEN_THEN_FIVE,
                boneyard=Boneyard.NONE,
                starter=Starter.MATCH,
                round_scoring=RoundScoring.OTHERS_MINUS_OWN,
                targets={2: 100, 3: 61, 4: 61},
            ),
            Rules(
                id="fives",
                min_seats=2,
                max_seats=4,
                hand_sizes=_SEVEN_THEN_FIVE,
                boneyard=Boneyard.DRAW,
                starter=Starter.MATCH,
                spinner=True,
                in_play=InPlay.FIVES,
                round_scoring=RoundScoring.OTHERS_ROUNDED,
                targets={2: 150, 3: 150, 4: 150},
            ),
            Rules(
                id="quickblock",
                min_seats=2,
                max_seats=2,
                hand_sizes={2: 7},
                boneyard=Boneyard.NONE,
                starter=Starter.HIGHEST,
                fish_tie=FishTie.DRAW,
            ),
            Rules(
                id="duel",
                min_seats=2,
                max_seats=2,
                hand_sizes={2: 7},
                boneyard=Boneyard.DRAW,
                starter=Starter.HIGHEST,
                round_scoring=RoundScoring.OTHERS_MINUS_OWN,
                fish_tie=FishTie.DRAW,
            ),
            Rules(
                id="hundred",
                min_seats=2,
                max_seats=2,
                hand_sizes={2: 7},
                boneyard=Boneyard.DRAW,
                starter=Starter.HIGHEST,
                reserve=2,
                round_scoring=RoundScoring.OTHERS_MINUS_OWN,
                fish_tie=FishTie.DRAW,
                targets={2: 100},
            ),
            Rules(
                id="goat",
                min_seats=4,
                max_seats=4,
                hand_sizes={4: 7},
                boneyard=Boneyard.NONE,
                starter=Starter.CLASSIC,
                round_scoring=RoundScoring.LOSERS_OWN,
                targets={4: 101},
                teams=Teams.OPPOSITE,
                later_starter=LaterStarter.LAST_TILE,
                target_loses=True,
            ),
            Rules(
                id="partners",
                min_seats=4,
                max_seats=4,
                hand_sizes={4: 7},
                boneyard=Boneyard.NONE,
                starter=Starter.HIGHEST,
                round_scoring=RoundScoring.ALL_HANDS,
                targets={4: 200},
                teams=Teams.OPPOSITE,
                later_starter=LaterStarter.NEXT_SEAT,
            ),
        )
    }
)

_ONE_ROUND_4X7 = replace(PRESETS["block"], min_seats=4, max_seats=4, hand_sizes={4: 7}, targets={})
"""Block for four, 7 tiles each, one round: what the four-seat anchors share."""
_SIX_SIX_LEADS = replace(_ONE_ROUND_4X7, starter=Starter.HIGHEST)

# The games of two independent engines, as values of the same type: the differential tests and
# the benchmarks compare ours against them. Not offered to players.
ANCHORS: Mapping[str, Rules] = MappingProxyType(
    {
        rules.id: rules
        for rules in (
            # OpenSpiel's python_block_dominoes: 7 tiles each, 14 untouched; seat 0 leads any tile
            # (the match starter with first=0), one round.
            replace(PRESETS["block"], id="block-2x7", min_seats=2, max_seats=2, hand_sizes={2: 7}, targets={}),
            # PyPI dominoes: all 28 tiles dealt, the 6-6 holder leads it (placed by itself), one round.
            replace(_SIX_SIX_LEADS, id="block-4x7"),
            # PyPI dominoes' partnership game as it scores it: the same deal and lead, seats 0+2
            # against 1+3; the team that goes out scores every hand's pips, a blocked game goes to
            # the team with fewer pips (both teams' pips), an equal count is a tie.
            replace(
                _SIX_SIX_LEADS,
                id="team-block-4x7",
                round_scoring=RoundScoring.ALL_HANDS,
                fish_tie=FishTie.DRAW,
                teams=Teams.OPPOSITE,
            ),
            # OpenSpiel's python_team_dominoes: 4 seats, 7 tiles each, seats 0+2 against 1+3, seat 0
            # leads any tile, one round; a blocked game goes to the team with fewer pips, an equal
            # count is a tie. (OpenSpiel pays the losing team's pips and judges even a domino by
            # the pip counts; the win/loss of a domino differs only when the partner of the seat
            # that went out holds more than both opponents together, which its bridge notes.)
            replace(_ONE_ROUND_4X7, id="team-4x7", fish_tie=FishTie.DRAW, teams=Teams.OPPOSITE),
        )
    }
)

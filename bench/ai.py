"""How strong the computer players are: paired matches, win rates with 95 % intervals, margins, time.

Run from the repository root::

    .venv/bin/python -m bench.ai                       # everything, 400 games a pairing (an hour or more)
    .venv/bin/python -m bench.ai --games 40            # a quick look
    .venv/bin/python -m bench.ai --only openspiel dominoes

Pairings (the first player named is the one whose win rate is reported):

- ``openspiel``: ``hard`` against OpenSpiel's Python information-set MCTS
  (``ISMCTSBot``, 200 simulations, random rollouts, a resampler that uses only
  its own information; see ``bench/bridges.py``) on ``python_block_dominoes``:
  2 seats, 7 tiles each, 14 untouched, seat 0 leads, one round. Aim: 58 %
  over 1,000 games (``--games 1000``).
- ``dominoes``: ``hard`` against PyPI ``dominoes``' ``double`` heuristic with
  ``probabilistic_alphabeta`` over sampled hands, 4 seats of block with all 28
  tiles dealt (the 6-6 leads), one round; each player holds two seats in
  alternation (0 and 2, or 1 and 3) and every seat scores for itself: a game is
  won by the player whose seat wins the round. Aim: 55 %. (Its partnership
  scoring is ``teams:dominoes`` below.)
- Partnership play (4 seats, teams 0+2 and 1+3; the first player named holds
  seats 0 and 2 in one game of a deal and 1 and 3 in the other; a game is
  won by a team). Single rounds, not whole matches (a match of ``partners``
  to 200 is five rounds or more, which 400 games a pairing could not afford):

  - ``partners:medium-hard``, ``goat:medium-hard``: ``hard`` + ``hard`` against
    ``medium`` + ``medium``, one round of the preset (its target dropped).
    Aim: 65 %.
  - ``teams:openspiel``: ``hard`` + ``hard`` against OpenSpiel's IS-MCTS (200
    simulations, random rollouts) on ``python_team_dominoes`` (our
    ``team-4x7``: 7 tiles each, seat 0 leads any tile, no boneyard). Aim: 58 %.
  - ``teams:dominoes``: ``hard`` + ``hard`` against PyPI ``dominoes``' ``double``
    + ``probabilistic_alphabeta`` on its partnership block game scored for the
    teams (our ``team-block-4x7``). Aim: 58 %.
  - ``partners:blind-aware``, ``goat:blind-aware``: a team-aware ``hard``
    against a team-blind copy (``Hard(team_aware=False)``, which values the
    round as if every seat played for itself). Aim: 55 %.

- ``draw:easy-medium``, ``draw:medium-hard``, ``fives:easy-medium``,
  ``fives:medium-hard``: whole matches (to 100 or 150) of the stronger level
  against the weaker. Aim: 60 % each.

Every deal is played twice with the seats swapped, so luck of the deal cancels
out: a *deal* scores 0, ½, 1, 1½ or 2 for the first player, and the 95 %
interval is the normal one over deals (draws, possible in single rounds, count
half). The margin is the first player's mean score minus the second's, per
game (points of the round for single rounds, of the match otherwise; in
``goat``, where points are charges, the other way round). Time per
move counts only real choices (more than one legal move); the machine is
shared, so p50 and p95 come from every move of the run, as wall-clock time and
as the process's CPU time (what the move would take on a quiet machine; a
player's threads aside, the two differ only by the wait for a core).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from engine import Match, Rules
from engine.players import Easy, Hard, Medium, Player


class Pairing(NamedTuple):
    name: str
    title: str
    rules: Rules
    seats: int
    first: Callable[[], Player]  # the player whose results are reported
    second: Callable[[], Player]
    leader: int | None = None  # the seat that leads the first round (None: drawn at random)


class Tally:
    """Results of one pairing so far."""

    def __init__(self) -> None:
        self.deal_scores: list[float] = []  # 0..2 per deal, for the first player
        self.margins: list[float] = []  # per game
        self.times: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}  # the process's CPU time per move: what a quiet machine would take

    @property
    def games(self) -> int:
        return len(self.margins)

    def win_rate(self) -> tuple[float, float]:
        """The first player's share of games won, and the half width of its 95 % interval."""
        rates = [score / 2 for score in self.deal_scores]
        mean = statistics.fmean(rates)
        if len(rates) < 2:
            return mean, math.nan
        return mean, 1.96 * statistics.stdev(rates) / math.sqrt(len(rates))

    def margin(self) -> tuple[float, float]:
        pairs = [sum(self.margins[i : i + 2]) / 2 for i in range(0, len(self.margins), 2)]
        mean = statistics.fmean(pairs)
        if len(pairs) < 2:
            return mean, math.nan
        return mean, 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _duration(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} µs" if seconds < 0.001 else f"{seconds * 1000:.1f} ms"


def play(pairing: Pairing, deal_seed: str, first_at_even: bool, players: tuple[Player, Player], tally: Tally) -> float:
    """One game (a match, or a single round); the first player's result (1, ½ or 0) and margin."""
    rules = pairing.rules
    seats = pairing.seats
    deals = random.Random(deal_seed)
    leader = None if rules.forced_lead else (pairing.leader if pairing.leader is not None else deals.randrange(seats))
    game = Match.new(rules, seats, deals, leader)
    ours = [(seat % 2 == 0) == first_at_even for seat in range(seats)]
    movers = [players[0] if ours[seat] else players[1] for seat in range(seats)]
    chance = [random.Random(f"{deal_seed} {first_at_even} {seat}") for seat in range(seats)]
    while not game.is_over:
        state = game.round
        if state.is_over:
            game = game.deal_next(deals)
            continue
        automatic = state.auto_move()
        if automatic is not None:
            game = game.apply(automatic)
            continue
        seat = state.turn
        seen = game.observe(seat)
        started = time.perf_counter()
        computed = time.process_time()
        move = movers[seat].choose(seen, chance[seat])
        spent = time.perf_counter() - started
        computed = time.process_time() - computed
        if len(seen.legal_moves()) > 1:
            tally.times.setdefault(movers[seat].level, []).append(spent)
            tally.cpu.setdefault(movers[seat].level, []).append(computed)
        game = game.apply(move, seat)
    if rules.is_match:
        scores = list(game.scores)
    else:
        outcome = game.round.outcome()
        assert outcome is not None
        scores = [fives + points for fives, points in zip(outcome.fives, outcome.points, strict=True)]
    winner = game.winner  # a side: a seat, or a team; None for a draw or a shared win
    result = 0.5 if winner is None else float(ours[rules.sides(seats)[winner][0]])
    mine = [score for seat, score in enumerate(scores) if ours[seat]]
    theirs = [score for seat, score in enumerate(scores) if not ours[seat]]
    sign = -1.0 if rules.target_loses else 1.0  # goat's points are charges
    tally.margins.append(sign * (statistics.fmean(mine) - statistics.fmean(theirs)))
    return result


def run(pairing: Pairing, games: int, seed: int, progress: int) -> Tally:
    tally = Tally()
    players = (pairing.first(), pairing.second())
    deals = (games + 1) // 2
    started = time.perf_counter()
    for deal in range(deals):
        deal_seed = f"{seed} {pairing.name} {deal}"
        score = play(pairing, deal_seed, True, players, tally) + play(pairing, deal_seed, False, players, tally)
        tally.deal_scores.append(score)
        if progress and ((deal + 1) % progress == 0 or deal + 1 == deals):
            rate, half = tally.win_rate()
            print(
                f"  {pairing.name}: {tally.games} games, {rate:.1%} ± {half:.1%}, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    return tally


def pairings(args: argparse.Namespace) -> list[Pairing]:
    from bench.bridges import (
        BLOCK_2X7,
        BLOCK_4X7,
        TEAM_4X7,
        TEAM_BLOCK_4X7,
        DominoesSearch,
        OpenSpielISMCTS,
        OpenSpielTeamISMCTS,
    )

    def openspiel() -> Player:
        return OpenSpielISMCTS(simulations=args.openspiel_simulations, uct_c=args.uct_c)

    def openspiel_team() -> Player:
        return OpenSpielTeamISMCTS(simulations=args.openspiel_simulations, uct_c=args.uct_c)

    def dominoes() -> Player:
        return DominoesSearch(sample_size=args.dominoes_samples, start_move=args.dominoes_start)

    def team_blind() -> Player:
        return Hard(team_aware=False)

    partners_round = replace(Rules.preset("partners"), id="partners-round", targets={})
    goat_round = replace(Rules.preset("goat"), id="goat-round", targets={})
    found = [
        Pairing("openspiel", "hard vs OpenSpiel IS-MCTS (2-seat block, 1 round)", BLOCK_2X7, 2, Hard, openspiel, 0),
        Pairing("dominoes", "hard vs dominoes alpha-beta (4-seat block, 1 round)", BLOCK_4X7, 4, Hard, dominoes),
        Pairing(
            "partners:medium-hard",
            "hard+hard vs medium+medium (partners, 1 round)",
            partners_round,
            4,
            Hard,
            Medium,
        ),
        Pairing("goat:medium-hard", "hard+hard vs medium+medium (goat, 1 round)", goat_round, 4, Hard, Medium),
        Pairing(
            "teams:openspiel",
            "hard+hard vs OpenSpiel IS-MCTS (team dominoes, 4 seats, 1 round)",
            TEAM_4X7,
            4,
            Hard,
            openspiel_team,
            0,
        ),
        Pairing(
            "teams:dominoes",
            "hard+hard vs dominoes alpha-beta (partnership block, 1 round)",
            TEAM_BLOCK_4X7,
            4,
            Hard,
            dominoes,
        ),
        Pairing(
            "partners:blind-aware",
            "team-aware hard vs team-blind hard (partners, 1 round)",
            partners_round,
            4,
            Hard,
            team_blind,
        ),
        Pairing(
            "goat:blind-aware",
            "team-aware hard vs team-blind hard (goat, 1 round)",
            goat_round,
            4,
            Hard,
            team_blind,
        ),
    ]
    for preset in ("draw", "fives"):
        rules = Rules.preset(preset)
        seats = args.seats
        found.append(
            Pairing(
                f"{preset}:easy-medium",
                f"medium vs easy ({preset}, {seats} seats, matches)",
                rules,
                seats,
                Medium,
                Easy,
            )
        )
        found.append(
            Pairing(
                f"{preset}:medium-hard",
                f"hard vs medium ({preset}, {seats} seats, matches)",
                rules,
                seats,
                Hard,
                Medium,
            )
        )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per pairing (even: each deal twice)")
    parser.add_argument("--only", nargs="*", help="pairings to run (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=2, help="seats in the draw and fives matches between levels")
    parser.add_argument("--openspiel-simulations", type=int, default=200)
    parser.add_argument("--uct-c", type=float, default=10.0, help="IS-MCTS exploration (10 beat 2 and 40 vs medium)")
    parser.add_argument(
        "--dominoes-samples", type=int, default=20, help="hands sampled per probabilistic_alphabeta call"
    )
    parser.add_argument("--dominoes-start", type=int, default=6, help="moves played before its search starts")
    parser.add_argument("--progress", type=int, default=20, help="print a line every this many deals (0: never)")
    args = parser.parse_args()
    chosen = [p for p in pairings(args) if not args.only or p.name in args.only]
    if not chosen:
        parser.error(f"no pairing named {args.only}")
    rows = []
    for pairing in chosen:
        print(f"{pairing.title}: {args.games} games", flush=True)
        tally = run(pairing, args.games, args.seed, args.progress)
        rows.append((pairing, tally))
    print()
    print("| pairing | games | win rate (95 % CI) | margin per game (95 % CI) | time per move p50 / p95 (CPU) |")
    print("|---|---|---|---|---|")
    for pairing, tally in rows:
        rate, half = tally.win_rate()
        margin, margin_half = tally.margin()
        times = "; ".join(
            f"{level} {_duration(percentile(spent, 0.5))} / {_duration(percentile(spent, 0.95))}"
            f" (CPU {_duration(percentile(tally.cpu[level], 0.5))} / {_duration(percentile(tally.cpu[level], 0.95))})"
            for level, spent in sorted(tally.times.items())
        )
        cells = [
            pairing.title,
            str(tally.games),
            f"{rate:.1%} ± {half:.1%}",
            f"{margin:+.1f} ± {margin_half:.1f}",
            times,
        ]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Random self-play speed: our engine against OpenSpiel's ``python_block_dominoes`` and PyPI ``dominoes``.

Run from the repository root::

    .venv/bin/python -m bench.engine                 # about a minute
    .venv/bin/python -m bench.engine --seconds 1 --repeats 1
    .venv/bin/python -m bench.engine --games 2000    # a fixed number of games per run instead
    .venv/bin/python -m bench.engine --profile       # where our engine spends its time (cProfile)

Two kinds of game, each played by the engines that have it:

- 2-seat block, 7 tiles each, 14 untouched, seat 0 leads any tile: ours and OpenSpiel.
- 4-seat block, all 28 tiles dealt, the 6-6 holder leads 6-6: ours and ``dominoes``.

Our core (``engine/core.py``) runs compiled by mypyc where ``pip install`` built it, else as plain
Python (``DOMINOES_PURE_PYTHON=1`` asks for that: compare the two); the first line says which.
Ours is measured twice: through the public API (``RoundState``, what people who build
their own players use) and through the simulator (``Sim``, the mutable view of the same
core that the ``hard`` player searches with). The summary prints both ratios against
each anchor.

Every engine is driven the way its own users drive it, with moves chosen by a
seeded :class:`random.Random` (``rng.choice`` over the engine's own list of
legal moves), and deals made by the engine itself:

- ours: ``RoundState.deal(rules, seats, rng)``, ``legal_moves()``, ``apply(move)``;
- OpenSpiel: ``game.new_initial_state()``, each chance outcome sampled from
  ``chance_outcomes()`` (uniform, so ``rng.choice`` samples it exactly),
  ``legal_actions()``, ``apply_action``;
- ``dominoes``: ``Game.new(starting_domino=6-6)`` (it shuffles with the global
  ``random``, seeded here), ``valid_moves``, ``make_move``.

Each measurement is repeated (``--repeats``) with the engines interleaved, and
the best run is reported, as ``timeit`` does: on a shared machine the slower
runs measure the neighbours.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.metadata
import io
import platform
import pstats
import random
import sys
import time
from collections.abc import Callable
from typing import NamedTuple

import engine.core
from engine import RoundState, Rules
from engine.rules import ANCHORS

BLOCK_2X7 = ANCHORS["block-2x7"]
"""OpenSpiel's ``python_block_dominoes`` as one of our rules values (seat 0 leads: ``first=0``)."""

BLOCK_4X7 = ANCHORS["block-4x7"]
"""PyPI ``dominoes``' game as one of our rules values."""

PlayOne = Callable[[], int]
"""Plays one random game and returns the number of tiles played in it."""


class Contender(NamedTuple):
    kind: str  # the kind of game, shared by the engines compared on it
    name: str
    make: Callable[[int], PlayOne]  # seed -> a function that plays one random game


# --- the three engines, each as its own users would drive it ---------------------------------


def ours(rules: Rules, seats: int, first: int | None) -> Callable[[int], PlayOne]:
    def make(seed: int) -> PlayOne:
        rng = random.Random(seed)
        choice = rng.choice

        def play_one() -> int:
            state = RoundState.deal(rules, seats, rng, first)
            plays = 0
            while state.end is None:
                state = state.apply(choice(state.legal_moves()))
                plays += 1
            return plays

        return play_one

    return make


def ours_simulator(rules: Rules, seats: int, first: int | None) -> Callable[[int], PlayOne]:
    """The same games through the engine's simulator: the mutable, bit-mask model of a round that
    the ``hard`` player searches with, checked move by move against RoundState in its tests."""
    from engine.players.sim import Sim

    def make(seed: int) -> PlayOne:
        rng = random.Random(seed)
        choice = rng.choice

        def play_one() -> int:
            sim = Sim.deal(rules, seats, rng, first)
            plays = 0
            while not sim.over:
                sim.play(choice(sim.moves()))
                plays += 1
            return plays

        return play_one

    return make


def openspiel_block() -> Callable[[int], PlayOne] | str:
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401 - registers it
    except ModuleNotFoundError as missing:
        return f"not installed ({missing.name})"
    game = pyspiel.load_game("python_block_dominoes")

    def make(seed: int) -> PlayOne:
        rng = random.Random(seed)
        choice = rng.choice

        def play_one() -> int:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    action, _probability = choice(state.chance_outcomes())
                else:
                    action = choice(state.legal_actions())
                state.apply_action(action)
            return len(state.actions_history)

        return play_one

    return make


def dominoes_package() -> Callable[[int], PlayOne] | str:
    try:
        import dominoes
    except ModuleNotFoundError as missing:
        return f"not installed ({missing.name})"
    six_six = dominoes.Domino(6, 6)

    def make(seed: int) -> PlayOne:
        rng = random.Random(seed)
        choice = rng.choice
        random.seed(seed)  # dominoes deals with the global random

        def play_one() -> int:
            game = dominoes.Game.new(starting_domino=six_six)
            while game.result is None:
                game.make_move(*choice(game.valid_moves))
            return len(game.board)

        return play_one

    return make


# --- measuring -------------------------------------------------------------------------------


class Rate(NamedTuple):
    games_per_second: float
    plays_per_game: float
    games: int


def measure(play_one: PlayOne, seconds: float, games: int | None) -> Rate:
    """Games per second over ``games`` games, or over as many as fit in ``seconds``."""
    for _ in range(20):  # warm up caches and lazy imports
        play_one()
    played = plays = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        plays += play_one()
        played += 1
        if games is not None:
            if played >= games:
                break
        elif clock() >= deadline:
            break
    elapsed = clock() - start
    return Rate(played / elapsed, plays / played, played)


def contenders() -> tuple[list[Contender], list[str]]:
    available = [
        Contender("2-seat block", f"ours ({BLOCK_2X7.id})", ours(BLOCK_2X7, 2, 0)),
        Contender("4-seat block", f"ours ({BLOCK_4X7.id})", ours(BLOCK_4X7, 4, None)),
        Contender("2-seat block", f"ours, simulator ({BLOCK_2X7.id})", ours_simulator(BLOCK_2X7, 2, 0)),
        Contender("4-seat block", f"ours, simulator ({BLOCK_4X7.id})", ours_simulator(BLOCK_4X7, 4, None)),
    ]
    missing = []
    for kind, name, make in (
        ("2-seat block", "OpenSpiel python_block_dominoes", openspiel_block()),
        ("4-seat block", "dominoes", dominoes_package()),
    ):
        if isinstance(make, str):
            missing.append(f"{name}: {make}")
        else:
            available.append(Contender(kind, name, make))
    available.sort(key=lambda contender: contender.kind)
    return available, missing


def version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def run(seconds: float, games: int | None, repeats: int, seed: int) -> dict[str, Rate]:
    available, missing = contenders()
    budget = f"{games} games" if games is not None else f"~{seconds:g} s"
    print(
        f"Random self-play, games per second: best of {repeats} run(s) of {budget} per engine; "
        f"Python {platform.python_version()}, open_spiel {version('open_spiel')}, dominoes {version('dominoes')}; "
        f"our core {'compiled (mypyc)' if engine.core.COMPILED else 'plain Python'}"
    )
    for line in missing:
        print(f"  skipped {line}")
    best: dict[str, Rate] = {}
    for repeat in range(repeats):
        for contender in available:  # interleaved, so that a busy moment does not hit one engine only
            rate = measure(contender.make(seed + repeat), seconds, games)
            if contender.name not in best or rate.games_per_second > best[contender.name].games_per_second:
                best[contender.name] = rate
    print(f"\n{'game':<14} {'engine':<36} {'games/s':>9} {'plays/game':>11} {'games':>7}")
    for contender in available:
        rate = best[contender.name]
        print(
            f"{contender.kind:<14} {contender.name:<36} {rate.games_per_second:>9.0f} "
            f"{rate.plays_per_game:>11.1f} {rate.games:>7}"
        )
    print("\nRatios (games per second, best run of each engine, measured side by side in this run):")
    for kind, theirs, goal in (
        ("2-seat block", "OpenSpiel python_block_dominoes", 10),
        ("4-seat block", "dominoes", 3),
    ):
        if theirs not in best:
            continue
        public, simulator = (
            next(c.name for c in available if c.kind == kind and c.name.startswith(prefix))
            for prefix in ("ours (", "ours, simulator")
        )
        api = best[public].games_per_second / best[theirs].games_per_second
        sim = best[simulator].games_per_second / best[theirs].games_per_second
        verdict = "met" if api >= goal else "NOT met"
        print(
            f"  {kind} against {theirs}: public API (RoundState) {api:.2f}x (goal {goal}x: {verdict}); "
            f"simulator (Sim) {sim:.2f}x"
        )
    return best


def profile(games: int, seed: int) -> None:
    """cProfile our random-game loop for each kind of game and print where the time goes."""
    for rules, seats, first in ((BLOCK_2X7, 2, 0), (BLOCK_4X7, 4, None)):
        play_one = ours(rules, seats, first)(seed)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(games):
            play_one()
        profiler.disable()
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.strip_dirs().sort_stats("tottime").print_stats(18)
        print(f"=== ours, {rules.id}, {games} games, sorted by own time ===")
        print(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=4.0, help="time per engine per run (default 4)")
    parser.add_argument("--games", type=int, default=None, help="a fixed number of games per run instead of --seconds")
    parser.add_argument("--repeats", type=int, default=3, help="runs per engine; the best counts (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random.Random (default 1)")
    parser.add_argument("--profile", action="store_true", help="cProfile our engine's game loop instead")
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.games or 3000, args.seed)
    else:
        run(args.seconds, args.games, max(1, args.repeats), args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())

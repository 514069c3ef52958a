"""How long a 🎬 replay takes to draw and encode, and how big it is (aims: the longest match of any
preset within 10 s, at most 10 MB); and how long a 📈 review of seat 0 takes (aim: a whole
150-point ``fives`` match within 5 s).

Run from the repository root::

    .venv/bin/python -m bench.replay              # about a minute
    .venv/bin/python -m bench.replay --games 5

For every preset and seat count, ``--games`` matches are played by medium players (seeded); the
shortest and the longest (by steps: deals, plays, round ends) are drawn with
:func:`renderer.replay.steps` and encoded with :func:`renderer.replay.encode_animation`, as the
bot's replay worker does, one at a time in this process; seat 0's moves are then reviewed
(:func:`engine.review.review`), as the same worker does.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from engine import PRESETS, Match, write_record
from engine.review import review
from renderer.replay import encode_animation, steps
from testkit.positions import played_out

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def step_count(game: Match) -> int:
    return sum(2 + len(state.plays()) for state in game.rounds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=12, help="matches played per preset and seat count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    worst = (0.0, "")
    slowest_review = (0.0, "")
    print(f"{'game':<22} {'steps':>5} {'length':>7} {'draw':>6} {'encode':>7} {'size':>9} {'review':>7}  format")
    for preset, rules in PRESETS.items():
        for seats in range(rules.min_seats, rules.max_seats + 1):
            games = sorted((played_out(rules, seats, rng) for _ in range(args.games)), key=step_count)
            for label, game in (("shortest", games[0]), ("longest", games[-1])):
                started = time.perf_counter()
                frames = steps(write_record(game), NAMES[:seats])
                drawn = time.perf_counter()
                animation = encode_animation(frames)
                done = time.perf_counter()
                review(write_record(game), 0)
                reviewed = time.perf_counter() - done
                name = f"{preset} {seats} seats {label}"
                print(
                    f"{name:<22} {len(frames):>5} {animation.seconds:>6.0f}s {drawn - started:>5.2f}s"
                    f" {done - drawn:>6.2f}s {len(animation.data) / 1024:>7.0f} KB {reviewed:>6.2f}s"
                    f"  {animation.format} {animation.width}x{animation.height}"
                )
                worst = max(worst, (done - started, name))
                slowest_review = max(slowest_review, (reviewed, name))
    print(f"slowest replay: {worst[1]}, {worst[0]:.2f} s to draw and encode")
    print(f"slowest review: {slowest_review[1]}, {slowest_review[0]:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m engine suggest`` (RECORD.md, "Suggest")."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import Match, Rules, read_record, replay, write_record
from engine.players import LEVELS, Medium
from engine.suggest import answer, answer_line, serve

ROOT = Path(__file__).resolve().parents[2]


def position(preset: str, seats: int, plays: int, seed: int = 0) -> Match:
    rng = random.Random(seed)
    rules = Rules.preset(preset)
    game = Match.new(rules, seats, rng, None if rules.forced_lead else 0)
    for _ in range(plays):
        game = game.apply(Medium().choose(game.observe(game.round.turn), rng))
    return game


def request(game: Match, level: str = "medium", seed: int = 7, **changes: Any) -> dict[str, Any]:
    return {"record": write_record(game), "seat": game.round.turn, "level": level, "seed": seed, **changes}


@pytest.mark.parametrize("level", LEVELS)
def test_the_answer_is_a_legal_play_that_can_be_appended(level: str) -> None:
    game = position("fives", 3, 4)
    reply = answer(request(game, level))
    assert set(reply) == {"tile", "end"}
    record = write_record(game)
    record["rounds"][-1]["plays"].append({"seat": game.round.turn, **reply})
    after = replay(read_record(record))
    assert len(after.round.plays()) == 5


def test_a_lead_has_no_end() -> None:
    game = position("block", 2, 0)
    reply = answer(request(game))
    assert set(reply) == {"tile"}
    assert reply["tile"] in {str(tile) for tile in game.round.hands[game.round.turn]}


def test_the_same_seed_gives_the_same_answer() -> None:
    game = position("draw", 2, 5, seed=3)
    for level in LEVELS:
        assert answer(request(game, level, seed=11)) == answer(request(game, level, seed=11))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"level": "expert"}, "unknown level"),
        ({"seat": "1"}, "seat must be"),
        ({"seat": 5}, "not one of the 2 seats"),
        ({"seed": 1.5}, "seed must be"),
        ({"record": {"format": "nope"}}, "record:"),
    ],
)
def test_bad_requests_get_an_error(change: dict[str, Any], message: str) -> None:
    reply = answer(request(position("draw", 2, 3), **change))
    assert set(reply) == {"error"}
    assert message in reply["error"]


def test_not_that_seats_turn() -> None:
    game = position("draw", 2, 3)
    reply = answer(request(game, seat=1 - game.round.turn))
    assert "to play, not seat" in reply["error"]


def test_a_finished_round_has_no_move() -> None:
    rng = random.Random(2)
    game = Match.new(Rules.preset("classic"), 2, rng)
    while not game.round.is_over:
        game = game.apply(rng.choice(game.round.legal_moves()))
    reply = answer(request(game, seat=0))
    assert "over" in reply["error"]


def test_bad_lines_do_not_stop_the_session() -> None:
    good = json.dumps(request(position("block", 2, 2)))
    out = io.StringIO()
    serve(iter([good + "\n", "{not json\n", "[1, 2]\n", "\n", good + "\n"]), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(replies) == 5
    assert "tile" in replies[0] and replies[0] == replies[4]
    assert all(set(reply) == {"error"} for reply in replies[1:4])
    assert answer_line("null")["error"].startswith("a request is")


def test_the_command_line_answers_line_by_line() -> None:
    game = position("duel", 2, 3, seed=5)
    lines = [json.dumps(request(game, "easy")), "oops", json.dumps(request(game, "hard", seed=1))]
    done = subprocess.run(
        [sys.executable, "-m", "engine", "suggest"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == 3
    assert "tile" in replies[0] and "error" in replies[1] and "tile" in replies[2]
    assert replies[2] == answer(request(game, "hard", seed=1))


def test_answers_do_not_depend_on_the_process() -> None:
    """Reproducible across processes too: nothing hangs on hash order (PYTHONHASHSEED)."""
    games = [position("fives", 3, 6, seed=8), position("draw", 2, 9, seed=9), position("block", 4, 4, seed=10)]
    lines = "".join(json.dumps(request(game, level, seed=4)) + "\n" for game in games for level in LEVELS)
    outputs = []
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-m", "engine", "suggest"],
            input=lines,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert all("tile" in json.loads(line) for line in outputs[0].splitlines())

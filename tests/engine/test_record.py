"""Reading, validating, writing and replaying game records (RECORD.md)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from engine import Match, RecordError, Rules, loads, read_record, replay, summary, write_record


def _record() -> dict[str, Any]:
    """A legal 2-seat draw round: S0 leads 6-6, S1 answers 6-5."""
    return {
        "format": "dominoes-record/1",
        "preset": "draw",
        "seats": 2,
        "rounds": [
            {
                "hands": [
                    ["6-6", "5-4", "3-1", "2-2", "0-0", "6-1", "4-4"],
                    ["6-5", "5-5", "3-3", "2-0", "1-1", "6-3", "4-2"],
                ],
                "boneyard": [
                    "6-4",
                    "6-2",
                    "6-0",
                    "5-3",
                    "5-2",
                    "5-1",
                    "5-0",
                    "4-3",
                    "4-1",
                    "4-0",
                    "3-2",
                    "3-0",
                    "2-1",
                    "1-0",
                ],
                "first": 0,
                "plays": [{"seat": 0, "tile": "6-6"}, {"seat": 1, "tile": "6-5", "end": "right"}],
            }
        ],
    }


def _error(data: Any) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replay(read_record(data))
    return caught.value


def test_a_legal_record_replays() -> None:
    match = replay(read_record(_record()))
    assert len(match.round.line) == 2
    assert summary(match)["rounds"][0]["end"] == "unfinished"


def test_unknown_fields_are_ignored() -> None:
    data = _record()
    data["names"] = ["Ann", "Борис"]
    data["rounds"][0]["started"] = "2026-11-30"
    data["rounds"][0]["plays"][0]["ms"] = 1200
    assert replay(read_record(data)) == replay(read_record(_record()))


def test_tiles_may_be_written_low_half_first() -> None:
    data = _record()
    data["rounds"][0]["plays"][1]["tile"] = "5-6"
    assert replay(read_record(data)) == replay(read_record(_record()))


@pytest.mark.parametrize(
    ("mutate", "code", "where"),
    [
        (lambda d: d.update(preset="chess"), "unknown_preset", "record"),
        (lambda d: d.update(format="dominoes-record/2"), "bad_format", "record"),
        (lambda d: d.pop("format"), "bad_format", "record"),
        (lambda d: d.update(seats=5), "bad_seats", "record"),
        (lambda d: d.update(seats="2"), "bad_record", "record"),
        (lambda d: d.update(seats=True), "bad_record", "record"),
        (lambda d: d.update(rounds=[]), "bad_record", "record"),
        (lambda d: d.update(seats=3), "bad_deal", "round 0"),
        (lambda d: d["rounds"][0]["hands"][0].__setitem__(0, "6-5"), "bad_deal", "round 0"),
        (lambda d: d["rounds"][0]["boneyard"].pop(), "bad_deal", "round 0"),
        (lambda d: d["rounds"][0]["boneyard"].append("7-1"), "bad_tile", "round 0"),
        (lambda d: d["rounds"][0]["hands"][1].append(d["rounds"][0]["boneyard"].pop()), "bad_deal", "round 0"),
        (lambda d: d["rounds"][0].pop("first"), "missing_first", "round 0"),
        (lambda d: d["rounds"][0].update(first=2), "bad_deal", "round 0"),
        (lambda d: d["rounds"][0]["plays"][1].update(end="sideways"), "bad_end", "round 0 play 1"),
        (lambda d: d["rounds"][0]["plays"][1].update(end="left"), None, None),
        (lambda d: d["rounds"][0]["plays"][1].update(end="up"), "end_not_open", "round 0 play 1"),
        (lambda d: d["rounds"][0]["plays"][1].update(tile="5-5"), "does_not_fit", "round 0 play 1"),
        (lambda d: d["rounds"][0]["plays"][1].update(tile="6-4"), "not_in_hand", "round 0 play 1"),
        (lambda d: d["rounds"][0]["plays"][1].update(seat=0), "out_of_turn", "round 0 play 1"),
        (lambda d: d["rounds"][0]["plays"][1].update(seat=1.0), "bad_record", "round 0 play 1"),
        (lambda d: d["rounds"][0]["plays"][1].pop("tile"), "bad_tile", "round 0 play 1"),
        (lambda d: d["rounds"][0]["plays"].__setitem__(0, "6-6"), "bad_record", "round 0 play 0"),
    ],
)
def test_broken_records_name_the_place_and_the_reason(mutate: Any, code: str | None, where: str | None) -> None:
    data = _record()
    mutate(data)
    if code is None:  # a control: a legal change must still replay
        replay(read_record(data))
        return
    error = _error(data)
    assert (error.code, error.where) == (code, where)
    assert str(error).startswith(f"{where}: {code}: ")


def test_forced_lead_of_another_tile_is_refused() -> None:
    data = _record()
    data["preset"] = "duel"
    del data["rounds"][0]["first"]
    data["rounds"][0]["plays"] = [{"seat": 0, "tile": "4-4"}]
    error = _error(data)
    assert (error.code, error.where) == ("forced_lead", "round 0 play 0")


def test_first_that_contradicts_a_forced_starter_is_refused() -> None:
    data = _record()
    data["preset"] = "duel"
    data["rounds"][0]["first"] = 1  # 6-6 is in seat 0's hand
    error = _error(data)
    assert (error.code, error.where) == ("wrong_first", "round 0")


def _finished_duel() -> dict[str, Any]:
    rng = random.Random(11)
    match = Match.new(Rules.preset("duel"), 2, rng)
    while not match.is_over:
        match = match.apply(rng.choice(match.round.legal_moves()))
    return write_record(match)


def test_a_play_after_the_round_is_over_is_refused() -> None:
    data = _finished_duel()
    plays = data["rounds"][0]["plays"]
    plays.append(dict(plays[-1]))
    error = _error(data)
    assert (error.code, error.where) == ("game_over", f"round 0 play {len(plays) - 1}")


def test_a_round_after_the_game_is_over_is_refused() -> None:
    data = _finished_duel()
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))
    error = _error(data)
    assert (error.code, error.where) == ("game_over", "round 1")


def test_a_round_after_an_unfinished_round_is_refused() -> None:
    data = _record()
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))
    error = _error(data)
    assert (error.code, error.where) == ("round_not_over", "round 1")


def test_json_text_that_is_not_a_record() -> None:
    with pytest.raises(RecordError) as caught:
        loads("[1, 2, 3]")
    assert caught.value.code == "bad_record"
    with pytest.raises(RecordError) as caught:
        loads("{")
    assert caught.value.code == "bad_json"


@pytest.mark.parametrize("preset", ["classic", "draw", "block", "fives", "quickblock", "duel", "hundred"])
def test_written_records_replay_to_the_same_game(preset: str) -> None:
    rules = Rules.preset(preset)
    for seats in range(rules.min_seats, rules.max_seats + 1):
        rng = random.Random(seats)
        match = Match.new(rules, seats, rng)
        while not match.is_over:
            if match.round.is_over:
                match = match.deal_next(rng)
            match = match.apply(rng.choice(match.round.legal_moves()))
        data = write_record(match, extra={"names": ["a"] * seats})
        again = replay(loads(json.dumps(data)))
        assert again == match
        assert summary(again) == summary(match)
        assert data["names"] == ["a"] * seats

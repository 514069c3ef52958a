"""The examples of docs/record.md do what the page shows: each record replays to the output under it
(through ``python -m engine replay``, as a reader would run it), and the suggest request gets the
answer shown.  A change to the engine that changes one of them fails here, not silently on the page."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.conftest import REPO

RECORD_PAGE = REPO / "docs" / "record.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", flags=re.MULTILINE | re.DOTALL)
REPLAY = re.compile(r"python -m engine replay (\S+)")


class Block(NamedTuple):
    language: str
    text: str


def _blocks(page: str) -> list[Block]:
    return [Block(language, text) for language, text in FENCE.findall(page)]


def _run(command: list[str], stdin: str | None = None, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command], input=stdin, capture_output=True, text=True, cwd=cwd, timeout=120
    )


class Session(NamedTuple):
    """One console block: the commands after ``$ `` and what each printed."""

    commands: list[tuple[str, list[str]]]


def _session(text: str) -> Session:
    commands: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            assert commands, f"output before any command in a console block:\n{text}"
            commands[-1][1].append(line)
    return Session(commands)


def _replays(page: str) -> list[tuple[dict[str, Any], Session]]:
    """Every console block with the record written above it (the last JSON block with a format)."""
    pairs = []
    record: dict[str, Any] | None = None
    for block in _blocks(page):
        if block.language == "json":
            data = json.loads(block.text)
            if "format" in data:
                record = data
        elif block.language == "console":
            assert record is not None, "a console block with no record above it"
            pairs.append((record, _session(block.text)))
    return pairs


def _suggestions(page: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every suggest request (a JSON block with record, seat and level) with the block after it."""
    blocks = [json.loads(block.text) for block in _blocks(page) if block.language == "json"]
    return [
        (request, answer)
        for request, answer in itertools.pairwise(blocks)
        if {"record", "seat", "level"} <= request.keys()
    ]


PAGE = RECORD_PAGE.read_text(encoding="utf-8")


def test_the_page_has_its_examples() -> None:
    replays = _replays(PAGE)
    assert len(replays) == 3
    assert {record["preset"] for record, _session in replays} == {"draw", "goat", "classic"}
    assert len(_suggestions(PAGE)) == 1


@pytest.mark.parametrize("index", range(len(_replays(PAGE))))
def test_a_record_on_the_page_replays_to_the_output_shown(index: int, tmp_path: Path) -> None:
    record, session = _replays(PAGE)[index]
    status: int | None = None
    for command, shown in session.commands:
        if command == "echo $?":
            assert status is not None, "echo $? before any command"
            assert shown == [str(status)], f"docs/record.md shows exit status {shown}, replay exits {status}"
            continue
        match = REPLAY.fullmatch(command)
        assert match, f"docs/record.md runs a command the test does not know: {command}"
        (tmp_path / match.group(1)).write_text(json.dumps(record), encoding="utf-8")
        result = _run(["engine", "replay", match.group(1)], cwd=tmp_path)
        status = result.returncode
        printed = (result.stdout + result.stderr).splitlines()
        assert printed == shown, (
            f"docs/record.md shows `{command}` printing {shown}, it prints {printed}: update the page"
        )
        if status == 0:
            assert result.stderr == ""
            assert len(result.stdout.splitlines()) == 1  # one JSON line, as the page says
        else:
            assert result.stdout == ""
            assert len(result.stderr.splitlines()) == 1


def test_the_suggest_request_on_the_page_gets_the_answer_shown() -> None:
    [(request, shown)] = _suggestions(PAGE)
    result = _run(["engine", "suggest"], stdin=json.dumps(request) + "\n")
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert answers == [shown], f"docs/record.md shows the answer {shown}, suggest answers {answers}: update the page"


def test_the_page_names_every_code_a_broken_record_can_have() -> None:
    """The table of codes lists what engine.errors can say about a record, and nothing else."""
    import engine.errors as errors
    from engine.record import read_record

    codes = {
        cls.code
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.EngineError) and "code" in vars(cls)
    }
    not_about_records = {
        "engine_error",
        "illegal_move",
        "unknown_level",
        "not_your_turn",
        "bad_request",
        "bad_position",
    }
    listed = set(re.findall(r"`([a-z_]+)`", PAGE.split("## When a record is wrong", 1)[1].split("\n## ", 1)[0]))
    record_codes = (codes - not_about_records) | {"bad_json", "bad_end", "bad_format"}
    assert record_codes <= listed
    with pytest.raises(errors.RecordError) as raised:
        read_record({"format": "dominoes-record/2"})
    assert raised.value.code in listed

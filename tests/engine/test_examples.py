"""The worked examples of ``../shared/examples`` replay to exactly the output they give."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SHARED

EXAMPLES = sorted((SHARED / "examples").glob("**/*.expected.json")) if (SHARED / "examples").is_dir() else []
"""Every worked example, those of the partnership presets in ``examples/partners/`` included."""
KEYS = ["rounds", "scores", "finished", "winner"]
TEAM_KEYS = ["rounds", "scores", "team_scores", "finished", "winner"]


def _run_replay(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


@pytest.mark.skipif(not EXAMPLES, reason="../shared/examples is not beside this checkout")
@pytest.mark.parametrize(
    "expected_path",
    EXAMPLES,
    ids=lambda path: str(path.relative_to(SHARED / "examples")).removesuffix(".expected.json"),
)
def test_example_replays_exactly(expected_path: Path) -> None:
    record_path = expected_path.with_name(expected_path.name.replace(".expected.json", ".json"))
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    expected.pop("why", None)
    result = _run_replay(str(record_path))
    if "exit" in expected:
        assert result.returncode == expected["exit"]
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert expected["where"] in lines[0]
        assert expected["error"] in lines[0]
    else:
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""
        assert json.loads(result.stdout) == expected
        keys = (
            TEAM_KEYS if json.loads(record_path.read_text(encoding="utf-8"))["preset"] in ("goat", "partners") else KEYS
        )
        assert list(json.loads(result.stdout)) == keys


@pytest.mark.skipif(not EXAMPLES, reason="../shared/examples is not beside this checkout")
def test_replay_reads_standard_input() -> None:
    record = (SHARED / "examples" / "fives_round_13_to_15.json").read_text(encoding="utf-8")
    result = _run_replay("-", stdin=record)
    assert result.returncode == 0
    assert json.loads(result.stdout)["scores"] == [25, 5]


def test_unreadable_file_is_one_line_and_status_2(tmp_path: Path) -> None:
    result = _run_replay(str(tmp_path / "nowhere.json"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1


def test_broken_json_is_one_line_and_status_2() -> None:
    result = _run_replay("-", stdin="{not json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("record: bad_json:")
    assert len(result.stderr.splitlines()) == 1

"""The engine's core compiled by mypyc (setup.py) and the same source run as plain Python play alike."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import engine
import engine.core
from engine import PRESETS, RoundState

SOURCE = Path(engine.__file__).with_name("core.py")


def games_digest(games_per_kind: int = 30) -> str:
    """A digest of random games of every preset and seat count: every event, every outcome, through
    the public API, and the same deals played out on the core itself."""
    digest = hashlib.sha256()
    rng = random.Random(2026)
    for rules in PRESETS.values():
        for seats in range(rules.min_seats, rules.max_seats + 1):
            for _ in range(games_per_kind):
                state = RoundState.deal(rules, seats, rng, first=0)
                core = state.to_core()
                while state.end is None:
                    moves = state.legal_moves()
                    digest.update(repr(moves).encode())
                    state = state.apply(rng.choice(moves))
                digest.update(repr((state.events, state.line, state.outcome())).encode())
                while not core.end:
                    core.play(rng.choice(core.moves()))
                digest.update(repr(core.result()).encode())
    return digest.hexdigest()


def test_the_compiled_core_is_the_one_in_use_where_pip_built_it() -> None:
    """pip wrote the digest of the source it compiled only if the compiler ran: then the compiled core runs
    (unless it was asked not to), and only while the source is the one it was compiled from."""
    if os.environ.get("DOMINOES_PURE_PYTHON"):
        assert not engine.core.COMPILED
        return
    vouched = SOURCE.with_suffix(".sha256")
    if not vouched.exists():
        pytest.skip("the core was not compiled here (no C compiler when the package was installed)")
    current = hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    assert (vouched.read_text().strip() == current) == engine.core.COMPILED, (
        "engine/core.py changed since pip compiled it: `pip install -e .` compiles it again"
    )


def test_a_plain_python_core_plays_exactly_as_the_compiled_one() -> None:
    if not engine.core.COMPILED:
        pytest.skip("the core is plain Python here already")
    script = "from tests.engine.test_compiled import games_digest as d; import engine.core as c; print(c.COMPILED, d())"
    assert _as_plain_python(script).split() == ["False", games_digest()]


def test_a_changed_source_runs_as_plain_python(tmp_path: Path) -> None:
    """A copy of the package whose core source differs from what was compiled runs the source, and says so."""
    if not engine.core.COMPILED:
        pytest.skip("the core is not compiled here")
    copy = tmp_path / "engine"
    package = SOURCE.parent
    copy.mkdir()
    for path in package.iterdir():
        if path.is_file():
            (copy / path.name).write_bytes(path.read_bytes())
    (copy / "players").symlink_to(package / "players")
    with (copy / "core.py").open("a") as source:
        source.write("\nCHANGED = True\n")
    script = "import engine.core as core; print(core.COMPILED, core.CHANGED, core.__file__)"
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert run.stdout.split() == ["False", "True", str(copy / "core.py")]
    assert "changed since it was compiled" in run.stderr


def test_the_cores_doctests_pass_on_its_source() -> None:
    """Where the core is compiled, pytest collects its doctests from the source run as plain Python, here."""
    if not engine.core.COMPILED:
        pytest.skip("pytest collects engine/core.py's doctests itself")
    printed = _as_plain_python("import doctest, engine.core as c; print(c.COMPILED, doctest.testmod(c))")
    assert printed.startswith("False TestResults(failed=0, attempted=")
    assert "attempted=0)" not in printed


def _as_plain_python(script: str) -> str:
    """What ``script`` prints, run from the repository with the core as plain Python."""
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=SOURCE.parent.parent,
        env={**os.environ, "DOMINOES_PURE_PYTHON": "1"},
    )
    return run.stdout

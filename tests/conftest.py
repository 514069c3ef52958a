"""Shared test fixtures: where the product documents (``../shared``) live, if they are here; what a
test does when a server it needs (PostgreSQL, Redis) does not answer."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NoReturn

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture
def shared() -> Path:
    """The product documents beside the repo; tests that need them skip where they are absent."""
    if not (SHARED / "RULES.md").is_file():
        pytest.skip("../shared is not beside this checkout")
    return SHARED


def on_ci() -> bool:
    """Whether this run is CI's (``CI=true``, as CI services set it): there, every server is meant to be up."""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def server_missing(reason: str) -> NoReturn:
    """A test that needs a server which does not answer: skipped on a developer's machine, failed
    under ``CI=true``, where a missing server is a broken set-up and must not pass unnoticed."""
    if on_ci():
        pytest.fail(f"{reason} (CI=true: the servers must be up)", pytrace=False)
    pytest.skip(reason)


# Under pytest-xdist (``-n`` in pyproject.toml) the tests of a module stay together on one
# worker: its module-wide fixtures (a fake Telegram and a bot process in tests/e2e, catalogues in
# tests/locales) are built once, not once per worker.  Only the long parametrised modules of pure
# computation, and test_partnership.py (each of its tests starts its own bot), are spread test by
# test.  The long modules are handed out first, longest first (by their durations in a full run),
# so that no worker is still busy with one of them when the others are done.
SPREAD = (
    "tests/engine/test_players_legal.py",
    "tests/engine/test_properties.py",
    "tests/engine/test_review.py",
    "tests/e2e/test_partnership.py",
)
LONG_FIRST = (
    "tests/e2e/test_partnership.py",  # its first test: a whole goat match within Telegram's limits
    "tests/e2e/test_twins.py",
    "tests/sandbox/test_browser.py",
    "tests/e2e/test_limits.py",
    "tests/e2e/test_junk.py",
    "tests/e2e/test_replay_limits.py",
    "tests/e2e/test_chaos_secrecy.py",
    "tests/e2e/test_webapp_browser.py",
    "tests/e2e/test_hands.py",
    "tests/e2e/test_tap_bursts.py",
    "tests/e2e/test_chaos_crash.py",
    "tests/e2e/test_instances.py",
    "tests/sandbox/test_command.py",
    "tests/e2e/test_chaos_hostile.py",
    "tests/e2e/test_polling.py",
    "tests/e2e/test_end_question.py",
    "tests/e2e/test_restart.py",
    "tests/e2e/test_chaos_faults.py",
    "tests/e2e/test_webhook.py",
    "tests/e2e/test_chaos_concurrency.py",
    "tests/e2e/test_settings.py",
    "tests/e2e/test_scores.py",
    "tests/e2e/test_clock.py",
    "tests/e2e/",
    "tests/sandbox/",
    "tests/engine/test_review.py",
    "tests/engine/test_properties.py",
    "tests/engine/test_players_legal.py",
)


def _rank(item: pytest.Item) -> int:
    where = item.path.resolve().relative_to(REPO).as_posix()
    return next((i for i, start in enumerate(LONG_FIRST) if where.startswith(start)), len(LONG_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: within a module, tests keep their order


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """xdist's scheduler by scope, where a scope is a module, or a single test of a SPREAD module."""
    from xdist.scheduler import LoadScopeScheduling

    # xdist would otherwise hand out the scopes with the most tests first (--loadscope-reorder, on by
    # default), which put the long e2e modules of few tests last, each then alone on its worker.
    config.option.loadscopereorder = False

    class ModulesTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return nodeid if module in SPREAD else module

    return ModulesTogether(config, log)

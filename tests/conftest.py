"""Shared test fixtures: where the product documents (``../shared``) live, if they are here; what a
test does when a server it needs (PostgreSQL, Redis) does not answer."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

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

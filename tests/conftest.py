"""Shared test fixtures: where the product documents (``../shared``) live, if they are here."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture
def shared() -> Path:
    """The product documents beside the repo; tests that need them skip where they are absent."""
    if not (SHARED / "RULES.md").is_file():
        pytest.skip("../shared is not beside this checkout")
    return SHARED

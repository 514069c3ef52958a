"""The README and the pages of docs/ stand alone: every link they make leads to a file of this
repository (and to a heading there), and none sends a reader to a document a clone does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
OUTSIDE = re.compile(r"RULES\.md|RECORD\.md|DESIGN\.md|\.\./shared/")


def _anchors(page: Path) -> set[str]:
    """The fragments GitHub gives the page's headings (lower case, punctuation dropped, spaces as hyphens)."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_every_link_leads_into_the_repository(page: Path) -> None:
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # https:, mailto: ...
            continue
        path, _hash, fragment = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.is_file() and REPO in linked.parents, f"{page.name} links to {target}, which is not here"
        if fragment:
            assert fragment in _anchors(linked), f"{page.name} links to {target}: no such heading"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_no_page_sends_the_reader_outside_the_repository(page: Path) -> None:
    found = [line for line in page.read_text(encoding="utf-8").splitlines() if OUTSIDE.search(line)]
    assert not found, f"{page.name} points to documents a clone does not have: {found}"


def test_the_readme_links_the_rules_and_the_record_format() -> None:
    links = LINK.findall((REPO / "README.md").read_text(encoding="utf-8"))
    assert "docs/rules.md" in links
    assert "docs/record.md" in links

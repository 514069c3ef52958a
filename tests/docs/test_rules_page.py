"""docs/rules.md is what ``python -m docs`` makes from the code today, and says what the presets are."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from docs import rules_page as page
from docs.__main__ import main
from engine import PRESETS, Rules
from tests.conftest import REPO


def test_the_committed_page_is_current() -> None:
    committed = page.RULES_PAGE.read_text(encoding="utf-8")
    assert committed == page.rules_page(), f"docs/rules.md is stale: run {page.GENERATOR} to update it"


def test_the_page_is_made_the_same_every_time() -> None:
    assert page.rules_page() == page.rules_page()


def test_every_preset_has_its_section_with_the_bots_own_summary() -> None:
    from bot.words.texts import PRESET_SUMMARIES, PRESET_TITLES

    text = page.rules_page()
    for preset in PRESETS:
        assert f"## {PRESET_TITLES[preset]}\n\n`/new {preset}`" in text
        assert f"> {PRESET_SUMMARIES[preset]}\n" in text


def _section(text: str, title: str) -> str:
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_tables_say_what_the_presets_are() -> None:
    text = page.rules_page()
    assert "| Tiles dealt | 7 each with 2 or 3 players, 6 each with 4 players |" in _section(text, "Draw")
    hundred = _section(text, "Hundred")
    assert "its last 2 tiles are never drawn" in hundred
    assert "the order 5-5, 4-4, 3-3, 2-2, 1-1, 0-0" in hundred
    assert "the order 2-2, 3-3, 4-4, 5-5, 6-6, 0-0" in _section(text, "Classic")
    assert "| Spinner | Yes" in _section(text, "All Fives")
    assert "10 for 12, 15 for 13" in _section(text, "All Fives")
    goat = _section(text, "Goat")
    assert "🟥 Team A (players 1 and 3) against 🟦 Team B (players 2 and 4)" in goat
    assert "101 penalty points or more: that team loses" in goat
    assert "| Later rounds |" not in _section(text, "Classic")  # one round: no later rounds


def test_the_overview_links_every_section() -> None:
    text = page.rules_page()
    anchors = {page._anchor(heading) for heading in re.findall(r"^## (.+)$", text, flags=re.MULTILINE)}
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert links and set(links) <= anchors
    assert "two-against-two" in anchors  # README.md links to it


def test_a_preset_that_changes_changes_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    changed = dict(PRESETS)
    changed["draw"] = dataclasses.replace(PRESETS["draw"], targets={2: 150, 3: 61, 4: 61})
    monkeypatch.setattr(page, "PRESETS", changed)
    assert page.rules_page() != page.RULES_PAGE.read_text(encoding="utf-8")
    assert "Rounds until someone has 150 points or more with 2 players" in _section(page.rules_page(), "Draw")


def test_a_parameter_value_the_page_cannot_say_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    class Odd:
        pass

    odd: Rules = dataclasses.replace(PRESETS["block"], round_scoring=Odd())  # type: ignore[arg-type]
    monkeypatch.setattr(page, "PRESETS", {**PRESETS, "block": odd})
    with pytest.raises(KeyError):
        page.rules_page()


def test_check_says_how_to_update_a_stale_page(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / "rules.md"
    stale.write_text("# old\n", encoding="utf-8")
    monkeypatch.setattr("docs.__main__.RULES_PAGE", stale)
    assert main(["--check"]) == 1
    assert "run python -m docs to update it" in capsys.readouterr().err
    assert main([]) == 0
    assert stale.read_text(encoding="utf-8") == page.rules_page()
    assert main(["--check"]) == 0


def test_python_m_docs_check_passes_on_this_checkout() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "docs", "--check"], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr

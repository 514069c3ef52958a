"""Every word the bot shows goes through the catalogue (scanner: tests/locales/scanner.py).

A literal that reads like words must be inside ``_()``, ``ngettext()`` or ``N_()``, or be one of
the kinds the scanner knows are never shown (logging, docstrings, programming errors …). For the
rare literal that only looks like words, end its line with ``# i18n: not shown``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.locales.scanner import reads_like_language, scan, scan_file

REPO = Path(__file__).resolve().parents[2]


def test_every_shown_literal_goes_through_the_catalogue() -> None:
    findings = scan(REPO)
    assert findings == [], (
        "words in bot/ that are not in the catalogue: wrap them in _() (ngettext() for counts, N_() where "
        "defined before use), or end the line with `# i18n: not shown` if no one ever reads them:\n"
        + "\n".join(f"  {finding}" for finding in findings)
    )


@pytest.mark.parametrize(
    "text",
    ["Join", "🁢 My hand", "Choose a rule set:", "⬅ left", "right ➡", "Player", "It is not your turn yet."],
)
def test_words_read_like_language(text: str) -> None:
    assert reads_like_language(text)


@pytest.mark.parametrize(
    "text", ["join", "lb", "add-", "not_your_turn", "sqlite:///x", "%(asctime)s %(levelname)s", "✓", "HTML", ""]
)
def test_identifiers_do_not(text: str) -> None:
    assert not reads_like_language(text)


SAMPLE = '''
"""A docstring with Words in it."""
import logging
from bot.words.i18n import N_, _, ngettext

log = logging.getLogger("bot")
__all__ = ["Some Name"]
TITLES = {"classic": N_("Classic")}
RAW = {"Dict Key": 1}


class Tap(CallbackData, prefix="Some Prefix"):
    pass


def shown(name: str, count: int) -> list[str]:
    log.info("Logged for the operator %s", name)
    if name == "Compared With":
        raise ValueError(f"Bad value {name}")
    assert count, "An assertion message"
    print("On the terminal")
    name.startswith("Looked For")
    words = [_("Hello, {name}!").format(name=name), ngettext("{n} tile", "{n} tiles", count)]
    words.append(RAW["Sub Script"])
    words.append("Not marked")  # i18n: not shown
    words.append("Shown to people")
    words.append(f"{name} passed")
    words.append("↩ back")
    raise TableError("Shown as well")
'''


def test_the_scanner_finds_exactly_the_shown_literals(tmp_path: Path) -> None:
    path = tmp_path / "bot" / "sample.py"
    path.parent.mkdir()
    path.write_text(SAMPLE, encoding="utf-8")
    found = [finding.literal for finding in scan_file(path, tmp_path)]
    assert found == ['"Shown to people"', 'f"{name} passed"', '"↩ back"', '"Shown as well"']

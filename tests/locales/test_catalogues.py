"""The committed catalogues: up to date with the code, complete, and safe to format and send.

Every test here has the same remedy: run ``python -m locales`` (it extracts ``messages.pot`` and
updates the ``.po`` files), translate what ``python -m locales check`` lists, and commit.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo

from locales import LANGUAGES, catalogue
from locales.catalogues import (
    PLURALS,
    TEMPLATE,
    babel_errors,
    extra,
    fuzzy,
    obsolete,
    placeholder_mismatches,
    plural_header,
    read,
    stale_template,
    tag_mismatches,
    untranslated,
)

REMEDY = "run `python -m locales`, translate what `python -m locales check` lists, and commit"


def _listing(title: str, lines: list[str]) -> str:
    return f"{title} ({REMEDY}):\n" + "\n".join(f"  {line}" for line in lines)


@pytest.fixture(scope="module")
def template() -> Catalog:
    assert TEMPLATE.exists(), _listing("locales/messages.pot is missing", [])
    return read(TEMPLATE)


@pytest.fixture(scope="module", params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def catalog(language: str) -> Catalog:
    path = catalogue(language)
    assert path.exists(), _listing(f"{path} is missing", [])
    return read(path, language)


def test_the_template_is_up_to_date_with_the_code() -> None:
    differences = stale_template()
    assert differences == [], _listing("locales/messages.pot differs from the messages marked in the code", differences)


def test_the_catalogue_compiles(catalog: Catalog, language: str, tmp_path: Path) -> None:
    assert babel_errors(catalog) == [], _listing(f"{language}: Babel's checks fail", babel_errors(catalog))
    compiled = tmp_path / "messages.mo"
    with compiled.open("wb") as target:
        write_mo(target, catalog, use_fuzzy=False)
    with compiled.open("rb") as source:
        again = read_mo(source)
    assert again.num_plurals == PLURALS[language]


def test_plural_forms_fit_the_language(catalog: Catalog, language: str) -> None:
    assert plural_header(catalog, language) == []
    for message in catalog:
        if message.id and message.pluralizable:
            assert len(tuple(message.string or ())) == PLURALS[language], (
                f"{language}: {message.id!r} has {message.string!r}"
            )


def test_nothing_is_missing_empty_or_fuzzy(catalog: Catalog, template: Catalog, language: str) -> None:
    lines = untranslated(catalog, template) + extra(catalog, template) + fuzzy(catalog)
    assert lines == [], _listing(f"{language}: messages to translate", lines)


def test_placeholders_are_those_of_the_english(catalog: Catalog, language: str) -> None:
    lines = placeholder_mismatches(catalog)
    assert lines == [], _listing(f"{language}: a {{placeholder}} differs from the English", lines)


def test_html_tags_are_those_of_the_english(catalog: Catalog, language: str) -> None:
    lines = tag_mismatches(catalog)
    assert lines == [], _listing(f"{language}: HTML tags differ from the English", lines)


def test_no_obsolete_entries_are_left(catalog: Catalog, language: str) -> None:
    lines = obsolete(catalog)
    assert lines == [], (
        f"{language}: obsolete (#~) entries; reuse what helps, then `python -m locales --drop-obsolete`:\n"
        + "\n".join(f"  {line}" for line in lines)
    )

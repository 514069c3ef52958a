"""``python -m locales`` on a small tree of its own: extraction, updates that keep translations,
fuzzy and obsolete entries, the English filled in, and the checks."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog

from locales import LANGUAGES
from locales.catalogues import TEMPLATE, problems, read, render, run_update, save

CODE = """
from bot.words.i18n import N_, _, ngettext

TITLE = N_("Classic")


def words(name: str, count: int) -> list[str]:
    # TRANSLATORS: the greeting in a private chat.
    return [_("Hello, {name}!").format(name=name), ngettext("{count} tile", "{count} tiles", count).format(count=count)]
"""


def _tree(tmp_path: Path, code: str = CODE) -> Path:
    (tmp_path / "bot").mkdir(exist_ok=True)
    (tmp_path / "bot" / "words.py").write_text(code, encoding="utf-8")
    return tmp_path


def _string(catalog: Catalog, msgid: str) -> str | tuple[str, ...]:
    message = catalog.get(msgid)
    assert message is not None, msgid
    return message.string if isinstance(message.string, str) else tuple(message.string or ())


def _po(root: Path, language: str) -> Path:
    return root / "locales" / language / "LC_MESSAGES" / "messages.po"


def _translate(root: Path, language: str, translations: dict[str, str | tuple[str, ...]]) -> None:
    path = _po(root, language)
    catalog = read(path, language)
    for message in catalog:
        key = message.id if isinstance(message.id, str) else message.id[0]
        if key in translations:
            message.string = translations[key]
    save(path, catalog)


def test_first_run_makes_the_template_and_every_catalogue(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    done = run_update(root)
    assert (root / "locales" / TEMPLATE.name).exists()
    assert all(_po(root, language).exists() for language in LANGUAGES)
    assert done
    template = (root / "locales" / TEMPLATE.name).read_text(encoding="utf-8")
    assert "#. TRANSLATORS: the greeting in a private chat." in template
    assert "#: bot/words.py\n" in template  # file names without line numbers
    english = read(_po(root, "en"), "en")
    assert _string(english, "Hello, {name}!") == "Hello, {name}!"
    assert _string(english, "{count} tile") == ("{count} tile", "{count} tiles")
    russian = read(_po(root, "ru"), "ru")
    assert russian.num_plurals == 3 and read(_po(root, "uk"), "uk").num_plurals == 3
    assert english.num_plurals == 2
    assert _string(russian, "{count} tile") == ("", "", "")
    lines = problems(root)
    assert any(line.startswith("locales/ru/LC_MESSAGES/messages.po: empty: 'Classic'") for line in lines), lines
    assert not any("locales/en/" in line for line in lines), lines


def test_a_second_run_changes_nothing(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    run_update(root)
    before = {path: path.read_bytes() for path in (root / "locales").rglob("*.po*")}
    assert run_update(root) == []
    assert {path: path.read_bytes() for path in (root / "locales").rglob("*.po*")} == before


def test_translations_survive_and_changed_words_become_fuzzy(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    run_update(root)
    _translate(
        root, "ru", {"Classic": "Классика", "Hello, {name}!": "Привет, {name}!", "{count} tile": ("a", "b", "c")}
    )
    changed = CODE.replace('"Hello, {name}!"', '"Hello there, {name}!"').replace('N_("Classic")', 'N_("Gone")')
    run_update(_tree(root, changed))
    russian = read(_po(root, "ru"), "ru")
    hello = russian.get("Hello there, {name}!")
    assert hello is not None and hello.string == "Привет, {name}!" and hello.fuzzy
    assert _string(russian, "{count} tile") == ("a", "b", "c")
    assert "Classic" in russian.obsolete
    lines = problems(root)
    assert "locales/ru/LC_MESSAGES/messages.po: fuzzy: 'Hello there, {name}!'" in lines
    assert "locales/ru/LC_MESSAGES/messages.po: obsolete (#~): 'Classic'" in lines
    english = read(_po(root, "en"), "en")
    assert _string(english, "Hello there, {name}!") == "Hello there, {name}!"
    assert not english["Hello there, {name}!"].fuzzy and not english.obsolete
    run_update(root, drop_obsolete=True)
    assert not read(_po(root, "ru"), "ru").obsolete


def test_the_checks_see_placeholders_and_tags(tmp_path: Path) -> None:
    code = 'from bot.words.i18n import _\nA = _("<b>{name}</b> wins")\nB = _("Hi")\n'
    root = _tree(tmp_path, code)
    run_update(root)
    _translate(root, "uk", {"<b>{name}</b> wins": "<i>{who}</i> виграє", "Hi": "Привіт"})
    lines = [line for line in problems(root) if "/uk/" in line]
    assert any("placeholders ['who'] instead of ['name']" in line for line in lines), lines
    assert any("tags ['</i>', '<i>'] instead of ['</b>', '<b>']" in line for line in lines), lines


def test_a_plural_needs_its_count_in_every_russian_form(tmp_path: Path) -> None:
    code = 'from bot.words.i18n import ngettext\nA = ngettext("one tile", "{count} tiles", 2)\n'
    root = _tree(tmp_path, code)
    run_update(root)
    _translate(root, "ru", {"one tile": ("{count} кость", "{count} кости", "{count} костей")})
    _translate(root, "uk", {"one tile": ("одна кістка", "{count} кістки", "{count} кісток")})
    lines = problems(root)
    assert not [line for line in lines if "/ru/" in line], lines
    assert any("/uk/" in line and "placeholders [] instead of ['count']" in line for line in lines), lines


def test_render_sorts_by_msgid(tmp_path: Path) -> None:
    code = 'from bot.words.i18n import _\nB = _("Zebra")\nA = _("Apple")\n'
    root = _tree(tmp_path, code)
    run_update(root)
    text = render(read(root / "locales" / TEMPLATE.name)).decode()
    assert text.index('msgid "Apple"') < text.index('msgid "Zebra"')

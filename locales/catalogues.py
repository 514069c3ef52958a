"""Keeping the catalogues in step with the code: extraction, updating, and the checks the tests run.

``python -m locales`` (:mod:`locales.__main__`) is the command; this module is its machinery, and
``tests/locales`` call the same checks one by one.

* :func:`extract` reads every ``_()``, ``ngettext()`` and ``N_()`` call in :data:`SOURCES` into a
  template (``messages.pot``), with the ``# TRANSLATORS:`` comments written just above a call.
* :func:`update` brings one language's ``messages.po`` up to date with the template like
  ``pybabel update``: translations are kept, a message whose words changed keeps its old
  translation marked fuzzy, a message that is gone becomes obsolete (``#~``). The English
  catalogue is the source language: its translations are the msgids themselves, always.
* The checks (:func:`problems` and the functions it calls) find what a person would otherwise
  meet in the chat: a message left untranslated or fuzzy, a ``{placeholder}`` that
  ``str.format`` would miss, an HTML tag that Telegram would refuse.

Files are written without line numbers and sorted by msgid, and only when something besides the
dates changed, so the diffs stay as small as the change in the code.
"""

from __future__ import annotations

import datetime
import io
import re
import string
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from locales.files import DIRECTORY, LANGUAGES, SOURCE_LANGUAGE, catalogue

ROOT = DIRECTORY.parent
TEMPLATE = DIRECTORY / "messages.pot"
# The packages whose strings people read (engine, renderer and storage show no words: the pictures
# carry only names and numbers).
SOURCES: tuple[str, ...] = ("bot",)
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "ngettext": (1, 2), "N_": None}
COMMENT_TAGS = ("TRANSLATORS:",)
PROJECT = "dominoes-bot"
WIDTH = 100
# How many plural forms each language has (CLDR, as Babel knows them): the checks insist on these.
PLURALS: dict[str, int] = {"en": 2, "ru": 3, "uk": 3}

HEADER = """\
# Translations template for PROJECT.
# Made from the code by `python -m locales`: edit the .po files, never this one.
#"""

_DATES = re.compile(r'^"(?:POT-Creation-Date|PO-Revision-Date): .*\\n"$', re.MULTILINE)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_FORMATTER = string.Formatter()


def _version(root: Path = ROOT) -> str | None:
    try:
        with (root / "pyproject.toml").open("rb") as file:
            version = tomllib.load(file)["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return None
    return str(version)


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC).replace(second=0, microsecond=0)


# --------------------------------------------------------------------------- extracting


def extract(root: Path = ROOT, sources: Sequence[str] = SOURCES) -> Catalog:
    """The template: every message marked in the code under ``root``/``sources``."""
    template = Catalog(
        project=PROJECT,
        version=_version(root),
        copyright_holder="the dominoes-bot authors",
        header_comment=HEADER,
        fuzzy=False,
        creation_date=_now(),
    )
    for package in sources:
        found = extract_from_dir(
            root / package,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=COMMENT_TAGS,
        )
        for filename, lineno, message, comments, context in found:
            location = (Path(package, filename).as_posix(), lineno)
            template.add(message, None, [location], auto_comments=comments, context=context)
    return template


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=language)


def render(catalog: Catalog) -> bytes:
    """The catalogue as a .po (or .pot) file: sorted by msgid, file names without line numbers."""
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, sort_output=True, include_lineno=False)
    return out.getvalue()


def _undated(text: bytes) -> str:
    return _DATES.sub("", text.decode("utf-8"))


def save(path: Path, catalog: Catalog) -> bool:
    """Write ``catalog`` to ``path`` unless only its dates would change; whether it was written."""
    new = render(catalog)
    if path.exists() and _undated(path.read_bytes()) == _undated(new):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(new)
    return True


def signature(catalog: Catalog) -> dict[tuple[str, str | None], tuple[str, ...]]:
    """What extraction decides, per (msgid, context): the msgid and its plural, and the comments."""
    found: dict[tuple[str, str | None], tuple[str, ...]] = {}
    for message in catalog:
        if not message.id:
            continue
        ids = _forms(message.id)
        found[(ids[0], message.context)] = (*ids, *message.auto_comments)
    return found


def stale_template(root: Path = ROOT, template_path: Path = TEMPLATE) -> list[str]:
    """How the committed template differs from what the code marks (nothing: it is up to date)."""
    if not template_path.exists():
        return [f"{template_path.name} does not exist"]
    committed = signature(read(template_path))
    current = signature(extract(root))
    found = [f"new in the code: {_show(current[key])}" for key in sorted(current.keys() - committed.keys(), key=str)]
    found += [
        f"gone from the code: {_show(committed[key])}" for key in sorted(committed.keys() - current.keys(), key=str)
    ]
    found += [
        f"changed: {_show(committed[key])} -> {_show(current[key])}"
        for key in sorted(current.keys() & committed.keys(), key=str)
        if current[key] != committed[key]
    ]
    return found


# --------------------------------------------------------------------------- updating


def new_catalogue(template: Catalog, language: str) -> Catalog:
    """An empty catalogue for ``language`` (as ``pybabel init`` makes it)."""
    catalog = read_po(io.BytesIO(render(template)), locale=language)
    catalog.locale = language  # the setter parses the code
    catalog.fuzzy = False
    catalog.revision_date = _now()
    assert catalog.locale is not None
    catalog.header_comment = (
        f"# {catalog.locale.english_name} translations for {PROJECT}.\n"
        "# Kept up to date with the code by `python -m locales`; translate the empty and fuzzy entries.\n#"
    )
    catalog.language_team = f"{catalog.locale.english_name} <{language}@{PROJECT}>"
    catalog.last_translator = f"the {PROJECT} authors"
    return catalog


def update(catalog: Catalog, template: Catalog, language: str, *, drop_obsolete: bool = False) -> None:
    """Bring ``catalog`` (of ``language``) up to date with ``template``, in place.

    Kept translations stay; one whose msgid or plural changed is marked fuzzy; messages no longer
    in the template become obsolete (dropped with ``drop_obsolete``, and always in English).
    """
    before = {key: message.id for key, message in _keyed(catalog)}
    catalog.update(template, update_creation_date=True)
    catalog.fuzzy = False
    for key, message in _keyed(catalog):
        old = before.get(key)
        if not any(_forms(message.string)):
            message.flags.discard("fuzzy")  # nothing was carried over: just untranslated
            message.previous_id = []
        elif old is not None and old != message.id:
            message.flags.add("fuzzy")
    for gone in [gone for gone, message in catalog.obsolete.items() if not any(_forms(message.string))]:
        del catalog.obsolete[gone]  # an untranslated message that is gone leaves nothing to keep
    if language == SOURCE_LANGUAGE:
        fill_source(catalog)
    if drop_obsolete or language == SOURCE_LANGUAGE:
        catalog.obsolete.clear()


def fill_source(catalog: Catalog) -> None:
    """The source language's translations are its msgids (both forms of a plural)."""
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            message.string = message.id
        else:
            singular, plural = message.id[0], message.id[1]
            message.string = (singular,) + (plural,) * (catalog.num_plurals - 1)
        message.flags.discard("fuzzy")
        message.previous_id = []


def run_update(root: Path = ROOT, *, drop_obsolete: bool = False) -> list[str]:
    """Extract the template and update every language's catalogue; what was written, as lines."""
    directory = root / DIRECTORY.name
    template = extract(root)
    done = []
    if save(directory / TEMPLATE.name, template):
        done.append(f"wrote {directory / TEMPLATE.name}")
    for language in LANGUAGES:
        path = directory / catalogue(language).relative_to(DIRECTORY)
        if path.exists():
            catalog = read(path, language)
        else:
            catalog = new_catalogue(template, language)
            done.append(f"created {path}")
        update(catalog, template, language, drop_obsolete=drop_obsolete)
        catalog.revision_date = _now()
        if save(path, catalog):
            done.append(f"wrote {path}")
    return done


# --------------------------------------------------------------------------- checking


def _forms(value: str | Iterable[str] | None) -> tuple[str, ...]:
    if value is None:
        return ("",)
    if isinstance(value, str):
        return (value,)
    return tuple(value)


def _keyed(catalog: Catalog) -> list[tuple[tuple[str, str | None], Message]]:
    return [((_forms(m.id)[0], m.context), m) for m in catalog if m.id]


def _show(value: str | Iterable[str]) -> str:
    forms = _forms(value)
    return " | ".join(repr(form) for form in forms)


def placeholders(text: str) -> set[str]:
    """The ``str.format`` fields of ``text``: ``{name}`` -> ``name``; ValueError if it is malformed."""
    return {field for _, field, _, _ in _FORMATTER.parse(text) if field is not None}


def tags(text: str) -> Counter[str]:
    """The HTML tags of ``text`` (Telegram's subset), each as written, whitespace normalised."""
    return Counter(" ".join(tag.split()) for tag in _TAG.findall(text))


def _source_forms(message: Message, count: int) -> list[tuple[str, str]]:
    """(source, translation) pairs to compare: each translated form against its source text.

    A plural's forms are compared with the union of the singular and the plural: in Russian and
    Ukrainian the "singular" form serves 21, 31 … too, so it needs the count like every form.
    """
    ids = _forms(message.id)
    strings = _forms(message.string)
    if len(ids) == 1:
        return [(ids[0], strings[0])]
    if count == 2 and len(strings) == 2:  # English-like: the forms follow the msgids one to one
        return [(ids[0], strings[0]), (ids[1], strings[1])]
    both = ids[0] + "\n" + ids[1]
    return [(both, form) for form in strings]


def untranslated(catalog: Catalog, template: Catalog | None = None) -> list[str]:
    """Messages of the template that the catalogue lacks, or translates with an empty form."""
    found = []
    if template is not None:
        have = {key for key, _ in _keyed(catalog)}
        found += [f"missing: {_show(m.id)}" for key, m in _keyed(template) if key not in have]
    found += [f"empty: {_show(m.id)}" for _, m in _keyed(catalog) if not all(_forms(m.string))]
    return found


def extra(catalog: Catalog, template: Catalog) -> list[str]:
    """Messages the catalogue has (not as obsolete) that the template no longer has."""
    wanted = {key for key, _ in _keyed(template)}
    return [f"not in the template: {_show(m.id)}" for key, m in _keyed(catalog) if key not in wanted]


def fuzzy(catalog: Catalog) -> list[str]:
    return [f"fuzzy: {_show(m.id)}" for _, m in _keyed(catalog) if m.fuzzy]


def obsolete(catalog: Catalog) -> list[str]:
    return [f"obsolete (#~): {_show(m.id)}" for m in catalog.obsolete.values()]


def placeholder_mismatches(catalog: Catalog) -> list[str]:
    """Translations whose ``{placeholders}`` differ from the source's (each plural form)."""
    found = []
    for _, message in _keyed(catalog):
        for source, translation in _source_forms(message, catalog.num_plurals):
            if not translation:
                continue
            try:
                want, have = placeholders(source), placeholders(translation)
            except ValueError as error:
                found.append(f"broken format ({error}): {_show(message.id)} -> {translation!r}")
                continue
            if want != have:
                found.append(f"placeholders {sorted(have)} instead of {sorted(want)}: {translation!r}")
    return found


def tag_mismatches(catalog: Catalog) -> list[str]:
    """Translations whose HTML tags (as a multiset) differ from the source's (each plural form;
    a plural's forms may follow either English form)."""
    found = []
    for _, message in _keyed(catalog):
        wanted = [tags(source) for source in _forms(message.id)]
        for translation in _forms(message.string):
            have = tags(translation)
            if translation and have not in wanted:
                want = " or ".join(dict.fromkeys(str(sorted(w.elements())) for w in wanted))
                found.append(f"tags {sorted(have.elements())} instead of {want}: {translation!r}")
    return found


def babel_errors(catalog: Catalog) -> list[str]:
    """What Babel's own checks say (the number of plural forms, %-formats)."""
    return [f"{error}: {_show(message.id)}" for message, errors in catalog.check() for error in errors]


def plural_header(catalog: Catalog, language: str) -> list[str]:
    """The Plural-Forms header has the language's number of forms."""
    want = PLURALS.get(language)
    if want is None or catalog.num_plurals == want:
        return []
    return [f"Plural-Forms has nplurals={catalog.num_plurals}, {language} needs {want}: {catalog.plural_forms}"]


def problems(root: Path = ROOT) -> list[str]:
    """Everything ``python -m locales check`` reports: one line each, the file first."""
    directory = root / DIRECTORY.name
    found = [f"{TEMPLATE.name}: {line}" for line in stale_template(root, directory / TEMPLATE.name)]
    if not (directory / TEMPLATE.name).exists():
        return found
    template = read(directory / TEMPLATE.name)
    for language in LANGUAGES:
        path = directory / catalogue(language).relative_to(DIRECTORY)
        if not path.exists():
            found.append(f"{path.relative_to(root)}: does not exist")
            continue
        catalog = read(path, language)
        lines = (
            plural_header(catalog, language)
            + untranslated(catalog, template)
            + extra(catalog, template)
            + fuzzy(catalog)
            + obsolete(catalog)
            + placeholder_mismatches(catalog)
            + tag_mismatches(catalog)
            + babel_errors(catalog)
        )
        found += [f"{path.relative_to(root)}: {line}" for line in lines]
    return found

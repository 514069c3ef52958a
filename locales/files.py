"""Where the catalogues are (``<language>/LC_MESSAGES/messages.po``), the languages they hold, and
compiling them to ``.mo``: what the bot needs at run time and ``pip install`` (``setup.py``) at build
time. The maintainers' tool that extracts and updates them is :mod:`locales.catalogues`."""

from __future__ import annotations

from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent
DOMAIN = "messages"
LANGUAGES: tuple[str, ...] = ("en", "ru", "uk")
SOURCE_LANGUAGE = "en"


def catalogue(language: str) -> Path:
    return DIRECTORY / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_in_memory(po_path: Path, *, check: bool = False) -> bytes:
    """The ``.mo`` of one catalogue (fuzzy entries left out), without writing it.

    With ``check``, a broken translation (Babel's checks: placeholders of %-format strings, plural
    forms) raises ``ValueError`` naming the catalogue and the message.
    """
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path.open("rb") as source:
        catalog = read_po(source, locale=po_path.parent.parent.name)
    if check:
        problems = [f"{message.id!r}: {error}" for message, errors in catalog.check() for error in errors]
        if problems:
            raise ValueError(f"{po_path}: " + "; ".join(problems))
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    return compiled.getvalue()


def compile_all(directory: Path = DIRECTORY) -> list[Path]:
    """Compile every checked ``.po`` under ``directory`` into the ``.mo`` beside it; the ``.mo`` files written."""
    written = []
    for po_path in sorted(directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo_path = po_path.with_suffix(".mo")
        mo_path.write_bytes(compile_in_memory(po_path, check=True))
        written.append(mo_path)
    return written

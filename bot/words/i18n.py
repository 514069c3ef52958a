"""Words in the reader's language: gettext through aiogram's :class:`~aiogram.utils.i18n.I18n`.

Every user-visible string in ``bot/`` goes through :func:`_` (or :func:`ngettext` when it counts
something, or :func:`N_` where it is defined before anyone reads it). Which language is current is a
context variable: the update's middleware sets it for the chat the update came from, and code that
writes to other chats wraps the writing in :func:`speaking`:

>>> with speaking("uk"):
...     ngettext("{count} tile", "{count} tiles", 5).format(count=5) in ("5 кісточок", "5 tiles")
True
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager

from aiogram.utils.i18n import I18n

import locales

LANGUAGES = locales.LANGUAGES
DEFAULT_LANGUAGE = locales.SOURCE_LANGUAGE


class Catalogues(I18n):
    """aiogram's I18n, reading the ``.mo`` files that installation compiled.

    Where one is missing or older than its ``.po`` (a source checkout whose catalogues were
    edited since), the ``.po`` is compiled in memory instead of refusing to start.
    """

    def find_locales(self) -> dict[str, gettext.GNUTranslations]:
        translations: dict[str, gettext.GNUTranslations] = {}
        for language in LANGUAGES:
            po_path = self.path / language / "LC_MESSAGES" / f"{self.domain}.po"
            mo_path = po_path.with_suffix(".mo")
            if mo_path.exists() and (not po_path.exists() or mo_path.stat().st_mtime >= po_path.stat().st_mtime):
                with mo_path.open("rb") as compiled:
                    translations[language] = gettext.GNUTranslations(compiled)
            elif po_path.exists():
                translations[language] = gettext.GNUTranslations(io.BytesIO(locales.compile_in_memory(po_path)))
        return translations


I18N = Catalogues(path=locales.DIRECTORY, default_locale=DEFAULT_LANGUAGE, domain=locales.DOMAIN)


def _(message: str) -> str:
    """``message`` in the current language."""
    return I18N.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of ``singular``/``plural`` that the current language uses for ``count``."""
    return I18N.gettext(singular, plural, count)


def N_(message: str) -> str:  # the name gettext's extractors look for
    """Marks ``message`` for the catalogue without translating it (it is translated where it is read)."""
    return message


def current() -> str:
    return I18N.current_locale


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Words built inside the block are in ``language``."""
    with I18N.use_locale(language if language in LANGUAGES else DEFAULT_LANGUAGE):
        yield


def language_of(code: str | None) -> str:
    """One of ours for Telegram's ``language_code`` (an IETF tag such as ``ru`` or ``uk-UA``); English otherwise.

    >>> language_of("uk-UA"), language_of("ru"), language_of("de"), language_of(None)
    ('uk', 'ru', 'en', 'en')
    """
    base = (code or "").split("-")[0].lower()
    return base if base in LANGUAGES else DEFAULT_LANGUAGE

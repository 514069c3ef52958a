"""The gettext catalogues: ``<language>/LC_MESSAGES/messages.po``, compiled to ``.mo`` at install time.

The ``.mo`` files are built, never committed: ``pip install`` compiles them (``setup.py``), and so
does the Docker image's build. ``python -m locales`` extracts ``messages.pot`` from the code and
brings every catalogue up to date with it (see :mod:`locales.__main__`).
"""

from locales.files import (
    DIRECTORY,
    DOMAIN,
    LANGUAGES,
    SOURCE_LANGUAGE,
    catalogue,
    compile_all,
    compile_in_memory,
)

__all__ = ["DIRECTORY", "DOMAIN", "LANGUAGES", "SOURCE_LANGUAGE", "catalogue", "compile_all", "compile_in_memory"]

"""Compile the gettext catalogues (locales/*/LC_MESSAGES/messages.po -> .mo) whenever the package is built.

Everything else about the package is in pyproject.toml; this hook exists because setuptools has no
declarative way to run a build step. It runs for ``pip install .`` and ``pip install -e .`` alike.
"""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from locales import compile_all

        for path in compile_all():
            print(f"compiled {path}")
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogues})

"""Build steps setuptools has no declarative way to run; they run for ``pip install .`` and ``pip install -e .`` alike.

- The gettext catalogues: locales/*/LC_MESSAGES/messages.po -> .mo.
- The engine's core (engine/core.py, the rules of a round) compiled to a C extension with mypyc, which
  makes the engine several times faster (README, "The engine"). Where it cannot be built (no C
  compiler, ``DOMINOES_PURE_PYTHON=1``) the package installs without it and the same source runs as
  plain Python.
"""

import hashlib
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

COMPILED_MODULES = ["engine/core.py"]


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from locales import compile_all

        for path in compile_all():
            print(f"compiled {path}")
        super().run()


class BuildWithDigests(build_ext):
    """Beside each compiled module, the SHA-256 of the source it was compiled from: engine/_core_loader.py
    runs the source instead of a compiled copy that no longer matches it."""

    def run(self) -> None:
        super().run()
        folders = {Path(self.build_lib)} | ({Path(".")} if self.inplace else set())
        for source in COMPILED_MODULES:
            built = Path(self.build_lib, source).parent.glob(Path(source).stem + ".*.so")
            if not any(built):
                continue  # not compiled here (no C compiler): nothing to vouch for
            digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()
            for folder in folders:
                target = (folder / source).with_suffix(".sha256")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(digest + "\n")


def compiled_modules() -> list:
    if os.environ.get("DOMINOES_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify

        extensions = mypycify(COMPILED_MODULES, opt_level="3")
    except (ImportError, SystemExit, Exception) as error:  # mypycify exits on a type error
        print(f"warning: the engine's core stays plain Python ({error!r})", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True  # a failed C build leaves the plain Python module
    return extensions


setup(cmdclass={"build_py": BuildWithCatalogues, "build_ext": BuildWithDigests}, ext_modules=compiled_modules())

"""Which ``engine.core`` runs: the compiled one when it is there and current, else the source.

``pip install`` compiles engine/core.py with mypyc (setup.py) beside the source, and writes the
SHA-256 of the source it compiled to engine/core.sha256. Python would import the compiled module even
after the source changed, running yesterday's rules; so where the source no longer matches that
digest, or ``DOMINOES_PURE_PYTHON`` is set, the source is imported instead (``pip install -e .``
compiles it again).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import warnings
from pathlib import Path

PURE_PYTHON = "DOMINOES_PURE_PYTHON"


def load_core() -> None:
    """Import ``engine.core``, choosing between its compiled copy and its source."""
    if "engine.core" in sys.modules:
        return
    source = Path(__file__).with_name("core.py")
    found = importlib.util.find_spec("engine.core")
    if found is None or found.origin is None or Path(found.origin) == source:
        return  # no compiled copy: the usual import finds the source
    stale = _digest_of(source) != _compiled_digest(source.with_suffix(".sha256"))
    if not stale and not os.environ.get(PURE_PYTHON):
        return
    if stale:
        warnings.warn(
            f"{source} changed since it was compiled: it runs as plain Python (pip install -e . compiles it again)",
            stacklevel=3,
        )
    spec = importlib.util.spec_from_file_location("engine.core", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["engine.core"] = module
    spec.loader.exec_module(module)
    sys.modules["engine"].core = module  # type: ignore[attr-defined]  # as the import system does


def _digest_of(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def _compiled_digest(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


load_core()

"""No module of a package imports from that package's face (its ``__init__``).

``from storage import handled`` inside ``storage/chats.py`` runs ``storage/__init__``, which imports
``storage.database``, which imports ``storage.chats``: a cycle through the face, and whichever end
is imported first sees the other half-made. A module names the sibling it needs by that sibling's
own path (``from storage.handled import pending``, ``import storage.handled as handled``); only
the face itself, and code outside the package, import from the face.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO

# Top-level folders with an ``__init__.py`` that are not the project's own code.
NOT_OURS = frozenset({"build", "dist", ".venv"})


def packages() -> list[Path]:
    """Every top-level package of the checkout (a folder with an ``__init__.py``): engine, renderer,
    storage, bot, locales, sandbox, the fake Telegram, docs, bench and tests."""
    return sorted(init.parent for init in REPO.glob("*/__init__.py") if init.parent.name not in NOT_OURS)


def module_name(path: Path) -> tuple[str, bool]:
    """The dotted name of the module at ``path``, and whether it is a package's face (``__init__``)."""
    parts = path.relative_to(REPO).with_suffix("").parts
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def face_imports(source: str, name: str, *, is_face: bool = False) -> Iterator[tuple[int, str]]:
    """The imports in ``source``, the module ``name`` (at any depth: in functions too), of the face of
    a package that holds it: each one's line and the package."""
    parts = name.split(".")
    holding = parts if is_face else parts[:-1]  # the package a relative import starts from
    enclosing = {".".join(parts[:end]) for end in range(1, len(parts))}
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.ImportFrom):
            base = holding[: len(holding) - node.level + 1] if node.level else []
            target = ".".join([*base, node.module] if node.module else base)
            if target in enclosing:
                yield node.lineno, target
        elif isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names if alias.name in enclosing)


def faces_imported_from_inside() -> list[str]:
    found = []
    for top in packages():
        for path in sorted(top.rglob("*.py")):
            name, is_face = module_name(path)
            source = path.read_text(encoding="utf-8")
            lines = source.splitlines()
            for line, package in face_imports(source, name, is_face=is_face):
                where = f"{path.relative_to(REPO)}:{line}"
                found.append(f"{where}: {lines[line - 1].strip()} (the face of {package}: import the module itself)")
    return found


def test_no_module_imports_its_own_package_face() -> None:
    assert faces_imported_from_inside() == []


def test_every_form_of_import_from_a_face_is_seen() -> None:
    """Absolute, relative, bare and inside a function, of the package or of one holding it; by the
    module's own path, or from another package's face, is allowed (``import bot.table.rooms`` runs
    the face of ``bot.table`` first, as every import does, but takes nothing from it)."""
    source = "\n".join(
        [
            "from bot.table import lobbies",
            "from . import rooms",
            "import bot",
            "def later():",
            "    from bot import app",
            "from .. import words",
            "import bot.table.rooms as rooms",
            "from bot.table.rooms import open_room",
            "from .rooms import open_room",
            "from ..words import texts",
            "from storage import Database",
            "import bot.table",  # the face, and nothing but the face
        ]
    )
    assert list(face_imports(source, "bot.table.service")) == [
        (1, "bot.table"),
        (2, "bot.table"),
        (3, "bot"),
        (6, "bot"),
        (12, "bot.table"),
        (5, "bot"),  # ast.walk reaches into the function last
    ]
    # A face may import from itself or from the faces of packages it holds; not from those holding it.
    face = "from bot.table import service\nfrom bot.table.rooms import x\nfrom bot import app\nfrom . import y"
    assert list(face_imports(face, "bot.table", is_face=True)) == [(3, "bot")]

"""Finds words in ``bot/`` that would reach a person without passing through the catalogue.

An AST scan: a string literal (or the literal parts of an f-string) that reads like language — two
words, a word with a capital first letter such as "Join", a word beside a symbol such as "↩ back",
in an f-string a word between spaces — is a finding unless it is

* inside a call to ``_``, ``ngettext`` or ``N_`` (it is in the catalogue),
* a docstring or another bare string statement,
* an argument of a logging call (``log.info``, ``logger.warning`` …), of ``print`` or of
  pydantic's ``Field`` (the operator's terminal and settings, not a chat), or of a string method
  that looks for it (``startswith``, ``removeprefix``, ``split`` …),
* the message of an ``assert``, or of a ``raise`` of a programming error (``ValueError``,
  ``RuntimeError``, ``AssertionError``, ``TypeError``, ``KeyError`` …, ``SystemExit``),
* a dict key or a subscript, a side of a comparison (``x == "Text"``, ``x in ("a b", …)``),
* a ``prefix=`` of a class definition (callback data), SQL, protocol text (MIME types, HTTP
  headers), ``__all__``, a type annotation,
* on a line marked ``# i18n: not shown`` (the escape hatch, for the rare literal that only looks
  like words; ``# i18n: same in every language`` marks one shown as it is, such as a language's
  own name in the language menu).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MARKERS = ("# i18n: not shown", "# i18n: same in every language")
CATALOGUE_CALLS = frozenset({"_", "ngettext", "N_", "gettext", "lazy_gettext"})
OPERATOR_CALLS = frozenset({"print", "Field"})
STRING_METHODS = frozenset(
    {"startswith", "endswith", "removeprefix", "removesuffix", "split", "rsplit", "partition", "rpartition"}
    | {"find", "rfind", "index", "rindex", "count", "replace", "strip", "lstrip", "rstrip"}
)
LOGGING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
LOGGER_NAME = re.compile(r"^_?(log|logger|logging)$|_(log|logger)$")
PROGRAMMING_ERRORS = frozenset(
    {
        "ValueError",
        "RuntimeError",
        "AssertionError",
        "TypeError",
        "KeyError",
        "IndexError",
        "LookupError",
        "AttributeError",
        "NotImplementedError",
        "SystemExit",
    }
)
SQL = re.compile(
    r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|WITH|BEGIN|COMMIT|ROLLBACK|REPLACE)\b", re.IGNORECASE
)
TECHNICAL = re.compile(r"\r\n|^[a-z]+/[a-z0-9.+-]+(?:;|$)")
# Language: two words in a row, or a capitalised word ("Join", "🁢 My hand"), …
TWO_WORDS = re.compile(r"[A-Za-z]{2,}[,;:.!?]?\s+[A-Za-z]|[A-Za-z][,;:.!?]?\s+[A-Za-z]{2,}")
CAPITALISED = re.compile(r"(?<![A-Za-z0-9_.\-/])[A-Z][a-z]{2,}(?![A-Za-z0-9_\-])")
# A button's label: a symbol and a word ("⬅ left", "↩ back", "right ➡").
LABEL = re.compile(r"[^\x00-\x7f]\s+[A-Za-z]{2,}|[A-Za-z]{2,}\s+[^\x00-\x7f]")
# In an f-string a single word between spaces and fields is language too (f"{name} passed").
LONE_WORD = re.compile(r"(?:^|\s)[A-Za-z]{2,}[,;:.!?]?(?:\s|$)")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    literal: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.literal}"


def reads_like_language(text: str, *, in_fstring: bool = False) -> bool:
    if not re.search(r"[A-Za-z]{2,}", text):
        return False
    if TWO_WORDS.search(text) or CAPITALISED.search(text) or LABEL.search(text):
        return True
    return in_fstring and bool(LONE_WORD.search(text)) and bool(re.search(r"\s", text))


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_not_for_people(call: ast.Call) -> bool:
    func = call.func
    if _name(func) in OPERATOR_CALLS:
        return True
    if isinstance(func, ast.Attribute) and func.attr in STRING_METHODS:
        return True
    if not isinstance(func, ast.Attribute) or func.attr not in LOGGING_METHODS:
        return False
    owner = _name(func.value)
    return owner is not None and bool(LOGGER_NAME.search(owner))


class _Scan(ast.NodeVisitor):
    def __init__(self, path: str, source: str) -> None:
        self.path = path
        self.lines = source.splitlines()
        self.findings: list[Finding] = []
        self.parents: dict[ast.AST, ast.AST] = {}

    def run(self, tree: ast.AST) -> list[Finding]:
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                self.parents[child] = parent
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                self._check(node, "".join(_parts(node)), in_fstring=True)
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and not isinstance(self.parents.get(node), ast.JoinedStr | ast.FormattedValue)
            ):
                self._check(node, node.value, in_fstring=False)
        return sorted(self.findings, key=lambda finding: finding.line)

    def _check(self, node: ast.expr, text: str, *, in_fstring: bool) -> None:
        if not reads_like_language(text, in_fstring=in_fstring) or SQL.match(text) or TECHNICAL.search(text):
            return
        if self._marked(node) or self._excused(node):
            return
        literal = ast.get_source_segment("\n".join(self.lines), node) or repr(text)
        self.findings.append(Finding(self.path, node.lineno, " ".join(literal.split())))

    def _marked(self, node: ast.AST) -> bool:
        first, last = getattr(node, "lineno", 0), getattr(node, "end_lineno", None) or getattr(node, "lineno", 0)
        return any(marker in line for line in self.lines[first - 1 : last] for marker in MARKERS)

    def _excused(self, node: ast.AST) -> bool:
        """Whether the literal's place in the code says it is not for people (see the module's list)."""
        child, parent = node, self.parents.get(node)
        direct = True  # only tuples, lists or sets between the literal and ``parent``
        while parent is not None:
            if isinstance(parent, ast.Call) and (_name(parent.func) in CATALOGUE_CALLS or _is_not_for_people(parent)):
                return True
            if isinstance(parent, ast.Raise):
                exc = parent.exc.func if isinstance(parent.exc, ast.Call) else parent.exc
                return exc is not None and _name(exc) in PROGRAMMING_ERRORS
            if isinstance(parent, ast.Assert):
                return child is parent.msg
            if isinstance(parent, ast.Expr):
                return direct  # a docstring, or a string on its own
            if direct and isinstance(parent, ast.Dict) and any(child is key for key in parent.keys):
                return True
            if direct and isinstance(parent, ast.Subscript) and child is parent.slice:
                return True
            if direct and isinstance(parent, ast.Compare):
                return True
            if isinstance(parent, ast.keyword) and parent.arg == "prefix":
                return isinstance(self.parents.get(parent), ast.ClassDef)
            if isinstance(parent, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in parent.targets
            ):
                return True
            if isinstance(parent, ast.AnnAssign | ast.arg) and child is parent.annotation:
                return True
            if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef) and child is parent.returns:
                return True
            if isinstance(parent, ast.stmt):
                return False
            if not isinstance(parent, ast.Tuple | ast.List | ast.Set):
                direct = False
            child, parent = parent, self.parents.get(parent)
        return False


def _parts(node: ast.JoinedStr) -> Iterator[str]:
    """The literal text of an f-string, each field standing as a one-word placeholder."""
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            yield value.value
        else:
            yield "\x00"


def scan_file(path: Path, root: Path) -> list[Finding]:
    source = path.read_text(encoding="utf-8")
    return _Scan(path.relative_to(root).as_posix(), source).run(ast.parse(source, filename=str(path)))


def scan(root: Path, packages: tuple[str, ...] = ("bot",)) -> list[Finding]:
    """Every finding in the packages' Python files under ``root``, in file and line order."""
    found: list[Finding] = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            found += scan_file(path, root)
    return found

"""What pytest collects from the whole tree (tests/conftest.py holds the tests' own fixtures)."""

import engine.core

# A compiled engine/core.py is imported as its C extension, whose functions doctest cannot read:
# tests/engine/test_compiled.py runs that file's doctests on the source instead.
collect_ignore = ["engine/core.py"] if engine.core.COMPILED else []

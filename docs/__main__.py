"""``python -m docs``: write ``docs/rules.md`` from the code; ``python -m docs --check``: exit 1 if it is stale."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from docs.rules_page import GENERATOR, RULES_PAGE, rules_page


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=GENERATOR, description="Write docs/rules.md from the engine's presets.")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if docs/rules.md is not current")
    arguments = parser.parse_args(argv)
    page = rules_page()
    current = RULES_PAGE.read_text(encoding="utf-8") if RULES_PAGE.is_file() else None
    if arguments.check:
        if current != page:
            print(f"{RULES_PAGE} is not current: run {GENERATOR} to update it", file=sys.stderr)
            return 1
        print(f"{RULES_PAGE} is current")
        return 0
    if current == page:
        print(f"{RULES_PAGE} was already current")
    else:
        RULES_PAGE.write_text(page, encoding="utf-8")
        print(f"wrote {RULES_PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m locales``: the maintainers' tool for the catalogues.

``python -m locales``                 extract ``messages.pot`` from the code and bring every
                                      ``<language>/LC_MESSAGES/messages.po`` up to date with it
                                      (English is filled in from the msgids)
``python -m locales --drop-obsolete`` the same, and forget the obsolete (``#~``) entries
``python -m locales check``           list what is missing, empty, fuzzy, obsolete, or has other
                                      placeholders or HTML tags than the English; exit 1 if anything
``python -m locales compile``         compile every ``.po`` to its ``.mo`` (``pip install`` does this too)
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence

from locales.catalogues import problems, run_update
from locales.files import compile_all


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m locales", description="Keep the gettext catalogues up to date.")
    parser.add_argument(
        "command",
        nargs="?",
        default="update",
        choices=("update", "check", "compile"),
        help="update (the default): extract and update the catalogues; check: report problems; compile: build .mo",
    )
    parser.add_argument("--drop-obsolete", action="store_true", help="remove obsolete (#~) entries when updating")
    arguments = parser.parse_args(argv)
    if arguments.command == "compile":
        for path in compile_all():
            print(f"compiled {path}")
        return 0
    if arguments.command == "update":
        for line in run_update(drop_obsolete=arguments.drop_obsolete) or ["the catalogues were up to date"]:
            print(line)
    found = problems()
    if arguments.command == "check":
        for line in found:
            print(line, file=sys.stderr)
        if found:
            print(f"{len(found)} problems; run `python -m locales`, then translate", file=sys.stderr)
            return 1
        print("the catalogues are complete")
        return 0
    # After an update, a summary: how many of each kind of problem each file has.
    summary = Counter(tuple(line.split(": ", 2)[:2]) for line in found)
    for (where, kind), count in sorted(summary.items()):
        print(f"{where}: {count} {kind}")
    if found:
        print(f"{len(found)} things still to do: `python -m locales check` lists them")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Command line: ``python -m engine replay FILE|-`` and ``python -m engine suggest`` (docs/record.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine.errors import RecordError
from engine.record import loads, replay, summary


def _replay(path: str) -> int:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"record: unreadable: {error}", file=sys.stderr)
        return 2
    try:
        match = replay(loads(text))
    except RecordError as error:
        print(str(error), file=sys.stderr)
        return 2
    print(json.dumps(summary(match)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Dominoes rules engine tools.",
        epilog="The record format and the suggest protocol: docs/record.md in the repository.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    replay_parser = commands.add_parser("replay", help="replay a game record and print its result as JSON")
    replay_parser.add_argument("file", help="the record's path, or - for standard input")
    commands.add_parser(
        "suggest", help="answer JSON lines {record, seat, level, seed} on standard input with a computer player's move"
    )
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.file)
    if args.command == "suggest":
        from engine.suggest import main as suggest_main  # the players load only when asked for

        return suggest_main()
    return 2  # pragma: no cover - argparse rejects other commands


if __name__ == "__main__":
    sys.exit(main())

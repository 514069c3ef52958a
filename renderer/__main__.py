"""``python -m renderer [FOLDER]``: write every example picture into FOLDER (default ``samples/renderer``).

``python -m renderer replay FILE OUT``: the game in the record FILE (an ``/export``, docs/record.md) as
an animation in OUT (an MP4, or a GIF when that is smaller: OUT's suffix is set to match).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from renderer.examples import write_samples

USAGE = "usage: python -m renderer [FOLDER] | python -m renderer replay FILE OUT"


def main(argv: list[str]) -> int:
    if argv and argv[0] == "replay":
        return replay_command(argv[1:])
    if argv and argv[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    folder = Path(argv[0]) if argv else Path("samples") / "renderer"
    for path in write_samples(folder):
        print(f"{path}  {path.stat().st_size} bytes")
    return 0


def replay_command(argv: list[str]) -> int:
    if len(argv) != 2:
        print(USAGE, file=sys.stderr)
        return 2
    from engine import RecordError
    from renderer.replay import render_replay

    source, out = Path(argv[0]), Path(argv[1])
    try:
        record = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"{source}: cannot be read as a JSON record: {error}", file=sys.stderr)
        return 1
    if not isinstance(record, dict):
        print(f"{source}: a record is a JSON object", file=sys.stderr)
        return 1
    try:
        animation = render_replay(record)
    except RecordError as error:
        print(f"{source}: {error}", file=sys.stderr)
        return 1
    out = out.with_suffix("." + animation.format)
    out.write_bytes(animation.data)
    print(
        f"{out}  {len(animation.data)} bytes, {animation.frames} steps, {animation.seconds:.1f} s,"
        f" {animation.width}x{animation.height}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""``python -m renderer [FOLDER]``: write every example picture into FOLDER (default ``samples/renderer``)."""

from __future__ import annotations

import sys
from pathlib import Path

from renderer.examples import write_samples


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path("samples") / "renderer"
    for path in write_samples(folder):
        print(f"{path}  {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

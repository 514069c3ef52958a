"""The container health check: the bot is healthy while its heartbeat file is fresh.

``python -m bot.health`` exits 0 when the running bot touched the file within
the last :data:`STALE_AFTER` seconds, 1 otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from pathlib import Path

HEARTBEAT_FILE = Path(os.environ.get("HEARTBEAT_FILE", "/tmp/dominoes-bot.heartbeat"))
INTERVAL = 20.0
STALE_AFTER = 90.0


async def beat(path: Path = HEARTBEAT_FILE, interval: float = INTERVAL) -> None:
    """Touch ``path`` every ``interval`` seconds for as long as the bot runs."""
    while True:
        # A read-only or missing folder only costs the health check, never the games.
        with contextlib.suppress(OSError):
            path.touch()
        await asyncio.sleep(interval)


def healthy(path: Path = HEARTBEAT_FILE, now: float | None = None) -> bool:
    try:
        age = (now or time.time()) - path.stat().st_mtime
    except OSError:
        return False
    return age < STALE_AFTER


if __name__ == "__main__":
    sys.exit(0 if healthy() else 1)

"""``python -m bench.bot_cprofile``: the bot's ``main`` under cProfile, for ``bench/bot.py --profile cprofile``.

The stats go to the file named by ``BENCH_CPROFILE`` when the bot stops (SIGTERM stops it cleanly).
Only the event loop thread is profiled; the bot's code is not changed.
"""

from __future__ import annotations

import cProfile
import os

from bot.app import main


def profiled() -> None:
    output = os.environ["BENCH_CPROFILE"]
    profile = cProfile.Profile()
    profile.enable()
    try:
        main()
    finally:
        profile.disable()
        profile.dump_stats(output)


if __name__ == "__main__":
    profiled()

"""The sandbox: how long ``dominoes-bot sandbox`` takes to be ready, and how much memory it holds.

Run from the repository root::

    .venv/bin/python -m bench.sandbox             # 3 starts, one private game
    .venv/bin/python -m bench.sandbox --starts 5

Each start runs the command as a person would, in one temporary folder (the first start is a
fresh machine's, the later ones go on with the kept ``./data``), with the bot's default settings
(computer delays, two picture workers). Measured:

- ready: from spawning the command to its page answering ``GET /`` with 200 and the bot asking
  for updates (the "ready in" line the command prints, which counts from inside the process);
- memory: the resident set (``VmRSS``) of the whole process tree (the sandbox, the bot, its
  picture workers) once ready, and after one private ``quickblock`` game against the computer
  played through the page's protocol (``sandbox/client.py``) on the last start;
- the game: seconds from the first tap to the result, and the page's frames in that time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from functools import partial
from pathlib import Path

import aiohttp

from sandbox.client import Page
from tests.kit.launcher import free_port

READY = re.compile(r"ready in ([0-9.]+) s")
GAME_OVER = re.compile(r"wins the game!|Game over\.")


def tree_rss_kb(pid: int) -> dict[str, int]:
    """VmRSS of ``pid`` and its descendants, by command name."""
    sizes: dict[str, int] = {}
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    todo = [pid]
    while todo:
        current = todo.pop()
        todo.extend(children.get(current, []))
        try:
            status = Path(f"/proc/{current}/status").read_text()
            command = Path(f"/proc/{current}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue
        found = re.search(r"VmRSS:\s+(\d+) kB", status)
        if found:
            if "-m bot" in command:
                label = "bot"
            elif "sandbox" in command:
                label = "sandbox"
            else:
                label = "picture workers" if "multiprocessing" in command else command[:40]
            sizes[label] = sizes.get(label, 0) + int(found.group(1))
    return sizes


def megabytes(sizes: dict[str, int]) -> str:
    return ", ".join(f"{label} {size / 1024:.0f}" for label, size in sizes.items())


def start(folder: Path, port: int, log: Path) -> tuple[subprocess.Popen[bytes], float, float]:
    """Spawn the command; returns the process, seconds until the page answered and the bot polled, and the
    command's own figure."""
    command = [str(Path(sys.executable).with_name("dominoes-bot")), "sandbox"]
    env = {**os.environ, "SANDBOX_PORT": str(port)}
    begun = time.monotonic()
    with log.open("ab") as out:
        process = subprocess.Popen(command, cwd=folder, env=env, stdout=out, stderr=out)
    seen = log.stat().st_size
    while True:
        if process.poll() is not None:
            raise SystemExit(f"the sandbox exited: {log.read_text()[-2000:]}")
        found = READY.search(log.read_bytes()[seen:].decode(errors="replace"))
        if found:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    if response.status == 200:
                        return process, time.monotonic() - begun, float(found.group(1))
            except urllib.error.URLError:
                pass
        time.sleep(0.02)


async def play_private_game(port: int) -> tuple[float, int, int]:
    """Ann plays quickblock against one computer through the protocol; seconds, frames, her moves."""
    url = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{url}/api/world") as response:
            world = await response.json()
        ann = next(person["id"] for person in world["people"] if person["name"] == "Ann")
        page = await Page.open(session, url, ann)

        async def act(action: str, **body: object) -> None:
            async with session.post(f"{url}/api/{action}", json={"person": ann, **body}) as answer:
                assert answer.status == 200, await answer.text()

        begun = time.monotonic()
        await act("start")
        for prefix in ("s:preset:quickblock:", "sg:quickblock:1:"):
            message_id, data = await page.wait(partial(page.button, ann, prefix), prefix)
            await act("tap", chat_id=ann, message_id=message_id, data=data)
        moves = 0
        while not any(GAME_OVER.search(text) for text in page.texts(ann)):
            await page.settle(0.8)
            found = page.find(ann, lambda b: re.fullmatch(r"t:.*:[lrud]", b["data"]) is not None, newest_only=True)
            found = found or page.labelled_button(ann, ("🟢", "⭐"))
            if found is not None:
                await act("tap", chat_id=ann, message_id=found[0], data=found[1])
                moves += 1
        return time.monotonic() - begun, page.frames, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-sandbox-") as temporary:
        folder = Path(temporary)
        log = folder / "sandbox.log"
        for number in range(1, args.starts + 1):
            port = free_port()
            process, ready, own = start(folder, port, log)
            time.sleep(1.0)  # the picture workers start with the bot
            idle = tree_rss_kb(process.pid)
            kind = "fresh" if number == 1 else "kept data"
            print(
                f"start {number} ({kind}): ready {ready:.2f} s from the command (it says {own:.1f} s); "
                f"memory {sum(idle.values()) / 1024:.0f} MB ({megabytes(idle)})"
            )
            if number == args.starts:
                seconds, frames, moves = asyncio.run(play_private_game(port))
                played = tree_rss_kb(process.pid)
                print(
                    f"one private quickblock game: {seconds:.1f} s, {moves} moves by Ann, {frames} page frames; "
                    f"memory after it {sum(played.values()) / 1024:.0f} MB "
                    f"({megabytes(played)})"
                )
            process.send_signal(signal.SIGINT)
            stopped = time.monotonic()
            process.wait(30)
            print(f"  stopped by Ctrl-C in {time.monotonic() - stopped:.2f} s, exit status {process.returncode}")


if __name__ == "__main__":
    main()

"""``dominoes-bot sandbox`` as a person runs it: ready, served, stopped by Ctrl-C, and going on after a restart."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import aiohttp

from sandbox.client import Page
from tests.sandbox.conftest import SandboxRun


async def open_page(session: aiohttp.ClientSession, run: SandboxRun, person: int) -> Page:
    return await Page.open(session, run.url, person)


def test_ready_served_and_stopped_by_ctrl_c(sandbox_run: SandboxRun) -> None:
    run = sandbox_run.start()
    with urllib.request.urlopen(f"{run.url}/", timeout=10) as response:
        page = response.read().decode()
        policy = response.headers["Content-Security-Policy"]
    assert "<script" in page and "default-src 'self'" in policy
    assert "http://" not in page.replace(run.url, "") and "https://" not in page  # nothing from outside
    world = run.world()
    assert sorted(world["people"]) == ["Ann", "Bob", "Cat", "Dan"]
    assert world["group"]["title"] == "Domino night"
    assert [name for name, person in world["people"].items() if person["in_group"]] == ["Ann", "Bob", "Cat"]

    assert run.stop(signal.SIGINT) == 0
    output = run.output()
    assert "Polling stopped" in output, output  # the bot was stopped by the sandbox, not left running
    assert "stopped; the games and chats are kept in" in output
    assert (run.workdir / "data" / "sandbox.sqlite3").exists()


async def test_a_private_game_goes_on_after_a_restart(sandbox_run: SandboxRun) -> None:
    run = sandbox_run.start()
    ann = run.world()["people"]["Ann"]["id"]
    async with aiohttp.ClientSession() as session:
        page = await open_page(session, run, ann)
        assert page.chats[ann]["needs_start"]
        assert run.api("start", person=ann) == (200, {"ok": True, "chat_id": ann})
        message_id, data = await page.wait(lambda: page.button(ann, "s:preset:classic:"), "the rule sets")
        assert run.api("tap", person=ann, chat_id=ann, message_id=message_id, data=data)[0] == 200
        message_id, data = await page.wait(lambda: page.button(ann, "sg:classic:1:"), "the opponents")
        assert run.api("tap", person=ann, chat_id=ann, message_id=message_id, data=data)[0] == 200
        await page.wait(lambda: any(a["message_id"] == message_id for a in page.answers), "the answer to the tap")
        await page.wait(lambda: page.button(ann, "t:"), "the hand")
        await page.settle()  # the computer has moved: it is Ann's turn, and the bot waits for her
        hand = page.labelled_button(ann, ("🟢", "⭐"))  # a tile that fits
        assert hand is not None
        shown_before = page.texts(ann)
        await page.socket.close()

    assert run.stop() == 0
    handled = handled_updates(run)
    next_id = kept_next_update_id(run)
    assert next_id > max(handled)
    run.start()
    async with aiohttp.ClientSession() as session:
        page = await open_page(session, run, ann)
        assert page.texts(ann) == shown_before  # the chat as it was, hand and all
        assert not page.chats[ann]["needs_start"]
        tapped = run.api("tap", person=ann, chat_id=ann, message_id=hand[0], data=hand[1])
        assert tapped[0] == 200, tapped
        # The bot takes the tap (its update id is new to it) and the game goes on from where it was.
        await page.wait(lambda: any(a["message_id"] == hand[0] for a in page.answers), "the answer after the restart")
        assert not any("older view" in a["text"] for a in page.answers), page.answers

        def ends() -> tuple[int, str] | None:
            return page.find(ann, lambda button: button["data"].endswith(":l"), newest_only=True)

        def moved() -> bool:
            return re.search(r"Ann (drew \d+ and )?played", page.texts(ann)[-1]) is not None

        await page.wait(lambda: moved() or ends(), "the tap taken after the restart")
        end = ends()
        if end is not None:  # the tile fits two ends: the bot asks which one
            run.api("tap", person=ann, chat_id=ann, message_id=end[0], data=end[1])
        await page.wait(moved, "Ann's move after the restart")
    # Telegram's update ids went on from where they were: the bot skips ids it handled already.
    assert run.stop() == 0
    assert kept_next_update_id(run) > next_id


def handled_updates(run: SandboxRun) -> list[int]:
    with contextlib.closing(sqlite3.connect(run.workdir / "data" / "sandbox.sqlite3")) as database:
        return [row[0] for row in database.execute("SELECT update_id FROM handled_updates")]


def kept_next_update_id(run: SandboxRun) -> int:
    document = json.loads((run.workdir / "data" / "sandbox-telegram" / "world.json").read_text())
    return int(document["next_update_id"])


def test_open_shows_the_page_in_the_browser_there_is(tmp_path: Path) -> None:
    opener = tmp_path / "browser.sh"
    opener.write_text('#!/bin/sh\necho "$1" > "$(dirname "$0")/opened"\n')
    opener.chmod(0o755)
    run = SandboxRun(tmp_path / "work", env={"BROWSER": str(opener)}, args=("--open",)).start()
    try:
        deadline = time.monotonic() + 10
        while not (tmp_path / "opened").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert (tmp_path / "opened").read_text().strip() == f"{run.url}/"
    finally:
        assert run.stop() == 0


def test_bad_port_and_busy_port_are_one_line_each(tmp_path: Path) -> None:
    command = [str(Path(sys.executable).with_name("dominoes-bot")), "sandbox"]
    bad = subprocess.run(
        command, cwd=tmp_path, env={"SANDBOX_PORT": "eighty", "PATH": ""}, capture_output=True, timeout=60
    )
    assert bad.returncode == 2
    assert bad.stderr.decode().strip().splitlines() == [
        "dominoes-bot sandbox: SANDBOX_PORT must be a port number from 1 to 65535, not 'eighty'"
    ]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = subprocess.run(
            command, cwd=tmp_path, env={"SANDBOX_PORT": str(port), "PATH": ""}, capture_output=True, timeout=60
        )
    assert busy.returncode == 2
    assert f"dominoes-bot sandbox: cannot listen on 127.0.0.1:{port}" in busy.stderr.decode()
    assert "Traceback" not in busy.stderr.decode()


def test_the_command_line_says_how_to_use_it() -> None:
    command = [str(Path(sys.executable).with_name("dominoes-bot"))]
    helped = subprocess.run([*command, "--help"], capture_output=True, timeout=60)
    assert helped.returncode == 0 and b"dominoes-bot sandbox" in helped.stdout
    wrong = subprocess.run([*command, "sandboxx"], capture_output=True, timeout=60)
    assert wrong.returncode == 2 and b"usage:" in wrong.stderr


def test_a_killed_sandbox_leaves_no_bot_behind(sandbox_run: SandboxRun) -> None:
    run = sandbox_run.start()
    assert run.process is not None
    bots = [pid for pid in children(run.process.pid) if b"-m\0bot" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert len(bots) == 1
    run.stop(signal.SIGKILL)
    deadline = time.monotonic() + 15
    while Path(f"/proc/{bots[0]}").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(f"/proc/{bots[0]}").exists() or b"zombie" in Path(f"/proc/{bots[0]}/status").read_bytes()


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found

"""The sandbox as a person starts it: ``dominoes-bot sandbox`` in a folder of its own, on a free port.

:class:`SandboxRun` starts the command (the bot's computer delays shortened, so that whole games
fit in a test), waits for its "ready" line, and stops it with Ctrl-C's SIGINT; ``api`` does what
the page does (``POST /api/<action>``) and ``world`` reads the people and the group.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kit.launcher import free_port

READY = re.compile(r"ready in ([0-9.]+) s")
START_TIMEOUT = 60.0
STOP_TIMEOUT = 20.0
FAST = {"COMPUTER_DELAY": "0.2", "PRIVATE_COMPUTER_DELAY": "0.1", "RENDER_WORKERS": "0", "LOG_LEVEL": "INFO"}


class SandboxRun:
    def __init__(
        self, workdir: Path, port: int | None = None, env: dict[str, str] | None = None, args: tuple[str, ...] = ()
    ) -> None:
        self.workdir = workdir
        self.args = args
        self.port = port or free_port()
        self.env = {**os.environ, **FAST, **(env or {}), "SANDBOX_PORT": str(self.port)}
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = workdir / f"sandbox-{self.port}.log"
        self.ready_seconds = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> SandboxRun:
        self.workdir.mkdir(parents=True, exist_ok=True)
        seen = self.output()
        log = self.log_path.open("ab")
        command = [str(Path(sys.executable).with_name("dominoes-bot")), "sandbox", *self.args]
        self.process = subprocess.Popen(command, cwd=self.workdir, env=self.env, stdout=log, stderr=log)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            found = READY.search(self.output()[len(seen) :])
            if found:
                self.ready_seconds = float(found.group(1))
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"the sandbox did not become ready:\n{self.output()[-4000:]}")

    def stop(self, signum: int = signal.SIGINT) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signum)
        try:
            return self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(
                f"the sandbox did not stop within {STOP_TIMEOUT} s:\n{self.output()[-3000:]}"
            ) from None

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def api(self, action: str, headers: dict[str, str] | None = None, **body: Any) -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(
            f"{self.url}/api/{action}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **(headers or {})},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def world(self) -> dict[str, Any]:
        """The ``world`` frame: the bot, the people (by name here) and the group."""
        with urllib.request.urlopen(f"{self.url}/api/world", timeout=10) as response:
            frame: dict[str, Any] = json.loads(response.read())
        frame["people"] = {person["name"]: person for person in frame["people"]}
        return frame


@pytest.fixture
def sandbox_run(tmp_path: Path) -> Iterator[SandboxRun]:
    run = SandboxRun(tmp_path)
    yield run
    if run.process is not None and run.process.poll() is None:
        with contextlib.suppress(AssertionError):
            run.stop()

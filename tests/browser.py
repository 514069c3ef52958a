"""Headless Chromium for the page tests: Debian's ``chromium`` and ``chromium-driver`` (``.ci/run``
installs them) driven by Selenium; nothing downloads a browser. Tests that use it skip without them."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
PHONE = (390, 844)
needs_chromium = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()),
    reason="Debian's chromium and chromium-driver are not installed (.ci/run installs them)",
)


def chromium(size: tuple[int, int] = PHONE) -> Any:
    """A headless Chromium window of ``size`` (a phone's by default)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not look for a browser to download
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_window_size(*size)
    return driver


_REFUSED_ACTION = re.compile(r"/api/[a-z/]+ - Failed to load resource: the server responded with a status of 400")
_NO_INTERNET = re.compile(r"https://telegram\.org/.*(ERR_NAME_NOT_RESOLVED|ERR_INTERNET_DISCONNECTED|ERR_CONNECTION)")


def page_errors(logs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Errors of the page's own making. Not counted: a refused action (400 from ``/api/``, shown as
    a toast: a tap on a keyboard redrawn under the finger) and Telegram's own script failing to
    load on a machine without internet; both are Chrome's network lines, not the page's errors."""
    return [
        entry
        for entry in logs
        if entry.get("level") == "SEVERE"
        and not (
            entry.get("source") == "network"
            and (
                _REFUSED_ACTION.search(str(entry.get("message", "")))
                or _NO_INTERNET.search(str(entry.get("message", "")))
            )
        )
    ]

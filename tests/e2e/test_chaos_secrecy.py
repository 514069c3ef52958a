"""Secrecy under fire, the fast part of ``tests/kit/scenarios/secrecy.py``: a handful of whole games.

Group games with people and computers, private games and a friend room, played at once by the
real bot; then every text, caption, button, tap answer and picture any chat was sent is checked
against the stored deal of its round (a hidden tile is named nowhere before it is played or the
round ends; every board picture is byte for byte the public table's or the player's own view),
the log names no tile, and the token shows nowhere, also when start-up fails (401, a malformed
token, a wrong API path, a URL aiohttp refuses and quotes whole).
"""

from __future__ import annotations

import inspect
import logging
import sys

from bot.app import RedactingFormatter, redact
from bot.display.pictures import PictureMaker
from engine import Table
from tests.e2e.conftest import CHAOS_LARGE
from tests.kit.scenarios import secrecy


async def test_no_hidden_tile_and_no_token_shown_anywhere() -> None:
    figures = await secrecy.run(quick=not CHAOS_LARGE)
    assert figures["games unfinished"] == []
    assert figures["games audited"] == figures["games"]
    assert isinstance(figures["requests checked"], int) and figures["requests checked"] > 100
    pictures = figures["pictures"]
    assert isinstance(pictures, dict) and pictures.get("matched", 0) > 20
    assert figures["leaks in words and buttons"] == []
    assert figures["results before their round ended"] == []
    assert figures["picture leaks"] == []
    assert figures["log lines naming a tile"] == []
    assert figures["token in the bot's log"] == []
    assert figures["token in start-up errors"] == {}
    assert figures["start-up errors with a traceback"] == []
    assert figures["inline handlers"] == []
    assert figures["leaks"] == 0


def test_the_group_picture_takes_only_the_public_table() -> None:
    hints = inspect.get_annotations(PictureMaker.table, eval_str=True)
    assert hints["table"] is Table


def test_the_token_is_redacted_from_messages_and_log_lines() -> None:
    token = "123456789:AAsecretsecretsecretsecretsecret12345"
    url = f"http://127.0.0.1:99999/bot{token}/getMe"
    assert "secretsecret" not in redact(url, token)
    formatter = RedactingFormatter("%(message)s", token)
    try:
        raise ValueError(url)
    except ValueError:
        record = logging.LogRecord("bot", logging.ERROR, __file__, 1, "failed: %s", (url,), exc_info=None)
        record.exc_info = sys.exc_info()
        line = formatter.format(record)
    assert "secretsecret" not in line and "<BOT_TOKEN>" in line

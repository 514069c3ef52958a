"""Settings: a missing or malformed token is one clear line and exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.app import main
from bot.environment import Settings
from tests.conftest import REPO

GOOD = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"


def _run(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        cwd=cwd,  # an empty folder: no .env file
        timeout=60,
    )


def test_a_missing_token_exits_2_with_one_line(tmp_path: Path) -> None:
    """The real process: ``python -m bot`` with no token at all exits with status 2 and one line."""
    result = _run({"PYTHONPATH": str(REPO)}, tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "BOT_TOKEN" in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("token", [None, "", "abc", "123:short", "notdigits:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"])
def test_bad_tokens_exit_2_with_one_line(
    token: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What ``python -m bot`` runs (:func:`bot.app.main`), in this process: the same code path as
    the subprocess above, without the seconds an interpreter takes to start."""
    monkeypatch.chdir(tmp_path)  # an empty folder: no .env file
    for name in list(os.environ):
        if name.startswith(("BOT_", "TELEGRAM_")):
            monkeypatch.delenv(name)
    if token is not None:
        monkeypatch.setenv("BOT_TOKEN", token)
    monkeypatch.setattr(sys, "argv", ["python -m bot"])  # not pytest's own arguments
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].count("BOT_TOKEN") == 1, lines  # not "BOT_TOKEN: BOT_TOKEN does not ..."
    assert "Traceback" not in err


def test_each_bad_setting_is_named_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOT_TOKEN", "abc")
    monkeypatch.setenv("LOG_LEVEL", "loud")
    monkeypatch.setenv("GROUP_MESSAGES_PER_MINUTE", "many")  # a type error, in pydantic's own words
    monkeypatch.setattr(sys, "argv", ["python -m bot"])
    with pytest.raises(SystemExit):
        main()
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "BOT_TOKEN does not look like a token from @BotFather" in line, line
    assert "LOG_LEVEL must be DEBUG" in line, line
    assert "GROUP_MESSAGES_PER_MINUTE: " in line, line  # pydantic's message does not name it: the name leads
    for name in ("BOT_TOKEN", "LOG_LEVEL", "GROUP_MESSAGES_PER_MINUTE"):
        assert line.count(name) == 1, line


def test_an_unreachable_api_is_one_line_without_the_token(tmp_path: Path) -> None:
    # Nothing listens on port 9 here, so this is the unreachable case: exit 1, one line, no token.
    result = _run(
        {
            "PYTHONPATH": str(REPO),
            "BOT_TOKEN": GOOD,
            "TELEGRAM_API_URL": "http://127.0.0.1:9",
            "DATABASE_URL": "sqlite:///:memory:",
        },
        tmp_path,
    )
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert GOOD.split(":")[1] not in result.stderr


def test_defaults_and_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_TOKEN", GOOD)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.database_url == "sqlite:///data/dominoes.sqlite3"
    assert settings.telegram_api_url == "https://api.telegram.org"
    monkeypatch.setenv("TELEGRAM_API_URL", "ftp://example")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setenv("TELEGRAM_API_URL", "http://127.0.0.1:8081/")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.telegram_api_url == "http://127.0.0.1:8081"
    assert settings.log_level == "DEBUG"
    assert GOOD not in repr(settings)

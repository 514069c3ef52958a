"""docker-compose.yml and deploy/Caddyfile: the plain setup stays one polling bot, the scale profile hangs together.

Compose itself is not needed: the file is read with PyYAML, and its ``${...}`` variables are substituted
here the way Compose does it, over the whole file before profiles are applied. Where ``docker compose``
works, the last test also lets it check both setups.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from pydantic import ValidationError

from bot.environment import Settings
from tests.conftest import REPO

COMPOSE = REPO / "docker-compose.yml"
CADDYFILE = REPO / "deploy" / "Caddyfile"
DOCKERFILE = REPO / "Dockerfile"

# The settings the bot's containers may be given (bot/environment.py reads each of them).
BOT_SETTINGS = {
    "BOT_TOKEN",
    "LOG_LEVEL",
    "DATABASE_URL",
    "REDIS_URL",
    "WEBHOOK_URL",
    "WEBHOOK_SECRET",
    "WEBHOOK_HOST",
    "WEBHOOK_PORT",
    "WEBHOOK_MAX_CONNECTIONS",
    "WAKE_GRACE_SECONDS",
}
# What the person starting it may set (README "Several instances"); nothing else is substituted.
COMPOSE_VARIABLES = {
    "BOT_TOKEN",
    "LOG_LEVEL",
    "PUBLIC_HOST",
    "WEBHOOK_SECRET",
    "WEBHOOK_MAX_CONNECTIONS",
    "WAKE_GRACE_SECONDS",
    "POSTGRES_PASSWORD",
}
SCALE_SERVICES = {"postgres", "redis", "bot-1", "bot-2", "proxy"}

TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
PLAIN_ENV = {"BOT_TOKEN": TOKEN}
SCALE_ENV = {**PLAIN_ENV, "PUBLIC_HOST": "bot.example.com", "WEBHOOK_SECRET": "s3cret_Token-1"}

VARIABLE = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")


class MissingVariable(ValueError):
    pass


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's substitution for the forms the file uses: ${X}, ${X:-default}, ${X-default}, ${X:?error}."""

    def one(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        value = env.get(name)
        empty = value is None or (value == "" and op is not None and op.startswith(":"))
        if op in (":-", "-"):
            return arg if empty else str(value)
        if op in (":?", "?"):
            if empty:
                raise MissingVariable(f"{name}: {arg}")
            return str(value)
        return value or ""

    return VARIABLE.sub(one, text)


def substitute(node: Any, env: dict[str, str]) -> Any:
    """Compose substitutes in values after parsing (so never in comments), keys left alone."""
    if isinstance(node, dict):
        return {key: substitute(value, env) for key, value in node.items()}
    if isinstance(node, list):
        return [substitute(value, env) for value in node]
    return interpolate(node, env) if isinstance(node, str) else node


def raw() -> dict[str, Any]:
    model: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return model


def variables() -> list[re.Match[str]]:
    """Every ${...} in the file's values."""
    found: list[re.Match[str]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str):
            found.extend(VARIABLE.finditer(node))

    walk(raw())
    return found


def load(env: dict[str, str]) -> dict[str, Any]:
    model: dict[str, Any] = substitute(raw(), env)
    return model


def services_for(model: dict[str, Any], profile: str | None) -> set[str]:
    """The services a plain ``up`` (profile None) or ``--profile <profile> up`` starts."""
    return {
        name
        for name, service in model["services"].items()
        if not service.get("profiles") or (profile is not None and profile in service["profiles"])
    }


def instances(model: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The webhook instances: the scale services built from this repository's Dockerfile."""
    return {
        name: service
        for name, service in model["services"].items()
        if "scale" in service.get("profiles", []) and service.get("build") == "."
    }


def closure(model: dict[str, Any], name: str) -> set[str]:
    """``up <name>``: the service and everything it depends on."""
    seen = {name}
    todo = [name]
    while todo:
        for dependency in model["services"][todo.pop()].get("depends_on", []):
            if dependency not in seen:
                seen.add(dependency)
                todo.append(dependency)
    return seen


def caddyfile() -> str:
    return CADDYFILE.read_text(encoding="utf-8")


def test_the_plain_setup_is_one_polling_bot_on_sqlite() -> None:
    model = load(PLAIN_ENV)  # only BOT_TOKEN: the whole file must still substitute
    assert services_for(model, None) == {"bot"}
    bot = model["services"]["bot"]
    assert bot["build"] == "."
    assert set(bot["environment"]) == {"BOT_TOKEN", "LOG_LEVEL"}  # no DATABASE_URL: the image's SQLite file
    assert bot["volumes"] == ["dominoes-data:/data"]
    assert "ports" not in bot and "depends_on" not in bot


def test_only_the_token_is_required_at_substitution() -> None:
    # Compose substitutes the whole file before it drops the inactive profiles' services, so a
    # ${X:?...} anywhere stops the plain `docker compose up`: only BOT_TOKEN, which both setups need.
    required = {m["name"] for m in variables() if m["op"] in (":?", "?")}
    assert required == {"BOT_TOKEN"}
    with pytest.raises(MissingVariable, match="BOT_TOKEN"):
        load({})


def test_the_variables_are_the_documented_ones() -> None:
    used = {m["name"] for m in variables()}
    assert used == COMPOSE_VARIABLES
    # Every setting handed to a bot container is one bot/environment.py reads.
    known = {name.upper() for name in Settings.model_fields}
    assert known >= BOT_SETTINGS
    model = load(SCALE_ENV)
    for name in {"bot", *instances(model)}:
        assert set(model["services"][name]["environment"]) <= BOT_SETTINGS, name


def test_the_scale_profile() -> None:
    model = load(SCALE_ENV)
    assert services_for(model, "scale") == {"bot", *SCALE_SERVICES}
    # `--profile scale up proxy` starts the proxy and what it depends on: everything but the polling bot.
    assert closure(model, "proxy") == SCALE_SERVICES
    services = model["services"]
    assert services["postgres"]["image"] == "postgres:16-alpine"
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in services["postgres"]["volumes"])
    assert services["redis"]["image"] == "redis:7-alpine"
    assert "ping" in services["redis"]["healthcheck"]["test"]
    assert services["proxy"]["image"] == "caddy:2-alpine"
    assert "443:443" in services["proxy"]["ports"]
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in services["proxy"]["volumes"]


def test_the_instances_use_webhooks_postgres_and_redis() -> None:
    model = load(SCALE_ENV)
    bots = instances(model)
    assert set(bots) == {"bot-1", "bot-2"}
    first, second = bots.values()
    assert first == second  # one definition (the x-bot-instance anchor)
    env = first["environment"]
    assert env["WEBHOOK_URL"] == "https://bot.example.com/telegram"
    assert env["WEBHOOK_SECRET"] == SCALE_ENV["WEBHOOK_SECRET"]
    database = urlsplit(env["DATABASE_URL"])
    assert database.scheme == "postgresql" and database.port == 5432
    assert "postgres" in model["services"][str(database.hostname)]["image"]
    redis = urlsplit(env["REDIS_URL"])
    assert redis.scheme == "redis"
    assert "redis" in model["services"][str(redis.hostname)]["image"]
    assert first["depends_on"] == {
        str(database.hostname): {"condition": "service_healthy"},
        str(redis.hostname): {"condition": "service_healthy"},
    }
    assert first["expose"] == [env["WEBHOOK_PORT"]]


def test_the_instances_settings_pass_the_bots_own_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    env = load(SCALE_ENV)["services"]["bot-1"]["environment"]
    for name, value in env.items():
        monkeypatch.setenv(name, str(value))
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.webhook_mode
    assert settings.webhook_port == 8080
    assert settings.webhook_max_connections == 40
    assert settings.wake_grace_seconds == 10
    assert settings.redis_url == "redis://redis:6379/0"


def test_without_the_scale_settings_an_instance_refuses_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    # PUBLIC_HOST and WEBHOOK_SECRET are not required by Compose (see above); the bot refuses instead.
    env = load(PLAIN_ENV)["services"]["bot-1"]["environment"]
    for name, value in env.items():
        monkeypatch.setenv(name, str(value))
    with pytest.raises(ValidationError, match="WEBHOOK"):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_the_proxy_balances_every_instance() -> None:
    model = load(SCALE_ENV)
    text = caddyfile()
    upstreams = re.search(r"^\s*reverse_proxy\s+([^{\n]+?)\s*\{", text, re.MULTILINE)
    assert upstreams is not None
    bots = instances(model)
    assert set(upstreams[1].split()) == {f"{name}:{bot['environment']['WEBHOOK_PORT']}" for name, bot in bots.items()}
    assert set(model["services"]["proxy"]["depends_on"]) == set(bots)
    for directive in ("lb_policy round_robin", "lb_try_duration", "health_uri /health"):
        assert re.search(rf"^\s*{directive}\b", text, re.MULTILINE), directive
    # Only the webhook's path is passed on, and only with the secret.
    paths = re.findall(r"^\s*path\s+(\S+)", text, re.MULTILINE)
    assert paths == [urlsplit(bots["bot-1"]["environment"]["WEBHOOK_URL"]).path]
    assert re.search(r"^\s*header\s+X-Telegram-Bot-Api-Secret-Token\s+\{\$WEBHOOK_SECRET\}", text, re.MULTILINE)
    # Caddy reads its {$VARIABLES} from the proxy container's environment.
    assert set(re.findall(r"\{\$([A-Z_]+)\}", text)) <= set(model["services"]["proxy"]["environment"])


def test_the_image_exposes_the_webhook_port() -> None:
    exposed = re.findall(r"^EXPOSE\s+(.+)$", DOCKERFILE.read_text(encoding="utf-8"), re.MULTILINE)
    assert exposed == [str(Settings.model_fields["webhook_port"].default)]


def _compose() -> list[str] | None:
    docker = shutil.which("docker")
    if docker is None:
        return None
    try:
        ok = subprocess.run([docker, "compose", "version"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return None
    return [docker, "compose", "--project-directory", str(REPO), "-f", str(COMPOSE)] if ok else None


def test_docker_compose_accepts_both_setups(tmp_path: Path) -> None:
    compose = _compose()
    if compose is None:
        pytest.skip("docker compose is not available here")

    def run(env: dict[str, str], *args: str) -> str:
        # Only these variables: not the caller's environment, nor a .env file beside the compose file.
        base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", str(tmp_path))}
        result = subprocess.run(
            [*compose, "--env-file", os.devnull, *args],
            env={**base, **env},
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    assert run(PLAIN_ENV, "config", "--services").split() == ["bot"]
    run(SCALE_ENV, "--profile", "scale", "config", "-q")
    # What `--profile scale up proxy` starts: the proxy and its dependencies, not the polling bot.
    assert set(yaml.safe_load(run(SCALE_ENV, "--profile", "scale", "config", "proxy"))["services"]) == SCALE_SERVICES

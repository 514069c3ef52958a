"""Settings from the environment (and an optional ``.env`` file), read once at start-up."""

from __future__ import annotations

import os
import re

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# What a token from @BotFather looks like: the bot's numeric id, a colon, a 35-character secret.
TOKEN_PATTERN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{30,60}$")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr = Field(description="the token from @BotFather")
    database_url: str = Field(default="sqlite:///data/dominoes.sqlite3", description="sqlite:///path of the database")
    telegram_api_url: str = Field(default="https://api.telegram.org", description="the Bot API server's base URL")
    log_level: str = Field(default="INFO")
    computer_delay: float = Field(default=1.2, ge=0, le=10, description="seconds between computer moves in groups")
    private_computer_delay: float = Field(default=0.7, ge=0, le=10, description="the same in private games")
    render_workers: int = Field(
        default_factory=lambda: min(2, os.cpu_count() or 1),
        ge=0,
        le=16,
        description="processes that draw pictures; 0 draws in a thread of the bot's own process",
    )
    group_messages_per_minute: float = Field(
        default=20, ge=0, le=6000, description="messages and edits into one group a minute; 0: no limit"
    )
    chat_messages_per_second: float = Field(
        default=1, ge=0, le=1000, description="messages and edits into any one chat a second; 0: no limit"
    )
    messages_per_second: float = Field(
        default=30, ge=0, le=100000, description="messages and edits a second, all chats together; 0: no limit"
    )
    polling_timeout: int = Field(default=30, ge=0, le=50, description="long-polling timeout in seconds")
    request_timeout: float = Field(
        default=60, ge=1, le=300, description="seconds a Bot API call may take before it is given up and retried"
    )
    turn_clock_scale: float = Field(
        default=1,
        gt=0,
        le=1,
        description="every turn clock times this (tests: 0.01 makes 30 s 0.3 s); captions keep the nominal seconds",
    )
    idle_close_days: float = Field(
        default=7, gt=0, le=3650, description="lobbies and games with no change for this many days are closed"
    )
    idle_sweep_seconds: float = Field(
        default=3600, gt=0, le=86400, description="seconds between two looks for idle games (and one at start-up)"
    )

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not TOKEN_PATTERN.match(value.get_secret_value()):
            raise ValueError("BOT_TOKEN does not look like a token from @BotFather (digits:secret)")
        return value

    @field_validator("telegram_api_url")
    @classmethod
    def _url_shape(cls, value: str) -> str:
        if not re.match(r"^https?://[^\s/]+", value):
            raise ValueError("TELEGRAM_API_URL must be an http(s) URL")
        return value.rstrip("/")

    @field_validator("log_level")
    @classmethod
    def _level_name(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level

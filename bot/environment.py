"""Settings from the environment (and an optional ``.env`` file), read once at start-up."""

from __future__ import annotations

import os
import re

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# What a token from @BotFather looks like: the bot's numeric id, a colon, a 35-character secret.
TOKEN_PATTERN = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{30,60}$")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr = Field(description="the token from @BotFather")
    database_url: str = Field(
        default="sqlite:///data/dominoes.sqlite3",
        description="sqlite:///path of the database, or postgresql://user:password@host:port/database",
    )
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
    quiet_answer_seconds: float = Field(
        default=60,
        ge=0,
        le=86400,
        description="a refusal to a group command that changes nothing: at most one per person and group"
        " in this many seconds, and only while the group's budget is full; 0: always answered",
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

    # Several instances (README "Several instances"): Redis shares game locks and send budgets,
    # Telegram posts updates to a webhook behind a load balancer. Unset: one process, long polling.
    redis_url: str = Field(default="", description="redis://host:port/db; shares locks and budgets between instances")
    webhook_url: str = Field(default="", description="public https URL Telegram posts updates to; unset: long polling")
    webhook_secret: SecretStr = Field(
        default=SecretStr(""), description="the secret_token checked on every webhook request"
    )
    webhook_host: str = Field(default="0.0.0.0", description="address the webhook server listens on")
    webhook_port: int = Field(default=8080, ge=1, le=65535, description="port the webhook server listens on")
    webhook_max_connections: int = Field(default=40, ge=1, le=100, description="setWebhook's max_connections")
    wake_grace_seconds: float = Field(
        default=10, gt=0, le=600, description="a running game nobody looked after for this long is taken over"
    )
    wake_sweep_seconds: float = Field(
        default=1, gt=0, le=60, description="seconds between two looks for games nobody looks after"
    )

    # The Mini App table (bot/webapp): unset WEBAPP_URL, no table page and no button for it anywhere.
    webapp_url: str = Field(default="", description="public https URL of the table page Telegram clients open")
    webapp_host: str = Field(default="0.0.0.0", description="address the table page is served on (polling mode)")
    webapp_port: int = Field(default=8081, ge=1, le=65535, description="port the table page is served on (polling)")
    webapp_short_name: str = Field(default="", description="the Mini App's short name from @BotFather (group links)")
    webapp_auth_max_age: float = Field(
        default=86400, gt=0, le=30 * 86400, description="seconds a page's initData stays good after Telegram signed it"
    )

    @property
    def webapp_mode(self) -> bool:
        return bool(self.webapp_url)

    @property
    def webhook_mode(self) -> bool:
        return bool(self.webhook_url)

    @model_validator(mode="after")
    def _webhook_needs_secret(self) -> Settings:
        if self.webhook_url and not self.webhook_secret.get_secret_value():
            raise ValueError("WEBHOOK_SECRET must be set with WEBHOOK_URL (1-256 of A-Z a-z 0-9 _ -)")
        return self

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: SecretStr) -> SecretStr:
        secret = value.get_secret_value()
        if secret and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
            raise ValueError("WEBHOOK_SECRET may hold 1-256 of A-Z a-z 0-9 _ - only")
        return value

    @field_validator("webhook_url")
    @classmethod
    def _webhook_shape(cls, value: str) -> str:
        if value and not re.match(r"^https?://[^\s/]+", value):
            raise ValueError("WEBHOOK_URL must be an http(s) URL")
        return value

    @field_validator("database_url")
    @classmethod
    def _database_shape(cls, value: str) -> str:
        if not value.startswith(("sqlite:///", "postgresql://", "postgres://")):
            raise ValueError("DATABASE_URL must start with sqlite:/// or postgresql://")
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_shape(cls, value: str) -> str:
        if value and not re.match(r"^rediss?://", value):
            raise ValueError("REDIS_URL must start with redis:// or rediss://")
        return value

    @field_validator("webapp_url")
    @classmethod
    def _webapp_shape(cls, value: str) -> str:
        # Telegram opens only https pages; http is for a page on this machine (the sandbox).
        if value and not re.match(r"^(https://[^\s/]+|http://(127\.0\.0\.1|localhost)(:\d+)?)(/\S*)?$", value):
            raise ValueError("WEBAPP_URL must be an https:// URL (http:// only on 127.0.0.1 or localhost)")
        return value.rstrip("/")

    @field_validator("webapp_short_name")
    @classmethod
    def _short_name_shape(cls, value: str) -> str:
        if value and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", value):
            raise ValueError("WEBAPP_SHORT_NAME must be 3-30 of A-Z a-z 0-9 _ (the Mini App's short name)")
        return value

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

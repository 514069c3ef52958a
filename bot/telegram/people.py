"""Who wrote to the bot: the person behind an update, as the handlers are given it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Person:
    """A Telegram user as the bot knows them: their id, their name, and whether the bot may write
    to them privately (they have opened the private chat and not blocked it)."""

    user_id: int
    name: str
    private_ok: bool = True

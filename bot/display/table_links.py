"""Where the Mini App table opens: a ``web_app`` button's URL in a private chat, a ``t.me`` link in a group."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TableLinks:
    """``WEBAPP_URL`` (the page), the bot's username and ``WEBAPP_SHORT_NAME`` (the app registered
    with @BotFather; empty: no group link, since ``web_app`` buttons are not allowed in groups).

    >>> links = TableLinks("https://domino.example/webapp", "dominoes_bot", "table")
    >>> links.page(12), links.group(12)
    ('https://domino.example/webapp/?game=12', 'https://t.me/dominoes_bot/table?startapp=g12')
    """

    url: str
    bot_username: str
    short_name: str = ""

    def page(self, game_id: int) -> str:
        return f"{self.url.rstrip('/')}/?game={game_id}"

    def group(self, game_id: int) -> str | None:
        if not self.short_name:
            return None
        return f"https://t.me/{self.bot_username}/{self.short_name}?startapp=g{game_id}"

"""What the table's satellites (a group's lobby, friend rooms, rematches, hints, a group's move to a
supergroup) use of the game service: its parts, a game under its lock, dealing and showing. They are
given the service as this, so that what they may reach is written down in one place, and a test may
give them a stand-in. Table manners (bot/table/manners.py) play and time turns: they get the service.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Protocol

from bot.display.presenter import Presenter
from bot.model.documents import Documents
from bot.model.game import Game
from bot.telegram.locks import GameLocks
from bot.telegram.outbox import Outbox
from engine import Match
from storage import Database


class Table(Protocol):
    """The game service as its satellites see it (bot/table/service.py)."""

    @property
    def db(self) -> Database: ...

    @property
    def documents(self) -> Documents: ...

    @property
    def presenter(self) -> Presenter: ...

    @property
    def outbox(self) -> Outbox: ...

    @property
    def locks(self) -> GameLocks: ...

    def locked(self, game_id: int) -> AbstractAsyncContextManager[Game]:
        """The game, loaded fresh under its lock (refused if it is gone or closed)."""
        ...

    async def deal(self, game: Game) -> Game:
        """Deal a game whose seats are all taken, and commit it (shown by :meth:`show`)."""
        ...

    async def show(self, game: Game) -> Game:
        """Bring a committed change to Telegram and let the computers move."""
        ...

    def present_seat(self, game: Game, user_id: int, version: int) -> tuple[Match, int]:
        """The match and the person's seat for a button of turn ``version``; refused otherwise."""
        ...

"""Persistence: SQLite through aiosqlite, schema migrations, and one repository per kind of row.

Nothing here knows Telegram or the rules; games are stored as JSON documents
with a version number for optimistic concurrency, beside an append-only log of moves.
"""

from storage.database import ChatBusyError, Database, StaleVersionError, database_path
from storage.games import GameRow, GameStatus
from storage.users import ChatRow, UserRow

__all__ = [
    "ChatBusyError",
    "ChatRow",
    "Database",
    "GameRow",
    "GameStatus",
    "StaleVersionError",
    "UserRow",
    "database_path",
]

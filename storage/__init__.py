"""Persistence: SQLite (aiosqlite) or PostgreSQL (asyncpg) as DATABASE_URL says, schema
migrations, and one repository per kind of row.

Nothing here knows Telegram or the rules; games are stored as JSON documents
with a version number for optimistic concurrency, beside an append-only log of moves.
The repositories are written once for both databases (:mod:`storage.backend`).
"""

from storage.database import (
    DEFAULT_WAKE_GRACE,
    AlreadyHandledError,
    ChatBusyError,
    Database,
    DatabaseUrlError,
    StaleVersionError,
    database_path,
)
from storage.games import UNSET, GameRow, GameStatus, MoveLog, Unset
from storage.users import ChatRow, UserRow

__all__ = [
    "DEFAULT_WAKE_GRACE",
    "UNSET",
    "AlreadyHandledError",
    "ChatBusyError",
    "ChatRow",
    "Database",
    "DatabaseUrlError",
    "GameRow",
    "GameStatus",
    "MoveLog",
    "StaleVersionError",
    "Unset",
    "UserRow",
    "database_path",
]

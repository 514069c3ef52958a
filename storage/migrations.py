"""Schema migrations, applied in order; each runs once and is never edited after it ships."""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: users, chats, games with a version, the append-only move log
    """
    CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        username TEXT,
        language TEXT,
        private_ok INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL
    );
    CREATE TABLE chats (
        id INTEGER PRIMARY KEY,
        type TEXT NOT NULL,
        title TEXT,
        language TEXT,
        settings TEXT NOT NULL DEFAULT '{}',
        updated_at REAL NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        preset TEXT NOT NULL,
        creator_id INTEGER NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        data TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_by_chat ON games (chat_id, status);
    CREATE INDEX games_by_status ON games (status);
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        round INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        tile TEXT NOT NULL,
        side TEXT,
        by_computer INTEGER NOT NULL DEFAULT 0,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 2: the language a user chose with /language (``language`` is Telegram's language_code)
    """
    ALTER TABLE users ADD COLUMN chosen_language TEXT;
    """,
)

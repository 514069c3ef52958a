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
    # 3: results of ended games, one row per game and one per seat (storage/results.py); a rating is
    # the newest one stored for that player (per chat, and overall), so nothing else keeps ratings
    """
    CREATE TABLE results (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL UNIQUE REFERENCES games (id),
        chat_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        preset TEXT NOT NULL,
        seats INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        scores TEXT NOT NULL,
        ended_at REAL NOT NULL
    );
    CREATE INDEX results_by_chat ON results (chat_id, id);
    CREATE TABLE result_seats (
        result_id INTEGER NOT NULL REFERENCES results (id),
        seat INTEGER NOT NULL,
        chat_id INTEGER NOT NULL,
        preset TEXT NOT NULL,
        finished INTEGER NOT NULL,
        player TEXT NOT NULL,
        user_id INTEGER,
        level TEXT,
        name TEXT NOT NULL,
        points INTEGER NOT NULL,
        place INTEGER,
        won INTEGER NOT NULL DEFAULT 0,
        chat_mu_before REAL,
        chat_sigma_before REAL,
        chat_mu REAL,
        chat_sigma REAL,
        mu_before REAL,
        sigma_before REAL,
        mu REAL,
        sigma REAL,
        PRIMARY KEY (result_id, seat)
    );
    CREATE INDEX result_seats_by_chat ON result_seats (chat_id, player, result_id);
    CREATE INDEX result_seats_by_player ON result_seats (player, result_id);
    CREATE INDEX result_seats_by_user ON result_seats (user_id, result_id);
    """,
    # 4: at most one open (lobby or playing) game per chat, kept by the database itself, so no race
    # between two requests can open a second one; should an older database hold two, the one being
    # played stays (of two alike, the newer)
    """
    UPDATE games SET status = 'cancelled'
    WHERE id IN (
        SELECT id FROM (
            SELECT id, ROW_NUMBER() OVER (
                PARTITION BY chat_id ORDER BY status = 'playing' DESC, id DESC
            ) AS keep_order
            FROM games WHERE status IN ('lobby', 'playing')
        ) WHERE keep_order > 1
    );
    CREATE UNIQUE INDEX games_one_open_per_chat ON games (chat_id) WHERE status IN ('lobby', 'playing');
    """,
)

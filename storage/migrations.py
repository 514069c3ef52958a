"""Schema migrations, applied in order; each runs once and is never edited after it ships.

There is one list per dialect, of the same length and meaning: migration *n* of
:data:`POSTGRES_MIGRATIONS` makes the same tables, columns and indexes as migration *n* of
:data:`MIGRATIONS` (SQLite), so ``schema_version`` means the same on both. Statements are split
at ``;``, so a migration must not hold one inside a string.
"""

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
    # 5: when some instance should look at a running game if nobody else has (GameRepository.save,
    # set_wake, claim_due): a deadline in the database outlives the instance that was looking after it
    """
    ALTER TABLE games ADD COLUMN wake_at REAL;
    CREATE INDEX games_by_wake ON games (status, wake_at);
    """,
    # 6: the Telegram updates that changed something, each written in the transaction of its first
    # change, so that one delivered again changes nothing (storage/handled.py); pruned after two days
    """
    CREATE TABLE handled_updates (
        update_id INTEGER PRIMARY KEY,
        handled_at REAL NOT NULL
    );
    CREATE INDEX handled_updates_by_time ON handled_updates (handled_at);
    """,
    # 7: a finished game is woken too while it owes something (its result, the clock's notices:
    # bot/table/service.py wake_time); the wake-ups older versions left on ended games are dropped
    """
    UPDATE games SET wake_at = NULL WHERE status <> 'playing';
    """,  # 8: a game in which someone asked for a hint (bot/table/hints.py): marked, and rated nowhere
    """
    ALTER TABLE results ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
    """,
    # 9: a game's replay sent into a chat, its review to a person, once each (storage/sent.py):
    # claimed while being drawn, then the message it was sent in
    """
    CREATE TABLE sent_once (
        game_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        target INTEGER NOT NULL,
        claimed_at REAL NOT NULL,
        message_id INTEGER,
        PRIMARY KEY (game_id, kind, target)
    );
    """,
)

# PostgreSQL: ids are BIGINT (Telegram's chat and user ids do not fit in 32 bits), times and
# ratings DOUBLE PRECISION (REAL is a 4-byte float there), flags stay INTEGER 0/1 and documents
# TEXT (JSON written by the bot, read back as written), so both databases hand back the same values.
POSTGRES_MIGRATIONS: tuple[str, ...] = (
    # 1: users, chats, games with a version, the append-only move log
    """
    CREATE TABLE users (
        id BIGINT PRIMARY KEY,
        name TEXT NOT NULL,
        username TEXT,
        language TEXT,
        private_ok INTEGER NOT NULL DEFAULT 0,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE chats (
        id BIGINT PRIMARY KEY,
        type TEXT NOT NULL,
        title TEXT,
        language TEXT,
        settings TEXT NOT NULL DEFAULT '{}',
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        chat_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        preset TEXT NOT NULL,
        creator_id BIGINT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        data TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX games_by_chat ON games (chat_id, status);
    CREATE INDEX games_by_status ON games (status);
    CREATE TABLE moves (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        round INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        tile TEXT NOT NULL,
        side TEXT,
        by_computer INTEGER NOT NULL DEFAULT 0,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    """,
    # 2: the language a user chose with /language (``language`` is Telegram's language_code)
    """
    ALTER TABLE users ADD COLUMN chosen_language TEXT;
    """,
    # 3: results of ended games, one row per game and one per seat (storage/results.py)
    """
    CREATE TABLE results (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL UNIQUE REFERENCES games (id),
        chat_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        preset TEXT NOT NULL,
        seats INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        scores TEXT NOT NULL,
        ended_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX results_by_chat ON results (chat_id, id);
    CREATE TABLE result_seats (
        result_id BIGINT NOT NULL REFERENCES results (id),
        seat INTEGER NOT NULL,
        chat_id BIGINT NOT NULL,
        preset TEXT NOT NULL,
        finished INTEGER NOT NULL,
        player TEXT NOT NULL,
        user_id BIGINT,
        level TEXT,
        name TEXT NOT NULL,
        points INTEGER NOT NULL,
        place INTEGER,
        won INTEGER NOT NULL DEFAULT 0,
        chat_mu_before DOUBLE PRECISION,
        chat_sigma_before DOUBLE PRECISION,
        chat_mu DOUBLE PRECISION,
        chat_sigma DOUBLE PRECISION,
        mu_before DOUBLE PRECISION,
        sigma_before DOUBLE PRECISION,
        mu DOUBLE PRECISION,
        sigma DOUBLE PRECISION,
        PRIMARY KEY (result_id, seat)
    );
    CREATE INDEX result_seats_by_chat ON result_seats (chat_id, player, result_id);
    CREATE INDEX result_seats_by_player ON result_seats (player, result_id);
    CREATE INDEX result_seats_by_user ON result_seats (user_id, result_id);
    """,
    # 4: at most one open (lobby or playing) game per chat, kept by the database itself; should
    # the database hold two, the one being played stays (of two alike, the newer)
    """
    UPDATE games SET status = 'cancelled'
    WHERE id IN (
        SELECT id FROM (
            SELECT id, ROW_NUMBER() OVER (
                PARTITION BY chat_id ORDER BY status = 'playing' DESC, id DESC
            ) AS keep_order
            FROM games WHERE status IN ('lobby', 'playing')
        ) AS ranked WHERE keep_order > 1
    );
    CREATE UNIQUE INDEX games_one_open_per_chat ON games (chat_id) WHERE status IN ('lobby', 'playing');
    """,
    # 5: when some instance should look at a running game if nobody else has
    """
    ALTER TABLE games ADD COLUMN wake_at DOUBLE PRECISION;
    CREATE INDEX games_by_wake ON games (status, wake_at);
    """,
    # 6: the Telegram updates that changed something
    """
    CREATE TABLE handled_updates (
        update_id BIGINT PRIMARY KEY,
        handled_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX handled_updates_by_time ON handled_updates (handled_at);
    """,
    # 7: a finished game is woken too while it owes something
    """
    UPDATE games SET wake_at = NULL WHERE status <> 'playing';
    """,  # 8: a game in which someone asked for a hint
    """
    ALTER TABLE results ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;
    """,
    # 9: a game's replay sent into a chat, its review to a person, once each
    """
    CREATE TABLE sent_once (
        game_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        target BIGINT NOT NULL,
        claimed_at DOUBLE PRECISION NOT NULL,
        message_id BIGINT,
        PRIMARY KEY (game_id, kind, target)
    );
    """,
)

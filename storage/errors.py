"""The exceptions of the storage package, the same whichever database is behind it.

They live apart from :mod:`storage.database` so that the backends (which raise them) and the
repositories (which raise and catch them) need not import the module that imports them all.
"""

from __future__ import annotations


class StaleVersionError(RuntimeError):
    """Somebody else changed the game first: reload it and decide again."""


class AlreadyHandledError(StaleVersionError):
    """The Telegram update this change belongs to changed the database already (it was delivered
    again: the instance that handled it died before confirming it, or Telegram retried a webhook).
    Nothing of this change was written (:mod:`storage.handled`)."""


class ChatBusyError(ValueError):
    """The chat already has an open (lobby or playing) game; a chat has at most one."""


class DatabaseUrlError(ValueError):
    """DATABASE_URL is neither a SQLite nor a PostgreSQL URL (or not a well-formed one)."""


class IntegrityError(RuntimeError):
    """A write broke a constraint of the schema (a unique index, a foreign key, NOT NULL).

    Both backends raise this one class in place of their driver's own (``sqlite3.IntegrityError``,
    ``asyncpg.IntegrityConstraintViolationError``, kept as ``__cause__``), so that a repository
    turns it into its own meaning (:class:`ChatBusyError`) in one place for both databases.
    """

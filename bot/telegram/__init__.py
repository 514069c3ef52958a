"""Telegram plumbing that knows nothing of dominoes: sending within Telegram's limits (outbox,
pacing, the session), answering taps, middlewares, who administers a group, the per-game lock,
and the typed data of every inline button.

May import: ``storage`` and third-party libraries only; no other part of ``bot``.
"""

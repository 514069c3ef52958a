"""What was sent once and must not be sent again: a game's 🎬 replay into a chat, its 📈 review to a person.

Drawing either takes seconds and sending it spends the chat's budget, so each is made once per
(game, chat) or (game, person), however often (and on however many instances) it is asked for.
The first ask :meth:`SentOnce.claim`\\ s a row (``INSERT ... ON CONFLICT DO NOTHING``: of several
asks at once, on one instance or several sharing PostgreSQL, exactly one wins); the winner draws
and sends, then stores the message it sent (:meth:`SentOnce.sent`), or gives the claim back
(:meth:`SentOnce.release`) when it could not, so that a later ask tries again. The others learn
that it is being drawn, or which message already holds it. A claim left by an instance that
stopped while drawing is taken over after :data:`CLAIM_SECONDS`.
"""

from __future__ import annotations

import time
from enum import StrEnum
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from storage.backend import Backend

# Longer than drawing the longest replay and waiting for a busy group's budget to send it.
CLAIM_SECONDS: Final = 300.0
_TRIES: Final = 3  # a claim given back or taken over between our statements: look again


class Kind(StrEnum):
    REPLAY = "replay"  # the target is the chat it was sent into
    REVIEW = "review"  # the target is the person (their private chat)


class Claim(NamedTuple):
    """The outcome of :meth:`SentOnce.claim`: ``won`` (this ask draws and sends it), or the
    ``message_id`` it was sent in, or neither (another ask is drawing it now)."""

    won: bool
    message_id: int | None = None
    claimed_at: float | None = None  # the winner's, to give back only its own claim

    @property
    def drawing(self) -> bool:
        return not self.won and self.message_id is None


class SentOnce:
    """The ``sent_once`` table: per (game, kind, target), being drawn since when, or the message it is in."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    async def claim(self, game_id: int, kind: Kind, target: int, now: float | None = None) -> Claim:
        """Claim the drawing of ``kind`` of ``game_id`` for ``target``, unless it is claimed or sent."""
        at = time.time() if now is None else now
        key = (game_id, kind.value, target)
        for _ in range(_TRIES):
            inserted = await self._backend.execute(
                "INSERT INTO sent_once (game_id, kind, target, claimed_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, kind, target) DO NOTHING",
                (*key, at),
            )
            if inserted == 1:
                return Claim(won=True, claimed_at=at)
            row = await self._backend.fetch_one(
                "SELECT message_id, claimed_at FROM sent_once WHERE game_id = ? AND kind = ? AND target = ?", key
            )
            if row is None:  # given back meanwhile
                continue
            if row["message_id"] is not None:
                return Claim(won=False, message_id=int(row["message_id"]))
            if at - float(row["claimed_at"]) < CLAIM_SECONDS:
                return Claim(won=False)
            taken = await self._backend.execute(
                "UPDATE sent_once SET claimed_at = ? WHERE game_id = ? AND kind = ? AND target = ?"
                " AND message_id IS NULL AND claimed_at = ?",
                (at, *key, row["claimed_at"]),
            )
            if taken == 1:
                return Claim(won=True, claimed_at=at)
        return Claim(won=False)  # others keep claiming and giving back: let them

    async def sent(self, game_id: int, kind: Kind, target: int, message_id: int) -> None:
        """It was sent, in ``message_id``: later asks are pointed there."""
        await self._backend.execute(
            "UPDATE sent_once SET message_id = ? WHERE game_id = ? AND kind = ? AND target = ?",
            (message_id, game_id, kind.value, target),
        )

    async def release(self, game_id: int, kind: Kind, target: int, claim: Claim) -> None:
        """``claim`` could not be drawn or sent: the next ask tries again (unless another took it over)."""
        await self._backend.execute(
            "DELETE FROM sent_once WHERE game_id = ? AND kind = ? AND target = ? AND message_id IS NULL"
            " AND claimed_at = ?",
            (game_id, kind.value, target, claim.claimed_at),
        )

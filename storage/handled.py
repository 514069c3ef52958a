"""Every Telegram update changes the database at most once, however often it is delivered.

Telegram delivers an update again when its delivery was not confirmed: the instance that
handled it died before its next ``getUpdates`` (or before answering the webhook POST), or the
answer to the POST was lost and Telegram (or the balancer) retried it. A change that carries no
version of its own (a lobby button, the settings, "play the computer") would then apply twice.

So the first change an update makes is committed together with a row of ``handled_updates``
naming it, in the same transaction; a change of an update that already has its row writes
nothing and raises :class:`~storage.errors.AlreadyHandledError`. The bot says which update it is
handling with :func:`handling` around its handler; the repositories that change games and chats
ask :func:`pending` for the row to write with their change and call :meth:`Handling.written`
once it is committed, so the update's later changes (one update may save several times) go
through as usual. Only the task that handles the update writes its row: a task it starts (the
computers' moves, a timer) is not that update's change.

Rows older than :data:`KEEP_SECONDS` are pruned (:meth:`HandledUpdates.prune`): Telegram keeps an
undelivered update for 24 hours at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from storage.backend import Write
from storage.errors import AlreadyHandledError

if TYPE_CHECKING:
    from storage.backend import Backend, Queries

# Two days: longer than Telegram keeps an update it could not deliver (24 hours).
KEEP_SECONDS: Final = 2 * 86400.0

_MARK = "INSERT INTO handled_updates (update_id, handled_at) VALUES (?, ?) ON CONFLICT (update_id) DO NOTHING"


@dataclass
class Handling:
    """The update the current task is handling, and whether a change of it is committed yet."""

    update_id: int
    task: asyncio.Task[object] | None = field(default=None, repr=False)
    done: bool = False

    def write(self) -> Write:
        """The row naming this update, for a :meth:`~storage.backend.Backend.batch`: it must be new."""
        return Write(
            _MARK,
            (self.update_id, time.time()),
            expect=1,
            stale=f"update {self.update_id} was handled already",
            error=AlreadyHandledError,
        )

    async def write_in(self, queries: Queries) -> None:
        """The same row, in an open transaction; :class:`AlreadyHandledError` if it is there already."""
        write = self.write()
        if await queries.execute(write.sql, write.params) != 1:
            raise AlreadyHandledError(write.stale)

    def written(self) -> None:
        """Its row is committed: the update's further changes need none."""
        self.done = True


_current: ContextVar[Handling | None] = ContextVar("handled_update", default=None)


@contextlib.contextmanager
def handling(update_id: int) -> Iterator[Handling]:
    """Around the handling of update ``update_id`` (in the task that handles it)."""
    current = Handling(update_id, asyncio.current_task())
    token = _current.set(current)
    try:
        yield current
    finally:
        _current.reset(token)


def pending() -> Handling | None:
    """The update whose row the current change must write with it, if any: one being handled by
    this very task, with no change committed yet."""
    current = _current.get()
    if current is None or current.done:
        return None
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return None
    return current if task is current.task else None


class HandledUpdates:
    """The ``handled_updates`` table: which updates changed something."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    async def seen(self, update_id: int) -> bool:
        """Whether a change of update ``update_id`` is committed."""
        row = await self._backend.fetch_one("SELECT 1 FROM handled_updates WHERE update_id = ?", (update_id,))
        return row is not None

    async def prune(self, now: float | None = None, keep: float = KEEP_SECONDS) -> int:
        """Forget the updates handled more than ``keep`` seconds before ``now``; how many were."""
        cutoff = (time.time() if now is None else now) - keep
        return await self._backend.execute("DELETE FROM handled_updates WHERE handled_at < ?", (cutoff,))

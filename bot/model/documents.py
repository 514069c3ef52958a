"""The one home of the stored game: loading a row into a :class:`Game`, the cache of the versions
this process wrote, and writing it back (``games.data``).

Everything that changes a game goes through :class:`Documents`: :meth:`Documents.save` for a
change of the document (its messages, seats, options; never a move) and :meth:`Documents.commit`
for a move, which goes into the move log in the same statement and is told at once to whoever
listens (the open table pages, bot/webapp), before its messages wait for Telegram's budgets.
The table (bot/table) decides what to commit, the display (bot/display) only shows and stores
which messages show it; both stand on this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from bot.model.game import DocumentError, Game, TableDoc
from engine import Match, read_record, replay
from storage import UNSET, Database, GameRow, GameStatus, MoveLog, Unset


class CommitListener(Protocol):
    """Told of every game as committed, before it is shown anywhere (a table page's hub, the relay
    that tells the other instances' pages). It must not wait: it is called under the game's lock."""

    def __call__(self, game: Game) -> None: ...


class _Written(NamedTuple):
    """A game's newest version as this process wrote it: the row's data dict, its document, its match."""

    version: int
    data: dict[str, Any]
    doc: TableDoc
    match: Match | None


# One entry a game (its newest version): a move then costs no replay of the record, and a row that
# storage hands back from its own cache (the very data dict written) no parsing either. Older
# versions are dropped as soon as a newer one is written, so the collector walks what is in play.
# The document is reused only for that very dict: a row read back from the database (another
# instance's write, or a test's second database with the same ids) is parsed, and its match
# reused only when its version is the one written here.
_WRITTEN: dict[int, _Written] = {}
_CACHE_LIMIT = 4096


def load_game(row: GameRow) -> Game:
    """Rebuild the document and the match from the stored row, unless this very version was just saved."""
    written = _WRITTEN.get(row.id)
    if written is not None and written.version == row.version:
        if written.data is row.data:
            return Game(row, written.doc, written.match)
    else:
        written = None
    try:
        doc = TableDoc.from_json(row.data)
    except DocumentError as error:
        raise DocumentError(f"game {row.id}: {error}") from error  # i18n: not shown
    match = None
    if doc.game.record is not None:
        match = written.match if written is not None else None
        if match is None:
            match = replay(read_record(doc.game.record))
    return Game(row, doc, match)


def _remember(row: GameRow, doc: TableDoc, match: Match | None) -> None:
    """Cache a version that has just been written: ``row`` as saved from ``doc`` (``row.data`` is
    ``doc.to_json()``), and its match."""
    if len(_WRITTEN) > _CACHE_LIMIT and row.id not in _WRITTEN:
        _WRITTEN.clear()
    _WRITTEN[row.id] = _Written(row.version, row.data, doc, match)


async def save(
    db: Database, game: Game, doc: TableDoc, status: GameStatus | None = None, *, wake_at: float | Unset | None = UNSET
) -> Game:
    """Store a change of the document (its messages, seats, options; never a move).

    The game keeps its wake-up, so bookkeeping after a move was shown does not make the game
    look unattended; a game without one gets the storage's default, so that a change that
    needs showing is still looked at should this instance die first. ``wake_at``, if given,
    is stored instead (None: never), in the same statement."""
    if wake_at is UNSET and game.row.wake_at is not None:
        wake_at = game.row.wake_at
    row = await db.games.save(game.row, data=doc.to_json(), status=status, wake_at=wake_at)
    _remember(row, doc, game.match)
    return Game(row, doc, game.match)


async def stored_game(db: Database, game_id: int) -> Game | None:
    """The game as stored now, or None if there is no such game."""
    row = await db.games.get(game_id)
    return load_game(row) if row is not None else None


class Documents:
    """Loads, saves and commits the games of ``db``; ``listeners`` are told of every commit."""

    def __init__(self, db: Database, listeners: Iterable[CommitListener] = ()) -> None:
        self.db = db
        self.listeners: Sequence[CommitListener] = tuple(listeners)

    async def get(self, game_id: int) -> Game | None:
        """The game as stored now, or None if there is no such game."""
        return await stored_game(self.db, game_id)

    async def save(
        self, game: Game, doc: TableDoc, status: GameStatus | None = None, *, wake_at: float | Unset | None = UNSET
    ) -> Game:
        """Store a change of the document (its messages, seats, options; never a move): :func:`save`."""
        return await save(self.db, game, doc, status, wake_at=wake_at)

    async def commit(
        self,
        game: Game,
        doc: TableDoc,
        match: Match,
        moves: list[MoveLog],
        *,
        status: GameStatus,
        wake_at: float | None,
    ) -> Game:
        """Store a move (or a deal): the document with its record, the moves in the log and the
        wake-up in one statement; then tell the listeners. The game is shown afterwards."""
        row = await self.db.games.save(game.row, status=status, data=doc.to_json(), moves=moves, wake_at=wake_at)
        _remember(row, doc, match)
        committed = Game(row, doc, match)
        self.tell(committed)
        return committed

    def tell(self, game: Game) -> None:
        """``game`` as committed: told to the listeners at once."""
        for listener in self.listeners:
            listener(game)

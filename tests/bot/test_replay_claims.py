"""Which ask draws a game's replay (bot/handlers/replays.py): one at a time a chat, yet a replay sent
before is pointed at whatever is being drawn there meanwhile."""

from __future__ import annotations

from pathlib import Path

from bot.display.replays import ReplayMaker
from bot.handlers.replays import _claim_replay
from storage import Database
from storage.sent import Kind

CHAT = -100


async def test_a_replay_sent_before_is_pointed_at_while_another_is_drawn(tmp_path: Path) -> None:
    db = await Database.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    replays = ReplayMaker(0)
    try:
        first = await db.sent.claim(1, Kind.REPLAY, CHAT)
        await db.sent.sent(1, Kind.REPLAY, CHAT, 555)
        assert first.won
        replays.drawing.add(CHAT)  # game 2's replay is being drawn in this chat
        assert (await _claim_replay(db, replays, 1, CHAT)).message_id == 555
        busy = await _claim_replay(db, replays, 3, CHAT)  # a new one waits for the chat ...
        assert not busy.won and busy.message_id is None
        replays.drawing.discard(CHAT)
        assert (await _claim_replay(db, replays, 3, CHAT)).won  # ... and is not held by that ask after
    finally:
        replays.close()
        await db.close()

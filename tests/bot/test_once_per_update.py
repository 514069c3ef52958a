"""One update, delivered twice, changes a game once (bot/telegram/middlewares.py OncePerUpdate with
storage/handled.py): whether the second delivery comes after the first committed, or while it is
still being handled (a webhook retried on another instance, the balancer's retry)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, cast

from aiogram.types import TelegramObject, Update

from bot.background.idle_close import IdleSweeper
from bot.table import lobbies
from bot.table.service import GameService
from bot.telegram.middlewares import OncePerUpdate
from bot.telegram.people import Person
from storage.handled import KEEP_SECONDS, handling

ANN = Person(7, "Ann")


def _computers(data: dict[str, Any]) -> int:
    return sum(1 for seat in data["seats"] if seat and seat.get("level"))


async def test_an_update_delivered_again_adds_one_computer(service: GameService) -> None:
    db = service.db
    lobby = await lobbies.open_lobby(service, -1, ANN, "classic")
    once = OncePerUpdate(db)
    handled: list[int] = []
    first_waits, second_waits, both_under_way = asyncio.Event(), asyncio.Event(), asyncio.Event()

    def add_after(event: asyncio.Event) -> Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]:
        async def handler(update: TelegramObject, data: dict[str, Any]) -> str:
            handled.append(cast(Update, update).update_id)
            if len(handled) == 2:
                both_under_way.set()
            await event.wait()
            await lobbies.add_computer(service, lobby.id, ANN, "easy")
            return "added"

        return handler

    update = Update(update_id=501)
    # Both deliveries are under way before either has changed anything.
    first = asyncio.create_task(once(add_after(first_waits), update, {}))
    second = asyncio.create_task(once(add_after(second_waits), update, {}))
    await both_under_way.wait()
    first_waits.set()
    assert await first == "added"
    second_waits.set()
    assert await second is None  # stopped at its change, quietly: nothing was written
    row = await db.games.get(lobby.id)
    assert row is not None and _computers(row.data) == 1 and row.version == lobby.row.version + 1

    # Once more, later: skipped before its handler runs.
    assert await once(add_after(first_waits), update, {}) is None
    assert handled == [501, 501]
    row = await db.games.get(lobby.id)
    assert row is not None and _computers(row.data) == 1

    # Another update goes through as usual.
    assert await once(add_after(first_waits), Update(update_id=502), {}) == "added"
    row = await db.games.get(lobby.id)
    assert row is not None and _computers(row.data) == 2


async def test_the_idle_sweep_forgets_updates_handled_days_ago(service: GameService) -> None:
    db = service.db
    lobby = await lobbies.open_lobby(service, -1, ANN, "classic")
    with handling(601):
        await lobbies.add_computer(service, lobby.id, ANN, "easy")
    row = await db.backend.fetch_one("SELECT handled_at FROM handled_updates WHERE update_id = 601")
    assert row is not None
    handled_at = float(row[0])
    soon = IdleSweeper(db, service.locks, idle_days=7, every=3600, now=lambda: handled_at + 3600)
    await soon.sweep()
    assert await db.handled.seen(601)  # Telegram may still deliver it again
    later = IdleSweeper(db, service.locks, idle_days=7, every=3600, now=lambda: handled_at + KEEP_SECONDS + 1)
    await later.sweep()
    assert not await db.handled.seen(601)

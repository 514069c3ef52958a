"""The "which end?" question stays until it is answered (issue 31, item 3).

A tile that fits two ends turns the hand into "⬅ left / right ➡ / back". The question was lost
when a 💡 hint (a change of the game's document) left a wake-up due: a few seconds later the
wake-up sweep took the game over ("looking after 1 games nobody looked after") and redrew the
plain hand. A game its instance looks after is never taken over, and every redraw of the hand
(a wake-up, a restart) shows the question again until it is answered, "back" is tapped or the
turn moves on.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from fake_telegram import FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint, running_bot
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    TileButton,
    answer_text,
    data_of,
    is_alert,
    open_private_game,
    settle,
    tile_buttons,
)
from tests.kit.scenarios.arena import snapshot, turn_of

pytestmark = pytest.mark.asyncio

# The sweep takes over a game whose wake-up is this many seconds overdue, and looks every SWEEP seconds.
GRACE = 2.0
SWEEP = 0.2
TAKEOVER = "games nobody looked after"
GAMES = 5  # games tried until a person's turn offers a tile that fits two ends
TURNS = 200  # of Ann's in one game at most (a block match to 100 is over long before)


@pytest_asyncio.fixture
async def quick_sweep(fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot with a short wake-up grace and a frequent sweep: a takeover comes within seconds."""
    async with running_bot(fake, tmp_path, WAKE_GRACE_SECONDS=str(GRACE), WAKE_SWEEP_SECONDS=str(SWEEP)) as process:
        yield process


async def _two_end_tile(fake: FakeTelegram, bot: BotProcess, ann: User) -> tuple[Table, Message, TileButton]:
    """A private game on Ann's turn with a playable tile that fits two ends (the question was
    asked once, then "back" tapped: the hand shows its tiles again). Of her playable tiles the ones
    the rules let go to two ends are tapped first; one of those may still be just played (a lone
    double's two sides are one choice), and the game goes on."""
    for attempt in range(GAMES):
        await open_private_game(fake, ann, "block", 1, level="easy")
        table = Table(fake, [ann], results=ann, rng=random.Random(f"ends {attempt}"))
        for _ in range(TURNS):  # on to its end: a new game is opened only once this one is over
            turn = await table.next_turn()
            if isinstance(turn, Message):
                break
            _, message, playable = turn
            fits = Counter(tile for tile, _ in _legal(bot, ann))
            for button in sorted(playable, key=lambda button: -fits[button.tile]):
                query = await table.tap(ann, message, button)
                outcome = await table._settle(ann, message, button, query)
                if outcome == "ends":
                    await table.go_back(ann, message, button)
                    return table, message, button
                assert outcome == "played", query.answer
                table.version = button.version
                break
    raise AssertionError(f"{GAMES} games without a tile that fits two ends")


def _legal(bot: BotProcess, ann: User) -> tuple[tuple[str, str], ...]:
    """What the rules let Ann play now in her newest game, (tile code, end code) each."""
    games = [game for game in snapshot(bot.database).values() if game.creator_id == ann.id]
    turn = turn_of(max(games, key=lambda game: game.id)) if games else None
    return turn.legal if turn is not None else ()


def _asked(fake: FakeTelegram, message: Message, tile: TileButton) -> bool:
    live = fake.world.message(message.chat_id, message.message_id)
    assert live is not None
    ends = [b for b in tile_buttons(live.inline_keyboard) if b.is_end_choice]
    return bool(ends) and all(b.tile == tile.tile and b.version == tile.version for b in ends)


async def _ask(fake: FakeTelegram, table: Table, ann: User, message: Message, tile: TileButton) -> None:
    query = await table.tap(ann, message, tile)
    assert "choose" in answer_text(query).lower() and not is_alert(query), query.answer
    await fake.wait_for(lambda: _asked(fake, message, tile), TURN_TIMEOUT, what="the choice of ends")


async def _hold_on(fake: FakeTelegram) -> None:
    """Past the time a stale wake-up would be taken over and the hand redrawn."""
    await asyncio.sleep(GRACE + 6 * SWEEP + 1.0)
    await settle(fake)


async def test_a_hint_then_a_two_end_tile_keeps_the_question_and_the_game(
    fake: FakeTelegram, quick_sweep: BotProcess
) -> None:
    bot = quick_sweep
    ann = fake.add_user("Ann")
    table, message, tile = await _two_end_tile(fake, bot, ann)
    await settle(fake)
    check = Checkpoint(fake, bot)
    hint = data_of(fake.world.message(message.chat_id, message.message_id), "hi:")  # type: ignore[arg-type]
    assert hint is not None
    answer = await fake.wait_answered(fake.tap(ann, message, data=hint), timeout=TURN_TIMEOUT)
    assert is_alert(answer) and answer_text(answer).startswith("💡"), answer.answer
    await _ask(fake, table, ann, message, tile)
    await _hold_on(fake)
    assert TAKEOVER not in bot.log()[check.log_offset :], "the sweep took over a game its instance looks after"
    assert _asked(fake, message, tile), "the question of ends was redrawn away"
    # Answered, it plays the tile: the question goes with the turn.
    choice = next(
        b
        for b in tile_buttons(fake.world.message(message.chat_id, message.message_id).inline_keyboard)  # type: ignore[union-attr]
        if b.is_end_choice
    )
    played = await table.tap(ann, message, choice)
    assert await table._settle(ann, message, choice, played) == "played", played.answer
    check.assert_clean()


async def test_a_question_survives_a_restart_and_back_ends_it(fake: FakeTelegram, quick_sweep: BotProcess) -> None:
    bot = quick_sweep
    ann = fake.add_user("Bea")
    table, message, tile = await _two_end_tile(fake, bot, ann)
    await _ask(fake, table, ann, message, tile)
    await settle(fake)
    edits = len(fake.transcript)
    await bot.restart()  # the restart redraws every running game's hands
    await fake.wait_for(
        lambda: any(e.kind == "request" and e.method.startswith("edit") for e in fake.transcript[edits:]),
        TURN_TIMEOUT,
        what="the restarted bot redrawing the hand",
    )
    await settle(fake)
    assert _asked(fake, message, tile), "the restart redrew the hand without its question"
    # "back" answers it: the tiles again, and a later redraw does not bring the question back.
    await table.go_back(ann, message, tile)
    await settle(fake)
    edits = len(fake.transcript)
    await bot.restart()
    await fake.wait_for(
        lambda: any(e.kind == "request" and e.method.startswith("edit") for e in fake.transcript[edits:]),
        TURN_TIMEOUT,
        what="the restarted bot redrawing the hand",
    )
    await settle(fake)
    live = fake.world.message(message.chat_id, message.message_id)
    assert live is not None
    buttons = tile_buttons(live.inline_keyboard)
    assert not any(b.is_end_choice for b in buttons) and any(b.data == tile.data for b in buttons), buttons
    # Asked again, and answered: the tile is played.
    await _ask(fake, table, ann, message, tile)
    choice = next(
        b
        for b in tile_buttons(fake.world.message(message.chat_id, message.message_id).inline_keyboard)  # type: ignore[union-attr]
        if b.is_end_choice
    )
    played = await table.tap(ann, message, choice)
    assert await table._settle(ann, message, choice, played) == "played", played.answer

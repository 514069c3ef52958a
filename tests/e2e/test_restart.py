"""The bot is killed (SIGKILL) in the middle of a group game and started again on the same database.

Twice: once while it is idle between moves, and once right after it committed a person's move
but before Telegram saw it (the group board's edit hangs, then the process dies).  The game
must finish with every move stored exactly once, in the order it was played, and each person's
stored moves exactly the tiles they tapped.
"""

from __future__ import annotations

import random

import pytest

from fake_telegram import FakeTelegram, Message
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    assert_game_over_line,
    assert_results_in_order,
    audit_group_hands,
    audit_hidden_tiles,
    check_stored_game,
    join,
    open_lobby,
    read_games,
    set_seats,
    settle,
    start_game,
    tile_buttons,
)

pytestmark = pytest.mark.asyncio

PRESET = "draw"  # a match: the restarted bot also has to carry on into later rounds


async def test_killed_mid_game_and_restarted(fake: FakeTelegram, bot_with_workers: BotProcess) -> None:
    bot = bot_with_workers  # its picture worker must end with it
    check = Checkpoint(fake, bot)
    ann = fake.add_user("Ann")
    bob = fake.add_user("Bob")
    group = fake.add_group("Restarts", members=[ann, bob])
    fake.start_bot(ann)
    await settle(fake)
    lobby = await open_lobby(fake, ann, group, PRESET)
    await set_seats(fake, lobby, ann, 3)
    await join(fake, lobby, bob)  # through the deep link: Bob never opened the bot
    await start_game(fake, lobby, ann)
    table = Table(fake, [ann, bob], results=group, rng=random.Random("restart"))

    def moves() -> list[tuple[int, int, str, str | None, int]]:
        (game,) = [g for g in read_games(bot.database) if g.id == lobby.game_id]
        return game.moves

    # 1. Killed while idle between two moves.
    await table.play_turns(2)
    await settle(fake)
    before = moves()
    children = await bot.kill()
    assert moves() == before, "a killed bot must not lose a committed move"
    assert await bot.wait_gone(children) == [], "the killed bot's worker processes stayed behind"
    await bot.start()

    # 2. Killed after committing a move, before showing it: the played hand's freeze hangs (the
    # computers move only once a change is shown), then SIGKILL.
    turn = await table.next_turn()
    assert not isinstance(turn, Message), "the game ended too early for this test"
    user, message, playable = turn
    committed = len(moves())
    fake.inject("hang", method="editMessageMedia", chat=message.chat_id)  # the freeze: a new picture
    button = table.rng.choice(playable)
    query = fake.tap(user, message, data=button.data)
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)

    def asked_or_played() -> str | None:
        if len(moves()) > committed:
            return "played"
        live = fake.world.message(message.chat_id, message.message_id)
        if live is not None and any(b.is_end_choice for b in tile_buttons(live.inline_keyboard)):
            return "ends"
        return None

    if await fake.wait_for(asked_or_played, TURN_TIMEOUT, what="the move to be committed") == "ends":
        live = fake.world.message(message.chat_id, message.message_id)
        assert live is not None
        button = table.rng.choice([b for b in tile_buttons(live.inline_keyboard) if b.is_end_choice])
        query = fake.tap(user, message, data=button.data)
        await fake.wait_answered(query, timeout=TURN_TIMEOUT)
        await fake.wait_for(lambda: len(moves()) > committed or None, TURN_TIMEOUT, what="the move to be committed")
    await fake.wait_for(lambda: not fake.pipeline.injector.scripted, TURN_TIMEOUT, what="the freeze to hang")
    children = await bot.kill()
    stored = moves()
    assert len(stored) == committed + 1, "only the tapped move may be new (nobody else was shown a turn)"
    (game_now,) = [g for g in read_games(bot.database) if g.id == lobby.game_id]
    _round, seat, tile, _side, by_computer = stored[committed]
    assert (seat, tile.replace("-", ""), by_computer) == (game_now.seat_of(user), button.tile, 0), stored[committed]
    table.version = button.version
    table.plays.append((user.id, button.tile, button.end))
    assert await bot.wait_gone(children) == [], "the killed bot's worker processes stayed behind"

    await bot.start()
    result = await table.play_to_end()
    await settle(fake)

    final = moves()
    assert final[: len(before)] == before, "moves committed before the first kill were lost or changed"
    assert final[: len(stored)] == stored, "moves committed before the second kill were lost or changed"
    assert_game_over_line(result, PRESET, 3)
    assert_results_in_order(fake, group)
    check.assert_clean()
    audit_group_hands(fake, group, [ann, bob])
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    check_stored_game(game, table)  # every move once, and each person's moves exactly their taps
    audit_hidden_tiles(fake, group, game)

"""Computer levels through Telegram: chosen in a group lobby and in the private menu, changed
mid-game in a private game without touching the match, and forged level taps refused."""

from __future__ import annotations

import random

import pytest

from bot.words.refusals import Refusal
from fake_telegram import FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.e2e.test_taps import Snapshot, refused
from tests.kit.people.players import (
    TURN_TIMEOUT,
    StoredGame,
    Table,
    TileButton,
    add_computer,
    assert_game_over_line,
    assert_results_in_order,
    audit_hidden_tiles,
    check_stored_game,
    choose_level,
    forge_tap,
    hand_message,
    is_alert,
    level_buttons,
    lobby_text,
    open_lobby,
    open_private_game,
    result_messages,
    set_seats,
    settle,
    shown_level,
    start_game,
    tile_buttons,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


def stored(bot: BotProcess, game_id: int) -> StoredGame:
    (game,) = [g for g in bot.games() if g.id == game_id]
    return game


def private_game_of(bot: BotProcess, user: User) -> StoredGame:
    (game,) = [g for g in bot.games() if g.data["seats"][0]["user_id"] == user.id]
    return game


def computer_levels(game: StoredGame) -> list[str]:
    return [seat["level"] for seat in game.data["seats"] if seat and seat.get("user_id") is None]


def live(fake: FakeTelegram, message: Message) -> Message:
    found = fake.world.message(message.chat_id, message.message_id)
    assert found is not None and not found.deleted
    return found


async def test_group_lobby_computers_of_chosen_levels(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann = fake.add_user("Ann", last_name="Lobby")
    group = fake.add_group("Levels lobby", members=[ann])
    fake.start_bot(ann)
    await settle(fake)

    lobby = await open_lobby(fake, ann, group, "classic")
    await set_seats(fake, lobby, ann, 4)
    assert "free seats get 🤖 Medium" in lobby_text(fake, lobby)
    await add_computer(fake, lobby, ann, "easy")
    await add_computer(fake, lobby, ann, "hard")
    text = lobby_text(fake, lobby)
    assert "2. 🤖 Easy 1" in text and "3. 🤖 Hard 2" in text and "4. —" in text, text
    assert "free seats get 🤖 Hard" in text, text  # the level chosen last fills the free seat

    await start_game(fake, lobby, ann)
    game = stored(bot, lobby.game_id)
    assert [seat["level"] for seat in game.data["seats"]] == [None, "easy", "hard", "hard"]
    assert [seat["name"] for seat in game.data["seats"][1:]] == ["🤖 Easy 1", "🤖 Hard 2", "🤖 Hard 3"]
    await fake.wait_for(  # "The game has started: Ann, 🤖 Easy 1, …"
        lambda: "🤖 Hard 3" in lobby_text(fake, lobby), TURN_TIMEOUT, what="the lobby to name the seats"
    )
    hand = hand_message(fake, ann)
    assert hand is not None and level_buttons(hand) == {}, "a group game has no level row"

    table = Table(fake, [ann], results=group, rng=random.Random("levels-lobby"))
    result = await table.play_to_end()
    await settle(fake)
    assert_game_over_line(result, "classic", 4)
    assert_results_in_order(fake, group)
    check.assert_clean()
    game = stored(bot, lobby.game_id)
    assert computer_levels(game) == ["easy", "hard", "hard"]
    check_stored_game(game, table)
    audit_hidden_tiles(fake, group, game)


async def test_private_game_level_chosen_then_changed_mid_game(
    shared_fake: FakeTelegram, shared_bot: BotProcess
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann = fake.add_user("Ann", last_name="Private")
    first = await open_private_game(fake, ann, "classic", 2, level="hard")
    assert shown_level(fake, first) == "hard"
    game = private_game_of(bot, ann)
    assert computer_levels(game) == ["hard", "hard"]
    names = [seat["name"] for seat in game.data["seats"]]
    assert names[1:] == ["🤖 Computer 1", "🤖 Computer 2"]
    table = Table(fake, [ann], results=ann, rng=random.Random("levels-private"))

    # On Ann's turn nothing moves until she plays: the change must leave the round as it was.
    turn = await table.next_turn()
    assert not isinstance(turn, Message), "the game ended before Ann's first turn"
    _, message, _ = turn
    before = stored(bot, game.id)
    tiles_before: list[TileButton] = tile_buttons(live(fake, message).inline_keyboard)
    await choose_level(fake, ann, "easy")
    after = stored(bot, game.id)
    assert after.status == "playing"
    assert after.record == before.record, "the level change touched the hands or the line"
    assert after.moves == before.moves
    assert computer_levels(after) == ["easy", "easy"]
    assert [seat["name"] for seat in after.data["seats"]] == names
    assert tile_buttons(live(fake, message).inline_keyboard) == tiles_before
    assert hand_message(fake, ann) == live(fake, message), "the game message was replaced, not edited"

    # Once more while the computers are to move: the change and their moves queue on the game's lock.
    await table.play_turn(*turn)
    hand = hand_message(fake, ann)
    assert hand is not None
    query = fake.tap(ann, hand, data=f"lv:{game.id}:medium")
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    assert not is_alert(query), query.answer
    await fake.wait_for(
        lambda: computer_levels(stored(bot, game.id)) == ["medium", "medium"], TURN_TIMEOUT, what="the new level"
    )

    result = await table.play_to_end()
    await settle(fake)
    assert_game_over_line(result, "classic", 3)
    assert_results_in_order(fake, ann)
    check.assert_clean()
    final = stored(bot, game.id)
    assert computer_levels(final) == ["medium", "medium"]
    check_stored_game(final, table)
    audit_hidden_tiles(fake, ann, final, viewer=ann)
    # The game message is the newest picture (a hand emptied by the last play has no tile buttons).
    results = {m.message_id for m in result_messages(fake, ann)}
    last = next(m for m in reversed(fake.messages(ann, from_bot=True)) if m.photo and m.message_id not in results)
    assert level_buttons(live(fake, last)) == {}, "a finished game still offers levels"


async def test_forged_level_taps_are_refused(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann = fake.add_user("Ann", last_name="Forged")
    bob = fake.add_user("Bob", last_name="Forged")
    group = fake.add_group("Levels forged", members=[bob])

    # Ann plays the computer in private; Bob plays one in a group.  Both wait for their person.
    await open_private_game(fake, ann, "duel", 1, level="easy")
    private = private_game_of(bot, ann).id
    ann_table = Table(fake, [ann], results=ann, rng=random.Random("forged-ann"))
    ann_turn = await ann_table.next_turn()
    assert not isinstance(ann_turn, Message)
    ann_hand = ann_turn[1]

    fake.start_bot(bob)
    await settle(fake)
    lobby = await open_lobby(fake, bob, group, "duel")
    await start_game(fake, lobby, bob)
    bob_table = Table(fake, [bob], results=group, rng=random.Random("forged-bob"))
    bob_turn = await bob_table.next_turn()
    assert not isinstance(bob_turn, Message)
    bob_hand = bob_turn[1]
    await settle(fake)  # the hand message that was to play is deleted once the new one is out
    board = fake.last_message(group)
    assert board is not None

    snaps = [Snapshot(fake, bot, [ann, bob, group], game_id) for game_id in (private, lobby.game_id)]

    async def unchanged(what: str) -> None:
        for snap in snaps:
            await snap.assert_unchanged(what)

    forged = [
        (bob, bob_hand, f"lv:{private}:hard", Refusal.NOT_YOUR_GAME),  # someone else's game
        (ann, ann_hand, f"lv:{private}:godlike", Refusal.UNKNOWN_LEVEL),
        (ann, ann_hand, "sg:duel:1:godlike", Refusal.UNKNOWN_LEVEL),  # a new game at no such level
        (ann, ann_hand, f"lv:{private + 1000}:hard", Refusal.NO_GAME),
        (ann, ann_hand, "lv:x:hard", Refusal.BROKEN),
        (ann, ann_hand, f"lv:{private}", Refusal.BROKEN),
        (bob, bob_hand, f"lv:{lobby.game_id}:hard", Refusal.LEVEL_PRIVATE_ONLY),  # a group game
        (bob, board, f"lv:{private}:hard", Refusal.LEVEL_PRIVATE_ONLY),  # from a group chat
    ]
    for user, message, data, reason in forged:
        assert await refused(fake, forge_tap(fake, user, message, data)) == reason.text, data
        await unchanged(f"{user.name}'s forged {data!r}")

    # The level it already plays at: a short notice, not an alert, and nothing changes.
    query = fake.tap(ann, ann_hand, data=f"lv:{private}:easy")
    await refused(fake, query, alert=False)
    assert not is_alert(query), query.answer
    await unchanged("the current level tapped again")

    # Both games play on to their end; then a level tap on the finished game is refused.
    await bob_table.play_to_end()
    result = await ann_table.play_to_end()
    await settle(fake)
    assert_game_over_line(result, "duel", 2)
    assert computer_levels(stored(bot, private)) == ["easy"]
    finished = Snapshot(fake, bot, [ann], private)
    await refused(fake, forge_tap(fake, ann, result, f"lv:{private}:hard"))
    await finished.assert_unchanged("a level tap on a finished game")
    check.assert_clean()

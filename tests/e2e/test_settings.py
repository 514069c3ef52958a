"""Table manners of a chat: /settings by its administrators, /new while a game is open, games
closed after days without a move, and a group that becomes a supergroup mid-game.

Settings taps are checked against what the chat stores (read from the bot's SQLite file) and
what the settings message shows; refusals must change neither.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.words import settings_texts
from bot.words.refusals import Notice, Refusal
from fake_telegram import CallbackQuery, Chat, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint, running_bot
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Lobby,
    Table,
    answer_text,
    hand_message,
    is_alert,
    open_private_game,
    settle,
    start_game,
    tile_buttons,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

SETTINGS_PREFIX = "cs:"
# A lobby or game with no change for about four seconds is closed; the sweep looks twice a second.
IDLE_ENV = {"IDLE_CLOSE_DAYS": "0.00005", "IDLE_SWEEP_SECONDS": "0.5"}


# --------------------------------------------------------------------------- helpers


def stored_chat(bot: BotProcess, chat_id: int) -> tuple[dict[str, Any], str | None] | None:
    """(settings, language) of a chat as the bot stored it."""
    connection = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True, timeout=10)
    try:
        row = connection.execute("SELECT settings, language FROM chats WHERE id = ?", (chat_id,)).fetchone()
    finally:
        connection.close()
    return (json.loads(row[0]), row[1]) if row else None


def game_chat(bot: BotProcess, game_id: int) -> int:
    connection = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True, timeout=10)
    try:
        (chat_id,) = connection.execute("SELECT chat_id FROM games WHERE id = ?", (game_id,)).fetchone()
    finally:
        connection.close()
    return int(chat_id)


def settings_buttons(message: Message) -> dict[str, str]:
    """callback data -> button text of a settings keyboard."""
    return {
        str(b["callback_data"]): str(b.get("text", ""))
        for row in message.inline_keyboard
        for b in row
        if str(b.get("callback_data", "")).startswith(SETTINGS_PREFIX)
    }


def live(fake: FakeTelegram, message: Message) -> Message:
    found = fake.world.message(message.chat_id, message.message_id)
    assert found is not None
    return found


def ticked(fake: FakeTelegram, message: Message, data: str) -> bool:
    return settings_texts.SETTINGS_MARK in settings_buttons(live(fake, message)).get(data, "")


async def open_settings(fake: FakeTelegram, user: User, group: Chat) -> Message:
    floor = fake.last_message(group)
    fake.send(user, "/settings", chat=group)
    return await fake.wait_for_message(
        group, lambda m: "Settings of this chat" in m.shown_text, after=floor, timeout=TURN_TIMEOUT
    )


async def set_option(fake: FakeTelegram, admin: User, message: Message, data: str) -> CallbackQuery:
    """An administrator taps a settings button; returns once the message ticks it."""
    query = fake.tap(admin, message, data=data)
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    assert not is_alert(query), f"{data} was refused: {query.answer}"
    assert answer_text(query), f"{data} was answered without a word"
    await fake.wait_for(lambda: ticked(fake, message, data), TURN_TIMEOUT, what=f"{data} ticked")
    return query


async def new_lobby(fake: FakeTelegram, user: User, group: Chat, args: str = "") -> Lobby:
    floor = fake.last_message(group)
    fake.send(user, f"/new {args}".strip(), chat=group)
    message = await fake.wait_for_message(
        group,
        lambda m: any(str(b.get("callback_data", "")).startswith("lb:") for row in m.inline_keyboard for b in row),
        after=floor,
        timeout=TURN_TIMEOUT,
    )
    data = next(str(b["callback_data"]) for row in message.inline_keyboard for b in row if b.get("callback_data", ""))
    return Lobby(group, message, int(data.split(":")[1]))


async def reply_to_new(fake: FakeTelegram, user: User, group: Chat) -> Message:
    """/new while a game is open: the bot's answer."""
    floor = fake.last_message(group)
    fake.send(user, "/new", chat=group)
    return await fake.wait_for_message(group, lambda m: m.sender_id == fake.bot.id, after=floor, timeout=TURN_TIMEOUT)


# --------------------------------------------------------------------------- settings


async def test_an_admin_sets_the_defaults_and_new_uses_them(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    group = fake.add_group("Settings", members=[ann, bob])  # Ann created it: an administrator
    fake.start_bot(ann)
    await settle(fake)

    message = await open_settings(fake, ann, group)
    buttons = settings_buttons(message)
    assert all(len(data.encode()) <= 64 for data in buttons)
    assert ticked(fake, message, "cs:preset:draw") and ticked(fake, message, "cs:clock:60")
    for data in ("cs:preset:fives", "cs:seats:2", "cs:level:hard", "cs:clock:30", "cs:lang:uk"):
        await set_option(fake, ann, message, data)
    # The group now speaks Ukrainian: the settings message says so in Ukrainian.
    assert "П’ятірки" in live(fake, message).shown_text and "Мова: Українська" in live(fake, message).shown_text
    settings, language = stored_chat(bot, group.id) or ({}, None)
    assert settings == {"preset": "fives", "seats": 2, "level": "hard", "turn_seconds": 30}
    assert language == "uk"

    # The same value again: answered, nothing to change.
    again = fake.tap(ann, message, data="cs:lang:uk")
    await fake.wait_answered(again, timeout=TURN_TIMEOUT)
    assert answer_text(again) == Notice.SETTINGS_SAME.text
    await set_option(fake, ann, message, "cs:lang:en")  # back to English for the rest of the test

    # Bob is an ordinary member: a polite alert, and nothing changes.
    before = live(fake, message).shown_text, settings_buttons(live(fake, message))
    refused = fake.tap(bob, message, data="cs:preset:duel")
    await fake.wait_answered(refused, timeout=TURN_TIMEOUT)
    assert is_alert(refused) and answer_text(refused) == Refusal.SETTINGS_ADMINS_ONLY.text
    await settle(fake)
    assert (live(fake, message).shown_text, settings_buttons(live(fake, message))) == before
    assert stored_chat(bot, group.id) == (settings, "en")
    # His /settings shows them, without buttons.
    shown = await open_settings(fake, bob, group)
    assert "All Fives" in shown.shown_text and not settings_buttons(shown)

    # /new without a rule set: the chat's defaults.
    lobby = await new_lobby(fake, ann, group)
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.preset == "fives" and len(game.data["seats"]) == 2 and game.data["computer_level"] == "hard"
    assert "All Fives" in lobby.message.shown_text and "Hard" in lobby.message.shown_text
    # While it is open, /new answers with a reply to it; once it has started, to the board.
    answer = await reply_to_new(fake, bob, group)
    assert answer.reply_to == lobby.message.message_id, fake.screen(group)
    assert not answer.inline_keyboard

    await start_game(fake, lobby, ann)
    board = await fake.wait_for_message(group, lambda m: m.photo is not None, after=lobby.message, timeout=TURN_TIMEOUT)
    await fake.wait_for(  # the bot has noted which message is the board (it does so right after sending it)
        lambda: any(g.id == lobby.game_id and g.data.get("board_message") for g in bot.games()),
        TURN_TIMEOUT,
        what="the board message stored",
    )
    answer = await reply_to_new(fake, bob, group)
    assert answer.reply_to == board.message_id, fake.screen(group)
    assert [g.id for g in bot.games() if g.status in ("lobby", "playing")] == [lobby.game_id]

    table = Table(fake, [ann], results=group)
    await table.play_to_end()
    await settle(fake)
    # /new with a rule set: that one, with the chat's seats and level.
    lobby = await new_lobby(fake, bob, group, "block")
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.preset == "block" and len(game.data["seats"]) == 2 and game.data["computer_level"] == "hard"
    await settle(fake)
    check.assert_clean()


async def test_a_demoted_admin_cannot_change_the_settings(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    """A tap is decided on the tapper's rights now, not on the list the buttons were shown by."""
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    group = fake.add_group("Demotion", members=[ann, bob], admins=[bob])
    fake.start_bot(bob)
    await settle(fake)
    message = await open_settings(fake, bob, group)  # an administrator: the settings with their buttons
    await set_option(fake, bob, message, "cs:seats:2")

    fake.set_member(group, bob, "member")  # demoted, a moment later
    before = live(fake, message).shown_text, settings_buttons(live(fake, message))
    refused = fake.tap(bob, message, data="cs:seats:3")
    await fake.wait_answered(refused, timeout=TURN_TIMEOUT)
    assert is_alert(refused) and answer_text(refused) == Refusal.SETTINGS_ADMINS_ONLY.text
    await settle(fake)
    assert (live(fake, message).shown_text, settings_buttons(live(fake, message))) == before
    settings, _ = stored_chat(bot, group.id) or ({}, None)
    assert settings == {"seats": 2}
    check.assert_clean()


async def test_settings_in_a_private_chat_point_to_groups(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    cleo = fake.add_user("Cleo")
    fake.start_bot(cleo)
    await settle(fake)
    floor = fake.last_message(cleo)
    fake.send(cleo, "/settings")
    answer = await fake.wait_for_message(cleo, after=floor, timeout=TURN_TIMEOUT)
    assert answer.shown_text == settings_texts.settings_private()
    check.assert_clean()


# --------------------------------------------------------------------------- a group becomes a supergroup


async def test_a_group_upgraded_mid_game_plays_on_in_the_supergroup(
    shared_fake: FakeTelegram, shared_bot: BotProcess
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    dana = fake.add_user("Dana")
    group = fake.add_group("Upgrade", members=[dana])
    fake.start_bot(dana)
    await settle(fake)
    message = await open_settings(fake, dana, group)
    await set_option(fake, dana, message, "cs:preset:duel")
    lobby = await new_lobby(fake, dana, group)
    await start_game(fake, lobby, dana)
    table = Table(fake, [dana], results=group)
    await table.play_turns(1)
    await settle(fake)

    supergroup = fake.migrate_to_supergroup(group)
    board = await fake.wait_for_message(supergroup, lambda m: m.photo is not None, timeout=TURN_TIMEOUT)

    # Its buttons come by an edit once the bot knows the message (bot/telegram/twins.py).
    def buttons() -> list[list[dict[str, object]]]:
        shown = fake.world.message(supergroup.id, board.message_id)
        return shown.inline_keyboard if shown is not None else []

    assert await fake.wait_for(buttons, TURN_TIMEOUT, what="My hand under the supergroup's board")
    assert game_chat(bot, lobby.game_id) == supergroup.id
    stored = stored_chat(bot, supergroup.id)
    assert stored is not None and stored[0].get("preset") == "duel"

    table.results = supergroup
    result = await table.play_to_end()
    assert result.chat_id == supergroup.id
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.status == "finished"
    await settle(fake)
    lobby = await new_lobby(fake, dana, supergroup)  # the settings came along
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.preset == "duel"
    await settle(fake)
    check.assert_clean()


# --------------------------------------------------------------------------- idle games


@contextlib.asynccontextmanager
async def idle_bot(tmp_path: Path) -> AsyncIterator[tuple[FakeTelegram, BotProcess]]:
    """A fake and a bot of their own that close games after a few seconds without a change."""
    async with FakeTelegram() as fake, running_bot(fake, tmp_path, **IDLE_ENV) as process:
        yield fake, process


async def test_idle_games_are_closed_and_their_buttons_say_so(tmp_path: Path) -> None:
    async with idle_bot(tmp_path) as (fake, bot):
        check = Checkpoint(fake, bot)
        eve, finn = fake.add_user("Eve"), fake.add_user("Finn")
        fake.start_bot(eve)  # Finn opens the bot below, for a game against the computer
        waiting = fake.add_group("Waiting", members=[eve, finn])
        playing = fake.add_group("Playing", members=[eve])
        await settle(fake)

        lobby = await new_lobby(fake, eve, waiting)
        running = await new_lobby(fake, eve, playing, "duel")
        await start_game(fake, running, eve)
        private = await open_private_game(fake, finn, "duel", 1)
        games = {lobby.game_id, running.game_id}
        await fake.wait_for(
            lambda: {g.id for g in bot.games() if g.status == "closed"} >= games | {_game_of(private)},
            TURN_TIMEOUT * 2,
            what="the idle sweep to close the games",
        )
        before = {g.id: (g.status, g.version, g.moves) for g in bot.games()}

        taps = [fake.tap(finn, lobby.message, data=f"lb:{lobby.game_id}:join")]
        board = fake.last_message(playing)
        assert board is not None and board.photo is not None
        taps.append(fake.tap(eve, board, data=f"h:{running.game_id}"))
        for user in (eve, finn):
            hand = hand_message(fake, user)
            assert hand is not None
            taps.append(fake.tap(user, hand, data=tile_buttons(hand.inline_keyboard)[0].data))
        for query in taps:
            await fake.wait_answered(query, timeout=TURN_TIMEOUT)
            assert is_alert(query) and answer_text(query) == Refusal.IDLE_CLOSED.text, query.answer
        await settle(fake)
        after = {g.id: (g.status, g.version, g.moves) for g in bot.games()}
        assert after == before, "a tap on a closed game changed it"
        assert all(after[g][0] == "closed" for g in games)

        # A closed game no longer holds its chat.
        fresh = await new_lobby(fake, eve, waiting)
        assert fresh.game_id not in before
        check.assert_clean()


def _game_of(message: Message) -> int:
    return tile_buttons(message.inline_keyboard)[0].game

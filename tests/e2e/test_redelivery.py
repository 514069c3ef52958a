"""An update delivered again changes nothing again (issue 17, item 3; storage/handled.py).

Telegram delivers an update again when it did not see it confirmed: the bot was killed after
committing what the update asked for, but before its next ``getUpdates`` confirmed it (or,
by webhook, before answering the POST, or the answer was lost). The taps that carry no version
(add a computer, seats, the clock, a chat's settings, "play the computer") must then not apply
twice. The fake delivers each update again with its id and contents (``fake.redeliver``).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from fake_telegram import CallbackQuery, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.e2e.test_clock import clock_button, set_clock
from tests.kit.launcher import BotLauncher, free_port, webhook_env
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Lobby,
    add_computer,
    is_alert,
    lobby_text,
    open_lobby,
    open_private_game,
    read_games,
    set_seats,
    settle,
)


def stored_settings(bot: BotProcess, chat_id: int) -> dict[str, Any]:
    connection = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True, timeout=10)
    try:
        row = connection.execute("SELECT settings FROM chats WHERE id = ?", (chat_id,)).fetchone()
    finally:
        connection.close()
    return dict(json.loads(row[0])) if row else {}


def last_tap(fake: FakeTelegram, data: str) -> CallbackQuery:
    return [query for query in fake.callback_queries if query.data == data][-1]


async def tap_setting(fake: FakeTelegram, admin: User, message: Message, data: str) -> CallbackQuery:
    query = fake.tap(admin, message, data=data)
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    assert not is_alert(query), f"{data} was refused: {query.answer}"
    return query


async def test_taps_delivered_again_after_a_crash_change_nothing_again(fake: FakeTelegram, bot: BotProcess) -> None:
    check = Checkpoint(fake, bot)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    group = fake.add_group("Twice", members=[ann])  # Ann created it: an administrator
    fake.start_bot(ann)
    await settle(fake)

    # A lobby: two seats, then a computer in the second, then a 30-second clock.
    lobby = await open_lobby(fake, ann, group, "classic")
    await set_seats(fake, lobby, ann, 2)
    seats = last_tap(fake, f"lb:{lobby.game_id}:seats")
    await add_computer(fake, lobby, ann, "easy")
    computer = last_tap(fake, f"lb:{lobby.game_id}:add-easy")
    await set_clock(fake, lobby, ann, 30)
    clock = last_tap(fake, f"lb:{lobby.game_id}:clock")

    # The group's settings: seats 3, then 4 (the first one again would set 3 back).
    floor = fake.last_message(group)
    fake.send(ann, "/settings", chat=group)
    settings = await fake.wait_for_message(
        group, lambda m: "Settings of this chat" in m.shown_text, after=floor, timeout=TURN_TIMEOUT
    )
    first_setting = await tap_setting(fake, ann, settings, "cs:seats:3")
    await tap_setting(fake, ann, settings, "cs:seats:4")

    # Bob plays the computer from /start (the tap that deals is the update that makes the game).
    await open_private_game(fake, bob, "classic", 1, level="easy")
    deal = last_tap(fake, "sg:classic:1:easy")
    await settle(fake)

    def lobby_state() -> tuple[int, int, int | None]:
        (game,) = [g for g in bot.games() if g.id == lobby.game_id]
        computers = sum(1 for seat in game.data["seats"] if seat and seat.get("level"))
        return len(game.data["seats"]), computers, game.data["clock"]

    before = (lobby_state(), stored_settings(bot, group.id), [g.id for g in bot.games()])
    assert before[0] == (2, 1, 30) and before[1]["seats"] == 4
    shown = lobby_text(fake, lobby)

    # Killed after committing all that, before confirming it: Telegram delivers it all again.
    await bot.kill()
    for query in (seats, computer, clock, first_setting, deal):
        fake.redeliver(query.update_id)
    await bot.start()
    await fake.wait_delivered(timeout=TURN_TIMEOUT)
    await settle(fake)

    applied_again = []
    if lobby_state() != (2, 1, 30):
        applied_again.append(f"lobby taps: (seats, computers, clock) {lobby_state()}")
    if stored_settings(bot, group.id)["seats"] != 4:
        applied_again.append(f"a settings tap: seats {stored_settings(bot, group.id)['seats']}")
    if [g.id for g in bot.games()] != before[2]:
        applied_again.append(f"'play the computer': games {[(g.id, g.status) for g in bot.games()]}")
    assert applied_again == [], "taps delivered again applied again"
    assert lobby_text(fake, lobby) == shown and clock_button(fake, lobby) == 30
    check.assert_clean()  # and no tap answered twice (the fake counts that as a violation)


async def test_a_webhook_post_retried_changes_nothing_again(tmp_path: Path) -> None:
    """By webhook, to the bot still running: Telegram retried a POST whose answer it did not get."""
    async with FakeTelegram() as fake:
        port = free_port()
        env = webhook_env(fake, tmp_path / "bot.sqlite3", url=f"http://127.0.0.1:{port}/telegram", port=port)
        bot = BotLauncher(fake, tmp_path / "bot.log", env)
        await bot.start(ready="webhook")
        try:
            ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
            group = fake.add_group("Retried", members=[ann])
            fake.start_bot(ann)
            await settle(fake)
            lobby = await open_lobby(fake, ann, group, "classic")
            await set_seats(fake, lobby, ann, 2)
            await add_computer(fake, lobby, ann, "hard")
            await open_private_game(fake, bob, "duel", 1, level="hard")
            await settle(fake)
            taps = [
                last_tap(fake, data)
                for data in (f"lb:{lobby.game_id}:seats", f"lb:{lobby.game_id}:add-hard", "sg:duel:1:hard")
            ]
            before = read_games(tmp_path / "bot.sqlite3")
            shown = lobby_text(fake, lobby)

            for query in taps:
                fake.redeliver(query.update_id)
            await fake.wait_delivered(timeout=TURN_TIMEOUT)
            await settle(fake)
            for query in taps:
                assert len(fake.deliveries(query.update_id, ok=True)) == 2, "the update was not POSTed again"
            after = read_games(tmp_path / "bot.sqlite3")
            assert [(g.id, g.status, g.data["seats"]) for g in after if g.id == lobby.game_id] == [
                (g.id, g.status, g.data["seats"]) for g in before if g.id == lobby.game_id
            ], "a lobby tap POSTed again applied again"
            assert [(g.id, g.status) for g in after] == [(g.id, g.status) for g in before], (
                "'play the computer' POSTed again dealt another game"
            )
            assert lobby_text(fake, lobby) == shown
            assert fake.unanswered_callbacks() == [] and fake.violations == []
        finally:
            assert await bot.stop() == 0
        assert " ERROR " not in bot.log() and "Traceback" not in bot.log(), bot.log_tail()


async def _ann_opens_a_lobby(fake: FakeTelegram, title: str) -> tuple[User, Lobby]:
    """Ann, an administrator of a group called ``title``, opens a ``classic`` lobby there."""
    ann = fake.add_user("Ann")
    group = fake.add_group(title, members=[ann])
    fake.start_bot(ann)
    await settle(fake)
    return ann, await open_lobby(fake, ann, group, "classic")


def _computers(bot: BotProcess, game_id: int) -> int:
    """The computer seats of the game as stored."""
    (game,) = [g for g in bot.games() if g.id == game_id]
    return sum(1 for seat in game.data["seats"] if seat and seat.get("level"))


async def test_a_tap_whose_answer_died_with_the_bot_is_answered_when_delivered_again(
    fake: FakeTelegram, bot: BotProcess
) -> None:
    """The change was committed, the answer was under way when the bot was killed: delivered again,
    the tap changes nothing and is answered, so its person's spinner stops at once."""
    check = Checkpoint(fake, bot)
    ann, lobby = await _ann_opens_a_lobby(fake, "Spinner")

    fake.inject("hang", method="answerCallbackQuery")  # the answer to the next tap never comes back
    query = fake.tap(ann, lobby.message, data=f"lb:{lobby.game_id}:add-easy")
    await fake.wait_for(lambda: _computers(bot, lobby.game_id) == 1, TURN_TIMEOUT, what="the computer seated")
    assert not query.answered
    await bot.kill()
    fake.redeliver(query.update_id)  # as Telegram does with a delivery that was not confirmed
    await bot.start()
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    await settle(fake)
    assert (
        _computers(bot, lobby.game_id) == 1
        and "🤖 Easy 1" in lobby_text(fake, lobby)
        and "🤖 Easy 2" not in lobby_text(fake, lobby)
    )
    assert query.deliveries == 2
    check.assert_clean()


async def test_a_lobby_change_whose_message_died_with_the_bot_is_shown_at_start_up(
    fake: FakeTelegram, bot: BotProcess
) -> None:
    """A computer seated and committed, the lobby's edit under way when the bot was killed: started
    again, the bot shows the lobby as stored (and the tap, delivered again, seats no other)."""
    check = Checkpoint(fake, bot)
    ann, lobby = await _ann_opens_a_lobby(fake, "Lost edit")

    fake.inject("hang", method="editMessageText", chat=lobby.group)  # the lobby's edit never comes back
    query = fake.tap(ann, lobby.message, data=f"lb:{lobby.game_id}:add-easy")
    await fake.wait_for(lambda: _computers(bot, lobby.game_id) == 1, TURN_TIMEOUT, what="the computer seated")
    assert "🤖 Easy 1" not in lobby_text(fake, lobby)
    await bot.kill()
    fake.redeliver(query.update_id)
    await bot.start()
    await fake.wait_for(lambda: "🤖 Easy 1" in lobby_text(fake, lobby), TURN_TIMEOUT, what="the lobby as stored")
    await settle(fake)
    assert _computers(bot, lobby.game_id) == 1 and "🤖 Easy 2" not in lobby_text(fake, lobby)
    check.assert_clean()

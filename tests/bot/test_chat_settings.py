"""Chat settings, the idle sweep (with a fake clock) and the outbox's migration hook."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramMigrateToChat
from aiogram.methods import SendMessage
from aiogram.types import Chat, Message, ReplyParameters

from bot.background.idle_close import DAY, IdleSweeper, game_of
from bot.display.settings_message import settings_markup, settings_text
from bot.handlers.settings import point_to_game
from bot.model.chat_defaults import ChatDefaults, change, chat_defaults, parse
from bot.model.game import GameState, TableDoc
from bot.telegram.callbacks import HandTap, LevelTap, LobbyTap, RematchTap, RoomTap, RulesTap, SettingsTap, TileTap
from bot.telegram.locks import GameLocks
from bot.telegram.outbox import Outbox
from bot.telegram.quiet import QuietAnswers
from bot.words import settings_texts
from bot.words.refusals import Refusal
from storage import ChatRow, Database, GameRow, GameStatus


async def _open(tmp_path: Path) -> Database:
    return await Database.open(f"sqlite:///{tmp_path / 'test.sqlite3'}")


def test_stored_values_that_make_no_sense_fall_back_to_the_defaults() -> None:
    junk = ChatRow(-1, "group", None, "xx", {"preset": "chess", "seats": True, "level": "god", "turn_seconds": 45})
    assert ChatDefaults.from_row(junk) == ChatDefaults()
    assert ChatDefaults.from_row(None) == ChatDefaults(preset="draw", seats=None, turn_seconds=60, language="en")
    good = ChatRow(-1, "group", None, "uk", {"preset": "fives", "seats": 3, "level": "hard", "turn_seconds": 0})
    assert ChatDefaults.from_row(good) == ChatDefaults("fives", 3, "hard", 0, "uk")


def test_seats_follow_what_the_rules_allow() -> None:
    assert ChatDefaults().seats_for("draw") == 4
    assert ChatDefaults(seats=3).seats_for("draw") == 3
    assert ChatDefaults(seats=3).seats_for("duel") == 2
    assert ChatDefaults(seats=2).seats_for("fives") == 2


def test_a_tap_only_sets_values_that_are_offered() -> None:
    defaults = ChatDefaults()
    assert parse(defaults, "preset", "block").preset == "block"
    assert parse(defaults, "clock", "120").turn_seconds == 120
    assert parse(defaults, "lang", "ru").language == "ru"
    for key, value in [("preset", "chess"), ("clock", "45"), ("seats", "5"), ("level", "god"), ("x", "1")]:
        with pytest.raises(ValueError):
            parse(defaults, key, value)
    with pytest.raises(ValueError):
        parse(ChatDefaults(preset="duel"), "seats", "3")  # a two-player game


async def test_changes_are_stored_per_chat(tmp_path: Path) -> None:
    db = await _open(tmp_path)
    defaults, changed = await change(db, -1, "group", "preset", "fives")
    assert changed and defaults.preset == "fives"
    defaults, changed = await change(db, -1, "group", "preset", "fives")
    assert not changed
    await change(db, -1, "group", "lang", "uk")
    await change(db, -1, "group", "clock", "0")
    assert await chat_defaults(db, -1) == ChatDefaults(preset="fives", turn_seconds=0, language="uk")
    assert await chat_defaults(db, -2) == ChatDefaults()
    await db.close()


@pytest.mark.parametrize("preset", ["draw", "duel", "quickblock"])
def test_the_settings_keyboard_ticks_one_value_a_row_within_64_bytes(preset: str) -> None:
    defaults = ChatDefaults(preset=preset, level="hard", turn_seconds=120, language="uk")
    markup = settings_markup(defaults)
    datas = [button.callback_data or "" for row in markup.inline_keyboard for button in row]
    assert all(0 < len(data.encode()) <= 64 for data in datas)
    assert len(set(datas)) == len(datas)
    ticked = [button.callback_data for row in markup.inline_keyboard for button in row if "✓" in button.text]
    keys = [SettingsTap.unpack(data or "").key for data in ticked]
    seats_row = preset == "draw"
    assert sorted(keys) == sorted(["preset", "level", "clock", "lang"] + (["seats"] if seats_row else []))
    assert "seats" in settings_text(defaults, admin=True)


def test_the_game_a_button_names() -> None:
    assert game_of(LobbyTap(game=5, action="join").pack()) == 5
    assert game_of(TileTap(game=6, version=3, tile="64").pack()) == 6
    assert game_of(HandTap(game=7).pack()) == 7
    assert game_of(LevelTap(game=8, level="hard").pack()) == 8
    assert game_of(RematchTap(game=9).pack()) == 9
    assert game_of(RoomTap(action="cancel", game=10).pack()) == 10
    assert game_of(RoomTap(action="menu").pack()) is None
    assert game_of(RulesTap(preset="draw").pack()) is None
    assert game_of(SettingsTap(key="preset", value="draw").pack()) is None
    assert game_of("lb:x:join") is None
    assert game_of(None) is None


async def test_the_sweep_closes_only_what_has_been_idle(tmp_path: Path) -> None:
    db = await _open(tmp_path)
    lobby = await db.games.create(
        chat_id=-1, kind="group", status=GameStatus.LOBBY, preset="draw", creator_id=1, data={}
    )
    playing = await db.games.create(
        chat_id=2, kind="private", status=GameStatus.PLAYING, preset="duel", creator_id=2, data={}
    )
    done = await db.games.create(
        chat_id=-3, kind="group", status=GameStatus.FINISHED, preset="draw", creator_id=1, data={}
    )
    clock = [time.time()]
    sweeper = IdleSweeper(db, GameLocks(), idle_days=7, every=3600, now=lambda: clock[0])
    assert await sweeper.sweep() == []
    clock[0] += 6 * DAY
    assert await sweeper.sweep() == []
    clock[0] += 2 * DAY
    assert await sweeper.sweep() == [lobby.id, playing.id]
    for game in (lobby, playing):
        row = await db.games.get(game.id)
        assert row is not None and row.status is GameStatus.CLOSED and row.data == game.data
    assert await db.games.status_of(done.id) is GameStatus.FINISHED
    assert await sweeper.sweep() == []  # closed once
    await db.close()


class _UpgradedBot:
    async def send_message(self, chat_id: int, text: str, **kwargs: object) -> Any:
        raise TelegramMigrateToChat(SendMessage(chat_id=chat_id, text=text), "group upgraded", -1_000_000_001)


async def test_a_send_into_an_upgraded_group_calls_the_hook() -> None:
    outbox = Outbox(cast(Bot, _UpgradedBot()))
    moved: list[tuple[int, int]] = []

    async def hook(old: int, new: int) -> None:
        moved.append((old, new))

    assert await outbox.send_text(-1, "hello") is None  # no hook yet: just not sent
    outbox.on_migrate = hook
    assert await outbox.send_text(-1, "hello") is None
    await asyncio.sleep(0)
    assert moved == [(-1, -1_000_000_001)]


class _Asked:
    """The one thing point_to_game does with the /new message: answer it."""

    chat = Chat(id=-1, type="group")
    from_user = None

    def __init__(self) -> None:
        self.answers: list[tuple[str, int | None]] = []

    async def answer(self, text: str, reply_parameters: ReplyParameters | None = None) -> None:
        self.answers.append((text, reply_parameters.message_id if reply_parameters else None))


@pytest.mark.parametrize("status", [GameStatus.LOBBY, GameStatus.PLAYING])
async def test_new_while_a_game_is_open_answers_its_lobby_or_board_message(status: GameStatus) -> None:
    doc = TableDoc(seats=(None, None), game=GameState(lobby_message=11, board_message=22))
    running = GameRow(3, -1, "group", status, "draw", 1, 1, doc.to_json(), 0.0, 0.0)
    asked = _Asked()
    await point_to_game(cast(Message, asked), running, QuietAnswers(every=0))
    lobby = status is GameStatus.LOBBY
    assert asked.answers == [(settings_texts.game_running_here(lobby), 11 if lobby else 22)]
    # Without the message to point to (not sent yet): the plain refusal.
    bare = replace(running, data=TableDoc(seats=(None, None)).to_json())
    await point_to_game(cast(Message, asked), bare, QuietAnswers(every=0))
    assert asked.answers[-1] == (Refusal.GAME_RUNNING.text, None)

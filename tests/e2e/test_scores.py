"""Scores that last, end to end: rating changes under the final result, /stats, /top (and its
button), /history and /export in groups and in private; a leaderboard never shows another
chat's games; an exported record replays to the game's result; /kill changes no rating; a group
that becomes a supergroup keeps its scores; and a bot killed between a game's end and its
recording records it when it starts again.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Move, read_record, replay, summary, tile_of
from engine.line import End
from fake_telegram import Chat, FakeTelegram, Message, User
from tests.e2e.conftest import REPO, BotProcess, Checkpoint, results_after
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    TileButton,
    final_result,
    forge_tap,
    hand_message,
    is_alert,
    join,
    open_lobby,
    read_games,
    settle,
    start_game,
    tile_buttons,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

PRESET = "duel"  # two people, one round: the quickest whole game
RATING_LINE = re.compile(r"^(.+): (\d+) \(([+−±]\d+)\)$")


def people(fake: FakeTelegram, tag: str, count: int = 2) -> tuple[list[User], Chat]:
    users = [fake.add_user(name, last_name=tag) for name in ("Ann", "Bob", "Carol")[:count]]
    for user in users:
        fake.start_bot(user)
    return users, fake.add_group(f"Scores {tag}", members=users)


async def play_game(
    fake: FakeTelegram, users: list[User], group: Chat, seed: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, Message]:
    """The first person opens a duel, the second joins, they play it out; (game id, final result)."""
    await settle(fake)
    floor = final_result(fake, group)
    if floor is not None:  # the Table sees only this game's result, not the group's earlier ones
        results_after(monkeypatch, {group.id: floor.message_id})
    lobby = await open_lobby(fake, users[0], group, PRESET)
    await join(fake, lobby, users[1])
    await start_game(fake, lobby, users[0])
    table = Table(fake, users, results=group, rng=random.Random(seed))
    for _ in range(1500):
        turn = await next_turn(table, floor)
        if isinstance(turn, Message):
            await settle(fake)
            return lobby.game_id, turn
        await table.play_turn(*turn)
    raise AssertionError("the game did not end")


async def next_turn(table: Table, floor: Message | None) -> tuple[User, Message, list[TileButton]] | Message:
    """A person's turn, or the final result of this game (newer than ``floor``, the group's last one)."""

    def ready() -> tuple[User, Message, list[TileButton]] | Message | None:
        over = final_result(table.fake, table.results)
        if over is not None and (floor is None or over.message_id > floor.message_id):
            return over
        for user in table.people:
            message = hand_message(table.fake, user)
            if message is None:
                continue
            playable = [
                b
                for b in tile_buttons(message.inline_keyboard)
                if b.playable and not b.is_end_choice and b.version > table.version
            ]
            if playable:
                return user, message, playable
        return None

    return await table.fake.wait_for(ready, TURN_TIMEOUT, what="a person's turn or the end of the game")


async def command(fake: FakeTelegram, user: User, text: str, chat: Chat | None = None) -> Message:
    """``user`` sends ``text`` (in ``chat``, or privately); the bot's first message after it."""
    where: Chat | User = chat if chat is not None else user
    floor = fake.last_message(where, from_bot=True)
    sent = fake.send(user, text, chat=chat)
    after = max(sent.message_id, floor.message_id if floor else 0)
    return await fake.wait_for_message(where, lambda m: m.sent_by_bot, after=after, timeout=TURN_TIMEOUT)


def rating_lines(caption: str) -> dict[str, tuple[int, str]]:
    """name -> (rating, change) from the rating lines under a final result."""
    lines = caption.split("\n")
    found = {}
    for line in lines[lines.index("Ratings in this chat:") + 1 :] if "Ratings in this chat:" in lines else []:
        match = RATING_LINE.match(line)
        if match:
            found[match[1]] = (int(match[2]), match[3])
    return found


def results_table(database: Path) -> dict[int, str]:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        return dict(connection.execute("SELECT game_id, outcome FROM results").fetchall())
    finally:
        connection.close()


def document_bytes(fake: FakeTelegram, message: Message) -> bytes:
    assert message.document is not None, message
    stored = fake.world.files.get(message.document["file_id"])
    assert stored is not None
    return stored.data


def replay_file(data: bytes, tmp_path: Path) -> dict[str, object]:
    path = tmp_path / "exported.json"
    path.write_bytes(data)
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True, cwd=REPO, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


# --- the whole tour --------------------------------------------------------------------------------


async def test_scores_in_a_group_and_in_private(
    shared_fake: FakeTelegram, shared_bot: BotProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    (ann, bob), group = people(fake, "Tour")
    (carol, dan), other = people(fake, "Elsewhere")

    games = []
    for round_number in range(3):
        game_id, result = await play_game(fake, [ann, bob], group, f"tour-{round_number}", monkeypatch)
        games.append(game_id)
        ratings = rating_lines(result.shown_text)
        assert set(ratings) == {"Ann Tour", "Bob Tour"}, result.shown_text
    (first_game, *_), last_game = games, games[-1]
    elsewhere, _ = await play_game(fake, [carol, dan], other, "elsewhere", monkeypatch)
    assert results_table(bot.database).keys() >= {*games, elsewhere}

    # /stats: Ann's own numbers in this group.
    answer = await command(fake, ann, "/stats", group)
    stats = answer.shown_text
    assert "Ann Tour in this chat" in stats and "3 games" in stats, stats
    assert "Rating here: " in stats and "Best streak" in stats, stats
    # 📊 with a picture of the form: the words are its caption.
    assert answer.photo is not None and answer.caption is not None, "/stats came without its picture"

    # /top: both players, and no one from the other group; the button switches to wins and back.
    top = await command(fake, ann, "/top", group)
    assert "Ann Tour" in top.shown_text and "Bob Tour" in top.shown_text, top.shown_text
    assert top.photo is not None, "/top came without its picture"
    first_picture = top.photo[-1]["file_unique_id"]
    assert "Carol" not in top.shown_text and "Dan" not in top.shown_text
    query = fake.tap(bob, top, data="tp:w")
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    await fake.wait_for(
        lambda: "by wins" in (fake.world.message(group.id, top.message_id) or top).shown_text or None,
        TURN_TIMEOUT,
        what="the leaderboard by wins",
    )
    shown = fake.world.message(group.id, top.message_id)
    assert shown is not None and shown.photo is not None and shown.photo[-1]["file_unique_id"] != first_picture
    # The other group has one game each: fewer than the leaderboard needs, and it says so.
    empty = (await command(fake, carol, "/top", other)).shown_text
    assert "Nobody has finished 3 games" in empty and "Ann" not in empty, empty

    # /history: the group's games, newest first, and not the other group's.
    history = (await command(fake, bob, "/history", group)).shown_text
    numbers = [int(n) for n in re.findall(r"#(\d+) · ", history)]
    assert numbers == list(reversed(games)), history

    # /export: the last game's record, which replays to the stored game's result.
    exported = await command(fake, ann, "/export", group)
    record = json.loads(document_bytes(fake, exported))
    assert record["format"] == "dominoes-record/1" and record["preset"] == PRESET
    assert exported.document is not None and exported.document["file_name"] == f"dominoes-{last_game}.json"
    (stored,) = [g for g in bot.games() if g.id == last_game]
    assert replay_file(document_bytes(fake, exported), tmp_path) == summary(replay(read_record(stored.record)))
    # A game by number from /history, too.
    exported = await command(fake, bob, f"/export {first_game}", group)
    (stored,) = [g for g in bot.games() if g.id == first_game]
    assert replay_file(document_bytes(fake, exported), tmp_path) == summary(replay(read_record(stored.record)))

    # Bad input: polite words, nothing sent, nothing changed.
    refused = await command(fake, ann, f"/export {elsewhere}", group)
    assert refused.document is None and f"no game #{elsewhere}" in refused.shown_text, refused.shown_text
    junk = await command(fake, ann, "/export everything", group)
    assert junk.document is None and "/export" in junk.shown_text
    assert "/top wins" in (await command(fake, ann, "/top sideways", group)).shown_text
    forged = forge_tap(fake, ann, top, "tp:zz")
    await fake.wait_answered(forged, timeout=TURN_TIMEOUT)
    assert is_alert(forged)

    # In private: the person's own games and the overall leaderboard.
    mine = (await command(fake, ann, "/history")).shown_text
    assert [int(n) for n in re.findall(r"#(\d+) · ", mine)] == list(reversed(games)), mine
    overall = (await command(fake, ann, "/top")).shown_text
    assert "all games" in overall and "Ann Tour" in overall and "Carol" not in overall, overall
    assert "in all games" in (await command(fake, ann, "/stats")).shown_text
    nothing = await command(fake, carol, f"/export {last_game}")
    assert nothing.document is None and f"no game #{last_game}" in nothing.shown_text
    exported = await command(fake, carol, f"/export {elsewhere}")
    assert exported.document is not None
    await settle(fake)
    check.assert_clean()


async def test_a_killed_game_changes_no_rating(
    shared_fake: FakeTelegram, shared_bot: BotProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    (ann, bob), group = people(fake, "Killed")
    _, first = await play_game(fake, [ann, bob], group, "killed", monkeypatch)
    results_after(monkeypatch, {group.id: first.message_id})
    before = (await command(fake, ann, "/stats", group)).shown_text

    lobby = await open_lobby(fake, ann, group, PRESET)
    await join(fake, lobby, bob)
    await start_game(fake, lobby, ann)
    await Table(fake, [ann, bob], results=group, rng=random.Random("k")).play_turns(2)
    await command(fake, ann, "/kill", group)
    await fake.wait_for(
        lambda: results_table(bot.database).get(lobby.game_id) == "abandoned" or None,
        TURN_TIMEOUT,
        what="the killed game to be recorded",
    )
    await settle(fake)
    assert (await command(fake, ann, "/stats", group)).shown_text == before
    history = (await command(fake, ann, "/history", group)).shown_text
    assert f"#{lobby.game_id} · " in history and "abandoned" in history, history
    check.assert_clean()


async def test_a_group_that_becomes_a_supergroup_keeps_its_scores(
    shared_fake: FakeTelegram, shared_bot: BotProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    (ann, bob), group = people(fake, "Moving")
    game_id, _ = await play_game(fake, [ann, bob], group, "moving", monkeypatch)
    before = (await command(fake, ann, "/stats", group)).shown_text
    assert "1 game" in before, before
    supergroup = fake.migrate_to_supergroup(group)
    await settle(fake)
    assert (await command(fake, ann, "/stats", supergroup)).shown_text == before
    history = (await command(fake, bob, "/history", supergroup)).shown_text
    assert f"#{game_id} · " in history, history
    exported = await command(fake, bob, f"/export {game_id}", supergroup)
    assert exported.document is not None
    check.assert_clean()


# --- killed between the end and the recording ---------------------------------------------------------


def next_result(fake: FakeTelegram, group: Chat, floor: Message | None) -> Message | None:
    found = final_result(fake, group)
    return found if found is not None and (floor is None or found.message_id > floor.message_id) else None


def ends_the_game(bot: BotProcess, game_id: int, tile: str) -> bool:
    """Whether tapping ``tile`` (two digits) plays it at once (it fits one end only) and ends the game."""
    (game,) = [g for g in read_games(bot.database) if g.id == game_id]
    match = replay(read_record(game.record))
    move_tile = tile_of(int(tile[0]), int(tile[1]))
    line = match.round.line
    ends: list[End | None] = [None] if line.is_empty else list(line.ends_for(move_tile))
    if len(ends) != 1:
        return False
    return match.apply(Move(move_tile, ends[0])).is_over


async def test_a_game_that_ended_as_the_bot_died_is_recorded_on_restart(
    shared_fake: FakeTelegram, shared_bot: BotProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last move is committed, then the tap's answer hangs and the bot is killed before it
    recorded anything; started again, it records the game and posts its result with the ratings.
    (Last in this module: it kills the module's bot, and starts it again.)"""
    fake, bot = shared_fake, shared_bot
    log_offset = len(bot.log())
    (ann, bob), group = people(fake, "Restart")
    for attempt in range(6):
        await settle(fake)
        lobby = await open_lobby(fake, ann, group, PRESET)
        await join(fake, lobby, bob)
        await start_game(fake, lobby, ann)
        table = Table(fake, [ann, bob], results=group, rng=random.Random(f"restart-{attempt}"))
        floor = final_result(fake, group)
        if floor is not None:
            results_after(monkeypatch, {group.id: floor.message_id})
        while True:
            turn = await next_turn(table, floor)
            if isinstance(turn, Message):
                break  # ended some other way (a fish after a choice of ends): another game
            user, message, playable = turn
            last = [b for b in playable if ends_the_game(bot, lobby.game_id, b.tile)]
            if not last:
                await table.play_turn(user, message, playable)
                continue
            fake.inject("hang", method="answerCallbackQuery")
            fake.tap(user, message, data=last[0].data)
            await fake.wait_for(
                lambda game_id=lobby.game_id: (
                    [g.status for g in read_games(bot.database) if g.id == game_id] == ["finished"] or None
                ),
                TURN_TIMEOUT,
                what="the last move to be committed",
            )
            await fake.wait_for(lambda: not fake.pipeline.injector.scripted, TURN_TIMEOUT, what="the answer to hang")
            children = await bot.kill()
            assert lobby.game_id not in results_table(bot.database), "recorded before the tap was answered"
            assert await bot.wait_gone(children) == []
            await bot.start()
            await fake.wait_for(
                lambda game_id=lobby.game_id: results_table(bot.database).get(game_id) == "finished" or None,
                TURN_TIMEOUT,
                what="the game to be recorded after the restart",
            )
            result = await fake.wait_for(
                lambda before=floor: next_result(fake, group, before),
                TURN_TIMEOUT,
                what="the final result after the restart",
            )
            assert isinstance(result, Message)
            assert set(rating_lines(result.shown_text)) == {"Ann Restart", "Bob Restart"}, result.shown_text
            stats = (await command(fake, ann, "/stats", group)).shown_text
            assert f"{attempt + 1} game" in stats, stats
            assert bot.errors_in_log(since=log_offset) == []
            return
    pytest.fail("no game ended with a single-end play in six tries")

"""🎬 Replay (issue 21): a finished game's result offers the whole game as an animation, and /replay N.

The animation is an H.264 MP4 sent with sendAnimation; it is decoded here and has one frame per
step of the stored record: each round's deal, each play, each round's end (and the last frame
once more, so that it is held).
"""

from __future__ import annotations

import io
import random
import re

import av
import pytest

from fake_telegram import Chat, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    answer_text,
    data_of,
    final_result,
    forge_tap,
    is_alert,
    open_private_game,
    settle,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


def animations(fake: FakeTelegram, chat: User | Chat) -> list[Message]:
    return [m for m in fake.messages(chat, from_bot=True) if m.animation is not None]


def decoded_frames(fake: FakeTelegram, message: Message) -> int:
    assert message.animation is not None
    data = fake.world.files.resolve(message.animation["file_id"], "document").data
    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == "h264"
        return sum(1 for _ in container.decode(stream))


def steps_of(record: dict[str, object]) -> int:
    rounds = record["rounds"]
    assert isinstance(rounds, list)
    return sum(1 + len(r["plays"]) + 1 for r in rounds)  # every round of a finished game is over


async def _finished_game(fake: FakeTelegram, name: str) -> tuple[User, Message]:
    person = fake.add_user(name)
    await open_private_game(fake, person, "duel", 1, level="easy")
    result = await Table(fake, [person], results=person, rng=random.Random(2)).play_to_end()
    await settle(fake)
    return person, result


async def test_the_result_offers_the_game_as_an_animation(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann, result = await _finished_game(fake, "Ann")
    data = data_of(result, "rp:")
    assert data is not None, result.inline_keyboard
    query = fake.tap(ann, result, data=data)
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    assert "being drawn" in answer_text(query) and not is_alert(query)
    (first,) = await fake.wait_for(lambda: animations(fake, ann) or None, 60.0, what="the animation")
    assert first.animation is not None and first.document is not None
    assert first.animation["mime_type"] == "video/mp4" and first.animation["duration"] > 0
    assert first.animation["width"] == 720 and first.animation["height"] % 2 == 0
    game_id = int(data.split(":")[1])
    assert re.match(rf"🎬 Game #{game_id} \(Duel, \d{{4}}-\d\d-\d\d\), move by move\.", first.shown_text)
    (stored,) = [g for g in bot.games() if g.id == game_id]
    assert decoded_frames(fake, first) == steps_of(stored.data["record"]) + 1
    # Tapped again, and asked for with /replay (the last game): pointed at the one sent, nothing
    # drawn or sent again (issue 31: every tap drew and sent another).
    again = fake.tap(ann, result, data=data)
    await fake.wait_answered(again, timeout=TURN_TIMEOUT)
    assert f"Game #{game_id}'s replay is in this chat already" in answer_text(again) and not is_alert(again)
    fake.send(ann, "/replay")
    pointer = await fake.wait_for_message(ann, lambda m: m.reply_to == first.message_id, timeout=TURN_TIMEOUT)
    assert f"game #{game_id}'s replay, sent to this chat before" in pointer.shown_text
    # It is stored, not remembered: after a restart the same.
    await bot.restart()
    fake.send(ann, f"/replay {game_id}")
    await fake.wait_for(
        lambda: len([m for m in fake.messages(ann, from_bot=True) if m.reply_to == first.message_id]) == 2 or None,
        TURN_TIMEOUT,
        what="the second pointer",
    )
    await settle(fake)
    assert animations(fake, ann) == [first]
    check.assert_clean()


async def test_a_replay_is_refused_with_a_reason_and_nothing_is_sent(
    shared_fake: FakeTelegram, shared_bot: BotProcess
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    bob, result = await _finished_game(fake, "Bob")
    data = data_of(result, "rp:")
    assert data is not None
    cat = fake.add_user("Cat")
    fake.start_bot(cat)
    await settle(fake)
    fake.send(cat, "/replay")
    await fake.wait_for_message(cat, lambda m: "nothing to replay" in m.shown_text, timeout=TURN_TIMEOUT)
    fake.send(cat, f"/replay {data.split(':')[1]}")  # Bob's game, not Cat's
    await fake.wait_for_message(cat, lambda m: "You have no game" in m.shown_text, timeout=TURN_TIMEOUT)
    fake.send(cat, "/replay twelve")
    await fake.wait_for_message(cat, lambda m: "/replay followed by" in m.shown_text, timeout=TURN_TIMEOUT)
    welcome = fake.messages(cat, from_bot=True)[0]
    forged = forge_tap(fake, cat, welcome, data)  # Bob's game's button, from Cat's chat
    await fake.wait_answered(forged, timeout=TURN_TIMEOUT)
    assert is_alert(forged) and "no longer exists" in answer_text(forged)
    dan = fake.add_user("Dan")
    running = await open_private_game(fake, dan, "draw", 1, level="easy")
    game = int(str(running.inline_keyboard[0][0]["callback_data"]).split(":")[1])
    unfinished = forge_tap(fake, dan, running, f"rp:{game}")  # a game still being played
    await fake.wait_answered(unfinished, timeout=TURN_TIMEOUT)
    assert is_alert(unfinished)
    await settle(fake)
    assert not animations(fake, cat) and not animations(fake, dan) and final_result(fake, bob) is not None
    check.assert_clean()


async def test_the_review_comes_to_the_players_private_chat(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    eve, result = await _finished_game(fake, "Eve")
    data = data_of(result, "rv:")
    assert data is not None, result.inline_keyboard
    before = len(fake.messages(eve, from_bot=True))
    query = fake.tap(eve, result, data=data)
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    assert "being drawn" in answer_text(query) and not is_alert(query)
    assert "private chat" not in answer_text(query)  # it is said in that chat

    def reviewed() -> list[Message] | None:
        new = fake.messages(eve, from_bot=True)[before:]
        heads = [m for m in new if m.shown_text.startswith("📈 Game #")]
        if not heads:
            return None
        if "no clear mistakes" in heads[0].shown_text:
            return new
        pages = [m for m in new if m.photo and m.shown_text.startswith("Round ")]
        return new if pages else None

    new = await fake.wait_for(reviewed, 60.0, what="the review")
    pages = [m for m in new if m.photo]
    assert len(pages) <= 3
    for page in pages:
        assert re.match(r"Round \d+, your move \d+: you played \[\d\|\d\]", page.shown_text), page.shown_text
    # Someone who did not play it: refused, nothing sent.
    fay = fake.add_user("Fay")
    fake.start_bot(fay)
    await settle(fake)
    forged = forge_tap(fake, fay, fake.messages(fay, from_bot=True)[0], data)
    await fake.wait_answered(forged, timeout=TURN_TIMEOUT)
    assert is_alert(forged) and "not playing in this game" in answer_text(forged)
    # Asked again: pointed at the one sent (a reply to its heading), nothing judged or sent again.
    (heading,) = [m for m in new if m.shown_text.startswith("📈 Game #")]
    again = fake.tap(eve, result, data=data)
    await fake.wait_answered(again, timeout=TURN_TIMEOUT)
    assert "is in this chat already" in answer_text(again) and "private chat" not in answer_text(again)
    fake.send(eve, "/review")
    pointer = await fake.wait_for_message(eve, lambda m: m.reply_to == heading.message_id, timeout=TURN_TIMEOUT)
    assert "sent before" in pointer.shown_text
    await settle(fake)
    assert [m for m in fake.messages(eve, from_bot=True) if m.shown_text.startswith("📈 Game #")] == [heading]
    assert len(fake.messages(fay, from_bot=True)) == 1
    check.assert_clean()

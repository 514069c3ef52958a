"""Play with a friend without a group: a room, its invitation link, and a whole game in two private chats.

Ann opens a room from /start, makes a new link once (the old one is then refused), opens her
own link while she waits, and Bob takes the second seat through the new link.  Both play in
their private chats, each seeing the other's moves; Carol, who opens the link too late, is
told politely that the seat is taken; Ann's own link brings her hand back mid-game.
"""

from __future__ import annotations

import random

import pytest

from fake_telegram import FakeTelegram, Message
from tests.e2e.conftest import BotProcess, Checkpoint, results_after
from tests.kit.people.friends import (
    button_texts,
    data_on,
    final_results,
    live,
    open_room,
    rematch_button,
    reply_to_link,
    room_link,
    tap,
)
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Table,
    assert_game_over_line,
    assert_results_in_order,
    audit_hidden_tiles,
    check_stored_game,
    hand_message,
    settle,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

PRESET = "duel"  # one round: short, with draws from the boneyard


async def test_room_played_by_two_friends(
    shared_fake: FakeTelegram, shared_bot: BotProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann = fake.add_user("Ann", last_name="Room")
    bob = fake.add_user("Bob", last_name="Room")
    carol = fake.add_user("Carol", last_name="Room")
    start = max((e.seq for e in fake.transcript), default=0)

    room, first_link = await open_room(fake, ann, PRESET)
    (waiting,) = [g for g in bot.games() if g.data["seats"][0] and g.data["seats"][0]["user_id"] == ann.id]
    assert (waiting.status, waiting.preset, len(waiting.data["seats"])) == ("lobby", PRESET, 2)
    assert str(waiting.id) != first_link.rsplit("=", 1)[-1], "the link must carry more than the game id"

    # A new link: the old one stops working.
    reset = next(iter(data_on(fake, room, f"ro:reset::{waiting.id}")))
    query = await tap(fake, ann, room, reset)
    assert "no longer works" in str((query.answer or {}).get("text"))

    def new_link() -> str | None:
        now = room_link(fake, room)
        return now if now != first_link else None

    link = await fake.wait_for(new_link, TURN_TIMEOUT, what="a new link")
    refused = await reply_to_link(fake, bob, first_link, "replaced")
    assert "newer" in refused
    assert [g.status for g in bot.games() if g.id == waiting.id] == ["lobby"]

    # Ann opens her own link while she waits: the room message comes again.
    await reply_to_link(fake, ann, link, "not opened the link yet")

    # Bob takes the second seat: the game starts in both private chats.
    await reply_to_link(fake, bob, link, "You are playing")
    for person in (ann, bob):
        await fake.wait_for(lambda p=person: hand_message(fake, p), TURN_TIMEOUT, what=f"{person.name}'s hand")
    (game,) = [g for g in bot.games() if g.id == waiting.id]
    assert game.status == "playing"
    assert [s["user_id"] for s in game.data["seats"]] == [ann.id, bob.id]

    # Too late for Carol; Ann's own link brings her hand back as a new message.
    await reply_to_link(fake, carol, link, "someone else has already taken this seat")
    old_hand = hand_message(fake, ann)
    assert old_hand is not None
    fake.open_link(ann, link)

    def hand_again() -> Message | None:
        now = hand_message(fake, ann)
        return now if now is not None and now.message_id > old_hand.message_id else None

    await fake.wait_for(hand_again, TURN_TIMEOUT, what="Ann's hand sent again")

    table = Table(fake, [ann, bob], results=ann, rng=random.Random("room"))
    result = await table.play_to_end()
    await settle(fake)

    assert_game_over_line(result, PRESET, 2)
    for person in (ann, bob):
        # The result goes to one chat after the other, each with its picture: a busy machine can
        # be quiet for a moment in between, so wait for it rather than take settle's word.
        await fake.wait_for(lambda p=person: final_results(fake, p) or None, TURN_TIMEOUT, what="the final result")
        assert_results_in_order(fake, person)  # every result reaches both private chats
    (game,) = [g for g in bot.games() if g.id == waiting.id]
    check_stored_game(game, table)
    # Each saw the other's moves: the other's plays are named in their own private chat.
    for viewer, other in ((ann, bob), (bob, ann)):
        words = " ".join(m.shown_text for m in fake.messages(viewer, from_bot=True, include_deleted=True))
        seen = [e.params for e in fake.transcript if e.kind == "request" and e.chat_id == viewer.id]
        words += " ".join(str(p.get("caption") or "") for p in seen)
        assert f"{other.name} played" in words, f"{viewer.name} never saw {other.name}'s moves"
        audit_hidden_tiles(fake, viewer, game, viewer=viewer)
    # Nothing was sent anywhere but the three private chats: there is no group.
    chats = {e.chat_id for e in fake.transcript if e.kind == "request" and e.chat_id is not None and e.seq > start}
    assert chats <= {ann.id, bob.id, carol.id}, chats
    check.assert_clean()

    # A rematch in the room: both confirm, the new game starts in both chats.
    finals = {person.id: final_results(fake, person)[-1] for person in (ann, bob)}
    data = rematch_button(fake, finals[ann.id])
    assert data is not None and data == rematch_button(fake, finals[bob.id])
    await tap(fake, bob, finals[bob.id], data)
    await fake.wait_for(
        lambda: "Bob Room ✓" in live(fake, finals[ann.id]).shown_text or None,
        TURN_TIMEOUT,
        what="Bob's confirmation on Ann's result",
    )
    await tap(fake, ann, finals[ann.id], data)
    rematch = await fake.wait_for(
        lambda: next((g for g in bot.games() if g.id > game.id and g.data["seats"][0]["user_id"] == ann.id), None),
        TURN_TIMEOUT,
        what="the rematch",
    )
    assert rematch.data["seats"] == game.data["seats"] and rematch.preset == PRESET
    results_after(monkeypatch, {person.id: finals[person.id].message_id for person in (ann, bob)})
    again = Table(fake, [ann, bob], results=bob, rng=random.Random("room-rematch"))
    final: Message | None = await again.play_turns(4)
    assert final is None or final.message_id > finals[bob.id].message_id
    for person in (ann, bob):
        shown = live(fake, finals[person.id])
        assert "new game has started" in shown.shown_text, shown.shown_text
        assert button_texts(fake, shown) == ["🎬 Replay", "📈 Review"]  # the old game can still be replayed
    await settle(fake)
    check.assert_clean()

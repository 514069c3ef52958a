"""Taps the bot must refuse with a short answer and without changing anything.

Lobby buttons by someone who may not press them, Join twice, a tile by a player whose turn it
is not or by someone not in the game, an old version, and forged callback data (junk, a tile
not in the hand, a game that does not exist).  Each refusal is checked against a snapshot of
every chat involved and of the stored game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from fake_telegram import CallbackQuery, Chat, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Lobby,
    Table,
    TileButton,
    answer_text,
    assert_game_over_line,
    audit_group_hands,
    check_stored_game,
    forge_tap,
    hand_message,
    is_alert,
    join,
    open_lobby,
    set_seats,
    settle,
    start_game,
    tile_buttons,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

ALERT_LIMIT = 200  # answerCallbackQuery text, characters


async def refused(fake: FakeTelegram, query: CallbackQuery, *, alert: bool = True) -> str:
    """The tap was answered with a short explanation (an alert box unless ``alert`` is False)."""
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    text = answer_text(query)
    assert text, f"{query.data!r} was answered without a word: {query.answer}"
    assert len(text) <= ALERT_LIMIT, text
    assert "url" not in (query.answer or {}), query.answer
    if alert:
        assert is_alert(query), f"{query.data!r} was answered with a toast, not an alert: {query.answer}"
    return text


class Snapshot:
    """Every message of some chats (text, buttons, picture) and the stored game, to compare later."""

    def __init__(self, fake: FakeTelegram, bot: BotProcess, chats: list[Chat | User], game_id: int) -> None:
        self.fake, self.bot, self.chats, self.game_id = fake, bot, chats, game_id
        self.state = self.take()
        self.seq = self.last_seq()

    def last_seq(self) -> int:
        return max((e.seq for e in self.fake.transcript), default=0)

    def take(self) -> dict[str, Any]:
        views = {
            self.fake._as_chat(chat).id: [(v.message_id, v.text, v.buttons, v.photo) for v in self.fake.view(chat)]
            for chat in self.chats
        }
        (game,) = [g for g in self.bot.games() if g.id == self.game_id]
        return {"views": views, "game": (game.status, game.version, game.moves, game.data)}

    async def assert_unchanged(self, what: str, *, redraw: User | None = None, reply_to: User | None = None) -> None:
        """Nothing changed; the bot sent nothing but the answer (and, for ``redraw``, a redraw
        of that person's hand, which leaves it as it was; for ``reply_to``, a word to them)."""
        if redraw is not None:
            await self.fake.wait_for(
                lambda: any(
                    e.kind == "request" and e.seq > self.seq and e.chat_id == redraw.id and e.method.startswith("edit")
                    for e in self.fake.transcript
                ),
                TURN_TIMEOUT,
                what=f"{redraw.name}'s hand to be redrawn",
            )
        await settle(self.fake, quiet=0.2)
        quiet = ("getUpdates", "answerCallbackQuery")
        sent = [e for e in self.fake.transcript if e.kind == "request" and e.seq > self.seq and e.method not in quiet]
        allowed = {person.id for person in (redraw, reply_to) if person is not None}
        assert [e for e in sent if e.chat_id not in allowed] == [], f"{what} made the bot send " + "; ".join(
            f"{e.method} to {e.chat_id}" for e in sent
        )
        self.seq = self.last_seq()
        now = self.take()
        assert now["game"] == self.state["game"], f"{what} changed the stored game"
        for chat_id, messages in self.state["views"].items():
            assert now["views"][chat_id] == messages, (
                f"{what} changed chat {chat_id}:\n{self.fake.screen(self.fake.chat(chat_id))}"
            )


def lobby_people(fake: FakeTelegram, tag: str, *, bob_started: bool) -> tuple[User, User, User, Chat]:
    ann = fake.add_user("Ann", last_name=tag)
    bob = fake.add_user("Bob", last_name=tag)
    carol = fake.add_user("Carol", last_name=tag)  # in the group, never seated
    group = fake.add_group(f"Taps {tag}", members=[ann, bob, carol])
    for person in (ann, bob, carol):
        if person is not bob or bob_started:
            fake.start_bot(person)
    return ann, bob, carol, group


async def test_lobby_buttons_refused(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann, bob, carol, group = lobby_people(fake, "lobby", bob_started=False)
    await settle(fake)
    lobby = await open_lobby(fake, ann, group, "block")
    first = await join(fake, lobby, bob)  # Bob never opened the bot: the answer is a link
    link = (first.answer or {}).get("url")
    assert link, first.answer
    snap = Snapshot(fake, bot, [group], lobby.game_id)

    # Join twice: the button again, and the same link again.
    await refused(fake, fake.tap(bob, lobby.message, data=f"lb:{lobby.game_id}:join"))
    await snap.assert_unchanged("Bob's second Join")
    sent = fake.open_link(bob, link)
    await fake.wait_for_message(bob, after=sent, timeout=TURN_TIMEOUT)  # a word in private, nothing more
    await snap.assert_unchanged("Bob's second use of the link", reply_to=bob)
    await refused(fake, fake.tap(ann, lobby.message, data=f"lb:{lobby.game_id}:join"))
    await snap.assert_unchanged("the creator's Join")

    # Buttons only the creator may press, by a seated player and by someone not in the game.
    for action in ("start", "cancel", "add-easy", "add-hard", "seats"):
        await refused(fake, fake.tap(bob, lobby.message, data=f"lb:{lobby.game_id}:{action}"))
        await snap.assert_unchanged(f"Bob's {action} tap")
        await refused(fake, fake.tap(carol, lobby.message, data=f"lb:{lobby.game_id}:{action}"))
        await snap.assert_unchanged(f"Carol's {action} tap")
    await refused(fake, fake.tap(carol, lobby.message, data=f"lb:{lobby.game_id}:leave"))
    await snap.assert_unchanged("Leave by someone not seated")
    for data in (f"lb:{lobby.game_id}:explode", f"lb:{lobby.game_id + 999}:join", "lb:x:join"):
        await refused(fake, forge_tap(fake, bob, lobby.message, data))
        await snap.assert_unchanged(f"forged {data!r}")

    # The creator's buttons still work after all that.
    await set_seats(fake, lobby, ann, 2)
    await start_game(fake, lobby, ann)
    await settle(fake)
    check.assert_clean()


async def start_duel(fake: FakeTelegram, tag: str) -> tuple[User, User, User, Chat, Lobby]:
    ann, bob, carol, group = lobby_people(fake, tag, bob_started=True)
    await settle(fake)
    lobby = await open_lobby(fake, ann, group, "duel")  # drawing: whoever is on turn can play
    await join(fake, lobby, bob)
    await start_game(fake, lobby, ann)
    return ann, bob, carol, group, lobby


async def whose_turn(fake: FakeTelegram, people: list[User]) -> tuple[User, Message, list[TileButton]]:
    def found() -> tuple[User, Message, list[TileButton]] | None:
        for person in people:
            message = hand_message(fake, person)
            if message is not None and any(b.playable for b in tile_buttons(message.inline_keyboard)):
                return person, message, tile_buttons(message.inline_keyboard)
        return None

    return await fake.wait_for(found, TURN_TIMEOUT, what="someone's turn")


async def test_tile_taps_refused(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    ann, bob, carol, group, lobby = await start_duel(fake, "tiles")
    game = lobby.game_id
    await settle(fake)
    mover, mover_hand, buttons = await whose_turn(fake, [ann, bob])
    other = bob if mover is ann else ann
    other_hand = hand_message(fake, other)
    assert other_hand is not None
    snap = Snapshot(fake, bot, [group, ann, bob, carol], game)
    playable = [b for b in buttons if b.playable]
    version = playable[0].version
    mine = {b.tile for b in buttons}
    theirs = {b.tile for b in tile_buttons(other_hand.inline_keyboard)}

    # Not your turn: the other player taps a tile of their own, current keyboard.
    other_tile = tile_buttons(other_hand.inline_keyboard)[0]
    await refused(fake, fake.tap(other, other_hand, data=other_tile.data))
    await snap.assert_unchanged("a tap out of turn")

    # The player on turn taps a tile that does not fit (unmarked), if there is one.
    unmarked = [b for b in buttons if not b.playable]
    if unmarked:
        await refused(fake, fake.tap(mover, mover_hand, data=unmarked[0].data))
        await snap.assert_unchanged("a tile that does not fit")

    # Someone not in the game: "My hand" under the board, and a tile tap forwarded to them.
    board = fake.last_message(group)
    assert board is not None and board.photo
    await refused(fake, fake.tap(carol, board, data=f"h:{game}"))
    await snap.assert_unchanged("My hand by someone not in the game")
    carol_chat = fake.last_message(carol)
    assert carol_chat is not None
    await refused(fake, forge_tap(fake, carol, carol_chat, playable[0].data))
    await snap.assert_unchanged("a tile tap by someone not in the game")

    # An old version of the keyboard: refused (a short notice), and the current hand stays as it is:
    # it shows the game already, so nothing is redrawn (a burst of such taps costs no edits).
    old = playable[0].data.replace(f"t:{game}:{version}:", f"t:{game}:{version - 1}:")
    await refused(fake, forge_tap(fake, mover, mover_hand, old), alert=False)
    await snap.assert_unchanged("a tap with an old version")

    # Forged data: junk, a tile not in the hand, no such tile, a bad end, a game that does not exist.
    absent = sorted({f"{a}{b}" for a in range(7) for b in range(a + 1)} - mine)
    forged = [
        "junk",
        "t:",
        f"t:{game}:{version}",
        f"t:{game}:x:{playable[0].tile}:",
        f"t:{game}:{version}:{absent[0]}:",
        f"t:{game}:{version}:{sorted(theirs)[0]}:l",
        f"t:{game}:{version}:77:",
        f"t:{game}:{version}:{playable[0].tile}:z",
        f"t:{game + 1000}:{version}:{playable[0].tile}:",
        f"h:{game + 1000}",
        "s:go:nosuchpreset:1",
    ]
    for data in forged:
        await refused(fake, forge_tap(fake, mover, mover_hand, data))
        await snap.assert_unchanged(f"forged {data!r}")

    # After all that, the game plays on to its end as if nothing had happened.
    table = Table(fake, [ann, bob], results=group, rng=random.Random("taps"))
    result = await table.play_to_end()
    await settle(fake)
    assert_game_over_line(result, "duel", 2)
    check.assert_clean()
    audit_group_hands(fake, group, [ann, bob])
    (stored,) = [g for g in bot.games() if g.id == game]
    check_stored_game(stored, table)

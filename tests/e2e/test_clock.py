"""Table manners in a group, end to end: the turn clock, /leave, /kick, /kill and a blocked bot.

The bot runs with ``TURN_CLOCK_SCALE`` so that a 30-second clock lasts 3 seconds (and without the
one-message-a-second pacing of private chats, which the fake does not enforce here, so that a tap
with a choice of ends fits well within it); nothing here measures time, the tests only wait for
what the bot shows and what it stored.  One bot process serves the module
(each test has its own group and people).
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from fake_telegram import Chat, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint, running_bot
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Lobby,
    Table,
    TableStuck,
    is_alert,
    join,
    open_lobby,
    set_seats,
    settle,
    start_game,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCALE = "0.1"  # 30 s -> 3 s, 60 s -> 6 s
AWAY_DATA = re.compile(r"^aw:(\d+)$")
CLOCK_LABEL = re.compile(r"^⏱ (?:(\d+) s per move|No turn clock)$")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def clock_fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def clock_bot(clock_fake: FakeTelegram, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotProcess]:
    async with running_bot(clock_fake, tmp_path_factory.mktemp("clock"), TURN_CLOCK_SCALE=SCALE) as process:
        yield process


# --------------------------------------------------------------------------- helpers


def clock_button(fake: FakeTelegram, lobby: Lobby) -> int | None:
    """The lobby's clock choice in seconds (0: off), from its button."""
    live = fake.world.message(lobby.group.id, lobby.message.message_id)
    assert live is not None
    for row in live.inline_keyboard:
        for button in row:
            if button.get("callback_data") == f"lb:{lobby.game_id}:clock":
                found = CLOCK_LABEL.match(str(button.get("text", "")))
                assert found is not None, button
                return int(found.group(1)) if found.group(1) else 0
    return None


async def set_clock(fake: FakeTelegram, lobby: Lobby, creator: User, seconds: int) -> None:
    """Tap the lobby's ⏱ button until it shows ``seconds`` (0: off)."""
    for _ in range(4):
        current = clock_button(fake, lobby)
        if current == seconds:
            return
        query = fake.tap(creator, lobby.message, data=f"lb:{lobby.game_id}:clock")
        await fake.wait_answered(query, timeout=TURN_TIMEOUT)
        assert not is_alert(query), query.answer
        await fake.wait_for(lambda c=current: clock_button(fake, lobby) != c, TURN_TIMEOUT, what="the clock button")
    assert clock_button(fake, lobby) == seconds, fake.screen(lobby.group)


async def group_game(
    fake: FakeTelegram, people: list[User], title: str, clock: int, *, others: tuple[User, ...] = ()
) -> tuple[Chat, Lobby]:
    """A group with ``people`` (the first one opens the game) and ``others`` who do not play; dealt."""
    group = fake.add_group(title, members=[*people, *others])
    for person in people:
        fake.start_bot(person)
    await settle(fake)
    creator = people[0]
    lobby = await open_lobby(fake, creator, group, "draw")
    await set_seats(fake, lobby, creator, len(people))
    for person in people[1:]:
        await join(fake, lobby, person)
    await set_clock(fake, lobby, creator, clock)
    return group, lobby


def said(fake: FakeTelegram, chat: Chat | User, pattern: str) -> list[Message]:
    return [m for m in fake.messages(chat, from_bot=True) if re.search(pattern, m.shown_text)]


async def wait_said(fake: FakeTelegram, chat: Chat | User, pattern: str) -> Message:
    return await fake.wait_for_message(chat, lambda m: re.search(pattern, m.shown_text) is not None, timeout=20)


def take_back_message(fake: FakeTelegram, user: User, game_id: int) -> Message | None:
    for message in reversed(fake.messages(user, from_bot=True)):
        if message.text is None:
            continue  # a hand (a photo) may carry the button too; the test taps the message
        for row in message.inline_keyboard:
            for button in row:
                if button.get("callback_data") == f"aw:{game_id}":
                    return message
    return None


async def take_seat_back(fake: FakeTelegram, user: User, game_id: int) -> None:
    message = await fake.wait_for(
        lambda: take_back_message(fake, user, game_id), TURN_TIMEOUT, what=f"{user.name}'s take-back button"
    )
    query = fake.tap(user, message, data=f"aw:{game_id}")
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    assert not is_alert(query), query.answer


async def command(fake: FakeTelegram, user: User, group: Chat, text: str, reply_to: Message | None = None) -> None:
    fake.send(user, text, chat=group, reply_to=reply_to)
    await fake.wait_delivered(timeout=TURN_TIMEOUT)


def seat(bot: BotProcess, game_id: int, user: User) -> dict[str, object]:
    (game,) = [g for g in bot.games() if g.id == game_id]
    return dict(game.data["seats"][game.seat_of(user)])


def moves_of(bot: BotProcess, game_id: int, user: User) -> list[bool]:
    """Whether each move of ``user``'s seat, in order, was made by a computer (the clock's included)."""
    (game,) = [g for g in bot.games() if g.id == game_id]
    index = game.seat_of(user)
    return [bool(by_computer) for _, played_by, _, _, by_computer in game.moves if played_by == index]


async def play_until(table: Table, done: object, *, limit: int = 200) -> None:
    """The table's people play their turns until ``done()`` holds (the game must not end first)."""
    assert callable(done)
    for _ in range(limit):
        if done():
            return
        turn = await table.next_turn()
        if isinstance(turn, Message):
            raise AssertionError(f"the game ended first:\n{turn.shown_text}")
        try:
            await table.play_turn(*turn)
        except TableStuck:
            # The clock ran out just before the tap landed (the tap is answered "stale"): play on.
            table.version = max(table.version, turn[2][0].version)
            table.went_back = True
    raise AssertionError("gave up waiting")


async def kill(fake: FakeTelegram, user: User, group: Chat) -> None:
    before = len(said(fake, group, r"ended the game"))
    await command(fake, user, group, "/kill")
    await fake.wait_for(lambda: len(said(fake, group, r"ended the game")) > before, TURN_TIMEOUT, what="the kill")


# --------------------------------------------------------------------------- tests


async def test_the_clock_plays_for_a_silent_person_then_a_computer_takes_the_seat_until_they_are_back(
    clock_fake: FakeTelegram, clock_bot: BotProcess
) -> None:
    fake, bot = clock_fake, clock_bot
    check = Checkpoint(fake, bot)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    group, lobby = await group_game(fake, [ann, bob], "Clock", 30)
    await start_game(fake, lobby, ann)

    # Ann plays; Bob never taps: his clock runs out on his turns, and after two in a row a computer
    # takes his seat and the group is told.
    table = Table(fake, [ann], results=group, rng=random.Random("clock"))
    await play_until(table, lambda: said(fake, group, r"Bob ran out of time twice in a row"))
    assert said(fake, bob, r"Your time ran out, so I played for you")
    assert seat(bot, lobby.game_id, bob).get("away") == "timeout"
    assert moves_of(bot, lobby.game_id, bob)[:2] == [True, True]

    # The computer plays Bob's seat while Ann plays on.
    computer_moves = len(moves_of(bot, lobby.game_id, bob))
    await play_until(table, lambda: len(moves_of(bot, lobby.game_id, bob)) >= computer_moves + 2)

    # One tap in his private chat and the seat is Bob's again; he plays it himself.
    await take_seat_back(fake, bob, lobby.game_id)
    await wait_said(fake, group, r"Bob is back at the table")
    assert seat(bot, lobby.game_id, bob).get("away") is None
    both = Table(fake, [ann, bob], results=group, rng=random.Random("back"), version=table.version, went_back=True)
    await play_until(both, lambda: False in moves_of(bot, lobby.game_id, bob)[computer_moves:])  # his own move

    await kill(fake, ann, group)
    await settle(fake)
    check.assert_clean()


async def test_leave_during_a_game_hands_the_seat_to_a_computer(
    clock_fake: FakeTelegram, clock_bot: BotProcess
) -> None:
    fake, bot = clock_fake, clock_bot
    check = Checkpoint(fake, bot)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    group, lobby = await group_game(fake, [ann, bob], "Leave", 0)
    await start_game(fake, lobby, ann)

    await command(fake, bob, group, "/leave")
    await wait_said(fake, group, r"Bob left the table")
    await wait_said(fake, bob, r"You left the table")
    assert seat(bot, lobby.game_id, bob).get("away") == "left"
    before = len(moves_of(bot, lobby.game_id, bob))
    table = Table(fake, [ann], results=group, rng=random.Random("leave"))
    await play_until(table, lambda: len(moves_of(bot, lobby.game_id, bob)) >= before + 2)
    assert all(moves_of(bot, lobby.game_id, bob)[before:])  # the computer's

    # /leave again: he is away already.
    await command(fake, bob, group, "/leave")
    await wait_said(fake, group, r"A computer already plays your seat")

    await take_seat_back(fake, bob, lobby.game_id)
    await wait_said(fake, group, r"Bob is back at the table")
    after = len(moves_of(bot, lobby.game_id, bob))
    both = Table(fake, [ann, bob], results=group, rng=random.Random("leave-back"), version=table.version)
    await play_until(both, lambda: False in moves_of(bot, lobby.game_id, bob)[after:])  # his own move

    await kill(fake, ann, group)
    await settle(fake)
    check.assert_clean()


async def test_leave_in_a_lobby_frees_the_seat(clock_fake: FakeTelegram, clock_bot: BotProcess) -> None:
    fake, bot = clock_fake, clock_bot
    check = Checkpoint(fake, bot)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    group, lobby = await group_game(fake, [ann, bob], "Lobby leave", 60)
    await command(fake, bob, group, "/leave")

    def lobby_without_bob() -> bool:
        live = fake.world.message(group.id, lobby.message.message_id)
        return live is not None and "Bob" not in live.shown_text

    await fake.wait_for(lobby_without_bob, TURN_TIMEOUT, what="Bob's seat freed")
    await kill(fake, ann, group)
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.status == "cancelled" and game.data["killed"] is True
    await settle(fake)
    check.assert_clean()


async def test_kick_by_the_creator_or_an_admin_and_refused_for_a_member(
    clock_fake: FakeTelegram, clock_bot: BotProcess
) -> None:
    fake, bot = clock_fake, clock_bot
    check = Checkpoint(fake, bot)
    ann, bob, eve = fake.add_user("Ann"), fake.add_user("Bob"), fake.add_user("Eve")
    carol, dana = fake.add_user("Carol"), fake.add_user("Dana")
    group, lobby = await group_game(fake, [ann, bob, eve], "Kick", 0, others=(carol,))
    fake.set_member(group, dana, "administrator")
    await start_game(fake, lobby, ann)
    bob_says = fake.send(bob, "brb", chat=group)
    eve_says = fake.send(eve, "afk", chat=group)

    await command(fake, ann, group, "/kick")  # not a reply: how to use it
    await wait_said(fake, group, r"Reply with /kick to a message")
    await command(fake, carol, group, "/kick", reply_to=bob_says)  # an ordinary member
    await wait_said(fake, group, r"Only the player who opened the game or a chat administrator can give a seat")
    assert seat(bot, lobby.game_id, bob).get("away") is None

    await command(fake, ann, group, "/kick", reply_to=bob_says)  # the game's creator
    await wait_said(fake, group, r"Ann gave Bob's seat to a computer player")
    await wait_said(fake, bob, r"Ann gave your seat in the game to a computer player")
    assert seat(bot, lobby.game_id, bob).get("away") == "kicked"
    assert take_back_message(fake, bob, lobby.game_id) is None  # no way back after a kick

    await command(fake, dana, group, "/kick", reply_to=eve_says)  # a chat administrator
    await wait_said(fake, group, r"Dana gave Eve's seat to a computer player")
    assert seat(bot, lobby.game_id, eve).get("away") == "kicked"

    # Ann plays on against the computers in Bob's and Eve's seats.
    table = Table(fake, [ann], results=group, rng=random.Random("kick"))
    await play_until(table, lambda: len(moves_of(bot, lobby.game_id, eve)) >= 2)
    await kill(fake, ann, group)
    await settle(fake)
    check.assert_clean()


async def test_a_demoted_admin_may_no_longer_kill_and_a_promoted_member_may_at_once(
    clock_fake: FakeTelegram, clock_bot: BotProcess
) -> None:
    """Rights are asked from Telegram for the change itself, not taken from a minute-old list."""
    fake, bot = clock_fake, clock_bot
    check = Checkpoint(fake, bot)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    carol, dana = fake.add_user("Carol"), fake.add_user("Dana")
    group, lobby = await group_game(fake, [ann, bob], "Demoted", 120, others=(carol, dana))
    fake.set_member(group, dana, "administrator")
    await start_game(fake, lobby, ann)
    bob_says = fake.send(bob, "brb", chat=group)
    await command(fake, dana, group, "/kick", reply_to=bob_says)  # an administrator: the bot asks who rules here
    await wait_said(fake, group, r"Dana gave Bob's seat to a computer player")

    fake.set_member(group, dana, "member")  # demoted, a moment later
    fake.set_member(group, carol, "administrator")  # promoted
    await command(fake, dana, group, "/kill")
    await wait_said(fake, group, r"Only the player who opened the game or a chat administrator can end it")
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.status == "playing"

    await kill(fake, carol, group)
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.status == "cancelled" and game.data["killed"] is True
    await settle(fake)
    check.assert_clean()


async def test_kill_refused_for_a_member_accepted_for_the_creator(
    clock_fake: FakeTelegram, clock_bot: BotProcess
) -> None:
    fake, bot = clock_fake, clock_bot
    check = Checkpoint(fake, bot)
    ann, bob, carol = fake.add_user("Ann"), fake.add_user("Bob"), fake.add_user("Carol")
    group, lobby = await group_game(fake, [ann, bob], "Kill", 120, others=(carol,))
    await start_game(fake, lobby, ann)

    await command(fake, carol, group, "/kill")
    await wait_said(fake, group, r"Only the player who opened the game or a chat administrator can end it")
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.status == "playing"

    await kill(fake, ann, group)
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.status == "cancelled" and game.data["killed"] is True and game.data["deadline"] is None

    # The board says so and offers nothing to tap (it is redrawn within the group's budget).
    def boards() -> list[Message]:
        return [m for m in fake.messages(group, from_bot=True) if m.photo is not None]

    await fake.wait_for(
        lambda: boards() and all(not m.inline_keyboard for m in boards()), TURN_TIMEOUT, what="a board without buttons"
    )
    assert "ended with /kill" in boards()[-1].shown_text
    await settle(fake)
    # No hand can be played any more.
    for user in (ann, bob):
        hands = [m for m in fake.messages(user, from_bot=True) if m.photo is not None and not m.deleted]
        assert all(not m.inline_keyboard for m in hands), fake.screen(user)
    await command(fake, ann, group, "/kill")
    await wait_said(fake, group, r"There is no game here right now")
    check.assert_clean()


async def test_a_player_who_blocked_the_bot_is_replaced_and_the_group_told_once(
    clock_fake: FakeTelegram, clock_bot: BotProcess
) -> None:
    fake, bot = clock_fake, clock_bot
    check = Checkpoint(fake, bot)
    ann, bob = fake.add_user("Ann"), fake.add_user("Bob")
    group, lobby = await group_game(fake, [ann, bob], "Blocked", 0)
    fake.block_bot(bob)  # after joining, before the deal: his hand cannot be sent
    await start_game(fake, lobby, ann)

    await wait_said(fake, group, r"I can't send Bob their tiles")
    table = Table(fake, [ann], results=group, rng=random.Random("blocked"))
    await play_until(table, lambda: len(moves_of(bot, lobby.game_id, bob)) >= 3)
    assert all(moves_of(bot, lobby.game_id, bob))
    assert seat(bot, lobby.game_id, bob).get("away") == "blocked"
    assert len(said(fake, group, r"I can't send Bob their tiles")) == 1
    # Nothing more is tried for Bob once he is known to have blocked the bot.
    refused = [e for e in fake.calls("sendPhoto", chat=fake.private_chat(bob), ok=False)]
    assert len(refused) == 1, refused
    await kill(fake, ann, group)
    await settle(fake)
    check.assert_clean()

"""Partnership play at the table: ``goat`` and ``partners``, two against two, partners opposite.

A group ``goat`` lobby seats four by team (seats 1 and 3 against 2 and 4): people pick a side with
its Join button, may move over to the other team, and are refused (with an alert, nothing changed)
a full team, their own team again, or a side in a lobby without teams; computers fill the rest;
the game is played to the end with Telegram's flood limits on, and the board and the results
must show the teams, their (penalty) scores, the winning team and the goats.  A private
``partners`` game puts a computer partner opposite the person, against two computers.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import TypeVar

import pytest
import pytest_asyncio

from fake_telegram import FakeTelegram, Limits
from tests.e2e.conftest import BotProcess, Checkpoint, running_bot
from tests.kit.people.players import (
    TURN_TIMEOUT,
    Lobby,
    Table,
    TileButton,
    add_computer,
    assert_results_in_order,
    assert_team_game_over,
    audit_group_hands,
    audit_hidden_tiles,
    check_stored_game,
    choose_level,
    forge_tap,
    hand_message,
    is_alert,
    join,
    level_buttons,
    lobby_text,
    open_lobby,
    open_private_game,
    result_messages,
    settle,
    shown_texts,
    start_game,
)

TEAM_A, TEAM_B = "🟥", "🟦"
T = TypeVar("T")
TIMEOUT = 20.0


@pytest_asyncio.fixture
async def limited_fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(limits=Limits.telegram()) as server:
        yield server


@pytest_asyncio.fixture
async def limited_bot(limited_fake: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot with Telegram's budgets as deployed (20 a minute into a group, one a second into a chat),
    its computers a little quicker than deployed so that a whole match stays a few minutes."""
    budgets = dict.fromkeys(("GROUP_MESSAGES_PER_MINUTE", "CHAT_MESSAGES_PER_SECOND", "MESSAGES_PER_SECOND"))
    async with running_bot(limited_fake, tmp_path, **budgets, COMPUTER_DELAY="0.2") as process:
        yield process


async def _tap(fake: FakeTelegram, lobby: Lobby, user: object, action: str) -> tuple[bool, str]:
    """A lobby button tapped; (alerted, the answer's text)."""
    query = fake.tap(user, lobby.message, data=f"lb:{lobby.game_id}:{action}")  # type: ignore[arg-type]
    await fake.wait_answered(query, timeout=TIMEOUT)
    return is_alert(query), str((query.answer or {}).get("text") or "")


class HeaviestKept(random.Random):
    """The people's choice of tile: the lightest they can play, so that they keep their heavy tiles
    and a losing team is charged many points.  A goat match to 101 then takes about five rounds
    instead of seven (the group's budget of 20 messages a minute paces every round)."""

    def choice(self, seq: Sequence[T]) -> T:
        pips = [_pips(item) for item in seq]
        if None in pips:  # the ends of a tile: any
            return super().choice(seq)
        lightest = min(p for p in pips if p is not None)
        return super().choice([item for item, p in zip(seq, pips, strict=True) if p == lightest])


def _pips(item: object) -> int | None:
    if not isinstance(item, TileButton) or item.is_end_choice:
        return None
    return sum(int(half) for half in item.tile)


def _seat_line(text: str, seat: int) -> str:
    """The lobby's line of seat ``seat`` (0-based): "3. Bob"."""
    (line,) = [line for line in text.splitlines() if line.startswith(f"{seat + 1}. ")]
    return line


async def test_a_group_goat_game_by_teams_within_telegrams_limits(
    limited_fake: FakeTelegram, limited_bot: BotProcess
) -> None:
    fake, bot = limited_fake, limited_bot
    check = Checkpoint(fake, bot)
    ann, bob, cat = fake.add_user("Ann"), fake.add_user("Bob"), fake.add_user("Cat")
    group = fake.add_group("Козёл во дворе", members=[ann, bob, cat])
    for person in (ann, bob, cat):
        fake.start_bot(person)
    await settle(fake)

    lobby = await open_lobby(fake, ann, group, "goat")
    text = lobby_text(fake, lobby)
    assert "4 seats" in text and "seats 1 and 3 play against seats 2 and 4" in text, text
    assert f"{TEAM_A} Team A" in text and f"{TEAM_B} Team B" in text, text
    buttons = [b.get("text", "") for row in lobby.message.inline_keyboard for b in row]
    assert f"Join {TEAM_A} Team A" in buttons and f"Join {TEAM_B} Team B" in buttons, buttons
    assert not any(b.startswith("Seats") for b in buttons), buttons  # four, always
    assert _seat_line(text, 0) == "1. Ann"  # the creator sits with team A

    # Bob sits with Ann's team (seat 3), then moves over to team B (seat 2).
    await join(fake, lobby, bob, team=0)
    assert _seat_line(lobby_text(fake, lobby), 2) == "3. Bob"
    assert await _tap(fake, lobby, bob, "team-a") == (True, "You are already in that team.")
    # Team A is full now: Cat is refused it, and nothing changes.
    before = lobby_text(fake, lobby)
    assert await _tap(fake, lobby, cat, "team-a") == (True, "That team has no free seat.")
    assert lobby_text(fake, lobby) == before
    alerted, said = await _tap(fake, lobby, bob, "team-b")
    assert not alerted and said == "You changed teams."
    await fake.wait_for(lambda: "2. Bob" in lobby_text(fake, lobby) or None, TIMEOUT, what="Bob on team B")
    text = lobby_text(fake, lobby)
    assert _seat_line(text, 1) == "2. Bob" and _seat_line(text, 2) == "3. —", text
    # A forged side in a lobby's data: a number, or a team in a game without teams, changes nothing.
    forged = forge_tap(fake, cat, lobby.message, f"lb:{lobby.game_id}:team-c")
    await fake.wait_answered(forged, timeout=TIMEOUT)
    assert is_alert(forged) and lobby_text(fake, lobby) == text

    # Cat joins team B too (Bob's partner, seat 4); a computer fills team A's free seat.
    await join(fake, lobby, cat, team=1)
    assert _seat_line(lobby_text(fake, lobby), 3) == "4. Cat"
    await add_computer(fake, lobby, ann, "hard")
    assert "3. 🤖 Hard 1" in lobby_text(fake, lobby)
    await start_game(fake, lobby, ann)
    started = "The game has started: 🟥 Ann and 🤖 Hard 1 vs 🟦 Bob and Cat."
    await fake.wait_for(lambda: started in lobby_text(fake, lobby) or None, TIMEOUT, what="the lobby's teams")

    table = Table(fake, [ann, bob, cat], results=group, rng=HeaviestKept("goat"))
    result = await table.play_to_end()
    await settle(fake, quiet=4.0)  # the last board waits for the group's budget

    assert fake.flood_events == [], [str(e) for e in fake.flood_events]
    check.assert_clean()
    text = result.shown_text
    assert_team_game_over(text, "goat")
    assert "(Ann and 🤖 Hard 1)" in text and "(Bob and Cat)" in text, text
    assert_results_in_order(fake, group)
    assert audit_group_hands(fake, group, [ann, bob, cat]) > 0

    # Every board named the teams, their penalty points and whose turn it was.
    boards = [words for words in shown_texts(fake, group) if "to play" in words]
    assert boards  # a short match under the group's budget may show only a few of them
    for caption in boards:
        assert f"{TEAM_A} Ann and 🤖 Hard 1 vs {TEAM_B} Bob and Cat" in caption, caption
        assert "Penalty points: 🟥 Team A " in caption and "(101 loses)" in caption, caption
    # Each round's result names the round's winning team, and the team that took the penalty.
    for message in result_messages(fake, group):
        caption = message.shown_text
        assert ("wins the round" in caption and "penalty points" in caption) or "nobody scores" in caption, caption
    # A hand names the partner.
    assert any("Your partner: Cat" in words for words in shown_texts(fake, bob))

    print(fake.screen(group))  # for a person to read with -s: what the group saw, as it stands at the end
    (game,) = [g for g in bot.games() if g.id == lobby.game_id]
    assert game.preset == "goat" and [seat["name"] for seat in game.data["seats"]] == ["Ann", "Bob", "🤖 Hard 1", "Cat"]
    check_stored_game(game, table)
    audit_hidden_tiles(fake, group, game)


async def test_a_russian_private_goat_game_names_the_partner_by_its_level(fake: FakeTelegram, bot: BotProcess) -> None:
    check = Checkpoint(fake, bot)
    anya = fake.add_user("Аня", language_code="ru")
    hand = await open_private_game(fake, anya, "goat", 3, level="medium")
    assert "Ваш партнёр: 🤖 Средний" in hand.shown_text, hand.shown_text  # was "🤖 Партнёр"
    # Three to a row: without the robots, so that a phone shows them whole ("🤖 Средний ✓" was cut short).
    assert level_buttons(hand) == {"easy": "Лёгкий", "medium": "Средний ✓", "hard": "Сложный"}
    await choose_level(fake, anya, "hard")

    def partner_is_hard() -> bool:
        now = hand_message(fake, anya)
        return now is not None and "Ваш партнёр: 🤖 Сложный" in now.shown_text

    await fake.wait_for(partner_is_hard, TURN_TIMEOUT, what="the partner to be named by its new level")
    print(fake.screen(anya))  # for a person to read with -s: the hand, its level row and the partner's name
    (game,) = [g for g in bot.games() if g.data["seats"][0]["user_id"] == anya.id]
    assert [seat["name"] for seat in game.data["seats"]] == ["Аня", "🤖 Computer 1", "🤖 Partner", "🤖 Computer 2"]
    check.assert_clean()


async def test_a_private_partners_game_with_a_computer_partner(fake: FakeTelegram, bot: BotProcess) -> None:
    check = Checkpoint(fake, bot)
    ann = fake.add_user("Ann")
    hand = await open_private_game(fake, ann, "partners", 3, level="easy")
    assert "Your partner: 🤖 Easy" in hand.shown_text, hand.shown_text
    table = Table(fake, [ann], results=ann, rng=random.Random("partners"))
    result = await table.play_to_end()
    await settle(fake)

    text = result.shown_text
    assert_team_game_over(text, "partners")
    teams = ("🟥 Team A (Ann and 🤖 Easy)", "🟦 Team B (🤖 Computer 1 and 🤖 Computer 2)")
    assert any(f"🏆 {team} wins the game!" in text for team in teams), text
    assert_results_in_order(fake, ann)
    check.assert_clean()
    (game,) = [g for g in bot.games() if g.data["seats"][0]["user_id"] == ann.id]
    assert game.preset == "partners"
    assert [seat["name"] for seat in game.data["seats"]] == ["Ann", "🤖 Computer 1", "🤖 Partner", "🤖 Computer 2"]
    check_stored_game(game, table)
    audit_hidden_tiles(fake, ann, game, viewer=ann)


async def test_a_friend_room_refuses_the_partnership_presets(fake: FakeTelegram, bot: BotProcess) -> None:
    ann = fake.add_user("Ann")
    fake.start_bot(ann)
    menu = await fake.wait_for_message(ann, lambda m: bool(m.inline_keyboard), timeout=TIMEOUT)
    for preset in ("goat", "partners"):
        forged = forge_tap(fake, ann, menu, f"ro:preset:{preset}:0")
        await fake.wait_answered(forged, timeout=TIMEOUT)
        assert is_alert(forged) and "A friend room seats two" in str(forged.answer), forged.answer
    assert not [g for g in bot.games() if g.preset in ("goat", "partners")]


@pytest.mark.parametrize(("language", "goats"), [("ru", "Козлы"), ("uk", "Кози")])
async def test_a_goat_game_in_russian_and_ukrainian_leaves_no_english_word(
    fake: FakeTelegram, bot: BotProcess, monkeypatch: pytest.MonkeyPatch, language: str, goats: str
) -> None:
    import tests.e2e.test_languages as languages

    check = Checkpoint(fake, bot)
    creator, friend = languages.people(fake, language, [language, language])
    group = fake.add_group("Козёл" if language == "ru" else "Козел", members=[creator, friend])
    for person in (creator, friend):
        fake.start_bot(person)
    await settle(fake)
    lobby = await open_lobby(fake, creator, group, "goat")
    await join(fake, lobby, friend, team=1)
    languages.end_by_status(monkeypatch, bot, lobby.game_id)
    await start_game(fake, lobby, creator)
    await Table(fake, [creator, friend], results=group, rng=random.Random(f"goat-{language}")).play_to_end()
    await settle(fake)
    for command in ("/rules goat", "/rules partners", "/help"):
        await languages.say(fake, friend, command, chat=group)
    await settle(fake)

    check.assert_clean()
    assert languages.game_status(bot, lobby.game_id) == "finished"
    texts = languages.shown(fake, [group, creator, friend], [creator, friend], language)
    languages.assert_all_in(language, texts)
    assert any(f"🐐 <b>{goats}: " in text for _, text in texts), "the goats were never named"

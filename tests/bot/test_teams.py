"""Partnership play in the bot (goat, partners): the lobby's sides, the private game's computer partner,
the captions and keyboards that show the teams, and the friend room that refuses them."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from pydantic import ValidationError

from bot.display import captions, keyboards
from bot.model.game import Game, Seat, TableDoc
from bot.table import lobbies, rooms, solo
from bot.table.service import GameService, TableError
from bot.telegram.callbacks import LobbyAction, LobbyTap
from bot.telegram.people import Person
from bot.words.i18n import speaking
from bot.words.refusals import Refusal
from engine import Match, Rules, SeatCountError
from storage import GameRow, GameStatus

ANN, BOB, CAT, DAN = Person(7, "Ann"), Person(8, "Bob"), Person(9, "Cat"), Person(10, "Dan")


async def _names(svc: GameService, game_id: int) -> list[str | None]:
    row = await svc.db.games.get(game_id)
    assert row is not None
    return [seat["name"] if seat else None for seat in row.data["seats"]]


async def _refused(svc: GameService, game_id: int, person: Person, team: int | None) -> Refusal:
    before = await svc.db.games.get(game_id)
    with pytest.raises(TableError) as refused:
        await lobbies.join(svc, game_id, person, team)
    after = await svc.db.games.get(game_id)
    assert before is not None and after is not None and after.version == before.version  # nothing changed
    return refused.value.refusal


# --- the lobby ------------------------------------------------------------------------------------


async def test_a_goat_lobby_seats_four_by_team(service: GameService) -> None:
    lobby = await lobbies.open_lobby(service, -1, ANN, "goat", seats=2)  # a chat's default of two seats: still four
    assert await _names(service, lobby.id) == ["Ann", None, None, None]
    await lobbies.join(service, lobby.id, BOB, 1)
    assert await _names(service, lobby.id) == ["Ann", "Bob", None, None]
    assert await _refused(service, lobby.id, BOB, 1) is Refusal.SAME_TEAM
    # Bob moves over to Ann's team: the seat opposite hers.
    _, switched = await lobbies.join_team(service, lobby.id, BOB, 0)
    assert switched and await _names(service, lobby.id) == ["Ann", None, "Bob", None]
    assert await _refused(service, lobby.id, CAT, 0) is Refusal.TEAM_FULL
    assert await _refused(service, lobby.id, ANN, 0) is Refusal.SAME_TEAM
    _, switched = await lobbies.join_team(service, lobby.id, CAT, 1)
    assert not switched and await _names(service, lobby.id) == ["Ann", "Cat", "Bob", None]
    # The seats stay where the teams put them: the Seats button changes nothing in a fixed table.
    await lobbies.cycle_seats(service, lobby.id, ANN)
    assert await _names(service, lobby.id) == ["Ann", "Cat", "Bob", None]
    # /join (or an old keyboard's Join) takes the first free seat, whichever team it is.
    await lobbies.join(service, lobby.id, DAN)
    assert await _names(service, lobby.id) == ["Ann", "Cat", "Bob", "Dan"]
    assert await _refused(service, lobby.id, Person(11, "Eve"), 1) is Refusal.TEAM_FULL
    await lobbies.leave(service, lobby.id, CAT)
    await lobbies.add_computer(service, lobby.id, ANN, "hard")
    started = await lobbies.deal_lobby(service, lobby.id, ANN)
    assert started.match is not None and started.match.seats == 4
    assert await _names(service, lobby.id) == ["Ann", "🤖 Hard 1", "Bob", "Dan"]


async def test_a_side_in_a_lobby_without_teams_is_refused(service: GameService) -> None:
    lobby = await lobbies.open_lobby(service, -2, ANN, "draw", seats=4)
    assert await _refused(service, lobby.id, BOB, 1) is Refusal.NO_TEAMS
    assert await _refused(service, lobby.id, ANN, 0) is Refusal.NO_TEAMS


async def test_a_team_seat_needs_the_private_chat(service: GameService) -> None:
    lobby = await lobbies.open_lobby(service, -3, ANN, "partners")
    assert await _refused(service, lobby.id, Person(12, "Fay", private_ok=False), 1) is Refusal.NEED_PRIVATE


def test_forged_side_data_is_no_lobby_action() -> None:
    assert LobbyAction.join_team(0).team == 0 and LobbyAction.join_team(1).team == 1
    assert LobbyAction.JOIN.team is None and LobbyAction.ADD_HARD.team is None
    assert LobbyTap.unpack(LobbyTap(game=2**53, action=LobbyAction.TEAM_B).pack()).action is LobbyAction.TEAM_B
    assert len(LobbyTap(game=2**53, action=LobbyAction.TEAM_B).pack().encode()) <= 64
    for forged in ("lb:5:team-c", "lb:5:team-", "lb:5:team-0"):
        with pytest.raises((ValueError, ValidationError)):
            LobbyTap.unpack(forged)


# --- a private game against the computer ------------------------------------------------------------


async def test_a_private_partners_game_has_a_computer_partner_opposite(service: GameService) -> None:
    game = await solo.open_solo(service, -4, ANN, "partners", 3, "hard")
    assert await _names(service, game.id) == ["Ann", "🤖 Computer 1", "🤖 Partner", "🤖 Computer 2"]
    assert [seat.level for seat in game.doc.seats[1:] if seat] == ["hard"] * 3
    assert game.match is not None and game.match.rules.side_of(2) == game.match.rules.side_of(0)
    with pytest.raises(SeatCountError):
        await solo.open_solo(service, -5, ANN, "goat", 1, "hard")


@pytest.mark.parametrize(
    ("language", "medium", "hard"),
    [("en", "Medium", "Hard"), ("ru", "Средний", "Сложный"), ("uk", "Середній", "Складний")],
)
def test_the_computer_partner_is_shown_by_the_level_it_plays_at(language: str, medium: str, hard: str) -> None:
    from bot.display.names import shown_names
    from bot.table.solo import solo_team_seats, with_computer_level

    doc = TableDoc(seats=(Seat("Ann", user_id=7), *solo_team_seats("medium")))
    with speaking(language):
        shown = shown_names(doc.seats)
        assert shown[2] == f"🤖 {medium}", shown  # not "🤖 Partner": "Your partner: 🤖 Medium"
        assert shown_names(with_computer_level(doc, "hard").seats)[2] == f"🤖 {hard}"  # it follows the level
    # A game stored before the levels were kept in the seats still shows its partner.
    with speaking("ru"):
        assert shown_names([Seat("🤖 Partner")]) == ["🤖 Партнёр"]


def test_the_opponents_menu_of_a_partnership_preset_offers_only_a_level() -> None:
    from bot.words import texts

    markup = keyboards.opponents_markup("goat")
    go = [b.callback_data for row in markup.inline_keyboard for b in row if (b.callback_data or "").startswith("sg:")]
    assert go == ["sg:goat:3:easy", "sg:goat:3:medium", "sg:goat:3:hard"]
    assert "computer partner" in texts.opponents_prompt("goat")


# --- friend rooms ------------------------------------------------------------------------------------


async def test_a_friend_room_refuses_the_partnership_presets(service: GameService) -> None:
    assert "goat" not in rooms.presets() and "partners" not in rooms.presets()
    for preset in ("goat", "partners"):
        with pytest.raises(TableError) as refused:
            await rooms.open_room(service, ANN, preset)
        assert refused.value.refusal is Refusal.ROOM_TWO_SEATS
    assert await service.db.games.active_in_chat(ANN.user_id) is None


# --- captions and keyboards ----------------------------------------------------------------------------


def _game(match: Match | None, preset: str, status: GameStatus = GameStatus.PLAYING) -> Game:
    seats = (Seat("Ann", 1), Seat("Bob", 2), Seat("🤖 Hard 1", level="hard"), Seat("Dan", 4))
    row = GameRow(3, -100, "group", status, preset, 1, 1, {}, 0.0, 0.0)
    return Game(row, TableDoc(seats=seats), match)


def _finished(preset: str, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match.new(Rules.preset(preset), 4, rng)
    while not match.is_over:
        if match.round.is_over:
            match = match.deal_next(rng)
        match = match.apply(rng.choice(match.round.legal_moves()))
    return match


def test_the_lobby_shows_who_partners_whom_and_a_join_button_per_team() -> None:
    game = _game(None, "goat", GameStatus.LOBBY)
    game = Game(game.row, TableDoc(seats=(Seat("Ann", 1), None, Seat("Cat", 3), None)), None)
    text = captions.lobby_text(game)
    assert "seats 1 and 3 play against seats 2 and 4" in text
    assert "<b>Join</b>" not in text  # there is no such button here: a team's Join seats its tapper
    assert "<b>🟥 Team A</b>\n1. Ann\n3. Cat\n<b>🟦 Team B</b>\n2. —\n4. —" in text, text
    buttons = {b.text: b.callback_data for row in keyboards.lobby_markup(game).inline_keyboard for b in row}
    assert buttons["Join 🟥 Team A"] == "lb:3:team-a" and buttons["Join 🟦 Team B"] == "lb:3:team-b"
    assert "Join" not in buttons and not any(text.startswith("Seats") for text in buttons)
    rows = [[b.text for b in row] for row in keyboards.lobby_markup(game).inline_keyboard]
    assert ["Join 🟥 Team A"] in rows and ["Join 🟦 Team B"] in rows  # a row each: not cut short on a phone
    plain = Game(dataclasses.replace(game.row, preset="draw"), game.doc, None)
    assert "Join" in {b.text for row in keyboards.lobby_markup(plain).inline_keyboard for b in row}
    assert "Team A" not in captions.lobby_text(plain)


@pytest.mark.parametrize("preset", ["goat", "partners"])
def test_the_board_and_hands_mark_the_teams_and_their_scores(preset: str) -> None:
    rng = random.Random(4)
    match = Match.new(Rules.preset(preset), 4, rng)
    for _ in range(3):
        match = match.apply(rng.choice(match.round.legal_moves()))
    game = _game(match, preset)
    board = captions.board_caption(game, match)
    assert "🟥 Ann: 6" in board or "🟥 Ann: 7" in board, board
    assert "🟥 Ann and 🤖 Hard 1 vs 🟦 Bob and Dan" in board, board
    if preset == "goat":
        assert "101 loses" in board and "Penalty points: 🟥 Team A 0 · 🟦 Team B 0 (101 loses)" in board, board
    else:
        assert "Score: 🟥 Team A 0 · 🟦 Team B 0" in board, board
    turn = match.round.turn
    assert f"▶ <b>{'🟥🟦'[turn % 2]} " in board, board
    assert "Your partner: 🤖 Hard 1 · you play for 🟥 Team A" in captions.hand_caption(game, match, 0)
    assert "Your partner: Dan · you play for 🟦 Team B" in captions.hand_caption(game, match, 1)
    with speaking("ru"):
        russian = captions.board_caption(game, match)
        assert "Команда А" in russian and "Команда Б" in russian, russian


@pytest.mark.parametrize("seed", range(6))
def test_the_result_names_the_winning_team_and_in_goat_the_goats(seed: int) -> None:
    for preset in ("goat", "partners"):
        match = _finished(preset, seed)
        game = _game(match, preset)
        winner = match.winner
        assert winner in (0, 1)
        teams = ["🟥 Team A (Ann and 🤖 Hard 1)", "🟦 Team B (Bob and Dan)"]
        final = captions.result_caption(game, match, len(match.rounds) - 1)
        assert f"🏆 <b>{teams[winner]} wins the game!</b>" in final, final
        totals = match.side_scores
        if preset == "goat":
            assert f"🐐 <b>{teams[1 - winner]} are the goats!</b>" in final, final
            assert totals[1 - winner] >= 101 > totals[winner]
            assert f"Penalty points: 🟥 Team A {totals[0]} · 🟦 Team B {totals[1]} (101 loses)" in final, final
        else:
            assert "goats" not in final and totals[winner] >= 200
            assert f"Score: 🟥 Team A {totals[0]} · 🟦 Team B {totals[1]}" in final, final
        for index, state in enumerate(match.rounds):
            outcome: Any = state.outcome()
            caption = captions.result_caption(game, match, index)
            if outcome.winners:
                won = match.rules.side_of(outcome.winners[0])
                assert f"<b>{teams[won]}</b> wins the round" in caption, caption
                if preset == "goat":
                    charged = outcome.points[1 - won]
                    assert f"<b>{teams[1 - won]}</b> takes {charged} penalty points." in caption, caption
            else:
                assert "nobody scores" in caption, caption
        with speaking("ru"):
            russian = captions.result_caption(game, match, len(match.rounds) - 1)
            assert ("Козлы" in russian) == (preset == "goat"), russian
        with speaking("uk"):
            ukrainian = captions.result_caption(game, match, len(match.rounds) - 1)
            assert ("Кози" in ukrainian) == (preset == "goat"), ukrainian


def test_the_table_page_is_told_each_seats_team() -> None:
    from bot.display.table_frame import table_frame

    rng = random.Random(6)
    for preset, seats, teams in (("goat", 4, [0, 1, 0, 1]), ("partners", 4, [0, 1, 0, 1]), ("draw", 4, [None] * 4)):
        match = Match.new(Rules.preset(preset), seats, rng)
        game = _game(match, preset)
        for seat in (None, 0, 3):
            frame = table_frame(game, seat)
            assert [entry["team"] for entry in frame["seats"]] == teams
            assert (frame["boneyard"] is None) == (preset != "draw")

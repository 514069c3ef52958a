"""Computer levels in the bot: the lobby's buttons, the private menu, the level row, and the service."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.display import captions, keyboards
from bot.display.presenter import Shown
from bot.model.game import DEFAULT_LEVEL, Game, GameState, Seat, TableDoc, TableOptions, computer_name, record_of
from bot.table import lobbies, solo
from bot.table.service import GameService, TableError
from bot.table.solo import solo_computer_name, with_computer_level
from bot.telegram.callbacks import LevelTap, LobbyTap, SoloGo
from bot.telegram.people import Person
from bot.words import texts
from bot.words.i18n import speaking
from bot.words.refusals import Refusal
from engine import Match, Rules
from engine.players import LEVELS
from storage import GameRow, GameStatus

HUGE = 2**53


def _game(kind: str, match: Match | None, seats: tuple[Seat | None, ...], game_id: int = HUGE) -> Game:
    status = GameStatus.PLAYING if match is not None else GameStatus.LOBBY
    row = GameRow(game_id, -(10**13), kind, status, "draw", 7, 3, {}, 0.0, 0.0)
    doc = TableDoc(seats=seats, game=GameState(record=record_of(match) if match else None))
    return Game(row, doc, match)


def _solo_seats(level: str, opponents: int = 2) -> tuple[Seat, ...]:
    computers = [Seat(solo_computer_name(i, opponents), level=level) for i in range(1, opponents + 1)]
    return (Seat("Ann", user_id=7), *computers)


def _buttons(markup: InlineKeyboardMarkup) -> list[tuple[str, str]]:
    return [(b.text, b.callback_data or "") for row in markup.inline_keyboard for b in row]


def test_level_callbacks_fit_in_64_bytes() -> None:
    for level in LEVELS:
        for data in (
            LobbyTap(game=HUGE, action=f"add-{level}").pack(),
            LevelTap(game=HUGE, level=level).pack(),
            SoloGo(preset="quickblock", opponents=3, level=level).pack(),
        ):
            assert len(data.encode()) <= 64, data


def test_the_lobby_offers_a_computer_of_each_level_and_names_the_fill_level() -> None:
    seats = (Seat("Ann", user_id=7), Seat(computer_name(1, "easy"), level="easy"), None)
    game = _game("group", None, seats)
    game = replace(game, doc=replace(game.doc, options=TableOptions(computer_level="hard")))
    actions = [LobbyTap.unpack(data).action for _, data in _buttons(keyboards.lobby_markup(game))]
    assert [a for a in actions if a.startswith("add")] == ["add-easy", "add-medium", "add-hard"]
    text = captions.lobby_text(game)
    assert "🤖 Easy 1" in text
    assert "free seats get 🤖 Hard computer players" in text


def test_one_tap_in_the_private_menu_chooses_opponents_and_level() -> None:
    for preset in ("draw", "duel"):
        rules = Rules.preset(preset)
        choices = [
            SoloGo.unpack(data) for _, data in _buttons(keyboards.opponents_markup(preset)) if data.startswith("sg:")
        ]
        expected = {(n, level) for n in range(max(1, rules.min_seats - 1), rules.max_seats) for level in LEVELS}
        assert {(c.opponents, c.level) for c in choices} == expected
        assert all(c.preset == preset for c in choices)
    labels = [text for text, data in _buttons(keyboards.opponents_markup("duel")) if data.startswith("sg:")]
    assert labels == ["🤖 Easy", "🤖 Medium", "🤖 Hard"]
    assert "How strong" in texts.opponents_prompt("duel")
    assert "How many" in texts.opponents_prompt("draw")


def test_the_level_row_ticks_the_current_level_under_a_running_private_game() -> None:
    match = Match.new(Rules.preset("draw"), 3, random.Random(3))
    game = _game("private", match, _solo_seats("hard"))
    (row,) = keyboards.level_rows(game, match)
    assert [b.text for b in row] == ["🤖 Easy", "🤖 Medium", "🤖 Hard ✓"]
    assert [LevelTap.unpack(b.callback_data or "") for b in row] == [
        LevelTap(game=HUGE, level=level) for level in LEVELS
    ]
    # It is the last row of the hand's keyboard, below the tiles.
    assert keyboards.hand_markup(game, match, 0).inline_keyboard[-1] == row


@pytest.mark.parametrize("language", ["en", "ru", "uk"])
def test_every_level_button_fits_a_row_of_three_on_a_phone(language: str) -> None:
    match = Match.new(Rules.preset("draw"), 3, random.Random(3))
    with speaking(language):
        for current in LEVELS:
            (row,) = keyboards.level_rows(_game("private", match, _solo_seats(current)), match)
            labels = [b.text for b in row]
            assert all(len(label) <= keyboards.ROW_OF_THREE_LABEL_LIMIT for label in labels), labels
            assert [label.endswith(" ✓") for label in labels] == [level == current for level in LEVELS], labels
            # The robots go in the whole row or in none, whichever level is ticked.
            assert len({label.startswith("🤖 ") for label in labels}) == 1, labels


@pytest.mark.parametrize(
    ("language", "row"),
    [
        ("en", ["🤖 Easy", "🤖 Medium ✓", "🤖 Hard"]),  # fits: as it was
        ("ru", ["Лёгкий", "Средний ✓", "Сложный"]),  # "🤖 Средний ✓" was cut short
        ("uk", ["Легкий", "Середній ✓", "Складний"]),
    ],
)
def test_the_level_row_drops_its_robots_only_where_they_do_not_fit(language: str, row: list[str]) -> None:
    with speaking(language):
        assert keyboards.level_labels("medium") == row


def test_no_level_row_in_a_group_game() -> None:
    match = Match.new(Rules.preset("draw"), 2, random.Random(3))
    seats = (Seat("Ann", user_id=7), Seat(computer_name(1, "easy"), level="easy"))
    assert keyboards.level_rows(_game("group", match, seats), match) == []


def test_no_level_row_once_the_game_is_over() -> None:
    rng = random.Random(4)
    match = Match.new(Rules.preset("duel"), 2, rng)
    while not match.is_over:
        match = match.apply(rng.choice(match.round.legal_moves()))
    game = _game("private", match, _solo_seats("easy", opponents=1))
    assert keyboards.level_rows(game, match) == []
    assert [text for text, _ in _buttons(keyboards.hand_markup(game, match, 0))][-1] == "Play again"


def test_a_new_level_changes_only_the_computer_seats() -> None:
    match = Match.new(Rules.preset("draw"), 3, random.Random(5))
    doc = TableDoc(seats=_solo_seats("medium"), game=GameState(record=record_of(match), results_posted=0))
    changed = with_computer_level(doc, "easy")
    assert [s.level for s in changed.seats if s] == [None, "easy", "easy"]
    assert [s.name for s in changed.seats if s] == [s.name for s in doc.seats if s]  # names are kept
    assert changed.seats[0] == doc.seats[0]
    assert changed.game == doc.game
    assert changed.options.computer_level == "easy"


def test_the_lobby_level_survives_a_round_trip_and_old_documents_get_the_default() -> None:
    doc = TableDoc(seats=(None, None), options=TableOptions(computer_level="hard"))
    assert TableDoc.from_json(doc.to_json()).options.computer_level == "hard"
    old = doc.to_json()
    del old["computer_level"]
    assert TableDoc.from_json(old).options.computer_level == DEFAULT_LEVEL


def test_computer_names() -> None:
    assert computer_name(2, "hard") == "🤖 Hard 2"
    assert solo_computer_name(1, 1) == "🤖 Computer"
    assert solo_computer_name(3, 3) == "🤖 Computer 3"


# --- the service, on a real database; the presenter only stores ---------------------------------


class StoringPresenter:
    """What the service needs of a presenter, without Telegram: show nothing."""

    async def sync(self, game: Game) -> Shown:
        return Shown(game)


ANN = Person(7, "Ann")
BOB = Person(8, "Bob")


async def _stored(service: GameService, game_id: int) -> dict[str, Any]:
    row = await service.db.games.get(game_id)
    assert row is not None
    return dict(row.data)


async def test_a_private_game_starts_at_the_chosen_level_and_changes_without_touching_the_match(
    service: GameService,
) -> None:
    game = await solo.open_solo(service, -1, ANN, "draw", 2, "hard")
    assert [s.level for s in game.doc.seats if s and s.is_computer] == ["hard", "hard"]
    before = await _stored(service, game.id)

    changed = await solo.set_computer_level(service, game.id, ANN.user_id, "easy")
    assert changed is not None
    after = await _stored(service, game.id)
    assert after["record"] == before["record"]
    assert [s["level"] for s in after["seats"]] == [None, "easy", "easy"]
    assert [s["name"] for s in after["seats"]] == [s["name"] for s in before["seats"]]
    assert changed.row.version > game.row.version

    # The same level again changes nothing (not even the version).
    assert await solo.set_computer_level(service, game.id, ANN.user_id, "easy") is None
    row = await service.db.games.get(game.id)
    assert row is not None and row.version == changed.row.version


@pytest.mark.parametrize(
    ("who", "level", "refusal"),
    [(BOB, "hard", Refusal.NOT_YOUR_GAME), (ANN, "godlike", Refusal.UNKNOWN_LEVEL), (ANN, "", Refusal.UNKNOWN_LEVEL)],
)
async def test_a_level_change_is_refused(service: GameService, who: Person, level: str, refusal: Refusal) -> None:
    game = await solo.open_solo(service, -1, ANN, "duel", 1, "medium")
    before = await _stored(service, game.id)
    with pytest.raises(TableError) as refused:
        await solo.set_computer_level(service, game.id, who.user_id, level)
    assert refused.value.refusal is refusal
    assert await _stored(service, game.id) == before


async def test_no_level_change_in_a_group_game_or_a_finished_one(service: GameService) -> None:
    lobby = await lobbies.open_lobby(service, -2, ANN, "duel")
    lobby = await lobbies.add_computer(service, lobby.id, ANN, "easy")
    started = await lobbies.deal_lobby(service, lobby.id, ANN)
    with pytest.raises(TableError) as refused:
        await solo.set_computer_level(service, started.id, ANN.user_id, "hard")
    assert refused.value.refusal is Refusal.LEVEL_PRIVATE_ONLY

    game = await solo.open_solo(service, -3, ANN, "duel", 1, "medium")
    row = await service.db.games.get(game.id)
    assert row is not None
    await service.db.games.save(row, status=GameStatus.FINISHED)
    with pytest.raises(TableError) as refused:
        await solo.set_computer_level(service, game.id, ANN.user_id, "hard")
    assert refused.value.refusal is Refusal.NO_GAME


async def test_the_lobby_fills_free_seats_with_the_level_chosen_last(service: GameService) -> None:
    lobby = await lobbies.open_lobby(service, -4, ANN, "block")
    assert len(lobby.doc.seats) == 4
    await lobbies.add_computer(service, lobby.id, ANN, "hard")
    lobby = await lobbies.add_computer(service, lobby.id, ANN, "easy")
    assert lobby.doc.options.computer_level == "easy"
    with pytest.raises(TableError) as refused:
        await lobbies.add_computer(service, lobby.id, ANN, "godlike")
    assert refused.value.refusal is Refusal.UNKNOWN_LEVEL
    with pytest.raises(TableError) as refused:
        await lobbies.add_computer(service, lobby.id, BOB, "hard")
    assert refused.value.refusal is Refusal.CREATOR_ONLY
    started = await lobbies.deal_lobby(service, lobby.id, ANN)
    seats = [(s.name, s.level) for s in started.doc.seats if s]
    assert seats == [("Ann", None), ("🤖 Hard 1", "hard"), ("🤖 Easy 2", "easy"), ("🤖 Easy 3", "easy")]


async def test_a_lobby_names_its_creator_before_they_have_opened_the_bot(service: GameService) -> None:
    stranger = Person(9, "Zoë Quinn", private_ok=False)  # typed /new but never opened the bot: no seat yet
    lobby = await lobbies.open_lobby(service, -9, stranger, "duel")
    assert lobby.doc.seats == (None, None)
    assert "Started by Zoë Quinn." in captions.lobby_text(lobby)
    assert "someone" not in captions.lobby_text(lobby)
    stored = await service.db.games.get(lobby.id)
    assert stored is not None and stored.data["creator"] == "Zoë Quinn"

"""Captions, keyboards and words: within Telegram's limits for every preset and the longest names."""

from __future__ import annotations

import random

import pytest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.display import captions, keyboards
from bot.display.names import shown_name, shown_names
from bot.model.game import Game, Seat, TableDoc, turn_number
from bot.table.service import short_name
from bot.telegram.callbacks import HandTap, LobbyTap, SoloStep, SoloTap, TileTap
from bot.words import table_texts
from bot.words.i18n import speaking
from engine import PRESETS, Drew, Match, Passed, Played, Rules, Tile
from engine.line import End
from storage import GameRow, GameStatus

LONGEST = "Ж" * 64  # Telegram allows 64 characters in a first name


def _game(match: Match, kind: str = "group", game_id: int = 2**40) -> Game:
    seats = tuple(Seat(short_name(LONGEST + str(i)), user_id=10**12 + i) for i in range(match.seats))
    doc = TableDoc(seats=seats)
    row = GameRow(game_id, -(10**13), kind, GameStatus.PLAYING, match.rules.id, 10**12, 10**6, {}, 0.0, 0.0)
    return Game(row, doc, match)


def _played_out(preset: str, seats: int, seed: int) -> list[Match]:
    rng = random.Random(seed)
    match = Match.new(Rules.preset(preset), seats, rng)
    positions = [match]
    while not match.is_over and len(positions) < 400:
        if match.round.is_over:
            match = match.deal_next(rng)
        match = match.apply(rng.choice(match.round.legal_moves()))
        positions.append(match)
    return positions


def test_callback_data_fits_in_64_bytes_at_its_largest() -> None:
    huge = 2**53
    for data in (
        TileTap(game=huge, version=huge, tile="66", end="l").pack(),
        LobbyTap(game=huge, action="cancel").pack(),
        HandTap(game=huge).pack(),
        SoloTap(step="preset", preset="quickblock", opponents=3).pack(),
    ):
        assert 1 <= len(data.encode()) <= 64, data


def _rows(markup: InlineKeyboardMarkup | None) -> list[list[InlineKeyboardButton]]:
    """The keyboard's rows; none for no keyboard."""
    return markup.inline_keyboard if markup is not None else []


@pytest.mark.parametrize("preset", list(PRESETS))
def test_captions_and_keyboards_stay_within_limits(preset: str) -> None:
    rules = Rules.preset(preset)
    for seats in range(rules.min_seats, rules.max_seats + 1):
        for match in _played_out(preset, seats, seed=seats):
            game = _game(match)
            assert len(captions.board_caption(game, match)) <= 1024
            for seat in range(seats):
                assert len(captions.hand_caption(game, match, seat)) <= 1024
                for row in _rows(keyboards.hand_markup(game, match, seat)):
                    for button in row:
                        assert button.callback_data and len(button.callback_data.encode()) <= 64
            for index, state in enumerate(match.rounds):
                if state.is_over:
                    assert len(captions.result_caption(game, match, index)) <= 1024


def test_only_the_seat_to_play_sees_marked_tiles() -> None:
    match = _played_out("draw", 3, seed=5)[4]
    game = _game(match)
    turn = match.round.turn
    for seat in range(3):
        labels = [b.text for row in keyboards.hand_markup(game, match, seat).inline_keyboard for b in row]
        marked = [label for label in labels if label.startswith(("🟢", "⭐"))]
        assert bool(marked) == (seat == turn)


def test_tile_buttons_carry_the_turn_number() -> None:
    match = _played_out("block", 2, seed=1)[3]
    game = _game(match)
    data = keyboards.hand_markup(game, match, match.round.turn).inline_keyboard[0][0].callback_data
    assert data is not None
    assert TileTap.unpack(data).version == turn_number(match)


@pytest.mark.parametrize("kind", ["private", "group"])
def test_a_finished_game_leaves_no_tile_to_tap(kind: str) -> None:
    """The tiles left when the match ends are in the picture; a button for one could only be refused."""
    match = _played_out("quickblock", 2, seed=3)[-1]
    assert match.is_over
    game = _game(match, kind)
    seat = max(range(2), key=lambda s: len(match.round.hands[s]))
    assert match.round.hands[seat], "a seat with tiles left, which the keyboard must not offer"
    markup = keyboards.hand_markup(game, match, seat)
    data = [b.callback_data for row in _rows(markup) for b in row]
    # A private game's message keeps "Play again" (the menu works whatever became of the game).
    assert data == ([SoloTap(step=SoloStep.MENU).pack()] if kind == "private" else [])


def test_events_in_words() -> None:
    names = ["Ann", "Борис", "<Eve>"]
    events = [
        Played(0, Tile(6, 6), None),
        Drew(1, 2, (6,), (Tile(3, 2), Tile(6, 1))),
        Played(1, Tile(6, 1), End.RIGHT, 0),
        Drew(2, 3, (6, 1), ()),
        Passed(2, (6, 1)),
        Passed(0, (6, 1)),
        Played(1, Tile(5, 5), End.LEFT, 10),
    ]
    assert table_texts.describe_events(events, names) == [
        "Ann played [6|6]",
        "Борис drew 2 and played [6|1] on the right",
        "&lt;Eve&gt; drew 3 and passed",
        "Ann passed",
        "Борис played [5|5] on the left (+10)",
    ]


def test_long_names_are_shortened() -> None:
    assert len(short_name(LONGEST)) == 24
    assert short_name("  Ann \n Lee ") == "Ann Lee"
    assert short_name("") == "?"


@pytest.mark.parametrize(("language", "hard", "computer"), [("en", "Hard", "Computer"), ("ru", "Сложный", "Компьютер")])
def test_shown_names_say_a_computer_in_the_readers_language(language: str, hard: str, computer: str) -> None:
    seats = (Seat("Ann", 7), Seat("🤖 Hard 1", level="hard"), None, Seat("🤖 Computer", level="easy"))
    with speaking(language):
        assert shown_names(seats) == ["Ann", f"🤖 {hard} 1", "—", f"🤖 {computer}"]
        assert shown_name(Seat("🤖 Hard", user_id=3)) == "🤖 Hard"  # a person's name is shown as it is

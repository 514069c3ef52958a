"""The Mini App's table frames: a seat sees its own tiles and the line, never another hand or the boneyard."""

from __future__ import annotations

import json
import random

import pytest

from bot.display.table_frame import table_frame
from bot.model.game import Game, Seat, TableDoc, turn_number
from bot.words.i18n import speaking
from engine import PRESETS, Match, Rules, Tile
from storage import GameRow, GameStatus


def _game(match: Match) -> Game:
    seats = tuple(Seat(f"<Player {i}>", user_id=1000 + i) for i in range(match.seats))
    row = GameRow(7, -100, "group", GameStatus.PLAYING, match.rules.id, 1000, 10**6, {}, 0.0, 0.0)
    return Game(row, TableDoc(seats=seats), match)


def _positions(preset: str, seats: int, seed: int) -> list[Match]:
    rng = random.Random(seed)
    match = Match.new(Rules.preset(preset), seats, rng)
    positions = [match]
    while not match.is_over and len(positions) < 150:
        match = match.deal_next(rng) if match.round.is_over else match.apply(rng.choice(match.round.legal_moves()))
        positions.append(match)
    return positions


def _tiles_in(frame: object) -> set[Tile]:
    """Every [a, b] pair of pips anywhere in the frame."""
    found: set[Tile] = set()

    def walk(value: object) -> None:
        if isinstance(value, list):
            if len(value) == 2 and all(isinstance(n, int) and 0 <= n <= 6 for n in value) and value[0] >= value[1]:
                found.add(Tile(value[0], value[1]))
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(frame)
    return found


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_frame_holds_only_what_its_reader_may_see(preset: str) -> None:
    rules = Rules.preset(preset)
    for seats in range(rules.min_seats, rules.max_seats + 1):
        for match in _positions(preset, seats, seed=seats):
            game = _game(match)
            state = match.round
            public = set(state.line.tiles())
            if state.is_over:  # the result shows every hand, in the chat as on the page
                public |= {tile for hand in state.hands for tile in hand}
            spectator = table_frame(game, None)
            assert _tiles_in(spectator["line"]) <= public and _tiles_in(spectator) <= public
            assert spectator["hand"] == [] and spectator["you"] is None
            for seat in range(seats):
                frame = table_frame(game, seat)
                json.dumps(frame)  # plain JSON, ready to send
                mine = set(state.hands[seat])  # what it drew is in its hand or on the line
                assert _tiles_in(frame) <= public | mine, (seat, _tiles_in(frame) - public - mine)
                hand = set() if state.is_over else set(state.hands[seat])
                assert {Tile(*entry["tile"]) for entry in frame["hand"]} == hand


def test_the_seat_to_play_sees_its_playable_tiles_and_ends() -> None:
    match = _positions("fives", 2, seed=3)[5]
    game = _game(match)
    turn = match.round.turn
    frame = table_frame(game, turn)
    legal = {(m.tile, m.end.value if m.end else "lead") for m in match.round.legal_moves()}
    shown = {(Tile(*entry["tile"]), end) for entry in frame["hand"] for end in entry["ends"]}
    assert shown == legal and frame["turn"] == turn and frame["version"] == turn_number(match)
    other = table_frame(game, 1 - turn)
    assert all(entry["ends"] == [] for entry in other["hand"])


def test_words_are_the_readers_and_plain_text() -> None:
    match = _positions("draw", 2, seed=1)[6]
    game = _game(match)
    with speaking("ru"):
        frame = table_frame(game, match.round.turn)
    assert frame["headline"].startswith("▶") and "Ваш ход" in frame["headline"]
    assert all("<b>" not in line and "&lt;" not in line for line in frame["log"])
    assert any("<Player" in line for line in frame["log"])


@pytest.mark.parametrize(("preset", "seats", "seed"), [("draw", 2, 14), ("fives", 4, 36)])
def test_a_long_line_comes_in_rows_of_several_widths(preset: str, seats: int, seed: int) -> None:
    """The page draws the line in the rows that fill its felt best (a tall phone: narrow rows; a phone
    on its side: wide ones): each wrap holds the same tiles, within its own width; a line that wraps
    the same way at every width (the first tiles of a round) is sent once."""
    positions = [match for match in _positions(preset, seats, seed) if not match.round.is_over]
    early = table_frame(_game(positions[1]), None)["line"]
    assert early["wraps"] == [] and early["half_width"] == 24
    longest = max(positions, key=lambda match: len(match.round.line.tiles()))
    line = table_frame(_game(longest), None)["line"]
    assert {wrap["half_width"] for wrap in line["wraps"]} >= {14, 18}
    for layout in (line, *line["wraps"]):
        assert sorted(spot["tile"] for spot in layout["spots"]) == sorted(spot["tile"] for spot in line["spots"])
        assert [badge["end"] for badge in layout["badges"]] == [badge["end"] for badge in line["badges"]]
        x0, y0, x1, y1 = layout["bounds"]
        assert (x0, x1) == (-layout["half_width"], layout["half_width"])
        for item in (*layout["spots"], *layout["badges"]):
            assert x0 <= item["rect"][0] < item["rect"][2] <= x1 and y0 <= item["rect"][1] < item["rect"][3] <= y1

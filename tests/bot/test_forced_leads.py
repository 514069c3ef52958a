"""A forced lead is the one legal move, so nobody is asked to make it: the bot places it by itself
in every preset (classic's and goat's 1-1 as partners' 6-6), and every caption, the table page
included, says it was forced (RULES.md "Who starts")."""

from __future__ import annotations

import random

import pytest

from bot.display import captions
from bot.display.table_frame import table_frame
from bot.model.game import Game, GameState, Seat, TableDoc, record_of
from bot.table import lobbies
from bot.table import service as service_module
from bot.table.service import GameService
from bot.telegram.people import Person
from bot.words.i18n import speaking
from engine import Match, Played, Rules, Tile
from storage import GameRow, GameStatus

ANN, BOB, CAT, DAN = Person(7, "Ann"), Person(8, "Bob"), Person(9, "Cat"), Person(10, "Dan")
GROUP = -700
ONE_ONE = Tile(1, 1)
FORCED_WORDS = {
    "en": "{name} led [1|1] (forced)",
    "ru": "{name} заходит с [1|1] (обязательный ход)",
    "uk": "{name} заходить з [1|1] (обов'язковий хід)",
}


def _seed_leading_1_1(preset: str, seats: int) -> int:
    """The first seed whose deal (as the service deals it) has 1-1 as the forced lead."""
    rules = Rules.preset(preset)
    return next(seed for seed in range(1000) if Match.new(rules, seats, random.Random(seed)).round.forced == ONE_ONE)


async def _started(
    service: GameService, monkeypatch: pytest.MonkeyPatch, preset: str, people: list[Person], team: bool
) -> Game:
    """A group game of ``people`` only, dealt from a seed where 1-1 must lead."""
    seed = _seed_leading_1_1(preset, len(people))
    monkeypatch.setattr(service_module, "_dealer", lambda: random.Random(seed))
    lobby = await lobbies.open_lobby(service, GROUP, people[0], preset, seats=len(people))
    for index, person in enumerate(people[1:], start=1):
        await lobbies.join(service, lobby.id, person, index % 2 if team else None)
    return await lobbies.deal_lobby(service, lobby.id, people[0])


@pytest.mark.parametrize(
    ("preset", "people", "team"), [("classic", [ANN, BOB], False), ("goat", [ANN, BOB, CAT, DAN], True)]
)
async def test_the_forced_1_1_is_placed_without_a_tap(
    service: GameService, monkeypatch: pytest.MonkeyPatch, preset: str, people: list[Person], team: bool
) -> None:
    game = await _started(service, monkeypatch, preset, people, team)
    match = game.match
    assert match is not None
    holder = match.rounds[0].plays()[0].seat
    assert match.round.plays()[0] == Played(holder, ONE_ONE, None)  # placed, by the holder's seat
    assert game.doc.seats[holder] is not None and not game.doc.seats[holder].is_computer  # type: ignore[union-attr]
    assert match.round.turn == (holder + 1) % match.seats  # the next seat is asked, not the holder
    assert match.round.forced is None and ONE_ONE not in match.round.hands[holder]
    moves = await service.db.games.moves(game.id)
    assert [(m.round, m.seat, m.tile, m.side) for m in moves] == [(0, holder, "1-1", None)]
    # Saved with its record: the game read back is the same game, the lead already on the line.
    async with service.locked(game.id) as stored:
        assert stored.match is not None and stored.match.round.plays() == match.round.plays()

    name = game.doc.seats[holder].name  # type: ignore[union-attr]
    board = captions.board_caption(game, match)
    assert FORCED_WORDS["en"].format(name=name) in board, board
    for seat in range(match.seats):  # every hand's caption, the holder's included
        assert FORCED_WORDS["en"].format(name=name) in captions.hand_caption(game, match, seat), seat
    frame = table_frame(game, holder)
    assert any(FORCED_WORDS["en"].format(name=name) in line for line in frame["log"]), frame["log"]


@pytest.mark.parametrize("language", ["en", "ru", "uk"])
def test_the_caption_says_the_lead_was_forced_in_each_language(language: str) -> None:
    rules = Rules.preset("classic")
    seed = _seed_leading_1_1("classic", 2)
    match = Match.new(rules, 2, random.Random(seed))
    match = match.apply(match.round.auto_move())  # type: ignore[arg-type]
    game = _classic_game(match)
    holder = match.round.plays()[0].seat
    with speaking(language):
        caption = captions.board_caption(game, match)
    assert FORCED_WORDS[language].format(name=["Ann", "Bob"][holder]) in caption, caption


def test_a_lead_of_the_leaders_choice_is_not_called_forced() -> None:
    """Round 1 of `draw` is led with any tile: the words say it was played, as any move."""
    match = Match.new(Rules.preset("draw"), 2, random.Random(1), 0)
    match = match.apply(match.round.legal_moves()[0])
    caption = captions.board_caption(_classic_game(match), match)
    assert "forced" not in caption and "Ann played" in caption, caption


def _classic_game(match: Match) -> Game:
    seats = (Seat("Ann", user_id=ANN.user_id), Seat("Bob", user_id=BOB.user_id))
    row = GameRow(1, GROUP, "group", GameStatus.PLAYING, match.rules.id, ANN.user_id, 1, {}, 0.0, 0.0)
    return Game(row, TableDoc(seats=seats, game=GameState(record=record_of(match))), match)

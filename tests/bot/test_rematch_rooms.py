"""Rematch requests and friend rooms: documents, captions, keyboards and links, without Telegram."""

from __future__ import annotations

import dataclasses
import random
import re

from bot.display import captions
from bot.model import rematch_request
from bot.model.game import (
    CANCELLED,
    OPEN,
    STARTED,
    Game,
    GameState,
    HandMessage,
    RematchRequest,
    Seat,
    TableDoc,
    TableOptions,
)
from bot.table import rooms
from bot.table.service import short_name
from bot.telegram.callbacks import RematchTap, RoomTap
from bot.words import room_texts, texts
from engine import PRESETS, Match, Rules
from storage import GameRow, GameStatus

LONGEST = "Ж" * 64
DEEP_LINK_PAYLOAD = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _finished(preset: str, seats: int, seed: int = 1) -> Match:
    rng = random.Random(seed)
    match = Match.new(Rules.preset(preset), seats, rng)
    while not match.is_over:
        if match.round.is_over:
            match = match.deal_next(rng)
        match = match.apply(rng.choice(match.round.legal_moves()))
    return match


def _doc(seats: int) -> TableDoc:
    people = [Seat(short_name(LONGEST + str(i)), user_id=10**12 + i) for i in range(seats - 1)]
    return TableDoc(seats=(*people, Seat("🤖 Hard 1", level="hard")), options=TableOptions(computer_level="hard"))


def test_callback_data_fits() -> None:
    huge = 2**53
    for data in (
        RematchTap(game=huge).pack(),
        RoomTap(action="preset", preset="quickblock").pack(),
        RoomTap(action="cancel", game=huge).pack(),
    ):
        assert 1 <= len(data.encode()) <= 64, data


def test_fresh_doc_keeps_seats_and_options_and_starts_the_game_afresh() -> None:
    played = GameState(
        record={"rounds": []},
        lobby_message=5,
        board_message=6,
        board_round=3,
        hands={0: HandMessage(7, "3:40")},
        results_posted=4,
        room_code="abc",
        rematch=RematchRequest(confirmed=(1,)),
        deadline=1.5,
        deadline_turn=3,
        killed=True,
        owed=((0, 2, True),),
        owed_claimed_until=2.5,
    )
    doc = dataclasses.replace(_doc(3), options=TableOptions(computer_level="hard", clock=30), game=played)
    fresh = rematch_request.fresh_doc(doc)
    # Every option as it was, whichever options there are; the game afresh, whatever it holds.
    assert fresh == TableDoc(seats=doc.seats, options=doc.options, game=GameState())


def test_documents_round_trip() -> None:
    request = RematchRequest(messages=((-5, 10), (7, 11)), confirmed=(7,), state=STARTED, game=12)
    doc = dataclasses.replace(_doc(2), game=GameState(room_code="x" * 16, rematch=request))
    assert TableDoc.from_json(doc.to_json()) == doc
    stored = {"messages": [[-5, 10], [7, 11]], "confirmed": [7], "state": "started", "game": 12}
    assert doc.to_json()["rematch"] == stored
    old = doc.to_json()
    del old["room_code"], old["rematch"]  # a document stored before rooms and rematches
    assert TableDoc.from_json(old).game.rematch is None


def test_rematch_caption_and_buttons_for_every_state() -> None:
    for preset in PRESETS:
        rules = Rules.preset(preset)
        seats = rules.max_seats
        match = _finished(preset, seats)
        doc = _doc(seats)
        row = GameRow(2**40, -(10**13), "group", GameStatus.FINISHED, preset, 10**12, 1, {}, 0.0, 0.0)
        base = captions.result_caption(Game(row, doc, match), match, len(match.rounds) - 1)
        people = [user for user, _ in rematch_request.people(doc)]
        for request in (
            RematchRequest(),
            RematchRequest(confirmed=tuple(people[:1])),
            RematchRequest(confirmed=tuple(people), state=STARTED, game=3),
            RematchRequest(confirmed=tuple(people[:1]), state=CANCELLED),
        ):
            caption = rematch_request.caption(base, doc, request)
            assert len(caption) <= 1024
            line = rematch_request.status_line(doc, request)
            assert line is None or caption.endswith(line)
            markup = rematch_request.markup(row.id, doc, request)
            if request.state == STARTED:
                assert markup is None
            else:
                assert markup is not None
                (button,) = [b for r in markup.inline_keyboard for b in r]
                assert button.callback_data == RematchTap(game=row.id).pack()
                if request.state == CANCELLED:
                    assert button.text == room_texts.rematch_closed_button()
        open_line = rematch_request.status_line(doc, RematchRequest(confirmed=tuple(people[:1])))
        assert open_line is not None and "✓" in open_line and ("…" in open_line or len(people) == 1)
    assert RematchRequest().state == OPEN and not rematch_request.everyone_confirmed(_doc(3), RematchRequest())


def test_room_links() -> None:
    codes = {rooms.new_code() for _ in range(100)}
    assert len(codes) == 100
    doc = TableDoc(seats=(Seat("Ann", 1), None), game=GameState(room_code=rooms.new_code()))
    row = GameRow(2**53, 1, "room", GameStatus.LOBBY, "duel", 1, 0, {}, 0.0, 0.0)
    payload = rooms.payload(Game(row, doc, None))
    assert DEEP_LINK_PAYLOAD.match(payload), payload
    assert rooms.parse(payload) == (row.id, doc.game.room_code)
    for bad in ("r12", "r_abcdefghijk", "j12", "r12_short", "r12_" + "a" * 41, f"r{'1' * 19}_abcdefghijkl"):
        assert rooms.parse(bad) is None, bad
    # Every rule set a room's two seats can play; the partnership ones need four.
    assert set(rooms.presets()) == set(texts.PRESET_TITLES) - {"goat", "partners"}


def test_a_rematch_asks_only_people_still_at_the_table_and_seats_computers_for_the_others() -> None:
    seats = (
        Seat("Ann", 1),
        Seat("Bob", 2, away="kicked"),
        Seat("Cid", 3, away="blocked"),
        Seat("Dee", 4, away="left", timeouts=2),
    )
    doc = TableDoc(seats=seats, options=TableOptions(computer_level="hard"))
    assert rematch_request.people(doc) == [(1, "Ann"), (4, "Dee")]
    request = RematchRequest(confirmed=(1, 4))
    assert rematch_request.everyone_confirmed(doc, request)
    fresh = rematch_request.fresh_doc(doc)
    assert fresh.seats[0] == Seat("Ann", 1)
    assert fresh.seats[3] == Seat("Dee", 4)  # present again, the count of run-outs afresh
    assert [seat.is_computer for seat in fresh.seats if seat] == [False, True, True, False]
    assert [seat.level for seat in fresh.seats[1:3] if seat] == ["hard", "hard"]
    assert [seat.name for seat in fresh.seats[1:3] if seat] == ["🤖 Hard 1", "🤖 Hard 2"]

"""The stored game document (bot/model/game.py): its parts, its versions, and broken documents.

``table_doc_v1.json`` is a document exactly as the code before versioned documents wrote it (a
four-seat "draw" game mid-play: hands sent, an away seat, a clock running, run-out notices owed,
a rematch request), pasted as it was and never to be regenerated: such documents are in the
databases, and must keep loading.
"""

from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from bot.model import rematch_request
from bot.model.documents import load_game
from bot.model.game import (
    OPEN,
    VERSION,
    DocumentError,
    EndQuestion,
    GameState,
    HandMessage,
    RematchRequest,
    Seat,
    TableDoc,
    TableOptions,
    turn_key,
    turn_number,
)
from storage import GameRow, GameStatus

V1 = Path(__file__).with_name("table_doc_v1.json")


def _v1() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(V1.read_text(encoding="utf-8"))
    return data


def _row(data: dict[str, Any], game_id: int = 5) -> GameRow:
    return GameRow(game_id, -1009, "group", GameStatus.PLAYING, "draw", 1001, 12, data, 0.0, 0.0)


def test_a_document_written_before_versions_loads_with_every_field() -> None:
    data = _v1()
    assert "v" not in data  # as it was written then
    doc = TableDoc.from_json(data)
    assert doc.seats == (
        Seat("Ann", 1001),
        Seat("Bob", 1002, away="timeout", timeouts=2),
        Seat("🤖 Hard 1", level="hard"),
        Seat("Dee", 1004, timeouts=1),
    )
    assert doc.options == TableOptions(computer_level="hard", clock=30)
    assert doc.game == GameState(
        record=data["record"],
        lobby_message=501,
        board_message=502,
        board_round=0,
        hands={0: HandMessage(611, "0:10"), 3: HandMessage(614, "0:7")},
        results_posted=0,
        room_code=None,
        rematch=RematchRequest(messages=((-1009, 480), (1001, 481)), confirmed=(1001,), state=OPEN, game=None),
        deadline=1733100000.125,
        deadline_turn=10,
        killed=False,
        owed=((1, 8, True), (3, 6, False)),
        owed_claimed_until=1733099990.5,
    )
    assert doc.game.rematch is not None and doc.game.rematch.is_open
    # The record replays to the game it was: the first hand was sent for the turn now to play.
    game = load_game(_row(data))
    assert game.match is not None and turn_key(game.match) == doc.game.hands[0].turn_key
    assert turn_number(game.match) == doc.game.deadline_turn == 10


def test_saving_keeps_the_stored_shape_and_loading_it_again_gives_the_same_document() -> None:
    data = _v1()
    doc = TableDoc.from_json(data)
    saved = doc.to_json()
    # The same keys and values as before, only with the version: every reader of the JSON (an
    # older instance during a deploy, the tests and benches reading the database) reads it as before.
    assert saved == {"v": VERSION, **data}
    assert json.loads(json.dumps(saved)) == saved  # JSON as it is, nothing left for the database to convert
    again = TableDoc.from_json(json.loads(json.dumps(saved, ensure_ascii=False)))
    assert again == doc
    assert again.to_json() == saved


def test_every_field_has_one_key_in_the_stored_document() -> None:
    options = {item.name for item in fields(TableOptions)}
    game = {item.name for item in fields(GameState)}
    assert not options & game and not {"v", "seats"} & (options | game)
    # The creator's name, the chats a result has reached, the hints and the questions of ends came after
    # version 1 was written, with defaults that are not stored, so without a new version.
    later = {"creator", "results_sent", "hints", "hinted", "asked"}
    doc = TableDoc(
        seats=(None,),
        options=TableOptions(creator="Ann", hints=True),
        game=GameState(results_sent=((1, 2),), hinted=(0,), asked={0: EndQuestion(3, "63")}),
    )
    assert set(doc.to_json()) == {"v", "seats"} | options | game == set(_v1()) | {"v"} | later


def test_a_rematch_is_the_same_table_with_a_fresh_game() -> None:
    doc = TableDoc.from_json(_v1())
    fresh = rematch_request.fresh_doc(doc)
    assert fresh.options == doc.options and fresh.game == GameState()
    assert fresh.seats[1] == Seat("Bob", 1002) and fresh.seats[3] == Seat("Dee", 1004)  # back, run-outs afresh


def test_a_key_this_code_does_not_know_is_left_out() -> None:
    """A document from a newer instance with a new key (with a default, so no new version) still loads."""
    data = _v1()
    data["seats"][0]["colour"] = "red"
    data["rematch"]["reason"] = "later"
    data["some_new_option"] = 3
    doc = TableDoc.from_json(data)
    assert doc == TableDoc.from_json(_v1())
    assert "some_new_option" not in doc.to_json()


def test_old_documents_without_the_newer_keys_get_the_defaults() -> None:
    """Documents from before levels, rooms, rematches, clocks, /kill and owed notices."""
    data = _v1()
    for key in ("computer_level", "room_code", "rematch", "clock", "deadline", "deadline_turn", "killed", "owed"):
        del data[key]
    del data["owed_claimed_until"], data["board_round"], data["results_posted"]
    doc = TableDoc.from_json(data)
    assert doc.options == TableOptions()
    assert doc.game.rematch is None and doc.game.owed == () and not doc.game.killed and doc.game.board_round == -1


def _broken(change: str) -> object:
    data: Any = _v1()
    if change == "not an object":
        return [data]
    if change == "no seats":
        del data["seats"]
    elif change == "a seat without a name":
        del data["seats"][0]["name"]
    elif change == "a seat's user id is text":
        data["seats"][0]["user_id"] = "Ann"
    elif change == "a hand is not [message, turn]":
        data["hands"]["0"] = {"message": 611}
    elif change == "hands of no seat":
        data["hands"] = {"first": [611, "0:10"]}
    elif change == "an unknown rematch state":
        data["rematch"]["state"] = "maybe"
    elif change == "an owed notice too short":
        data["owed"] = [[1, 8]]
    elif change == "a record that is a list":
        data["record"] = []
    elif change == "a newer version":
        data["v"] = VERSION + 1
    elif change == "a version that is no number":
        data["v"] = "2"
    return data


# Each broken document, and what the error says is wrong (by the stored keys).
BROKEN = {
    "not an object": "a JSON object, not list",
    "no seats": "seats: Input should be a valid tuple",
    "a seat without a name": "seats.0.name: Field required",
    "a seat's user id is text": "seats.0.user_id: Input should be a valid integer",
    "a hand is not [message, turn]": "hands.0.message_id",
    "hands of no seat": "hands.first",
    "an unknown rematch state": "rematch.state: Input should be 'open', 'started' or 'cancelled'",
    "an owed notice too short": "owed.0.2: Field required",
    "a record that is a list": "record: Input should be a valid dictionary",
    "a newer version": "of version 3: this code reads 1 to 2",
    "a version that is no number": "of version '2': this code reads 1 to 2",
}


@pytest.mark.parametrize(("change", "said"), BROKEN.items())
def test_a_broken_document_is_a_clear_error(change: str, said: str) -> None:
    data = _broken(change)
    with pytest.raises(DocumentError) as raised:
        TableDoc.from_json(data)  # type: ignore[arg-type]
    assert isinstance(raised.value, ValueError)
    assert said in str(raised.value)
    assert "Ann" not in str(raised.value)  # what is wrong, not what the document holds
    if isinstance(data, dict):
        with pytest.raises(DocumentError, match=r"^game 77: "):
            load_game(_row(data, game_id=77))


def test_a_change_is_checked_as_it_is_made() -> None:
    doc = TableDoc.from_json(_v1())
    with pytest.raises(ValueError):
        replace(doc.game, deadline_turn="soon")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        replace(doc, seats=("Ann",))  # type: ignore[arg-type]

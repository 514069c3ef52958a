"""What a Mini App page is told about a game: one ``table`` frame (``bot/webapp/PROTOCOL.md``).

A seat's frame is built from that seat's :class:`engine.Observation` and a spectator's from the
public :class:`engine.Table`, never from the round's state: no frame can hold another seat's
tiles or the boneyard. The hands are shown only once the round is over, as the result in the
chat shows them. Build it inside ``speaking(language)``: its words are the reader's.

The line's geometry is the renderer's own (``renderer/layout.py``): the page draws the line
wrapping as the picture does, or in the rows of another width it is also sent when those fill
the page's felt better (a tall phone, a phone on its side).
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import Any

from bot.display.captions import result_caption
from bot.display.names import page_short_names, shown_names
from bot.model import absence
from bot.model.clock import clock_seconds
from bot.model.game import Game, turn_number
from bot.words import room_texts, table_texts, texts
from bot.words.refusals import Notice
from engine import End, Observation, Table, Tile, distinct_ends
from engine.events import Played
from engine.line import Line
from renderer.layout import BoardLayout, lay_out

HALF_WIDTH = 24  # the line's width in half-units: six lying tiles, the picture's proportions on a phone
# Other row widths the page may wrap a long line at: narrower rows for a tall phone, wider for a
# phone on its side; it takes the one that draws the tiles largest in the space it has.
OTHER_HALF_WIDTHS = (14, 18, 32)
LOG_LINES = 4
_TAG = re.compile(r"<[^>]+>")


def plain(words: str) -> str:
    """Caption words (HTML for Telegram) as plain text for the page."""
    return html.unescape(_TAG.sub("", words))


def _tile(tile: Tile) -> list[int]:
    return [tile.high, tile.low]


@lru_cache(maxsize=256)
def _line(line: Line) -> dict[str, Any]:
    """The line's geometry for the page. Cached: every page of a game gets the same line after
    each move (the layout is the costliest part of a frame); the dict is shared, so read only.
    ``wraps``: the same line at other row widths, only those where it wraps differently."""
    board = lay_out(line, HALF_WIDTH)
    drawn = _geometry(board)
    wraps: list[dict[str, Any]] = []
    for half_width in OTHER_HALF_WIDTHS:
        other = _geometry(lay_out(line, half_width))
        if other["spots"] != drawn["spots"]:
            wraps.append({"half_width": half_width, **other})
    return {**drawn, "spinner": board.spinner, "half_width": HALF_WIDTH, "wraps": wraps}


def _geometry(board: BoardLayout) -> dict[str, Any]:
    return {
        "spots": [
            {"tile": _tile(spot.tile), "rect": list(spot.rect), "first": spot.first, "second": spot.second}
            for spot in board.spots
        ],
        "badges": [{"end": badge.end.value, "value": badge.value, "rect": list(badge.rect)} for badge in board.badges],
        "bounds": list(board.bounds),
    }


def _last(table: Table) -> dict[str, Any] | None:
    for event in reversed(table.history):
        if isinstance(event, Played):
            end = event.end.value if event.end is not None else None
            return {"seat": event.seat, "tile": _tile(event.tile), "end": end, "scored": event.scored}
    return None


def _log_words(table: Table, names: list[str]) -> list[str]:
    """The last actions, as the captions word them (a forced lead said to be one)."""
    forced_lead = table.rules.names_the_lead(table.round_index)
    return table_texts.describe_events(list(table.history[-8:]), names, forced_lead=forced_lead)[-LOG_LINES:]


def _hand(view: Observation) -> list[dict[str, Any]]:
    """The seat's tiles, each with where it may go: of two mirror-image ends (a lone double's two
    sides) only one, so that the page plays such a tile at once instead of asking."""
    fits: dict[Tile, list[End]] = {}
    ends: dict[Tile, list[str]] = {}
    for move in view.legal_moves():
        if move.end is None:
            ends[move.tile] = ["lead"]
        else:
            fits.setdefault(move.tile, []).append(move.end)
    for tile, found in fits.items():
        ends[tile] = [end.value for end in distinct_ends(view.table.line, view.table.rules, tile, found)]
    return [{"tile": _tile(tile), "ends": ends.get(tile, [])} for tile in sorted(view.hand, reverse=True)]


def table_frame(game: Game, seat: int | None) -> dict[str, Any]:
    """The ``table`` frame of ``game`` for ``seat`` (None: a spectator)."""
    match = game.match
    if match is None:
        raise ValueError(f"game {game.id} has no match yet")  # i18n: not shown
    doc = game.doc
    names = shown_names(doc.seats)
    short = page_short_names(names)
    view = match.observe(seat) if seat is not None else None
    table = view.table if view is not None else match.table()
    over = table.end is not None
    turn = None if over or match.is_over else table.turn
    state = doc.game
    deadline = state.deadline if turn is not None and state.deadline_turn == turn_number(match) else None
    seconds = clock_seconds(doc, game.row.kind)
    if turn is None:
        status = plain(table_texts.round_over())
    elif turn == seat:
        status = plain(table_texts.your_turn())
    else:
        status = plain(table_texts.to_play(names[turn]))
    result = None
    if over:
        hands = [[_tile(tile) for tile in hand] for hand in match.round.hands]  # public once the round is over
        result = {
            "text": plain(result_caption(game, match, len(match.rounds) - 1)),
            "hands": hands,
            "over": match.is_over,
        }
    return {
        "type": "table",
        "game": game.id,
        "version": turn_number(match),
        "status": game.row.status.value,
        "preset": match.rules.id,
        "title": texts.preset_title(match.rules.id),
        "you": seat,
        "turn": turn,
        "deadline": deadline,
        "turn_seconds": seconds or None,
        "seats": [
            {
                "name": names[index],
                "short": short[index],  # shown where the whole name does not fit
                "tiles": size,
                "score": table.scores[index],
                "computer": doc.seats[index] is not None and doc.seats[index].user_id is None,  # type: ignore[union-attr]
                "away": not absence.present(doc, index),
                # A partnership game's team (0 or 1; the page tints the seat red or blue); None otherwise.
                "team": match.rules.side_of(index) if match.rules.has_teams else None,
            }
            for index, size in enumerate(table.hand_sizes)
        ],
        # None: a partnership game deals all 28 tiles, so there is no boneyard to show.
        "boneyard": None if match.rules.has_teams else table.boneyard_count,
        "line": _line(table.line),
        "last": _last(table),
        "hand": _hand(view) if view is not None and not over else [],
        "log": [plain(words) for words in _log_words(table, names)],
        "headline": status,
        "result": result,
        "texts": {**page_texts(), "boneyard": plain(table_texts.boneyard_count(table.boneyard_count))},
    }


def page_texts() -> dict[str, str]:
    """Every word the table page says by itself, in the current language (``speaking``)."""
    return {
        **table_texts.page_words(),
        "choose_end": Notice.CHOOSE_END.text,
        "rematch": plain(room_texts.rematch_button(0, 0)),
    }

"""The three pictures: the public table, one seat's private view, and a round's result.

What each may show is fixed by the type it takes:

- :func:`render_table` takes only the engine's public :class:`~engine.observation.Table`,
  which has no hand in it; it refuses anything else, an
  :class:`~engine.observation.Observation` included, so a group or a
  spectator is never sent a hand by mistake;
- :func:`render_private` takes one seat's :class:`~engine.observation.Observation`
  and shows that seat's hand and nobody else's;
- :func:`render_result` takes a :class:`~renderer.views.RoundResult`, which
  can only be made from a finished round.

Each ``render_*`` returns encoded :class:`~renderer.encode.Picture` bytes;
the matching ``draw_*`` returns the image before encoding, in palette ("P")
mode over the fixed palette of :mod:`renderer.theme`.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

import renderer.palette as palette
import renderer.theme as theme
from engine.observation import Observation, Table
from engine.rules import InPlay, Rules
from engine.tiles import Tile
from renderer.compose import (
    HandTile,
    Header,
    ResultRow,
    SeatLabel,
    choose_board,
    draw_board,
    draw_hand,
    draw_header,
    draw_result_rows,
    draw_team_strip,
    hand_height,
    header_height,
    result_rows_height,
    team_strip_height,
)
from renderer.encode import Picture, encode
from renderer.sprites import Look
from renderer.theme import Sizes
from renderer.views import RoundResult, last_played

WIDTH = 1080


def render_table(table: Table, names: Sequence[str] | None = None, *, width: int = WIDTH) -> Picture:
    """The picture the group and spectators see: the line, whose turn, tile counts, the boneyard."""
    return encode(draw_table(table, names, width=width))


def render_private(observation: Observation, names: Sequence[str] | None = None, *, width: int = WIDTH) -> Picture:
    """The picture one player sees in the private chat: the table with their own hand under it."""
    return encode(draw_private(observation, names, width=width))


def render_result(result: RoundResult, names: Sequence[str] | None = None, *, width: int = WIDTH) -> Picture:
    """The end of a round: every hand revealed, with its pips and the points scored, over the final line."""
    return encode(draw_result(result, names, width=width))


def draw_table(table: Table, names: Sequence[str] | None = None, *, width: int = WIDTH) -> Image.Image:
    if type(table) is not Table:  # not even a subclass: the spectator's picture takes nothing with a hand in it
        raise TypeError(f"the public picture takes an engine Table, not {type(table).__name__}")
    sizes = Sizes(width)
    return _table_picture(table, names, sizes, you=None, extra=0, board_max=sizes.board_max)


def draw_private(observation: Observation, names: Sequence[str] | None = None, *, width: int = WIDTH) -> Image.Image:
    if type(observation) is not Observation:
        raise TypeError(f"the private picture takes an engine Observation, not {type(observation).__name__}")
    sizes = Sizes(width)
    playable = {move.tile for move in observation.legal_moves()}
    hand = _hand(observation, playable)
    extra = hand_height(len(hand), sizes)
    canvas = _table_picture(
        observation.table, names, sizes, you=observation.seat, extra=extra, board_max=sizes.board_max_private
    )
    draw_hand(canvas, hand, canvas.height - extra, sizes)
    return canvas


def draw_result(result: RoundResult, names: Sequence[str] | None = None, *, width: int = WIDTH) -> Image.Image:
    if not isinstance(result, RoundResult):
        raise TypeError(f"the result picture takes a RoundResult, not {type(result).__name__}")
    sizes = Sizes(width)
    outcome = result.outcome
    labels = _names(names, result.seats)
    rows = [
        ResultRow(
            name=labels[seat],
            hand=result.hands[seat],
            pips=outcome.pips[seat],
            points=outcome.points[seat] + outcome.fives[seat],
            total=None if result.scores is None else result.scores[seat],
            winner=seat in outcome.winners,
            team=result.rules.side_of(seat) if result.rules.has_teams else None,
        )
        for seat in range(result.seats)
    ]
    rows_height = result_rows_height(rows, sizes)
    board = choose_board(result.line, result.last, sizes, sizes.board_max_private)
    board_height = max(round(sizes.board_min * 0.8), board.height + 2 * sizes.pad)
    rules = result.rules
    # A partnership game's match totals, team by team, above the rows (the replay's last frame ends on them).
    strip = team_strip_height(sizes) if rules.has_teams and result.scores is not None else 0
    canvas = palette.canvas((sizes.width, strip + rows_height + board_height), theme.FELT)
    if strip and result.scores is not None:
        totals = [result.scores[side[0]] for side in rules.sides(result.seats)]
        crowned = rules.side_of(outcome.winners[0]) if outcome.winners else None
        draw_team_strip(canvas, totals, crowned, 0, sizes)
    draw_result_rows(canvas, rows, strip, sizes)
    draw_board(canvas, board, strip + rows_height, board_height)
    return canvas


def _table_picture(
    table: Table, names: Sequence[str] | None, sizes: Sizes, *, you: int | None, extra: int, board_max: int
) -> Image.Image:
    board = choose_board(table.line, last_played(table.history), sizes, board_max)
    board_height = max(sizes.board_min, board.height + 2 * sizes.pad)
    header = header_height(table.seats, sizes)
    canvas = palette.canvas((sizes.width, header + board_height + extra), theme.FELT)
    draw_header(canvas, _header(table, names, you), sizes)
    draw_board(canvas, board, header, board_height)
    return canvas


def _header(table: Table, names: Sequence[str] | None, you: int | None) -> Header:
    labels = _names(names, table.seats)
    scored = _shows_scores(table.rules) and not table.rules.has_teams  # a team's total is in the box at the right
    seats = tuple(
        SeatLabel(
            name=labels[seat],
            tiles=table.hand_sizes[seat],
            score=table.scores[seat] if scored else None,
            to_play=table.end is None and table.turn == seat,
            you=seat == you,
            team=table.rules.side_of(seat) if table.rules.has_teams else None,
        )
        for seat in range(table.seats)
    )
    if table.rules.has_teams:  # the team totals where the boneyard would be (a partnership game has none)
        totals = tuple(table.scores[side[0]] for side in table.rules.sides(table.seats))
        return Header(seats, table.boneyard_count, totals)
    return Header(seats, table.boneyard_count)


def _shows_scores(rules: Rules) -> bool:
    return rules.is_match or rules.in_play is InPlay.FIVES


def _hand(observation: Observation, playable: set[Tile]) -> list[HandTile]:
    my_turn = observation.is_my_turn
    tiles = []
    for tile in observation.hand:
        if not my_turn:
            tiles.append(HandTile(tile, Look.PLAIN, False))
        elif tile in playable:
            tiles.append(HandTile(tile, Look.PLAYABLE, True))
        else:
            tiles.append(HandTile(tile, Look.DIMMED, False))
    return tiles


def _names(names: Sequence[str] | None, seats: int) -> list[str]:
    given = list(names or ())[:seats]
    return given + [f"#{seat + 1}" for seat in range(len(given), seats)]


__all__ = [
    "WIDTH",
    "draw_private",
    "draw_result",
    "draw_table",
    "render_private",
    "render_result",
    "render_table",
]

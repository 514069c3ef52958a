"""Pictures put together from sprites: the header of seats, the board, a hand, a round's result.

Everything here takes plain values (names, counts, a layout, tiles) and draws
onto palette ("P") images from :func:`renderer.palette.canvas`, pasting each
sprite over the colour it was laid on (see :mod:`renderer.sprites`); what may
be shown to whom is decided before, in :mod:`renderer.pictures`, from the
engine's public or private types.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

import renderer.palette as palette
import renderer.sprites as sprites
import renderer.theme as theme
from engine.line import Line
from engine.tiles import Tile
from renderer.fonts import fit_names, text_font
from renderer.layout import BoardLayout, lay_out
from renderer.sprites import Look
from renderer.theme import Colour, Sizes


class SeatLabel(NamedTuple):
    """What the header shows of one seat: all of it public."""

    name: str
    tiles: int
    score: int | None  # shown in scored games
    to_play: bool
    you: bool  # the seat whose private view this is
    team: int | None = None  # a partnership game's team (0 or 1): the card gets that team's colour


class Header(NamedTuple):
    seats: tuple[SeatLabel, ...]
    boneyard: int
    # A partnership game's team totals: the box at the right shows them, in the teams' colours,
    # where other games show the boneyard (a partnership game has none).
    team_scores: tuple[int, ...] | None = None


def team_bar(canvas: Image.Image, team: int, x: int, top: int, bottom: int, width: int) -> None:
    """A crisp bar in ``team``'s colour (no blends needed in the palette)."""
    colour = palette.index(theme.TEAM_COLOURS[team])
    ImageDraw.Draw(canvas).rectangle((x, top, x + width - 1, bottom - 1), fill=colour)


class Board(NamedTuple):
    """A line laid out at a pixel scale chosen to fit."""

    layout: BoardLayout
    half: int  # pixels per half-unit
    last: int | None  # index of the spot played last

    @property
    def height(self) -> int:
        return self.layout.bounds.height * self.half


def _write(
    canvas: Image.Image, x: int, y: int, text: str, size: int, colour: Colour, *, on: Colour, right: bool = False
) -> int:
    """Paste ``text`` over ``on`` with its left (or right) end at ``x`` and its middle at ``y``; returns its width."""
    sprite = sprites.label(text, size, colour, on=on)
    sprite.paste(canvas, x - sprite.width if right else x, y - sprite.height // 2)
    return sprite.width


class HandTile(NamedTuple):
    tile: Tile
    look: Look
    raised: bool


def choose_board(line: Line, last: Tile | None, sizes: Sizes, max_height: int) -> Board:
    """The line laid out with the biggest tiles whose board is at most ``max_height`` pixels tall."""
    usable = sizes.width - 2 * sizes.pad
    board: Board | None = None
    for half in sizes.half_units:
        half_width = usable // half // 2
        layout = lay_out(line, half_width)
        board = Board(layout, half, None if last is None else layout.spot_of(last))
        if board.height <= max_height:
            break
    assert board is not None
    return board


def draw_board(canvas: Image.Image, board: Board, top: int, height: int) -> None:
    """Paste the board's tiles and badges into ``canvas`` between ``top`` and ``top + height``, over the felt."""
    half = board.half
    bounds = board.layout.bounds
    left = (canvas.width - bounds.width * half) // 2 - bounds.x0 * half
    top = top + (height - bounds.height * half) // 2 - bounds.y0 * half
    for index, spot in enumerate(board.layout.spots):
        look = Look.LAST if index == board.last else Look.PLAIN
        sprite = sprites.tile(spot.first, spot.second, spot.vertical, half, look, on=theme.FELT)
        sprite.paste(canvas, left + spot.rect.x0 * half, top + spot.rect.y0 * half)
    size = 2 * half
    inset = max(1, half // 10)
    for badge in board.layout.badges:
        sprite = sprites.badge(badge.value, size - 2 * inset, on=theme.FELT)
        sprite.paste(canvas, left + badge.rect.x0 * half + inset, top + badge.rect.y0 * half + inset)


class Box(NamedTuple):
    x: int
    y: int
    width: int
    height: int


class HeaderLayout(NamedTuple):
    """Where the header's cards lie: two to a row, so that a name has half the picture's width."""

    cards: tuple[Box, ...]  # one per seat, in seat order: left to right, then the next row
    box: Box  # the boneyard (or a partnership's team totals) at the right, as tall as the rows
    height: int


def header_layout(seats: int, sizes: Sizes) -> HeaderLayout:
    """Four cards in a row left a phone 6 letters of a name at 7 px; two to a row leave it 10 or more, twice as tall."""
    width, pad = sizes.width, sizes.pad
    gap = pad // 2
    columns = max(1, min(seats, 2))
    rows = max(1, -(-seats // columns))
    bone_width = round(width * 0.12)
    card_width = (width - 2 * pad - bone_width - gap * columns) // columns
    card_height = sizes.card_height
    cards = tuple(
        Box(pad + column * (card_width + gap), gap + row * (card_height + gap), card_width, card_height)
        for row, column in (divmod(seat, columns) for seat in range(seats))
    )
    height = gap + rows * (card_height + gap)
    return HeaderLayout(cards, Box(width - pad - bone_width, gap, bone_width, height - 2 * gap), height)


def header_height(seats: int, sizes: Sizes) -> int:
    return header_layout(seats, sizes).height


def _name_room(card: Box, sizes: Sizes, *, teams: bool) -> tuple[int, int]:
    """Where a card's text starts and how wide its name may be, the turn's arrow before it.

    The same for every card of a picture, whether it is that seat's turn or not: a name is cut once
    and reads the same in every picture of the game (:func:`renderer.fonts.fit_names`)."""
    inner = round(card.height * 0.16)
    if teams:
        inner = max(3, sizes.width // 300) + 1 + _team_bar_width(card) + round(card.height * 0.1)
    arrow = round(sizes.name_font * 0.7) + round(sizes.name_font * 0.3)
    return inner, card.width - inner - arrow - round(card.height * 0.12)


def _team_bar_width(card: Box) -> int:
    return max(4, round(card.height * 0.11))


def draw_header(canvas: Image.Image, header: Header, sizes: Sizes) -> None:
    """The band of seat cards (name, tiles in hand, score; the seat to play marked) and the boneyard."""
    draw = ImageDraw.Draw(canvas)
    layout = header_layout(len(header.seats), sizes)
    draw.rectangle((0, 0, sizes.width - 1, layout.height - 1), fill=palette.index(theme.HEADER))
    name_font = text_font(sizes.name_font)
    icon = round(sizes.number_font * 0.95)
    teams = any(label.team is not None for label in header.seats)
    inset, room = _name_room(layout.cards[0], sizes, teams=teams) if layout.cards else (0, 0)
    names = (
        fit_names(tuple(label.name for label in header.seats), name_font, room)
        if name_font is not None
        else tuple(f"#{seat + 1}" for seat in range(len(header.seats)))
    )
    for label, name, (x, y, card_width, card_height) in zip(header.seats, names, layout.cards, strict=True):
        if label.to_play:
            fill = theme.CARD_TURN
            box = sprites.card(card_width, card_height, fill, theme.TURN, max(2, sizes.width // 300), on=theme.HEADER)
        else:
            fill = theme.CARD
            box = sprites.card(card_width, card_height, fill, on=theme.HEADER)
        box.paste(canvas, x, y)
        inner = x + inset
        if label.team is not None:  # the team's colour down the card's left side
            edge = max(3, sizes.width // 300) + 1
            bar_top, bar_bottom = y + round(card_height * 0.18), y + round(card_height * 0.82)
            team_bar(canvas, label.team, x + edge, bar_top, bar_bottom, _team_bar_width(layout.cards[0]))
        name_y = y + round(card_height * 0.3)
        stats_y = y + round(card_height * 0.72)
        if label.to_play:
            mark = sprites.arrow(round(sizes.name_font * 0.7), on=fill)
            mark.paste(canvas, inner, name_y - mark.height // 2)
            name_x = inner + mark.width + round(sizes.name_font * 0.3)
        else:
            name_x = inner
        _write(canvas, name_x, name_y, name, sizes.name_font, theme.TEXT, on=fill)
        tiles_icon = sprites.hand_icon(icon, on=fill)
        tiles_icon.paste(canvas, inner, stats_y - icon // 2)
        count_x = inner + tiles_icon.width + round(icon * 0.3)
        _write(canvas, count_x, stats_y, str(label.tiles), sizes.number_font, theme.TEXT, on=fill)
        if label.score is not None:
            score_x = x + card_width - round(card_height * 0.16)
            score_width = _write(
                canvas, score_x, stats_y, str(label.score), sizes.number_font, theme.TURN, on=fill, right=True
            )
            star = sprites.star(round(icon * 0.8), on=fill)
            star.paste(canvas, score_x - score_width - star.width - round(icon * 0.15), stats_y - star.height // 2)
        if label.you:
            bar = max(3, sizes.width // 200)
            left, right = x + card_height // 4, x + card_width - card_height // 4
            draw.rectangle((left, y + card_height - bar - 2, right, y + card_height - 3), fill=palette.index(theme.YOU))
    x, gap, bone_width, box_height = layout.box
    box = sprites.card(
        bone_width, box_height, theme.HEADER, theme.TEXT_DIM, max(1, sizes.width // 540), on=theme.HEADER
    )
    box.paste(canvas, x, gap)
    if header.team_scores is not None:
        _draw_team_scores(canvas, header.team_scores, x, gap, bone_width, box_height, sizes)
        return
    heap = sprites.boneyard_icon(icon, on=theme.HEADER)
    middle = gap + box_height // 2
    count = str(header.boneyard)
    count_width = sprites.label(count, sizes.number_font, theme.TEXT, on=theme.HEADER).width
    span = heap.width + round(icon * 0.3) + count_width
    start = x + (bone_width - span) // 2
    heap.paste(canvas, start, middle - heap.height // 2)
    _write(
        canvas, start + heap.width + round(icon * 0.3), middle, count, sizes.number_font, theme.TEXT, on=theme.HEADER
    )


def hand_height(count: int, sizes: Sizes) -> int:
    half = sizes.hand_half
    rows = _hand_rows(count, sizes)
    return sizes.pad + rows * (4 * half + round(half * 0.9)) + sizes.pad


def _hand_rows(count: int, sizes: Sizes) -> int:
    per_row = _hand_per_row(sizes)
    return max(1, -(-count // per_row))


def _hand_per_row(sizes: Sizes) -> int:
    half = sizes.hand_half
    gap = round(half * 0.5)
    return max(1, (sizes.width - 2 * sizes.pad + gap) // (2 * half + gap))


def draw_hand(canvas: Image.Image, hand: Sequence[HandTile], top: int, sizes: Sizes) -> None:
    """One's own tiles standing in rows under the table; playable ones raised and outlined."""
    height = hand_height(len(hand), sizes)
    ImageDraw.Draw(canvas).rectangle((0, top, sizes.width - 1, top + height - 1), fill=palette.index(theme.PANEL))
    half = sizes.hand_half
    gap = round(half * 0.5)
    lift = round(half * 0.6)
    per_row = _hand_per_row(sizes)
    row_height = 4 * half + round(half * 0.9)
    for start in range(0, len(hand), per_row):
        row = hand[start : start + per_row]
        row_width = len(row) * 2 * half + (len(row) - 1) * gap
        x = (sizes.width - row_width) // 2
        y = top + sizes.pad + (start // per_row) * row_height + round(half * 0.6)
        for item in row:
            sprite = sprites.tile(item.tile.high, item.tile.low, True, half, item.look, on=theme.PANEL)
            sprite.paste(canvas, x, y - (lift if item.raised else 0))
            x += 2 * half + gap


class ResultRow(NamedTuple):
    name: str
    hand: tuple[Tile, ...]
    pips: int
    points: int  # scored in this round, during play and at its end
    total: int | None  # the match's running total after the round
    winner: bool
    team: int | None = None  # a partnership game's team: the row gets that team's colour


def result_rows_height(rows: Sequence[ResultRow], sizes: Sizes) -> int:
    return sum(_result_row_height(row, sizes) for row in rows) + sizes.pad


def _result_half(sizes: Sizes) -> int:
    return max(6, round(sizes.width * 0.016))


def _result_columns(sizes: Sizes) -> tuple[int, int, int]:
    """Where a result row's tiles start, how wide the name before them and the numbers after them are."""
    name_width = round(sizes.width * 0.3)
    numbers_width = round(sizes.width * 0.36)
    return 2 * sizes.pad + name_width, name_width, numbers_width


def _result_tiles_per_line(sizes: Sizes) -> int:
    half = _result_half(sizes)
    tiles_x, _, numbers_width = _result_columns(sizes)
    room = sizes.width - sizes.pad - numbers_width - tiles_x
    return max(1, (room + half // 2) // (2 * half + half // 2))


def _result_row_height(row: ResultRow, sizes: Sizes) -> int:
    half = _result_half(sizes)
    lines = max(1, -(-len(row.hand) // _result_tiles_per_line(sizes)))
    return max(round(sizes.width * 0.09), lines * (4 * half + half // 2) + 2 * (sizes.pad // 2) + half // 2)


def draw_result_rows(canvas: Image.Image, rows: Sequence[ResultRow], top: int, sizes: Sizes) -> None:
    """A row per seat: name (crowned if it won), the hand it was left with, its pips, its points."""
    draw = ImageDraw.Draw(canvas)
    width, pad = sizes.width, sizes.pad
    height = result_rows_height(rows, sizes)
    draw.rectangle((0, top, width - 1, top + height - 1), fill=palette.index(theme.HEADER))
    name_font = text_font(sizes.name_font)
    half = _result_half(sizes)
    per_line = _result_tiles_per_line(sizes)
    tiles_x, _, _ = _result_columns(sizes)
    names = _result_names(rows, name_font, sizes)
    y = top + pad // 2
    for row, name in zip(rows, names, strict=True):
        row_height = _result_row_height(row, sizes)
        fill = theme.CARD_TURN if row.winner else theme.CARD
        sprites.card(width - 2 * pad, row_height - pad // 2, fill, on=theme.HEADER).paste(canvas, pad, y)
        middle = y + (row_height - pad // 2) // 2
        x = pad + round(pad * 0.8)
        if row.team is not None:  # the team's colour down the row's left side
            bar = max(4, round(sizes.width * 0.011))
            inset = round((row_height - pad // 2) * 0.16)
            team_bar(canvas, row.team, pad + max(3, pad // 4), y + inset, y + row_height - pad // 2 - inset, bar)
            x += bar
        if row.winner:
            mark = sprites.crown(round(sizes.name_font * 0.8), on=fill)
            mark.paste(canvas, x, middle - mark.height // 2)
            x += mark.width + round(pad * 0.4)
        _write(canvas, x, middle, name, sizes.name_font, theme.TEXT, on=fill)
        lines = max(1, -(-len(row.hand) // per_line))
        tiles_top = middle - (lines * (4 * half + half // 2) - half // 2) // 2
        for number, tile in enumerate(row.hand):
            line, column = divmod(number, per_line)
            sprite = sprites.tile(tile.high, tile.low, True, half, on=fill)
            sprite.paste(canvas, tiles_x + column * (2 * half + half // 2), tiles_top + line * (4 * half + half // 2))
        _draw_numbers(canvas, row, middle, sizes, fill)
        y += row_height


def _result_names(rows: Sequence[ResultRow], font: ImageFont.FreeTypeFont | None, sizes: Sizes) -> tuple[str, ...]:
    """The rows' names cut to the room a crowned row leaves, so that no two read alike."""
    if font is None:
        return tuple(f"#{seat + 1}" for seat in range(len(rows)))
    pad = sizes.pad
    _, name_width, _ = _result_columns(sizes)
    x = pad + round(pad * 0.8) + round(sizes.name_font * 0.8) + round(pad * 0.4)
    if any(row.team is not None for row in rows):
        x += max(4, round(sizes.width * 0.011))
    return fit_names(tuple(row.name for row in rows), font, pad + name_width - x)


def _draw_numbers(canvas: Image.Image, row: ResultRow, middle: int, sizes: Sizes, on: Colour) -> None:
    """Right to left, over the row's colour ``on``: the match total (if any), the round's points, the pips in hand."""
    width, pad, size = sizes.width, sizes.pad, sizes.number_font
    column = round(width * 0.115)
    right = width - 2 * pad
    if row.total is not None:
        total_width = _write(canvas, right, middle, str(row.total), size, theme.TEXT, on=on, right=True)
        star = sprites.star(round(size * 0.75), on=on)
        star.paste(canvas, right - total_width - star.width - pad // 4, middle - star.height // 2)
        right -= column + round(size * 0.4)
    points_colour: Colour = theme.TURN if row.points > 0 else theme.TEXT_DIM
    _write(canvas, right, middle, f"+{row.points}", size, points_colour, on=on, right=True)
    right -= column
    text_width = _write(canvas, right, middle, str(row.pips), size, theme.TEXT_DIM, on=on, right=True)
    pip = sprites.dot(round(size * 0.45), theme.TEXT_DIM, on=on)
    pip.paste(canvas, right - text_width - pip.width - pad // 3, middle - pip.height // 2)


def _draw_team_scores(
    canvas: Image.Image, scores: Sequence[int], x: int, y: int, width: int, height: int, sizes: Sizes
) -> None:
    """The team totals one above the other in the header's right box, each after its team's colour square."""
    size = round(sizes.number_font * 0.9)
    square = round(size * 0.7)
    rows = len(scores)
    for team, score in enumerate(scores):
        middle = y + round(height * (2 * team + 1) / (2 * rows))
        left = x + round(width * 0.16)
        team_bar(canvas, team, left, middle - square // 2, middle - square // 2 + square, square)
        _write(canvas, left + square + round(size * 0.35), middle, str(score), size, theme.TEXT, on=theme.HEADER)


def team_strip_height(sizes: Sizes) -> int:
    return round(sizes.width * 0.075)


def draw_team_strip(canvas: Image.Image, totals: Sequence[int], crowned: int | None, top: int, sizes: Sizes) -> None:
    """A partnership game's result: each team's colour square and match total side by side, centred,
    the round's winning team crowned (as its players' rows are)."""
    width, height = sizes.width, team_strip_height(sizes)
    ImageDraw.Draw(canvas).rectangle((0, top, width - 1, top + height - 1), fill=palette.index(theme.HEADER))
    size = sizes.number_font
    square = round(size * 0.75)
    gap = round(size * 0.35)
    middle = top + height // 2
    parts = []
    for team, total in enumerate(totals):
        text = sprites.label(str(total), size, theme.TEXT, on=theme.HEADER)
        mark = sprites.crown(round(size * 0.8), on=theme.HEADER) if team == crowned else None
        parts.append((team, text, mark, square + gap + text.width + (gap + mark.width if mark else 0)))
    spacing = round(width * 0.08)
    x = (width - sum(part[3] for part in parts) - spacing * (len(parts) - 1)) // 2
    for team, text, mark, part_width in parts:
        team_bar(canvas, team, x, middle - square // 2, middle - square // 2 + square, square)
        text.paste(canvas, x + square + gap, middle - text.height // 2)
        if mark is not None:
            mark.paste(canvas, x + square + gap + text.width + gap, middle - mark.height // 2)
        x += part_width + spacing

"""📊 Form at a glance: a player's rating over their last games, wins per rule set, and a ranked board.

Two pictures, in the table's colours, each from plain values and the words to write on it (the
caller's, in the reader's language):

- :func:`render_form`: a :class:`Form`, the rating after each of the player's last games as a line
  (a chat's median as a dashed line beside it), games and wins per rule set as bars, the best streak;
- :func:`render_board`: a :class:`Board` of ranked :class:`Standing` rows, each with its rating and
  a small line of its last ratings (the trend).

Drawn at twice the size and scaled down, so lines are smooth on a phone.

>>> form = Form("Ann", "Rating", [1000, 1040, 1105], 1000, "median", [("Draw", 5, 3)], "3 of 5", "Streak: 2")
>>> picture = render_form(form)
>>> picture.width, picture.format in ("png", "jpeg")
(1080, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw

import renderer.theme as theme
from renderer.encode import Picture, encode
from renderer.fonts import FONT_LOCK, clean, fit, number_font, text_font
from renderer.theme import Colour

WIDTH = 1080
SCALE = 2  # drawn this many times larger, then scaled down
LINE: Colour = theme.TURN
MEDIAN: Colour = theme.TEXT_DIM
WINS: Colour = theme.PLAY_EDGE
GAMES: Colour = theme.CARD_TURN
UP: Colour = theme.PLAY_EDGE
DOWN: Colour = theme.LAST_EDGE


class Form(NamedTuple):
    name: str
    rating_label: str  # "Rating" (the line's heading)
    ratings: Sequence[int]  # after each game, oldest first, as people see them (1000 for a new player)
    median: int | None  # the chat's median rating, for comparison (None: not in a group)
    median_label: str
    presets: Sequence[tuple[str, int, int]]  # (rule set's title, games, wins)
    wins_label: str  # "12 wins of 20 games"
    streak_label: str  # "Best streak: 4"


class Standing(NamedTuple):
    place: int
    name: str
    value: str  # what the board is ranked by: "1105", or "12 wins"
    detail: str  # under the name: "20 games"
    trend: Sequence[int]  # the last ratings, oldest first


class Board(NamedTuple):
    title: str
    rows: Sequence[Standing]


def render_form(form: Form, *, width: int = WIDTH) -> Picture:
    return encode(draw_form(form, width=width))


def render_board(board: Board, *, width: int = WIDTH) -> Picture:
    return encode(draw_board(board, width=width))


class _Pen:
    """Drawing at ``SCALE`` on an RGB canvas, sizes given in final pixels."""

    def __init__(self, width: int, height: int) -> None:
        self.image = Image.new("RGB", (width * SCALE, height * SCALE), theme.FELT)
        self.draw = ImageDraw.Draw(self.image)

    def box(self, x0: float, y0: float, x1: float, y1: float, colour: Colour, radius: float = 0) -> None:
        self.draw.rounded_rectangle(
            [x0 * SCALE, y0 * SCALE, x1 * SCALE, y1 * SCALE], radius=radius * SCALE, fill=colour
        )

    def text(
        self, x: float, y: float, words: str, size: int, colour: Colour, *, anchor: str = "lm", width: int = 0
    ) -> None:
        """``words`` at ``x, y`` (``anchor`` as Pillow's), cut to ``width`` pixels with an ellipsis."""
        font = text_font(size * SCALE)
        if font is None:  # no font with letters here: the digits alone
            self.draw.text((x * SCALE, y * SCALE), words, font=number_font(size * SCALE), fill=colour, anchor=anchor)
            return
        shown = fit(words, font, width * SCALE) if width else clean(words, font)
        with FONT_LOCK:
            self.draw.text((x * SCALE, y * SCALE), shown, font=font, fill=colour, anchor=anchor)

    def line(self, points: Sequence[tuple[float, float]], colour: Colour, width: float) -> None:
        scaled = [(x * SCALE, y * SCALE) for x, y in points]
        if len(scaled) > 1:
            self.draw.line(scaled, fill=colour, width=round(width * SCALE), joint="curve")

    def dot(self, x: float, y: float, radius: float, colour: Colour) -> None:
        r = radius * SCALE
        self.draw.ellipse([x * SCALE - r, y * SCALE - r, x * SCALE + r, y * SCALE + r], fill=colour)

    def dashed(self, x0: float, x1: float, y: float, colour: Colour, width: float, dash: float) -> None:
        x = x0
        while x < x1:
            self.line([(x, y), (min(x + dash, x1), y)], colour, width)
            x += 2 * dash

    def done(self) -> Image.Image:
        size = (self.image.width // SCALE, self.image.height // SCALE)
        return self.image.resize(size, Image.Resampling.LANCZOS)


def draw_form(form: Form, *, width: int = WIDTH) -> Image.Image:
    pad = round(width * 0.04)
    title = round(width * 0.12)
    chart = round(width * 0.5)
    row = round(width * 0.075)
    footer = round(width * 0.09)
    height = title + chart + pad + row * max(1, len(form.presets)) + footer
    pen = _Pen(width, height)
    pen.box(0, 0, width, title, theme.HEADER)
    current = form.ratings[-1] if form.ratings else None
    pen.text(pad, title / 2, form.name, round(width * 0.045), theme.TEXT, width=round(width * 0.6))
    if current is not None:
        pen.text(width - pad, title / 2, str(current), round(width * 0.05), theme.TURN, anchor="rm")
    _rating_line(pen, form, (pad, title + pad, width - pad, title + chart - pad // 2), round(width * 0.028))
    top = title + chart + pad
    most = max((games for _, games, _ in form.presets), default=1) or 1
    label_width = round(width * 0.3)
    bar_left, bar_right = pad + label_width, width - pad - round(width * 0.16)
    size = round(width * 0.032)
    for index, (preset, games, wins) in enumerate(form.presets):
        middle = top + index * row + row / 2
        pen.text(pad, middle, preset, size, theme.TEXT, width=label_width - pad // 2)
        span = (bar_right - bar_left) * games / most
        pen.box(bar_left, middle - row * 0.3, bar_left + span, middle + row * 0.3, GAMES, radius=row * 0.12)
        if wins:
            pen.box(bar_left, middle - row * 0.3, bar_left + span * wins / games, middle + row * 0.3, WINS, row * 0.12)
        pen.text(width - pad, middle, f"{wins}/{games}", size, theme.TEXT, anchor="rm")
    bottom = height - footer
    pen.box(0, bottom, width, height, theme.HEADER)
    pen.text(pad, bottom + footer / 2, form.wins_label, size, theme.TEXT, width=round(width * 0.55))
    pen.text(width - pad, bottom + footer / 2, form.streak_label, size, theme.TURN, anchor="rm")
    return pen.done()


def _rating_line(pen: _Pen, form: Form, area: tuple[int, int, int, int], size: int) -> None:
    left, top, right, bottom = area
    if not form.ratings:  # no rated game yet: the words alone ("Rating: none yet"), no made-up line
        pen.text((left + right) / 2, (top + bottom) / 2, form.rating_label, size, theme.TEXT_DIM, anchor="mm")
        return
    pen.text(left, top + size, form.rating_label, size, theme.TEXT_DIM)
    top += size * 3
    values = list(form.ratings)
    marks = values + ([form.median] if form.median is not None else [])
    low, high = min(marks), max(marks)
    if high - low < 40:  # a flat line in the middle rather than noise blown up
        low, high = (low + high) // 2 - 20, (low + high) // 2 + 20
    axis = left + size * 4

    def y(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for value in (low, high):
        pen.text(left, y(value), str(round(value)), size, theme.TEXT_DIM)
    if form.median is not None:
        pen.dashed(axis, right, y(form.median), MEDIAN, 3, 14)
        label = f"{form.median_label} {form.median}"
        pen.text(axis, y(form.median) + size, label, size, MEDIAN, width=right - axis)
    step = (right - axis) / max(1, len(values) - 1)
    points = [(axis + i * step if len(values) > 1 else (axis + right) / 2, y(v)) for i, v in enumerate(values)]
    pen.line(points, LINE, 6)
    for x, yy in points[-1:] if len(points) > 30 else points:
        pen.dot(x, yy, 7, LINE)


def draw_board(board: Board, *, width: int = WIDTH) -> Image.Image:
    pad = round(width * 0.04)
    title = round(width * 0.12)
    row = round(width * 0.1)
    height = title + row * max(1, len(board.rows)) + pad
    pen = _Pen(width, height)
    pen.box(0, 0, width, title, theme.HEADER)
    pen.text(pad, title / 2, board.title, round(width * 0.045), theme.TEXT, width=width - 2 * pad)
    size = round(width * 0.036)
    trend_left, trend_right = round(width * 0.56), round(width * 0.78)
    for index, standing in enumerate(board.rows):
        top = title + index * row
        middle = top + row / 2
        pen.box(pad / 2, top + row * 0.08, width - pad / 2, top + row * 0.92, theme.CARD, radius=row * 0.15)
        colour = theme.TURN if standing.place == 1 else theme.TEXT
        pen.text(pad, middle, f"{standing.place}.", size, colour)
        pen.text(pad + size * 2.2, middle - size * 0.45, standing.name, size, theme.TEXT, width=trend_left - pad * 3)
        pen.text(pad + size * 2.2, middle + size * 0.75, standing.detail, round(size * 0.7), theme.TEXT_DIM)
        _trend(pen, standing.trend, (trend_left, top + row * 0.25, trend_right, top + row * 0.75))
        pen.text(width - pad, middle, standing.value, size, theme.TURN, anchor="rm")
    return pen.done()


def _trend(pen: _Pen, values: Sequence[int], area: tuple[float, float, float, float]) -> None:
    left, top, right, bottom = area
    if len(values) < 2:
        return
    low, high = min(values), max(values)
    spread = max(high - low, 20)
    step = (right - left) / (len(values) - 1)
    points = [(left + i * step, bottom - (v - low) / spread * (bottom - top)) for i, v in enumerate(values)]
    pen.line(points, UP if values[-1] >= values[0] else DOWN, 4)
    pen.dot(*points[-1], 5, UP if values[-1] >= values[0] else DOWN)

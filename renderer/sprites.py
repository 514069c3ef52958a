"""Pre-rendered, cached pictures of tiles, badges, cards and icons, ready to paste.

Each sprite is drawn once at four times its size and reduced, which gives
smooth (anti-aliased) edges and pips; a tile is drawn lying down and stood up
by a quarter turn, which is exact. A sprite is then laid on the one colour it
is pasted over (a tile on the felt, a name on its seat's card) and mapped onto
the fixed palette, so that a picture is put together in palette mode and only
ever pastes: :class:`Sprite` keeps the mapped pixels with a mask of the pixels
the sprite covers, and pasting it gives exactly what blending it onto that
background and mapping the result would.
"""

from __future__ import annotations

import enum
import math
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

import renderer.theme as theme
from renderer.fonts import FONT_LOCK, number_font, text_font
from renderer.palette import to_palette
from renderer.theme import Colour

SUPERSAMPLE = 4

# Where the pips of each number sit in a half, as (column, row) on a 3 x 3 grid, the tile lying down.
PIP_GRID: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)),
}
_SPACING = 0.235  # between neighbouring pips, as a fraction of the short side
_COVERED = [0] + [255] * 255  # alpha to mask: any trace of the sprite is its own pixel


class Look(enum.Enum):
    """How a tile is marked."""

    PLAIN = "plain"
    LAST = "last"  # the tile played last
    PLAYABLE = "playable"  # in one's hand, can be played now
    DIMMED = "dimmed"  # in one's hand, cannot be played now


_LOOKS: dict[Look, tuple[Colour, Colour, Colour, float]] = {
    # face, outline, pips, outline width (fraction of the short side)
    Look.PLAIN: (theme.FACE, theme.EDGE, theme.PIP, 0.045),
    Look.LAST: (theme.LAST_FACE, theme.LAST_EDGE, theme.PIP, 0.1),
    Look.PLAYABLE: (theme.FACE, theme.PLAY_EDGE, theme.PIP, 0.1),
    Look.DIMMED: (theme.DIM_FACE, theme.EDGE, theme.DIM_PIP, 0.045),
}


class Sprite(NamedTuple):
    """A sprite laid on a known background: palette pixels, and the mask of the pixels it covers."""

    image: Image.Image  # "P", over the fixed palette
    mask: Image.Image  # "L": 255 where the sprite shows, 0 where its background is left as it was

    @property
    def width(self) -> int:
        return self.image.width

    @property
    def height(self) -> int:
        return self.image.height

    def paste(self, canvas: Image.Image, x: int, y: int) -> None:
        """Paste onto a palette ``canvas`` with the top left corner at ``x, y``, over the background it was laid on."""
        canvas.paste(self.image, (x, y), self.mask)


def flatten(rgba: Image.Image, on: Colour) -> Sprite:
    """``rgba`` blended onto the colour ``on`` and mapped onto the palette, with the mask of its pixels."""
    blended = Image.new("RGB", rgba.size, on)
    blended.paste(rgba, (0, 0), rgba)
    return Sprite(to_palette(blended), rgba.getchannel("A").point(_COVERED))


@lru_cache(maxsize=256)  # only while the sprites made from it are drawn
def tile_rgba(first: int, second: int, vertical: bool, half: int, look: Look = Look.PLAIN) -> Image.Image:
    """The RGBA picture of a tile showing ``first`` on its left (top) half, ``half`` pixels per half-unit.

    A lying tile is ``4 * half`` wide and ``2 * half`` tall; a standing one the other way round.
    The face is inset a little, so that two touching tiles show a thin gap.
    """
    if vertical:
        # A quarter turn anticlockwise brings the right half to the top.
        return tile_rgba(second, first, False, half, look).transpose(Image.Transpose.ROTATE_90)
    face, outline, pip, outline_width = _LOOKS[look]
    scale = SUPERSAMPLE
    short = 2 * half * scale
    width, height = 2 * short, short
    image = Image.new("RGBA", (width, height), (*face, 0))
    draw = ImageDraw.Draw(image)
    inset = max(scale, round(0.05 * short))
    line = max(scale, round(outline_width * short))
    draw.rounded_rectangle(
        (inset, inset, width - inset - 1, height - inset - 1),
        radius=round(0.16 * short),
        fill=face,
        outline=outline,
        width=line,
    )
    margin = round(0.14 * short)
    draw.line(
        (width // 2, margin, width // 2, height - margin), fill=theme.DIVIDER, width=max(scale, round(0.035 * short))
    )
    radius = 0.08 * short
    spacing = _SPACING * short
    for centre, number in ((short / 2, first), (short * 1.5, second)):
        for column, row in PIP_GRID[number]:
            x = centre + (column - 1) * spacing
            y = short / 2 + (row - 1) * spacing
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=pip)
    return image.reduce(scale)


@lru_cache(maxsize=2048)  # a game uses a few hundred; each is a few kilobytes
def tile(first: int, second: int, vertical: bool, half: int, look: Look = Look.PLAIN, *, on: Colour) -> Sprite:
    """:func:`tile_rgba` laid on ``on``."""
    return flatten(tile_rgba(first, second, vertical, half, look), on)


@lru_cache(maxsize=256)
def badge(value: int, size: int, *, on: Colour) -> Sprite:
    """A round badge ``size`` pixels across with an open end's number in it."""
    scale = SUPERSAMPLE
    side = size * scale
    image = Image.new("RGBA", (side, side), (*theme.BADGE_FILL, 0))
    draw = ImageDraw.Draw(image)
    border = max(scale, round(0.075 * side))
    draw.ellipse((0, 0, side - 1, side - 1), fill=theme.BADGE_EDGE)
    draw.ellipse((border, border, side - 1 - border, side - 1 - border), fill=theme.BADGE_FILL)
    font = number_font(round(0.68 * side))
    with FONT_LOCK:
        draw.text((side / 2, side / 2 + 0.02 * side), str(value), font=font, fill=theme.BADGE_EDGE, anchor="mm")
    return flatten(image.reduce(scale), on)


@lru_cache(maxsize=256)
def card(width: int, height: int, fill: Colour, outline: Colour | None = None, line: int = 0, *, on: Colour) -> Sprite:
    """A rounded rectangle (a seat's card, a panel), optionally outlined."""
    scale = SUPERSAMPLE
    image = Image.new("RGBA", (width * scale, height * scale), (*fill, 0))
    draw = ImageDraw.Draw(image)
    radius = round(min(width, height) * 0.18) * scale
    box = (0, 0, width * scale - 1, height * scale - 1)
    if outline is None or line <= 0:
        draw.rounded_rectangle(box, radius=radius, fill=fill)
    else:
        draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=line * scale)
    return flatten(image.reduce(scale), on)


@lru_cache(maxsize=64)
def hand_icon(height: int, *, on: Colour) -> Sprite:
    """A small standing tile seen from the front: "tiles in hand"."""
    return flatten(_icon_tiles(height, 1), on)


@lru_cache(maxsize=64)
def boneyard_icon(height: int, *, on: Colour) -> Sprite:
    """Three tiles in a heap: "tiles left to draw"."""
    return flatten(_icon_tiles(height, 3), on)


def _icon_tiles(height: int, count: int) -> Image.Image:
    scale = SUPERSAMPLE
    tall = height * scale
    wide = tall // 2
    step = round(wide * 0.45)
    image = Image.new("RGBA", (wide + step * (count - 1), tall), (*theme.FACE, 0))
    draw = ImageDraw.Draw(image)
    line = max(scale, round(tall * 0.07))
    for index in range(count):
        x = index * step
        draw.rounded_rectangle(
            (x, 0, x + wide - 1, tall - 1), radius=round(wide * 0.22), fill=theme.FACE, outline=theme.EDGE, width=line
        )
        draw.line((x + wide * 0.25, tall / 2, x + wide * 0.75, tall / 2), fill=theme.DIVIDER, width=line)
    return image.reduce(scale)


@lru_cache(maxsize=64)
def crown(height: int, colour: Colour = theme.TURN, *, on: Colour) -> Sprite:
    """A crown: the winner of a round."""
    scale = SUPERSAMPLE
    tall = height * scale
    wide = round(tall * 1.3)
    image = Image.new("RGBA", (wide, tall), (*colour, 0))
    draw = ImageDraw.Draw(image)
    points = [
        (0, tall * 0.25),
        (wide * 0.28, tall * 0.55),
        (wide * 0.5, 0),
        (wide * 0.72, tall * 0.55),
        (wide, tall * 0.25),
        (wide * 0.88, tall),
        (wide * 0.12, tall),
    ]
    draw.polygon(points, fill=colour)
    return flatten(image.reduce(scale), on)


@lru_cache(maxsize=64)
def star(height: int, colour: Colour = theme.TURN, *, on: Colour) -> Sprite:
    """A five-pointed star: points scored."""
    scale = SUPERSAMPLE
    side = height * scale
    image = Image.new("RGBA", (side, side), (*colour, 0))
    centre, outer, inner = side / 2, side / 2, side * 0.2
    points = []
    for index in range(10):
        radius = outer if index % 2 == 0 else inner
        angle = math.pi * (index / 5 - 0.5)
        points.append((centre + radius * math.cos(angle), centre + 0.06 * side + radius * math.sin(angle)))
    ImageDraw.Draw(image).polygon(points, fill=colour)
    return flatten(image.reduce(scale), on)


@lru_cache(maxsize=64)
def arrow(height: int, colour: Colour = theme.TURN, *, on: Colour) -> Sprite:
    """A triangle pointing right: the seat to play."""
    scale = SUPERSAMPLE
    tall = height * scale
    wide = round(tall * 0.8)
    image = Image.new("RGBA", (wide, tall), (*colour, 0))
    ImageDraw.Draw(image).polygon([(0, 0), (wide, tall / 2), (0, tall)], fill=colour)
    return flatten(image.reduce(scale), on)


@lru_cache(maxsize=64)
def dot(size: int, colour: Colour, *, on: Colour) -> Sprite:
    """A filled circle: a pip in a label."""
    scale = SUPERSAMPLE
    image = Image.new("RGBA", (size * scale, size * scale), (*colour, 0))
    ImageDraw.Draw(image).ellipse((0, 0, size * scale - 1, size * scale - 1), fill=colour)
    return flatten(image.reduce(scale), on)


@lru_cache(maxsize=1024)
def label(text: str, size: int, colour: Colour, *, on: Colour) -> Sprite:
    """``text`` in the text font (digits: any font), its middle at half its height.

    Names and numbers repeat from one picture of a game to the next, so they are drawn once.
    """
    font = text_font(size) or number_font(size)
    height = round(size * 1.5)
    with FONT_LOCK:
        width = max(1, round(font.getlength(text)) + 2)
        mask = Image.new("L", (width, height), 0)
        ImageDraw.Draw(mask).text((1, height / 2), text, font=font, fill=255, anchor="lm")
    image = Image.new("RGBA", (width, height), (*colour, 0))
    image.putalpha(mask)
    return flatten(image, on)


def clear_caches() -> None:
    """Forget every sprite and font, so that the next picture looks for fonts again (for tests)."""
    import renderer.fonts as fonts

    for cached in (tile_rgba, tile, badge, card, hand_icon, boneyard_icon, crown, star, arrow, dot, label):
        cached.cache_clear()
    for found in (fonts.font_file, fonts.text_font, fonts.number_font, fonts.fit, fonts.fit_names):
        found.cache_clear()

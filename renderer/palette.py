"""Pictures in the fixed palette of :mod:`renderer.theme`: mapping colours onto it, blank canvases.

Pictures are drawn straight in palette ("P") mode: every sprite is mapped
onto the palette once, when it is first drawn, so a finished picture needs no
colour mapping at all. The mapping is Pillow's (nearest colour, no
dithering); a colour is always mapped to the same entry, wherever it is.

>>> from renderer import theme
>>> image = canvas((4, 3), theme.FELT)
>>> image.mode, image.getpixel((0, 0)) == index(theme.FELT), to_palette(image) is image
('P', True, True)
>>> to_palette(Image.new("RGB", (4, 3), theme.FELT)).tobytes() == image.tobytes()
True
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from renderer.theme import PALETTE, Colour


@lru_cache(maxsize=1)
def _palette_image() -> Image.Image:
    image = Image.new("P", (1, 1))
    image.putpalette(PALETTE)
    return image


def to_palette(image: Image.Image) -> Image.Image:
    """``image`` mapped onto the fixed palette, each pixel to its nearest colour (no dithering).

    An image already over the fixed palette is returned as it is.
    """
    if image.mode == "P" and image.getpalette() == PALETTE:
        return image
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    return rgb.quantize(palette=_palette_image(), dither=Image.Dither.NONE)


@lru_cache(maxsize=256)
def index(colour: Colour) -> int:
    """The palette entry that a pixel of ``colour`` is mapped to."""
    entry = to_palette(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
    assert isinstance(entry, int)
    return entry


def canvas(size: tuple[int, int], colour: Colour) -> Image.Image:
    """A picture of ``size`` over the fixed palette, filled with ``colour``."""
    image = Image.new("P", size, index(colour))
    image.putpalette(PALETTE)
    return image

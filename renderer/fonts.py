"""Fonts for names and numbers, found at run time; none is part of this repository.

The search order:

1. Roboto from the PyPI package ``fontpkg-roboto`` (Latin, Cyrillic, Greek),
   so that a plain ``pip install`` draws names;
2. DejaVu Sans from Debian's ``fonts-dejavu-core``
   (``/usr/share/fonts/truetype/dejavu``), for the Docker image;
3. neither: pictures carry no names (seats are shown by number) and numbers
   are drawn with the font built into Pillow, which has digits.

Characters a font lacks (emoji in a Telegram name, say) are dropped rather
than drawn as empty boxes, and long names are shortened so that the seats stay apart
(:mod:`renderer.names`).
"""

from __future__ import annotations

import contextlib
import importlib
import threading
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from PIL import ImageFont

from renderer.names import cut_end, short_names

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
# A FreeType face must not be used by two threads at once; the bot may render from a thread pool.
# Every use is behind this lock, and rare: the results (labels, badges, fitted names) are cached.
FONT_LOCK = threading.RLock()


class FontFile(NamedTuple):
    name: str  # e.g. "Roboto", recorded beside golden images
    path: Path
    variable: bool  # a variable font: weights are chosen by axis


def _roboto() -> FontFile | None:
    try:
        fontpkg = importlib.import_module("fontpkg")
        path = Path(fontpkg.path("Roboto"))
    except Exception:  # the package is optional: any failure to find it means "not installed"
        return None
    return FontFile("Roboto", path, True) if path.is_file() else None


def _dejavu() -> FontFile | None:
    path = DEJAVU / "DejaVuSans-Bold.ttf"
    return FontFile("DejaVu Sans", path, False) if path.is_file() else None


@lru_cache(maxsize=1)
def font_file() -> FontFile | None:
    """The font pictures are drawn with, or None when there is none to be had."""
    for find in (_roboto, _dejavu):
        found = find()
        if found is not None:
            return found
    return None


@lru_cache(maxsize=64)
def text_font(size: int) -> ImageFont.FreeTypeFont | None:
    """A bold font of ``size`` pixels for names, or None when pictures must go without text."""
    found = font_file()
    if found is None:
        return None
    with FONT_LOCK:
        font = ImageFont.truetype(str(found.path), size)
    if found.variable:
        with contextlib.suppress(OSError):  # a FreeType without variable fonts draws the default weight
            font.set_variation_by_axes([700, 100])  # Roboto's axes: weight, width
    return font


@lru_cache(maxsize=64)
def number_font(size: int) -> Font:
    """A font that always has the digits: the text font, else Pillow's own."""
    return text_font(size) or ImageFont.load_default(size)


@lru_cache(maxsize=4096)
def _drawable(font: ImageFont.FreeTypeFont, char: str) -> bool:
    """Whether ``font`` has a glyph for ``char`` (a missing one is drawn as the .notdef box)."""
    if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return False
    if char == " ":
        return True
    mask = font.getmask(char)
    if mask.getbbox() is None:  # an invisible glyph: spaces, or nothing worth keeping
        return unicodedata.category(char) == "Zs"
    return _signature(font, char) != _signature(font, "\U000f0000")  # a private-use character: .notdef


def _signature(font: ImageFont.FreeTypeFont, char: str) -> tuple[object, ...]:
    mask = font.getmask(char)
    return mask.size, mask.getbbox(), tuple(mask.histogram())


def clean(text: str, font: ImageFont.FreeTypeFont) -> str:
    """``text`` without the characters ``font`` cannot draw, spaces squeezed."""
    with FONT_LOCK:
        kept = "".join(char for char in unicodedata.normalize("NFC", text) if _drawable(font, char))
    return " ".join(kept.split())


@lru_cache(maxsize=1024)
def fit(text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` (words, a line of a replay) cleaned and, if it is wider than ``width`` pixels, cut short
    with an ellipsis; seat names are cut by :func:`fit_names`.

    >>> font = text_font(20)
    >>> font is None or fit("Александра Константинопольская", font, 120).endswith("…")
    True
    """
    with FONT_LOCK:
        return cut_end(clean(text, font), _fits(font, width))


@lru_cache(maxsize=256)
def fit_names(names: tuple[str, ...], font: ImageFont.FreeTypeFont, width: int) -> tuple[str, ...]:
    """Every seat's name cleaned and shortened to ``width`` pixels, no two alike (:func:`renderer.names.short_names`);
    a name with nothing the font can draw is its seat's number, "#2"."""
    with FONT_LOCK:
        cleaned = [clean(name, font) or f"#{seat + 1}" for seat, name in enumerate(names)]
        return tuple(short_names(cleaned, _fits(font, width)))


def _fits(font: ImageFont.FreeTypeFont, width: int) -> Callable[[str], bool]:
    return lambda text: font.getlength(text) <= width

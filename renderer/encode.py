"""Image to bytes that Telegram accepts as a photo, in whichever encoding is smallest.

Pictures are flat colours with anti-aliased edges, drawn over the fixed
palette of :mod:`renderer.theme`, so a palette PNG (written by
:mod:`renderer.png`) is nearly always the smallest and is exact; lossy WebP
and JPEG are tried only when it comes out over ``budget`` (or when asked to
try everything), and the smallest result wins. An RGB image is mapped onto
the palette first.

Telegram's photo limits: at most 10 MB, width + height at most 10000, the
longer side at most 20 times the shorter.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image

from renderer.palette import to_palette
from renderer.png import write_png

MAX_BYTES = 10 * 1024 * 1024
MAX_SIDES = 10_000
MAX_RATIO = 20
BUDGET = 40_000  # bytes a picture should stay under, so that it arrives at once on a phone
FORMATS = ("png", "webp", "jpeg")
_MIME = {"png": "image/png", "webp": "image/webp", "jpeg": "image/jpeg"}


class PhotoLimitError(ValueError):
    """A picture Telegram would refuse as a photo."""

    code = "photo_limits"


class Picture(NamedTuple):
    """Encoded picture bytes and what a sender needs to know about them."""

    data: bytes
    format: str  # "png", "webp" or "jpeg"
    width: int
    height: int

    @property
    def mime(self) -> str:
        return _MIME[self.format]

    @property
    def filename(self) -> str:
        return f"dominoes.{'jpg' if self.format == 'jpeg' else self.format}"

    def __len__(self) -> int:
        return len(self.data)


def check_limits(width: int, height: int, size: int = 0) -> None:
    """Raise :class:`PhotoLimitError` unless Telegram takes a ``width`` x ``height`` photo of ``size`` bytes.

    >>> check_limits(1080, 900, 30_000)
    >>> check_limits(100, 2100)
    Traceback (most recent call last):
    ...
    renderer.encode.PhotoLimitError: 100 x 2100: the longer side is more than 20 times the shorter
    """
    if width <= 0 or height <= 0 or width + height > MAX_SIDES:
        raise PhotoLimitError(f"{width} x {height}: width + height must be 1 to {MAX_SIDES}")
    if max(width, height) > MAX_RATIO * min(width, height):
        raise PhotoLimitError(f"{width} x {height}: the longer side is more than {MAX_RATIO} times the shorter")
    if size > MAX_BYTES:
        raise PhotoLimitError(f"{size} bytes: a photo may have at most {MAX_BYTES}")


def encode_as(image: Image.Image, fmt: str) -> bytes:
    """``image`` (palette or RGB) in one format: ``png`` over the fixed palette, or lossy ``webp`` or ``jpeg``."""
    out = io.BytesIO()
    if fmt == "png":
        out.write(write_png(to_palette(image)))
    elif fmt == "webp":
        _rgb(image).save(out, "WEBP", quality=88, method=4)
    elif fmt == "jpeg":
        _rgb(image).save(out, "JPEG", quality=88, optimize=True)
    else:
        raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    return out.getvalue()


def _rgb(image: Image.Image) -> Image.Image:
    return image if image.mode == "RGB" else image.convert("RGB")


def encode(
    image: Image.Image, *, formats: Sequence[str] = FORMATS, budget: int = BUDGET, exhaustive: bool = False
) -> Picture:
    """The smallest encoding of ``image`` among ``formats``, tried in order until one is within ``budget``.

    With ``exhaustive`` every format is tried. Raises :class:`PhotoLimitError`
    for a picture Telegram would refuse.
    """
    width, height = image.size
    check_limits(width, height)
    best: Picture | None = None
    for fmt in formats:
        data = encode_as(image, fmt)
        if best is None or len(data) < len(best.data):
            best = Picture(data, fmt, width, height)
        if not exhaustive and len(best.data) <= budget:
            break
    if best is None:
        raise ValueError("no format to encode with")
    check_limits(width, height, len(best.data))
    return best

"""Palette PNG files written fast: compressed in bands of rows, bands seen before not compressed again.

Compressing is most of the cost of a picture, and a picture of a game is
mostly the rows of the one before it: the felt above and below the line, the
rows of tiles that did not change, the panel under a hand. So the rows are
cut into bands of :data:`BAND_ROWS` and each band is compressed on its own,
from an empty history and ending on a byte boundary (a deflate segment that
decodes the same wherever it stands in the stream). A compressed band is
remembered by its content, and a band met again, in this picture or a later
one, costs a hash instead of a compression.

Bands are remembered by the interpreter's keyed hash of their bytes (64 bits,
its key drawn at random when the process starts), so that the cache holds
compressed bytes only. Each band's bytes are the same whether they were just
made or remembered, so a picture's file does not depend on what was drawn
before it.

>>> from PIL import Image
>>> from renderer import palette, theme
>>> image = palette.canvas((300, 100), theme.FELT)
>>> image.paste(palette.index(theme.TEXT), (10, 10, 290, 40))
>>> data = write_png(image)
>>> decoded = Image.open(io.BytesIO(data))
>>> decoded.format, decoded.mode, decoded.size, decoded.tobytes() == image.tobytes()
('PNG', 'P', (300, 100), True)
>>> write_png(image, cache=BandCache(0)) == data
True
"""

from __future__ import annotations

import io
import struct
import threading
import zlib
from collections import OrderedDict

from PIL import Image

BAND_ROWS = 32  # rows compressed together; smaller bands are met again more often but compress worse
LEVEL = 3  # zlib's level: 1 to 3 cost the same here, 4 and up twice as much for a fifth fewer bytes
CACHE_BANDS = 4096  # compressed bands remembered: about a kilobyte each

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KB window, no preset dictionary
_LAST_BLOCK = b"\x03\x00"  # an empty final block (fixed codes): ends the deflate stream
_ADLER_BASE = 65521


class BandCache:
    """Compressed bands by content, the least recently used forgotten first; safe to share between threads."""

    def __init__(self, size: int = CACHE_BANDS) -> None:
        self.size = size
        self._bands: OrderedDict[tuple[int, int, int], tuple[bytes, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._bands)

    def get(self, key: tuple[int, int, int]) -> tuple[bytes, int] | None:
        with self._lock:
            found = self._bands.get(key)
            if found is None:
                self.misses += 1
            else:
                self.hits += 1
                self._bands.move_to_end(key)
            return found

    def put(self, key: tuple[int, int, int], value: tuple[bytes, int]) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._bands[key] = value
            self._bands.move_to_end(key)
            while len(self._bands) > self.size:
                self._bands.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()
            self.hits = self.misses = 0


CACHE = BandCache()


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's checksum (zlib's formula).

    >>> import zlib
    >>> adler32_combine(zlib.adler32(b"dominoes "), zlib.adler32(b"on the felt"), 11) == zlib.adler32(
    ...     b"dominoes on the felt"
    ... )
    True
    """
    remainder = second_length % _ADLER_BASE
    low = first & 0xFFFF
    high = (remainder * low) % _ADLER_BASE
    low = (low + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (high + (first >> 16) + (second >> 16) + _ADLER_BASE - remainder) % _ADLER_BASE
    return (high << 16) | low


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _scanlines(image: Image.Image) -> bytes:
    """The rows as PNG stores them: each one a filter byte (0, none: best for palette pictures) and its pixels."""
    rows = Image.new("P", (image.width + 1, image.height), 0)
    rows.paste(image, (1, 0))
    return rows.tobytes()


def write_png(image: Image.Image, *, level: int = LEVEL, cache: BandCache | None = CACHE) -> bytes:
    """``image`` (palette mode) as a PNG file, its bands taken from ``cache`` where they are in it."""
    if image.mode != "P":
        raise ValueError(f"a palette picture is needed, not mode {image.mode}")
    colours = image.getpalette()
    if not colours:
        raise ValueError("the picture has no palette")
    data = _scanlines(image)
    step = BAND_ROWS * (image.width + 1)
    segments = []
    adler = 1
    for start in range(0, len(data), step):
        band = data[start : start + step]
        key = (hash(band), len(band), level)
        found = cache.get(key) if cache is not None else None
        if found is None:
            compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
            found = compressor.compress(band) + compressor.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(band)
            if cache is not None:
                cache.put(key, found)
        segments.append(found[0])
        adler = adler32_combine(adler, found[1], len(band))
    stream = b"".join((_ZLIB_HEADER, *segments, _LAST_BLOCK, struct.pack(">I", adler)))
    header = struct.pack(">IIBBBBB", image.width, image.height, 8, 3, 0, 0, 0)  # 8 bits, palette, no interlace
    out = io.BytesIO()
    out.write(_SIGNATURE)
    out.write(_chunk(b"IHDR", header))
    out.write(_chunk(b"PLTE", bytes(colours[: 3 * 256])))
    out.write(_chunk(b"IDAT", stream))
    out.write(_chunk(b"IEND", b""))
    return out.getvalue()

"""The banded PNG writer: files any decoder reads back exactly, the same bytes whatever the cache holds."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from renderer import palette, png, theme
from renderer.examples import EXAMPLES
from renderer.png import BandCache, adler32_combine, write_png


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The chunks of a PNG file, each checked against its CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found = []
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(kind + body), f"bad CRC in {kind!r}"
        found.append((kind, body))
        at += 12 + length
    return found


def scanlines(image: Image.Image) -> bytes:
    raw = image.tobytes()
    return b"".join(b"\x00" + raw[y * image.width : (y + 1) * image.width] for y in range(image.height))


@pytest.mark.parametrize("name", ["table_full_28", "private_my_turn", "result_domino_4"])
def test_a_picture_reads_back_exactly(name: str) -> None:
    image = EXAMPLES[name]()
    data = write_png(image, cache=BandCache())
    kinds = [kind for kind, _ in chunks(data)]
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    body = dict(chunks(data))
    assert struct.unpack(">IIBBBBB", body[b"IHDR"]) == (image.width, image.height, 8, 3, 0, 0, 0)
    assert list(body[b"PLTE"]) == theme.PALETTE
    assert zlib.decompress(body[b"IDAT"]) == scanlines(image)  # zlib checks the Adler-32 too
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.mode == "P" and decoded.tobytes() == image.tobytes() and decoded.getpalette() == theme.PALETTE


def test_the_bytes_do_not_depend_on_what_the_cache_holds() -> None:
    image = EXAMPLES["table_fives_four_arms"]()
    cache = BandCache()
    first = write_png(image, cache=cache)
    assert cache.misses > 0 and cache.hits < cache.misses
    misses = cache.misses
    assert write_png(image, cache=cache) == first and cache.misses == misses  # every band found
    assert write_png(image, cache=None) == first
    assert write_png(image, cache=BandCache(size=1)) == first


def test_remembered_bands_stand_anywhere_in_a_later_picture() -> None:
    """Bands met again at other places and in another order still decode to the right rows."""
    image = EXAMPLES["table_full_28"]()
    cache = BandCache()
    write_png(image, cache=cache)
    rows = png.BAND_ROWS
    shifted = palette.canvas((image.width, image.height + 3 * rows), theme.HEADER)
    shifted.paste(image.crop((0, rows, image.width, image.height)), (0, 0))
    shifted.paste(image.crop((0, 0, image.width, 2 * rows)), (0, image.height))
    hits = cache.hits
    data = write_png(shifted, cache=cache)
    assert cache.hits > hits
    assert zlib.decompress(dict(chunks(data))[b"IDAT"]) == scanlines(shifted)
    assert Image.open(io.BytesIO(data)).tobytes() == shifted.tobytes()


def test_the_cache_forgets_the_least_recently_used_bands() -> None:
    cache = BandCache(size=2)
    for key in ((1, 1, 1), (2, 2, 2), (3, 3, 3)):
        cache.put(key, (b"", 1))
    assert len(cache) == 2 and cache.get((1, 1, 1)) is None and cache.get((3, 3, 3)) == (b"", 1)
    cache.put((4, 4, 4), (b"", 1))
    assert cache.get((2, 2, 2)) is None and cache.get((3, 3, 3)) is not None
    cache.clear()
    assert len(cache) == 0 and cache.hits == cache.misses == 0
    nothing = BandCache(size=0)
    nothing.put((1, 1, 1), (b"", 1))
    assert len(nothing) == 0


def test_adler32_combine_agrees_with_zlib() -> None:
    rng = random.Random(4)
    for _ in range(200):
        first = rng.randbytes(rng.choice([0, 1, 7, 5552, 70_000]))
        second = rng.randbytes(rng.choice([0, 1, 7, 5552, 65_521, 140_000]))
        combined = adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
        assert combined == zlib.adler32(first + second)


def test_only_palette_pictures() -> None:
    with pytest.raises(ValueError, match="palette picture"):
        write_png(Image.new("RGB", (10, 10)))
    tiny = palette.canvas((1, 1), theme.FELT)
    assert Image.open(io.BytesIO(write_png(tiny))).getpixel((0, 0)) == palette.index(theme.FELT)

"""Encoding: the smallest format that keeps the picture good, always within Telegram's photo limits."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageStat

from renderer.encode import BUDGET, FORMATS, PhotoLimitError, check_limits, encode, encode_as, to_palette
from renderer.examples import EXAMPLES
from renderer.theme import PALETTE


@pytest.mark.parametrize(
    ("width", "height", "size"),
    [(5000, 5001, 0), (0, 10, 0), (100, 2001, 0), (1080, 900, 10 * 1024 * 1024 + 1)],
)
def test_photos_telegram_refuses(width: int, height: int, size: int) -> None:
    with pytest.raises(PhotoLimitError):
        check_limits(width, height, size)


def test_photos_telegram_takes() -> None:
    check_limits(5000, 5000, 10 * 1024 * 1024)
    check_limits(100, 2000)


def test_a_picture_of_the_table_is_a_palette_png_and_exact() -> None:
    image = EXAMPLES["table_fives_four_arms"]()
    assert image.mode == "P" and image.getpalette() == PALETTE
    picture = encode(image)
    assert picture.format == "png" and picture.mime == "image/png" and picture.filename == "dominoes.png"
    assert len(picture) <= BUDGET
    decoded = Image.open(io.BytesIO(picture.data))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_an_rgb_picture_is_mapped_onto_the_palette_nearly_exactly() -> None:
    image = EXAMPLES["table_fives_four_arms"]().convert("RGB")
    decoded = Image.open(io.BytesIO(encode(image, formats=["png"]).data))
    difference = ImageStat.Stat(ImageChops.difference(image, decoded.convert("RGB"))).mean
    assert max(difference) < 0.5, "the fixed palette should hold every colour a picture uses"


def test_every_format_decodes_and_the_smallest_wins() -> None:
    image = EXAMPLES["private_my_turn"]()
    sizes = {fmt: len(encode_as(image, fmt)) for fmt in FORMATS}
    best = encode(image, exhaustive=True)
    assert len(best) == min(sizes.values()) and sizes[best.format] == len(best)
    for fmt in FORMATS:
        picture = encode(image, formats=[fmt])
        assert Image.open(io.BytesIO(picture.data)).size == image.size
        assert picture.format == fmt


def test_a_photo_like_picture_falls_back_to_a_lossy_format() -> None:
    rng = random.Random(1)
    noise = Image.frombytes("RGB", (600, 400), bytes(rng.randrange(256) for _ in range(600 * 400 * 3)))
    image = noise.resize((1200, 800), Image.Resampling.BILINEAR)
    picture = encode(image, budget=40_000)
    assert picture.format in ("webp", "jpeg")
    assert len(picture) <= len(encode_as(image, "png"))


def test_the_palette_and_odd_inputs() -> None:
    assert len(PALETTE) == 256 * 3
    rgba = Image.new("RGBA", (20, 10), (24, 92, 60, 255))
    assert to_palette(rgba).mode == "P"
    with pytest.raises(ValueError, match="unknown format"):
        encode_as(rgba.convert("RGB"), "gif")
    with pytest.raises(PhotoLimitError):
        encode(Image.new("RGB", (4000, 100)))

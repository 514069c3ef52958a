"""Golden pictures: today's drawing compared with an approved one, within a tolerance.

The tolerance absorbs small differences in font rasterising between
machines; a real change (a tile moved, a colour changed) fails. After an
intended change of the pictures, look at them (``python -m renderer``) and
approve the new ones with ``RENDERER_UPDATE_GOLDEN=1 pytest tests/renderer/test_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from renderer.examples import EXAMPLES
from renderer.fonts import font_file

GOLDEN = Path(__file__).resolve().parent / "golden"
MANIFEST = GOLDEN / "manifest.json"
NAMES = ("table_full_28", "table_fives_four_arms", "private_my_turn", "result_domino_4")
UPDATE = os.environ.get("RENDERER_UPDATE_GOLDEN") == "1"


def _font_name() -> str:
    found = font_file()
    return "none" if found is None else found.name


def _manifest() -> dict[str, str]:
    if not MANIFEST.is_file():
        return {}
    loaded: dict[str, str] = json.loads(MANIFEST.read_text())
    return loaded


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """Mean absolute difference per channel, and the share of pixels whose difference has a luma above 48."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    histogram = diff.histogram()
    pixels = a.width * a.height
    mean = sum(
        value * count
        for channel in range(3)
        for value, count in enumerate(histogram[channel * 256 : (channel + 1) * 256])
    )
    far = diff.convert("L").point(lambda value: 255 if value > 48 else 0).histogram()[255]
    return mean / (3 * pixels), far / pixels


@pytest.mark.parametrize("name", NAMES)
def test_golden_picture(name: str) -> None:
    from renderer.encode import to_palette

    image = to_palette(EXAMPLES[name]()).convert("RGB")
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        to_palette(image).save(path, "PNG", optimize=True)
        MANIFEST.write_text(json.dumps({"font": _font_name()}, indent=2) + "\n")
        return
    if not path.is_file():
        pytest.fail(f"no golden picture {path.name}: approve one with RENDERER_UPDATE_GOLDEN=1")
    drawn_with = _manifest().get("font")
    if drawn_with != _font_name():
        pytest.skip(f"golden pictures were drawn with {drawn_with}, this machine has {_font_name()}")
    golden = Image.open(path)
    assert golden.size == image.size, f"{name}: {image.size} now, {golden.size} approved"
    mean, far = difference(image, golden)
    assert mean < 1.0 and far < 0.004, f"{name} differs from its golden picture: mean {mean:.2f}, {far:.2%} of pixels"

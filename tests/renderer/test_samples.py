"""Writes every example picture to ``samples/renderer/`` (git-ignored) for a person to look at.

Open them on a phone-sized screen after any change to the pictures; ``python
-m renderer FOLDER`` writes the same set anywhere.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from renderer.examples import EXAMPLES, write_samples

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "renderer"


def test_write_sample_pictures() -> None:
    written = write_samples(SAMPLES)
    assert {path.stem for path in written} == set(EXAMPLES)
    for path in written:
        with Image.open(io.BytesIO(path.read_bytes())) as image:
            assert image.width == 1080
    print(f"\nsample pictures: {SAMPLES}")

"""Pictures of the table for Telegram: pure functions from the engine's views to photo bytes.

Three pictures, each taking exactly what it may show:

- ``render_table(table, names)``: the public :class:`~engine.observation.Table`
  (for the group and spectators; it has no hand in it, and nothing else is accepted);
- ``render_private(observation, names)``: one seat's
  :class:`~engine.observation.Observation`, its own hand under the table,
  playable tiles raised;
- ``render_result(RoundResult.of(state), names)``: a finished round, every
  hand revealed with its pips and points.

Each returns a :class:`~renderer.encode.Picture` (``data``, ``format``,
``width``, ``height``, ``mime``, ``filename``) within Telegram's photo limits.
``line_text(line)`` gives the line as text for captions.

Modules, one job each: :mod:`~renderer.layout` (geometry as data, no
pixels), :mod:`~renderer.sprites` (cached, pre-rendered tiles and badges,
already in the palette), :mod:`~renderer.compose` (pasting them together),
:mod:`~renderer.encode` (the smallest acceptable encoding),
:mod:`~renderer.png` (the PNG writer, compressing in remembered bands of
rows), :mod:`~renderer.palette`, :mod:`~renderer.text` (captions),
:mod:`~renderer.fonts`, :mod:`~renderer.theme`, :mod:`~renderer.views`.
Only the pure ones are imported here; the Pillow ones load on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from renderer.layout import BoardLayout, lay_out
from renderer.text import domino_char, ends_text, hand_text, line_text, tile_text
from renderer.views import RoundResult

if TYPE_CHECKING:
    from renderer.encode import PhotoLimitError, Picture, check_limits, encode
    from renderer.pictures import draw_private, draw_result, draw_table, render_private, render_result, render_table

_LAZY = {
    "Picture": "renderer.encode",
    "PhotoLimitError": "renderer.encode",
    "check_limits": "renderer.encode",
    "encode": "renderer.encode",
    "draw_private": "renderer.pictures",
    "draw_result": "renderer.pictures",
    "draw_table": "renderer.pictures",
    "render_private": "renderer.pictures",
    "render_result": "renderer.pictures",
    "render_table": "renderer.pictures",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'renderer' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "BoardLayout",
    "PhotoLimitError",
    "Picture",
    "RoundResult",
    "check_limits",
    "domino_char",
    "draw_private",
    "draw_result",
    "draw_table",
    "encode",
    "ends_text",
    "hand_text",
    "lay_out",
    "line_text",
    "render_private",
    "render_result",
    "render_table",
    "tile_text",
]

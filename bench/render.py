"""Benchmark of the renderer: median milliseconds and bytes per picture, ours beside a naive renderer.

Run from the repository root: ``.venv/bin/python bench/render.py [--runs N]``.

The pictures: a table with all 28 tiles in one line, a ``fives`` table whose
spinner has four long arms, and a seat's private view (table and hand).
"Ours" is the whole of ``render_table`` / ``render_private``: layout, pasting
cached sprites, labels, mapping onto the fixed palette and PNG encoding.
"Naive" draws the same picture with the same layout and the same smoothness
directly with ImageDraw (everything at 4x, then reduced, as our sprites are
made) and saves an RGB PNG, every time from scratch.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageDraw, ImageFont

from engine.observation import Observation, Table
from renderer import sprites, theme
from renderer.compose import choose_board, hand_height
from renderer.encode import encode_as
from renderer.examples import NAMES, four_arm_table, full_table, private_view
from renderer.fonts import fit, font_file
from renderer.pictures import draw_table, render_private, render_table
from renderer.sprites import PIP_GRID, SUPERSAMPLE
from renderer.theme import Sizes
from renderer.views import last_played

SCALE = SUPERSAMPLE


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    found = font_file()
    if found is None:
        return ImageFont.load_default(size)
    font = ImageFont.truetype(str(found.path), size)
    if found.variable:
        font.set_variation_by_axes([700, 100])
    return font


def _naive_tile(
    draw: ImageDraw.ImageDraw, x: float, y: float, first: int, second: int, vertical: bool, half: float, look: str
) -> None:
    """One tile drawn straight onto the big canvas: outline, divider, pips."""
    face, edge, line = theme.FACE, theme.EDGE, 0.045
    if look == "last":
        face, edge, line = theme.LAST_FACE, theme.LAST_EDGE, 0.1
    elif look == "playable":
        edge, line = theme.PLAY_EDGE, 0.1
    elif look == "dimmed":
        face = theme.DIM_FACE
    short = 2 * half
    width, height = (short, 2 * short) if vertical else (2 * short, short)
    inset = max(SCALE, round(0.05 * short))
    draw.rounded_rectangle(
        (x + inset, y + inset, x + width - inset - 1, y + height - inset - 1),
        radius=round(0.16 * short),
        fill=face,
        outline=edge,
        width=max(SCALE, round(line * short)),
    )
    margin = 0.14 * short
    if vertical:
        draw.line(
            (x + margin, y + short, x + short - margin, y + short), fill=theme.DIVIDER, width=round(0.035 * short)
        )
    else:
        draw.line(
            (x + short, y + margin, x + short, y + short - margin), fill=theme.DIVIDER, width=round(0.035 * short)
        )
    radius, spacing = 0.08 * short, 0.235 * short
    pip = theme.DIM_PIP if look == "dimmed" else theme.PIP
    for index, number in enumerate((first, second)):
        for column, row in PIP_GRID[number]:
            along, across = (column - 1) * spacing, (row - 1) * spacing
            if vertical:  # a quarter turn anticlockwise of the lying tile
                cx, cy = x + short / 2 + across, y + short / 2 + index * short - along
            else:
                cx, cy = x + short / 2 + index * short + along, y + short / 2 + across
            draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=pip)


def naive_picture(table: Table, names: tuple[str, ...], observation: Observation | None = None) -> bytes:
    """The same picture, drawn from scratch with ImageDraw at 4x and reduced; an RGB PNG."""
    sizes = Sizes(1080)
    board_max = sizes.board_max if observation is None else sizes.board_max_private
    board = choose_board(table.line, last_played(table.history), sizes, board_max)
    board_height = max(sizes.board_min, board.height + 2 * sizes.pad)
    extra = 0 if observation is None else hand_height(len(observation.hand), sizes)
    height = sizes.header + board_height + extra
    big = Image.new("RGB", (sizes.width * SCALE, height * SCALE), theme.FELT)
    draw = ImageDraw.Draw(big)
    pad, gap = sizes.pad * SCALE, sizes.pad // 2 * SCALE
    draw.rectangle((0, 0, big.width, sizes.header * SCALE), fill=theme.HEADER)
    name_font, number_font = _font(sizes.name_font * SCALE), _font(sizes.number_font * SCALE)
    bone_width = round(sizes.width * 0.12) * SCALE
    card_width = (big.width - 2 * pad - bone_width - gap * table.seats) // table.seats
    card_height = sizes.header * SCALE - 2 * gap
    for seat in range(table.seats):
        x = pad + seat * (card_width + gap)
        turn = table.end is None and table.turn == seat
        draw.rounded_rectangle(
            (x, gap, x + card_width, gap + card_height),
            radius=round(card_height * 0.18),
            fill=theme.CARD_TURN if turn else theme.CARD,
            outline=theme.TURN if turn else None,
            width=4 * SCALE,
        )
        inner = x + round(card_height * 0.16)
        name = fit(names[seat], name_font, card_width - 2 * round(card_height * 0.16)) if font_file() else ""
        draw.text((inner, gap + card_height * 0.3), name, font=name_font, fill=theme.TEXT, anchor="lm")
        stats = gap + card_height * 0.72
        draw.rounded_rectangle((inner, stats - 16 * SCALE, inner + 16 * SCALE, stats + 16 * SCALE), 4, fill=theme.FACE)
        count = str(table.hand_sizes[seat])
        draw.text((inner + 26 * SCALE, stats), count, font=number_font, fill=theme.TEXT, anchor="lm")
        if table.rules.is_match:
            right = x + card_width - round(card_height * 0.16)
            draw.text((right, stats), str(table.scores[seat]), font=number_font, fill=theme.TURN, anchor="rm")
    x = big.width - pad - bone_width
    draw.rounded_rectangle((x, gap, x + bone_width, gap + card_height), 20, outline=theme.TEXT_DIM, width=2 * SCALE)
    middle = gap + card_height / 2
    text = str(table.boneyard_count)
    draw.text((x + bone_width / 2, middle), text, font=number_font, fill=theme.TEXT, anchor="mm")
    half = board.half * SCALE
    bounds = board.layout.bounds
    left = (big.width - bounds.width * half) // 2 - bounds.x0 * half
    top = sizes.header * SCALE + (board_height * SCALE - bounds.height * half) // 2 - bounds.y0 * half
    for index, spot in enumerate(board.layout.spots):
        look = "last" if index == board.last else "plain"
        x0, y0 = left + spot.rect.x0 * half, top + spot.rect.y0 * half
        _naive_tile(draw, x0, y0, spot.first, spot.second, spot.vertical, half, look)
    badge_font = _font(round(0.68 * (2 * board.half - 2)) * SCALE)
    for badge in board.layout.badges:
        x0, y0 = left + badge.rect.x0 * half, top + badge.rect.y0 * half
        side = 2 * half
        draw.ellipse((x0, y0, x0 + side, y0 + side), fill=theme.BADGE_EDGE)
        ring = round(0.075 * side)
        draw.ellipse((x0 + ring, y0 + ring, x0 + side - ring, y0 + side - ring), fill=theme.BADGE_FILL)
        draw.text((x0 + side / 2, y0 + side / 2), str(badge.value), font=badge_font, fill=theme.EDGE, anchor="mm")
    if observation is not None:
        y = (sizes.header + board_height) * SCALE
        draw.rectangle((0, y, big.width, big.height), fill=theme.PANEL)
        playable = {move.tile for move in observation.legal_moves()}
        hand_half = sizes.hand_half * SCALE
        spacing = 2 * hand_half + hand_half // 2
        x = (big.width - len(observation.hand) * spacing) // 2
        for tile in observation.hand:
            look = "plain" if not observation.is_my_turn else "playable" if tile in playable else "dimmed"
            lift = round(hand_half * 0.6) if look == "playable" else 0
            _naive_tile(draw, x, y + pad + hand_half - lift, tile.high, tile.low, True, hand_half, look)
            x += spacing
    small = big.reduce(SCALE)
    out = io.BytesIO()
    small.save(out, "PNG")
    return out.getvalue()


def median_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=41, help="timed runs of ours (the naive one gets a fifth)")
    args = parser.parse_args()
    table, spinner, view = full_table(), four_arm_table(), private_view()
    cases: list[tuple[str, Callable[[], bytes], Callable[[], bytes]]] = [
        ("table, 28-tile line", lambda: render_table(table, NAMES).data, lambda: naive_picture(table, NAMES)),
        ("table, four-arm spinner", lambda: render_table(spinner, NAMES).data, lambda: naive_picture(spinner, NAMES)),
        (
            "private view",
            lambda: render_private(view, NAMES).data,
            lambda: naive_picture(view.table, NAMES, view),
        ),
    ]
    sprites.clear_caches()
    start = time.perf_counter()
    render_table(table, NAMES)
    cold = (time.perf_counter() - start) * 1000
    found = font_file()
    print(f"font: {found.name if found else 'none (pictures without names)'}")
    print(f"first picture after start (sprites drawn and cached): {cold:.1f} ms\n")
    header = f"{'picture':26} {'ours ms':>8} {'ours bytes':>11} {'naive ms':>9} {'naive bytes':>12} {'faster':>7}"
    print(header)
    print("-" * len(header))
    for name, ours, naive in cases:
        ours()  # warm: sprites and labels cached, as in a running bot
        our_ms, our_bytes = median_ms(ours, args.runs), len(ours())
        naive_ms, naive_bytes = median_ms(naive, max(3, args.runs // 5)), len(naive())
        print(f"{name:26} {our_ms:8.2f} {our_bytes:11d} {naive_ms:9.1f} {naive_bytes:12d} {naive_ms / our_ms:6.0f}x")
    print("\nthe same pictures in each encoding (bytes, ms):")
    for name, image in (("table, 28-tile line", table), ("table, four-arm spinner", spinner)):
        drawn = draw_table(image, NAMES)
        columns = []
        for fmt in ("png", "webp", "jpeg"):
            took = median_ms(lambda fmt=fmt, drawn=drawn: encode_as(drawn, fmt), 5)  # type: ignore[misc]
            columns.append(f"{fmt} {len(encode_as(drawn, fmt)):6d} {took:5.1f}")
        print(f"  {name:26} {'  '.join(columns)}")


if __name__ == "__main__":
    main()

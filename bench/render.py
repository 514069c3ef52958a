"""Benchmark of the renderer: milliseconds and bytes per picture, ours beside a naive renderer.

Run from the repository root: ``.venv/bin/python -m bench.render [--runs N] [--games N]``.

The pictures: a table with all 28 tiles in one line, a ``fives`` table whose
spinner has four long arms, and a seat's private view (table and hand).
"Ours" is the whole of ``render_table`` / ``render_private``: layout, pasting
cached palette sprites, and PNG encoding in bands of rows (``renderer/png.py``).
A band already compressed for an earlier picture is not compressed again, so
each picture is timed twice: with no band known ("new", the worst case) and
right after itself ("again", the best). What a running bot gets lies between:
the line under the first table times the pictures of many concurrent games as
the bot draws them (the table and the hands of the seat that moved and of the
next one, after every move), spread over two worker processes with a cache
each. Times are CPU time of this process (``time.process_time``), so that
other load on the machine does not count.
"Naive" draws the same picture with the same layout and the same smoothness
directly with ImageDraw (everything at 4x, then reduced, as our sprites are
made) and saves an RGB PNG, every time from scratch. The last table compares
PNG encodings of the same pictures: Pillow's PNG writer at several levels
(level 3 was used before the banded writer) against the banded writer.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from PIL import Image, ImageDraw, ImageFont

from engine.match import Match
from engine.observation import Observation, Table
from engine.rules import Rules
from renderer import png, sprites, theme
from renderer.compose import choose_board, hand_height, header_layout
from renderer.encode import encode_as
from renderer.examples import NAMES, four_arm_table, full_table, private_view
from renderer.fonts import fit, font_file
from renderer.pictures import draw_private, draw_table, render_private, render_table
from renderer.png import BandCache, write_png
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
    header = header_layout(table.seats, sizes)
    height = header.height + board_height + extra
    big = Image.new("RGB", (sizes.width * SCALE, height * SCALE), theme.FELT)
    draw = ImageDraw.Draw(big)
    draw.rectangle((0, 0, big.width, header.height * SCALE), fill=theme.HEADER)
    name_font, number_font = _font(sizes.name_font * SCALE), _font(sizes.number_font * SCALE)
    for seat in range(table.seats):
        x, gap, card_width, card_height = (side * SCALE for side in header.cards[seat])
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
    x, gap, bone_width, box_height = (side * SCALE for side in header.box)
    draw.rounded_rectangle((x, gap, x + bone_width, gap + box_height), 20, outline=theme.TEXT_DIM, width=2 * SCALE)
    middle = gap + box_height / 2
    text = str(table.boneyard_count)
    draw.text((x + bone_width / 2, middle), text, font=number_font, fill=theme.TEXT, anchor="mm")
    half = board.half * SCALE
    bounds = board.layout.bounds
    left = (big.width - bounds.width * half) // 2 - bounds.x0 * half
    top = header.height * SCALE + (board_height * SCALE - bounds.height * half) // 2 - bounds.y0 * half
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
        y = (header.height + board_height) * SCALE
        draw.rectangle((0, y, big.width, big.height), fill=theme.PANEL)
        playable = {move.tile for move in observation.legal_moves()}
        hand_half = sizes.hand_half * SCALE
        spacing = 2 * hand_half + hand_half // 2
        x = (big.width - len(observation.hand) * spacing) // 2
        for tile in observation.hand:
            look = "plain" if not observation.is_my_turn else "playable" if tile in playable else "dimmed"
            lift = round(hand_half * 0.6) if look == "playable" else 0
            _naive_tile(draw, x, y + sizes.pad * SCALE + hand_half - lift, tile.high, tile.low, True, hand_half, look)
            x += spacing
    small = big.reduce(SCALE)
    out = io.BytesIO()
    small.save(out, "PNG")
    return out.getvalue()


def median_ms(work: Callable[[], object], runs: int, before: Callable[[], object] | None = None) -> float:
    times = []
    for _ in range(runs):
        if before is not None:
            before()
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


View = tuple[Table | Observation, tuple[str, ...]]


def game_views(games: int, pictures: int, seed: int = 1) -> list[View]:
    """What the bot draws for ``games`` concurrent two-seat ``block`` games moving in turn.

    After each move: the group's table, the hand of the seat that moved and that of the next seat.
    """
    rng = random.Random(seed)
    rules = Rules.preset("block")
    names = [(f"Player {game}", f"Friend of {game}") for game in range(games)]
    matches = [Match.new(rules, 2, rng) for _ in range(games)]
    views: list[View] = []
    while len(views) < pictures:
        for game, match in enumerate(matches):
            if match.round.is_over:  # a new match: the bench's people start one when a round ends
                match = Match.new(rules, 2, rng)
            mover = match.round.turn
            match = match.apply(rng.choice(match.round.legal_moves()))
            matches[game] = match
            views += [(match.table(), names[game]), (match.observe(mover), names[game])]
            if not match.round.is_over:
                views.append((match.observe(match.round.turn), names[game]))
    return views[:pictures]


def draw_view(view: View) -> Image.Image:
    shown, names = view
    return draw_table(shown, names) if isinstance(shown, Table) else draw_private(shown, names)


def game_stream(games: int, pictures: int, workers: int = 2) -> str:
    """Milliseconds and bytes per picture of :func:`game_views`, each drawn by one of ``workers`` at random.

    The sprites are warm (every picture drawn once before); the workers' band caches start empty.
    """
    views = game_views(games, pictures)
    for view in views:  # sprites and labels drawn once, as in a bot that has been running a while
        draw_view(view)
    caches = [BandCache() for _ in range(workers)]
    rng = random.Random(2)
    drawing = encoding = 0.0
    size = 0
    for view in views:
        start = time.process_time()
        image = draw_view(view)
        drawn = time.process_time()
        size += len(write_png(image, cache=rng.choice(caches)))
        drawing += drawn - start
        encoding += time.process_time() - drawn
    hits = sum(cache.hits for cache in caches)
    total = hits + sum(cache.misses for cache in caches)
    count = len(views)
    return (
        f"{count} pictures of {games} concurrent block games, {workers} workers: "
        f"{(drawing + encoding) / count * 1000:.2f} ms each (drawing {drawing / count * 1000:.2f}, "
        f"encoding {encoding / count * 1000:.2f}), {size / count / 1000:.1f} KB each, "
        f"{hits / total:.0%} of bands found compressed"
    )


def pillow_png(image: Image.Image, level: int) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=level)
    return out.getvalue()


def encodings(images: dict[str, Image.Image], runs: int) -> list[str]:
    """PNG (and lossy) encodings of the same pictures: ms and KB each."""
    choices: list[tuple[str, Callable[[Image.Image], bytes], bool]] = [
        *((f"Pillow PNG, level {level}", lambda im, lv=level: pillow_png(im, lv), False) for level in (1, 3, 6, 9)),
        *(
            (f"bands of {png.BAND_ROWS} rows, level {level}", lambda im, lv=level: write_png(im, level=lv), True)
            for level in (1, 2, 3, 4, 6)
        ),
        ("WebP, quality 88", lambda im: encode_as(im, "webp"), False),
        ("JPEG, quality 88", lambda im: encode_as(im, "jpeg"), False),
    ]
    lines = [f"  {'encoding':28}" + "".join(f"{name:>26}" for name in images)]
    for label, make, banded in choices:
        cells = []
        for image in images.values():
            slow = label.startswith(("Pillow PNG, level 9", "WebP"))
            took = median_ms(partial(make, image), 3 if slow else runs, png.CACHE.clear if banded else None)
            cells.append(f"{took:7.2f} ms {len(make(image)) / 1000:6.1f} KB")
        lines.append(f"  {label:28}" + "".join(f"{cell:>26}" for cell in cells))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=41, help="timed runs of ours (the naive one gets a fifth)")
    parser.add_argument("--games", type=int, default=100, help="concurrent games in the stream of pictures")
    parser.add_argument("--pictures", type=int, default=1500, help="pictures in the stream")
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
    png.CACHE.clear()
    start = time.process_time()
    render_table(table, NAMES)
    cold = (time.process_time() - start) * 1000
    found = font_file()
    print(f"font: {found.name if found else 'none (pictures without names)'}")
    print(f"first picture after start (sprites drawn and cached): {cold:.1f} ms\n")
    header = (
        f"{'picture':26} {'new ms':>7} {'again ms':>9} {'bytes':>7} {'naive ms':>9} {'naive bytes':>12} {'faster':>7}"
    )
    print(header)
    print("-" * len(header))
    for name, ours, naive in cases:
        ours()  # warm: sprites and labels cached, as in a running bot
        new_ms = median_ms(ours, args.runs, png.CACHE.clear)
        again_ms, our_bytes = median_ms(ours, args.runs), len(ours())
        naive_ms, naive_bytes = median_ms(naive, max(3, args.runs // 5)), len(naive())
        print(
            f"{name:26} {new_ms:7.2f} {again_ms:9.2f} {our_bytes:7d} {naive_ms:9.1f} {naive_bytes:12d}"
            f" {naive_ms / new_ms:6.0f}x"
        )
    print(f"\n{game_stream(args.games, args.pictures)}")
    print("\nencodings of the same pictures (ms, KB; the banded writer with no band known):")
    images = {
        "table, 28-tile line": draw_table(table, NAMES),
        "table, four-arm": draw_table(spinner, NAMES),
        "private view": draw_private(view, NAMES),
    }
    for line in encodings(images, max(5, args.runs // 4)):
        print(line)


if __name__ == "__main__":
    main()

"""A whole game as an animation, from its record alone: one step per move, a pause at each round's end.

Each step is the public table picture (:func:`~renderer.pictures.draw_table`, the tile played
last highlighted) with a band under it telling what the move did ("Ann played [6|5] (+10)",
"Bob drew 2 and passed"), in the words ``describe`` gives (English by default; the bot passes
the reader's). A round's end holds the result picture, every hand revealed, for
:data:`ROUND_END_SECONDS`; a move is shown :data:`MOVE_SECONDS`, less in a long match
(:func:`move_seconds`). All frames share one size (the largest, the rest centred on the
felt), as a video needs.

:func:`encode_animation` makes an H.264 MP4 without sound (what Telegram's ``sendAnimation``
plays inline) through PyAV, or a GIF when that is smaller (short games), and keeps within
:data:`MAX_BYTES`.

>>> import random
>>> from engine import Match, Rules, write_record
>>> game = Match.new(Rules.preset("duel"), 2, random.Random(7))
>>> while not game.is_over:
...     game = game.apply(game.round.legal_moves()[0])
>>> frames = steps(write_record(game), ["Ann", "Bob"], width=360)
>>> len(frames) == 1 + len(game.round.plays()) + 1  # the deal, each play, the round's end
True
"""

from __future__ import annotations

import io
import itertools
import zlib
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple, overload

from PIL import Image

import renderer.palette as palette
import renderer.theme as theme
from engine import Drew, Event, Match, Move, Passed, Played, Rules, read_record, replay
from renderer.fonts import fit, text_font
from renderer.pictures import draw_result, draw_table
from renderer.sprites import label
from renderer.theme import Sizes
from renderer.views import RoundResult

WIDTH = 720
DEAL_SECONDS = 1.0
MOVE_SECONDS = 0.9
FASTEST_MOVE_SECONDS = 0.4
AIM_SECONDS = 180.0  # a long match's moves go faster (down to the fastest) to keep near this length
ROUND_END_SECONDS = 3.0
LAST_EXTRA_SECONDS = 2.0  # the final result stays a little longer
MAX_BYTES = 10 * 1024 * 1024  # what a phone should load for one game (bots may send up to 50 MB)
GIF_FRAMES = 40  # a GIF of more frames is larger than the MP4 (it repeats every unchanged pixel)
FPS = 10
TICKS = 1000  # time stamps in milliseconds
SMALLER = 0.75  # an animation over MAX_BYTES is drawn again this much narrower

Describe = Callable[[Sequence[Event], Sequence[str]], list[str]]
"""Events in words, one line each, as plain text (drawn as they are: no HTML)."""

Title = Callable[[int], str]
"""The words under a round's deal, from its number (1 for the first)."""


class Step(NamedTuple):
    image: Image.Image  # "P" over the fixed palette
    seconds: float


class Animation(NamedTuple):
    data: bytes
    format: str  # "mp4" or "gif"
    width: int
    height: int
    seconds: float
    frames: int

    @property
    def mime(self) -> str:
        return "video/mp4" if self.format == "mp4" else "image/gif"

    @property
    def filename(self) -> str:
        return f"dominoes.{self.format}"


def english(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """The default words: "Ann played [6|5] (+10)", "Bob drew 2", "Bob passed"."""
    words = []
    for event in events:
        name = names[event.seat]
        if type(event) is Played:
            scored = f" (+{event.scored})" if event.scored else ""
            words.append(f"{name} played [{event.tile.high}|{event.tile.low}]{scored}")
        elif type(event) is Drew:
            words.append(f"{name} drew {event.number}")
        elif type(event) is Passed:
            words.append(f"{name} passed")
    return words


def round_title(number: int) -> str:
    return f"Round {number}"


def steps(
    record: dict[str, Any],
    names: Sequence[str] | None = None,
    *,
    width: int = WIDTH,
    describe: Describe = english,
    title: Title = round_title,
) -> Steps:
    """The frames of the game in ``record`` (a JSON record, RECORD.md), in order, each made as it is read.

    Raises :class:`engine.RecordError` for a record that does not replay."""
    parsed = read_record(record)
    seats = parsed.seats
    labels = list(names or ())[:seats] + [f"#{seat + 1}" for seat in range(len(names or ()), seats)]
    pictures: list[_Packed] = []
    match: Match | None = None
    replay(parsed)  # a broken record is refused before anything is drawn
    rules = Rules.preset(parsed.preset)
    per_move = move_seconds(sum(len(round_record.plays) for round_record in parsed.rounds))
    for index, round_record in enumerate(parsed.rounds):
        if match is None:
            match = Match.from_deal(rules, round_record.hands, round_record.boneyard, round_record.first)
        else:
            match = match.next_round(round_record.hands, round_record.boneyard, round_record.first)
        pictures.append(_Packed.of(draw_table(match.table(), labels, width=width), [title(index + 1)], DEAL_SECONDS))
        for play in round_record.plays:
            before = len(match.round.events)
            match = match.apply(Move(play.tile, play.end), seat=play.seat)
            words = describe(match.round.events[before:], labels)
            pictures.append(_Packed.of(draw_table(match.table(), labels, width=width), words, per_move))
        if match.round.is_over:
            result = draw_result(RoundResult.of_match(match, index), labels, width=width)
            pictures.append(_Packed.of(result, [], ROUND_END_SECONDS))
    if pictures:
        pictures[-1] = pictures[-1]._replace(seconds=pictures[-1].seconds + LAST_EXTRA_SECONDS)
    return Steps(pictures, width)


class _Packed(NamedTuple):
    """A step's picture kept small until its frame is made: a long match has a thousand of them,
    several hundred kilobytes each as pixels (issue 31: the worker kept 600 MB)."""

    size: tuple[int, int]
    pixels: bytes  # the palette indices, zlib-compressed (the felt compresses some 25 times)
    words: list[str]
    seconds: float

    @classmethod
    def of(cls, picture: Image.Image, words: list[str], seconds: float) -> _Packed:
        picture = palette.to_palette(picture)
        return cls(picture.size, zlib.compress(picture.tobytes(), 1), words, seconds)

    def picture(self) -> Image.Image:
        image = Image.frombytes("P", self.size, zlib.decompress(self.pixels))
        image.putpalette(theme.PALETTE)
        return image


class Steps(Sequence[Step]):
    """The frames of a game, each made when it is read: only one is in memory at a time while
    they are encoded one after another (:func:`encode_animation`)."""

    def __init__(self, pictures: Sequence[_Packed], width: int) -> None:
        self._pictures = list(pictures)
        self._band = round(width * 0.1)
        self._sizes = Sizes(width)
        height = max((picture.size[1] for picture in self._pictures), default=0) + self._band
        self.size = (width, height + height % 2)  # H.264 in 4:2:0 wants even sides

    def __len__(self) -> int:
        return len(self._pictures)

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> list[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | list[Step]:
        if isinstance(index, slice):
            return [self._step(picture) for picture in self._pictures[index]]
        return self._step(self._pictures[index])

    def seconds(self) -> list[float]:
        """Each step's time, without making its frame."""
        return [picture.seconds for picture in self._pictures]

    def _step(self, packed: _Packed) -> Step:
        return Step(_frame(packed.picture(), packed.words, self.size, self._band, self._sizes), packed.seconds)


def move_seconds(plays: int) -> float:
    """How long each move is shown in a game of ``plays`` moves.

    >>> move_seconds(30), move_seconds(400), move_seconds(1000)
    (0.9, 0.45, 0.4)
    """
    if plays <= 0:
        return MOVE_SECONDS
    return round(max(FASTEST_MOVE_SECONDS, min(MOVE_SECONDS, AIM_SECONDS / plays)), 2)


def _frame(picture: Image.Image, words: list[str], size: tuple[int, int], band: int, sizes: Sizes) -> Image.Image:
    canvas = palette.canvas(size, theme.FELT)
    canvas.paste(picture, (0, (size[1] - band - picture.height) // 2))
    strip = palette.canvas((size[0], band), theme.HEADER)
    text = " · ".join(words)
    font = text_font(round(band * 0.42))
    if text and font is not None:
        shown = fit(text, font, size[0] - 2 * sizes.pad)
        sprite = label(shown, round(band * 0.42), theme.TEXT, on=theme.HEADER)
        sprite.paste(strip, sizes.pad, (band - sprite.height) // 2)
    canvas.paste(strip, (0, size[1] - band))
    return canvas


def encode_animation(frames: Sequence[Step]) -> Animation:
    """The smaller of an H.264 MP4 and (for a short game) a GIF of ``frames``."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    mp4 = _mp4(frames)
    if len(frames) <= GIF_FRAMES:
        gif = _gif(frames)
        if len(gif.data) < len(mp4.data):
            return gif
    return mp4


def _mp4(frames: Sequence[Step]) -> Animation:
    import av  # only where animations are made: it loads FFmpeg

    width, height = frames[0].image.size
    buffer = io.BytesIO()
    with av.open(buffer, mode="w", format="mp4") as container:
        stream = container.add_stream("libx264", rate=FPS)
        stream.width, stream.height = width, height
        stream.pix_fmt = "yuv420p"
        stream.time_base = stream.codec_context.time_base = Fraction(1, TICKS)
        stream.options = {"crf": "26", "preset": "veryfast", "tune": "animation"}
        # Each step is encoded once and lasts until the next one's time stamp (a variable frame
        # rate): a still table costs nothing while it is shown. The last is repeated at the end
        # so that it is shown for its whole time.
        # One frame at a time: ``frames`` may make each only when it is read (:class:`Steps`).
        at = 0
        seconds = 0.0
        for number, step in enumerate(itertools.chain(frames, [frames[-1]])):
            frame = av.VideoFrame.from_image(step.image.convert("RGB"))  # type: ignore[no-untyped-call]
            frame.pts, frame.time_base = at, Fraction(1, TICKS)
            for packet in stream.encode(frame):
                container.mux(packet)
            at += round(step.seconds * TICKS)
            seconds += step.seconds if number < len(frames) else 0.0
        for packet in stream.encode(None):
            container.mux(packet)
    return Animation(buffer.getvalue(), "mp4", width, height, seconds, len(frames))


def _gif(frames: Sequence[Step]) -> Animation:
    buffer = io.BytesIO()
    made = list(frames)  # a short game's (GIF_FRAMES at most): each frame made once
    first, *rest = [step.image for step in made]
    durations = [round(step.seconds * 1000) for step in made]
    first.save(buffer, format="GIF", save_all=True, append_images=rest, duration=durations, loop=0, optimize=False)
    width, height = first.size
    return Animation(buffer.getvalue(), "gif", width, height, sum(durations) / 1000, len(frames))


def render_replay(
    record: dict[str, Any],
    names: Sequence[str] | None = None,
    *,
    width: int = WIDTH,
    describe: Describe = english,
    title: Title = round_title,
) -> Animation:
    """The game in ``record`` as an animation (see :func:`encode_animation`), within :data:`MAX_BYTES`.

    ``names`` default to the record's own ``names`` (an exported record has them)."""
    if names is None and isinstance(record.get("names"), list):
        names = [str(name) for name in record["names"]]
    while True:
        animation = encode_animation(steps(record, names, width=width, describe=describe, title=title))
        if len(animation.data) <= MAX_BYTES or width < WIDTH // 3:
            return animation
        width = round(width * SMALLER)

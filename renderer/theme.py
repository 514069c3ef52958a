"""Colours and sizes of every picture, and the fixed palette they are encoded with.

Every picture is made of the handful of colours below over one fixed
256-colour palette: the colours themselves plus, for every pair of colours
that meet on a picture, the steps of the blend between them (the anti-aliased
edges). Sprites are mapped onto it once, when they are first drawn, and
pictures are put together in palette mode (:mod:`renderer.palette`), so a
picture costs no colour mapping at all, where choosing a palette per picture
would cost tens of milliseconds.

>>> len(PALETTE) <= 256 * 3
True
"""

from __future__ import annotations

from dataclasses import dataclass

Colour = tuple[int, int, int]

FELT: Colour = (24, 92, 60)  # the table
HEADER: Colour = (14, 58, 37)  # the band of seats above the table
CARD: Colour = (30, 84, 57)  # a seat's card in the header
CARD_TURN: Colour = (62, 104, 56)  # the card of the seat to play
PANEL: Colour = (12, 46, 30)  # under the hand in a private view
TEXT: Colour = (255, 255, 255)
TEXT_DIM: Colour = (176, 212, 190)
FACE: Colour = (250, 246, 233)  # a tile's face
EDGE: Colour = (32, 32, 28)  # a tile's outline
PIP: Colour = (22, 22, 22)
DIVIDER: Colour = (120, 112, 98)
LAST_FACE: Colour = (255, 232, 150)  # the tile played last
LAST_EDGE: Colour = (235, 96, 20)
PLAY_EDGE: Colour = (70, 225, 110)  # a tile of one's hand that can be played now
DIM_FACE: Colour = (120, 138, 124)  # a tile of one's hand that cannot
DIM_PIP: Colour = (52, 64, 56)
BADGE_FILL: Colour = (255, 208, 40)  # the open ends' numbers
BADGE_EDGE: Colour = (20, 20, 20)
TURN: Colour = (255, 196, 36)  # the marker of the seat to play, a winner's crown
YOU: Colour = (110, 196, 255)  # the marker of the seat whose private view it is
# The two teams of a partnership game (goat, partners): team 0 red, team 1 blue, as the captions'
# 🟥 and 🟦. Drawn as crisp bars and squares only, so they need no blends in the palette.
TEAM_COLOURS: tuple[Colour, Colour] = ((226, 74, 66), (66, 133, 244))

BASE_COLOURS: tuple[Colour, ...] = (
    FELT,
    HEADER,
    CARD,
    CARD_TURN,
    PANEL,
    TEXT,
    TEXT_DIM,
    FACE,
    EDGE,
    PIP,
    DIVIDER,
    LAST_FACE,
    LAST_EDGE,
    PLAY_EDGE,
    DIM_FACE,
    DIM_PIP,
    BADGE_FILL,
    BADGE_EDGE,
    TURN,
    YOU,
)

# Pairs of colours that meet on some picture, so that their blends are in the palette.
_MEETINGS: tuple[tuple[Colour, Colour], ...] = (
    (FELT, EDGE),
    (EDGE, FACE),
    (FACE, PIP),
    (FACE, DIVIDER),
    (FELT, LAST_EDGE),
    (LAST_EDGE, LAST_FACE),
    (LAST_FACE, PIP),
    (LAST_FACE, DIVIDER),
    (FELT, BADGE_EDGE),
    (BADGE_EDGE, BADGE_FILL),
    (FELT, TEXT),
    (HEADER, TEXT),
    (HEADER, TEXT_DIM),
    (CARD, TEXT),
    (CARD, TEXT_DIM),
    (CARD_TURN, TEXT),
    (CARD_TURN, TEXT_DIM),
    (HEADER, CARD),
    (HEADER, TURN),
    (TURN, CARD_TURN),
    (HEADER, YOU),
    (CARD, EDGE),
    (CARD_TURN, EDGE),
    (HEADER, EDGE),
    (PANEL, EDGE),
    (PANEL, PLAY_EDGE),
    (PLAY_EDGE, FACE),
    (PANEL, DIM_FACE),
    (DIM_FACE, DIM_PIP),
    (PANEL, TEXT),
    (PANEL, TEXT_DIM),
    (PANEL, TURN),
    (FELT, TURN),
    (CARD, YOU),
)
_STEPS = 6  # blends between the two colours of a pair


def _blend(a: Colour, b: Colour, t: float) -> Colour:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _palette() -> list[int]:
    colours: list[Colour] = list(dict.fromkeys(BASE_COLOURS))
    seen = set(colours)
    for a, b in _MEETINGS:
        for step in range(1, _STEPS + 1):
            colour = _blend(a, b, step / (_STEPS + 1))
            if colour not in seen:
                seen.add(colour)
                colours.append(colour)
    # Added after every blend, so that the entries of the older colours stay where they were.
    for colour in TEAM_COLOURS:
        if colour not in seen:
            seen.add(colour)
            colours.append(colour)
    if len(colours) > 256:
        raise AssertionError(f"the palette needs {len(colours)} colours")
    colours += [colours[0]] * (256 - len(colours))  # unused entries repeat the felt, never chosen first
    return [channel for colour in colours for channel in colour]


PALETTE: list[int] = _palette()


@dataclass(frozen=True)
class Sizes:
    """Pixel sizes of one picture width; every view scales from ``width``."""

    width: int = 1080

    @property
    def pad(self) -> int:
        return round(self.width * 0.02)

    @property
    def card_height(self) -> int:
        """A seat's card in the header: its name over its tiles in hand and its score."""
        return round(self.width * 0.118)

    # A picture is seen on a phone about 390 px wide: 1080 px -> 390 shows a 45 px name with
    # capitals 11.6 px tall (Roboto's are 0.711 of the size), as tall as the chat's own text.
    @property
    def name_font(self) -> int:
        return round(self.width * 0.042)

    @property
    def number_font(self) -> int:
        return round(self.width * 0.04)

    @property
    def board_max(self) -> int:
        """The tallest a table picture's board may be before its tiles are drawn smaller."""
        return round(self.width * 0.78)

    @property
    def board_max_private(self) -> int:
        return round(self.width * 0.6)

    @property
    def board_min(self) -> int:
        return round(self.width * 0.42)

    @property
    def half_units(self) -> tuple[int, ...]:
        """Pixels per half-unit to try, largest first: big tiles while the line is short.

        No smaller than 27 at 1080 (a tile 39 x 19.5 px on a 390 px phone): a longer line makes the
        board taller than its ``board_max`` rather than every tile smaller."""
        scale = self.width / 1080
        return tuple(max(6, round(px * scale)) for px in (30, 27))

    @property
    def hand_half(self) -> int:
        return round(self.width * 0.034)

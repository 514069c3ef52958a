"""The three pictures: what each shows, what the public one never shows, and Telegram's limits."""

from __future__ import annotations

import dataclasses
import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image

from engine.errors import RoundNotOverError
from engine.match import Match
from engine.observation import Observation, Table
from engine.rules import Rules
from engine.state import Move, RoundState
from engine.tiles import ALL_TILES, Tile, tile_of
from renderer import fonts, sprites, theme
from renderer.encode import BUDGET, check_limits
from renderer.examples import EXAMPLES, NAMES, finish, full_table, play_until, private_view
from renderer.pictures import draw_private, draw_result, draw_table, render_private, render_result, render_table
from renderer.theme import Colour
from renderer.views import RoundResult


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    found = image.convert("RGB").getcolors(1 << 22)
    assert found is not None
    return {colour for _, colour in found}  # type: ignore[misc]


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_example_is_a_photo_telegram_takes_and_small(name: str) -> None:
    image = EXAMPLES[name]()
    assert image.mode == "P" and image.getpalette() == theme.PALETTE and image.width == 1080
    check_limits(image.width, image.height)
    assert image.height <= 1280, "taller than Telegram shows a photo without scaling it down"
    from renderer.encode import encode

    picture = encode(image)
    assert len(picture.data) <= BUDGET
    decoded = Image.open(io.BytesIO(picture.data))
    assert decoded.size == image.size and decoded.format == picture.format.upper()


def test_the_public_picture_takes_only_the_public_table() -> None:
    match = play_until(Rules.preset("draw"), 3, seed=2, plays=4)
    observation = match.observe(1)
    with pytest.raises(TypeError, match="Table"):
        draw_table(observation)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Table"):
        render_table(tuple(match.table()))  # type: ignore[arg-type]

    class Sneaky(Table):
        pass

    with pytest.raises(TypeError):
        draw_table(Sneaky(*match.table()))
    with pytest.raises(TypeError, match="Observation"):
        draw_private(match.table())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="RoundResult"):
        draw_result(match.round)  # type: ignore[arg-type]


def _same_table_other_hands() -> Iterator[RoundState]:
    """Two rounds whose public tables are equal while a hidden hand and the boneyard differ."""
    tiles = list(ALL_TILES)
    random.Random(9).shuffle(tiles)
    hands = [tiles[0:7], tiles[7:14]]
    boneyard = tiles[14:]
    swapped = [hands[0], [*hands[1][:-1], boneyard[-1]]]
    rules = Rules.preset("draw")
    for hand_set, rest in ((hands, boneyard), (swapped, [*boneyard[:-1], hands[1][-1]])):
        state = RoundState.start(rules, hand_set, rest, first=0)
        yield state.apply(state.legal_moves()[0])


def test_hidden_tiles_never_change_the_public_picture() -> None:
    first, second = _same_table_other_hands()
    assert first.hands != second.hands and first.line == second.line
    assert Table.of(first) == Table.of(second)
    assert render_table(Table.of(first), NAMES).data == render_table(Table.of(second), NAMES).data
    # ...while the seat whose hand differs sees its own hand.
    assert render_private(Observation.of(first, 1)).data != render_private(Observation.of(second, 1)).data


def test_the_private_view_marks_playable_tiles_only_on_ones_turn() -> None:
    mine = private_view()
    assert mine.is_my_turn and mine.legal_moves()
    seen = colours(draw_private(mine))
    assert theme.PLAY_EDGE in seen
    playable = {move.tile for move in mine.legal_moves()}
    assert (theme.DIM_FACE in seen) == (len(playable) < len(mine.hand))
    waiting = play_until(Rules.preset("fives"), 4, 4, plays=6)
    other = (waiting.round.turn + 1) % 4
    seen = colours(draw_private(waiting.observe(other)))
    assert theme.PLAY_EDGE not in seen and theme.DIM_FACE not in seen


def test_the_table_marks_the_last_tile_and_the_open_ends() -> None:
    empty = Match.new(Rules.preset("fives"), 2, random.Random(1)).table()
    assert theme.LAST_EDGE not in colours(draw_table(empty)) and theme.BADGE_FILL not in colours(draw_table(empty))
    seen = colours(draw_table(full_table()))
    assert theme.LAST_EDGE in seen and theme.BADGE_FILL in seen and theme.TURN in seen


def test_a_finished_round_shows_every_hand() -> None:
    match = play_until(Rules.preset("draw"), 4, seed=6, plays=3)
    with pytest.raises(RoundNotOverError):
        RoundResult.of(match.round)
    match = finish(match, 6)
    result = RoundResult.of_match(match)
    assert result.hands == match.round.hands and result.scores == match.scores
    image = draw_result(result, NAMES)
    assert theme.TURN in colours(image)  # the winner's crown and points
    check_limits(*image.size)
    with pytest.raises(ValueError, match="hands"):
        dataclasses.replace(result, hands=result.hands[:-1])
    with pytest.raises(ValueError, match="ended with"):
        dataclasses.replace(result, hands=(result.hands[1], result.hands[0], *result.hands[2:]))
    assert render_result(result).format == "png"


def test_a_huge_hand_wraps_inside_the_picture() -> None:
    hand = ALL_TILES[:21]
    table = full_table()
    view = Observation(table._replace(hand_sizes=(21, 0), turn=0), 0, hand, None)
    image = draw_private(view, NAMES)
    check_limits(*image.size)
    assert image.width == 1080 and image.height <= 1280


@pytest.mark.parametrize("width", [720, 1280])
def test_other_widths(width: int) -> None:
    for image in (draw_table(full_table(), NAMES, width=width), draw_private(private_view(), width=width)):
        assert image.width == width
        check_limits(*image.size)


def test_names_latin_cyrillic_long_and_with_emoji() -> None:
    font = fonts.text_font(30)
    if font is None:
        pytest.skip("no font here: pictures go without names")
    for name in ("Анна", "Олександр", "Zoë", "Ёжик Її"):
        assert fonts.clean(name, font) == name, f"{name} has characters the font cannot draw"
    assert fonts.clean("Bob 🎲\u200d", font) == "Bob"
    long = fonts.fit("Константин Константинопольский-Старший", font, 200)
    assert long.endswith("…") and font.getlength(long) <= 200


@pytest.fixture
def no_fonts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(fonts, "_roboto", lambda: None)
    monkeypatch.setattr(fonts, "_dejavu", lambda: None)
    sprites.clear_caches()
    yield
    sprites.clear_caches()


def test_without_any_font_the_pictures_go_without_names(no_fonts: None) -> None:
    assert fonts.font_file() is None and fonts.text_font(30) is None
    for name in ("table_full_28", "private_my_turn", "result_domino_4", "table_fives_four_arms"):
        image = EXAMPLES[name]()
        check_limits(*image.size)
        assert theme.BADGE_FILL in colours(image)


def test_a_lone_double_lead_and_a_spinner_lead() -> None:
    for preset in ("duel", "fives"):
        state = RoundState.start(
            Rules.preset(preset),
            [[tile_of(6, 6), *ALL_TILES[1:7]], list(ALL_TILES[7:14])],
            ALL_TILES[14:],
            first=0 if preset == "fives" else None,
        )
        state = state.apply(Move(Tile(6, 6)))
        assert len(state.line) == 1
        image = draw_table(Table.of(state))
        check_limits(*image.size)


def test_pictures_can_be_drawn_from_several_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    jobs = [full_table(), play_until(Rules.preset("fives"), 4, 4, plays=14).table()] * 4
    expected = [render_table(table, NAMES).data for table in jobs]
    sprites.clear_caches()  # so that fonts, labels and tiles are made while threads race
    with ThreadPoolExecutor(max_workers=4) as pool:
        drawn = list(pool.map(lambda table: render_table(table, NAMES).data, jobs))
    assert drawn == expected


@pytest.mark.parametrize(
    ("look", "on"),
    [
        (sprites.Look.PLAIN, theme.FELT),
        (sprites.Look.LAST, theme.FELT),
        (sprites.Look.PLAYABLE, theme.PANEL),
        (sprites.Look.DIMMED, theme.PANEL),
        (sprites.Look.PLAIN, theme.CARD_TURN),
    ],
)
def test_a_palette_sprite_pastes_as_blending_the_drawn_one_and_mapping_would(look: sprites.Look, on: Colour) -> None:
    from renderer.palette import canvas, to_palette

    drawn = sprites.tile_rgba(6, 3, True, 27, look)
    sprite = sprites.tile(6, 3, True, 27, look, on=on)
    size = (drawn.width + 20, drawn.height + 20)
    pasted = canvas(size, on)
    sprite.paste(pasted, 10, 10)
    blended = Image.new("RGB", size, on)
    blended.paste(drawn, (10, 10), drawn)
    assert pasted.tobytes() == to_palette(blended).tobytes()

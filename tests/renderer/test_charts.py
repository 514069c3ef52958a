"""📊 The form and leaderboard pictures: every number drawn where it belongs, any length of history."""

from __future__ import annotations

import pytest
from PIL import Image

from renderer import charts
from renderer.charts import Board, Form, Standing, draw_board, draw_form, render_board, render_form


def form(ratings: list[int], median: int | None = None, presets: int = 2) -> Form:
    rule_sets = [("Classic", 6, 3), ("All Fives", 4, 0), ("Duel", 2, 2)][:presets]
    return Form("Ann", "Rating", ratings, median, "chat median", rule_sets, "12 games, 5 wins", "Best streak: 3")


def share(image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None) -> float:
    """The share of ``box`` (default: all) close to ``colour``."""
    part = image.convert("RGB").crop(box or (0, 0, *image.size))
    pixels = [part.getpixel((x, y)) for y in range(0, part.height, 2) for x in range(0, part.width, 2)]
    near = sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, colour, strict=True)) < 30)
    return near / len(pixels)


@pytest.mark.parametrize("count", [0, 1, 2, 30, 200])
def test_the_form_draws_any_length_of_history(count: int) -> None:
    picture = render_form(form([1000 + (i * 37) % 90 for i in range(count)]))
    assert picture.width == charts.WIDTH and picture.height < 2 * charts.WIDTH


def test_the_rating_line_and_the_chat_median_are_drawn() -> None:
    width = charts.WIDTH
    chart_area = (0, round(width * 0.12), width, round(width * 0.62))
    without = draw_form(form([1000, 1040, 1010, 1100]))
    with_median = draw_form(form([1000, 1040, 1010, 1100], median=1030))
    assert share(without, charts.LINE, chart_area) > 0.005
    assert share(with_median, charts.MEDIAN, chart_area) > share(without, charts.MEDIAN, chart_area)


def test_no_rated_game_draws_no_line() -> None:
    width = charts.WIDTH
    chart_area = (0, round(width * 0.12), width, round(width * 0.62))
    assert share(draw_form(form([])), charts.LINE, chart_area) == 0  # the words alone, no made-up rating


def test_a_bar_per_rule_set_with_its_wins() -> None:
    one, three = draw_form(form([1000], presets=1)), draw_form(form([1000], presets=3))
    assert three.height > one.height
    assert share(three, charts.WINS) > share(one, charts.WINS)  # Classic 3 of 6 and Duel 2 of 2 won


def test_the_board_has_a_row_per_player_and_a_trend_each() -> None:
    rows = [
        Standing(i + 1, f"Player {i}", str(1100 - 10 * i), "9 games", [1000, 1000 + 20 * (-1) ** i]) for i in range(5)
    ]
    board = draw_board(Board("Top players", rows))
    assert draw_board(Board("Top players", rows[:2])).height < board.height
    assert share(board, charts.UP) > 0 and share(board, charts.DOWN) > 0  # rising and falling trends
    assert render_board(Board("Nobody", [])).width == charts.WIDTH

"""The inline keyboards of a game's messages: the lobby, the board, a hand, the choice of ends, the
private menus; each button's data is a typed :mod:`bot.telegram.callbacks` value."""

from __future__ import annotations

from collections.abc import Callable

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.display.table_links import TableLinks
from bot.model import absence
from bot.model.clock import clock_seconds
from bot.model.game import Game, turn_number
from bot.telegram.callbacks import (
    AwayTap,
    EndCode,
    HandTap,
    HintTap,
    LevelTap,
    LobbyAction,
    LobbyTap,
    ReplayTap,
    ReviewTap,
    RoomAction,
    RoomTap,
    RulesTap,
    SoloGo,
    SoloStep,
    SoloTap,
    TileTap,
)
from bot.words import (
    hint_texts,
    manners_texts,
    replay_texts,
    review_texts,
    room_texts,
    table_texts,
    team_texts,
    texts,
)
from engine import ENDS, End, EndRequiredError, IllegalMoveError, Match, Move, Rules, Tile, TileError, tile_of
from engine.players import LEVELS

END_CODES = {End.LEFT: EndCode.LEFT, End.RIGHT: EndCode.RIGHT, End.UP: EndCode.UP, End.DOWN: EndCode.DOWN}


CODE_ENDS = {code: end for end, code in END_CODES.items()}


TILES_PER_ROW = 4


# Characters a button's label keeps, the emoji counted as one, when three (two) buttons share a row
# on a narrow phone: longer ones are cut short with "…" ("🤖 Средний ✓" was, and "Швидке блокове").
ROW_OF_THREE_LABEL_LIMIT = 10
ROW_OF_TWO_LABEL_LIMIT = 16
PRESETS_PER_ROW = 2


def tile_code(tile: Tile) -> str:
    return f"{tile.high}{tile.low}"


def lobby_markup(game: Game) -> InlineKeyboardMarkup:
    def button(text: str, action: LobbyAction) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data=LobbyTap(game=game.id, action=action).pack())

    seats = len(game.doc.seats)
    rules = Rules.preset(game.row.preset)
    join_rows = [
        [
            button(table_texts.join_button(), LobbyAction.JOIN),
            button(table_texts.leave_button(), LobbyAction.LEAVE),
        ]
    ]
    clock = button(manners_texts.lobby_clock_button(clock_seconds(game.doc, "group")), LobbyAction.CLOCK)
    options = [button(table_texts.lobby_seats_button(seats), LobbyAction.SEATS), clock]
    if rules.has_teams and seats == rules.max_seats:  # a side each, and the seats are fixed at four
        # A row each: two team buttons side by side are cut short on a phone ("Сесть: 🟥 Ком…").
        join_rows = [[button(team_texts.join_team_button(team), LobbyAction.join_team(team))] for team in range(2)]
        options = [button(table_texts.leave_button(), LobbyAction.LEAVE), clock]
    return InlineKeyboardMarkup(
        inline_keyboard=[
            *join_rows,
            [button(label, LobbyAction.add(level)) for level, label in zip(LEVELS, add_computer_labels(), strict=True)],
            options,
            [button(hint_texts.lobby_hints_button(game.doc.options.hints), LobbyAction.HINTS)],
            [
                button(table_texts.start_button(), LobbyAction.START),
                button(table_texts.cancel_button(), LobbyAction.CANCEL),
            ],
        ]
    )


def board_markup(game: Game, links: TableLinks | None = None) -> InlineKeyboardMarkup | None:
    if game.doc.game.killed:  # ended with /kill: nothing to tap any more
        return None
    row = [InlineKeyboardButton(text=table_texts.my_hand_button(), callback_data=HandTap(game=game.id).pack())]
    table = links.group(game.id) if links is not None else None
    if table is not None:  # groups allow no web_app button: the Mini App's direct link instead
        row.append(InlineKeyboardButton(text=table_texts.open_table_button(), url=table))
    return InlineKeyboardMarkup(inline_keyboard=[row])


def hand_markup(game: Game, match: Match, seat: int, links: TableLinks | None = None) -> InlineKeyboardMarkup | None:
    """A button per tile while the match runs, playable ones marked on this seat's turn; 💡, the levels,
    the table page's button; under a finished private game only "Play again"; under a finished group
    game nothing (None: a hand sent then has no keyboard, an edit then takes its buttons away)."""
    my_turn = absence.to_move(game.doc, match, seat)
    version = turn_number(match)
    # Once the match is over a tile can no longer be played: the tiles left are in the picture.
    rows = [] if match.is_over else tile_rows(game, match, seat, my_turn)
    if my_turn and game.offers_hints:
        hint = InlineKeyboardButton(
            text=hint_texts.hint_button(), callback_data=HintTap(game=game.id, version=version).pack()
        )
        rows.append([hint])
    rows += level_rows(game, match)
    rows += take_back_rows(game, match, seat)
    if links is not None and not match.is_over:  # a hand lives in a private chat, where web_app buttons work
        rows.append(
            [InlineKeyboardButton(text=table_texts.open_table_button(), web_app=WebAppInfo(url=links.page(game.id)))]
        )
    if game.row.kind == "private" and match.is_over:
        rows.append(
            [
                InlineKeyboardButton(
                    text=table_texts.play_again_button(), callback_data=SoloTap(step=SoloStep.MENU).pack()
                )
            ]
        )
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


def tile_rows(game: Game, match: Match, seat: int, my_turn: bool) -> list[list[InlineKeyboardButton]]:
    """The seat's tiles as buttons, in the order of the picture (Observation.hand), the playable ones marked."""
    state = match.round
    playable = {move.tile for move in state.legal_moves()} if my_turn else set()
    version = turn_number(match)
    buttons = []
    for tile in sorted(state.hands[seat], reverse=True):
        label = f"{tile.high}|{tile.low}"
        if tile in playable:
            label = ("⭐ " if state.line.is_empty and state.forced == tile else "🟢 ") + label
        data = TileTap(game=game.id, version=version, tile=tile_code(tile)).pack()
        buttons.append(InlineKeyboardButton(text=label, callback_data=data))
    return [buttons[i : i + TILES_PER_ROW] for i in range(0, len(buttons), TILES_PER_ROW)]


def final_result_markup(game_id: int, markup: InlineKeyboardMarkup | None) -> InlineKeyboardMarkup:
    """A game's final result keyboard: its own buttons (Rematch), then 🎬 Replay and 📈 Review."""
    rows = list(markup.inline_keyboard) if markup is not None else []
    replay = InlineKeyboardButton(text=replay_texts.replay_button(), callback_data=ReplayTap(game=game_id).pack())
    review = InlineKeyboardButton(text=review_texts.review_button(), callback_data=ReviewTap(game=game_id).pack())
    return InlineKeyboardMarkup(inline_keyboard=[*rows, [replay, review]])


def take_back_markup(game_id: int) -> InlineKeyboardMarkup:
    button = InlineKeyboardButton(text=manners_texts.take_back_button(), callback_data=AwayTap(game=game_id).pack())
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def take_back_rows(game: Game, match: Match, seat: int) -> list[list[InlineKeyboardButton]]:
    """Under an away person's hand, while the game runs: "Take my seat back" (not after a /kick)."""
    info = game.doc.seats[seat]
    if info is None or info.away not in absence.RETURNABLE or match.is_over or game.doc.game.killed:
        return []
    return take_back_markup(game.id).inline_keyboard


def computer_level(game: Game) -> str | None:
    """The level the game's computers play at (a private game's are all alike); None without any."""
    levels = [seat.level for seat in game.doc.seats if seat and seat.is_computer]
    return (levels[0] or game.doc.options.computer_level) if levels else None


def level_rows(game: Game, match: Match) -> list[list[InlineKeyboardButton]]:
    """Under a private game still running: Easy, Medium, Hard, the current one ticked; else nothing."""
    current = computer_level(game)
    if game.row.kind != "private" or match.is_over or current is None:
        return []
    row = [
        InlineKeyboardButton(text=label, callback_data=LevelTap(game=game.id, level=level).pack())
        for level, label in zip(LEVELS, level_labels(current), strict=True)
    ]
    return [row]


def fit_a_row_of_three(labels: list[str]) -> bool:
    return all(len(label) <= ROW_OF_THREE_LABEL_LIMIT for label in labels)


def add_computer_labels() -> list[str]:
    """The lobby's row that adds a computer: "+🤖 Easy", "+🤖 Medium", "+🤖 Hard"; without the space
    in a language where a label would not fit a button of a row of three ("+🤖Середній")."""
    spaced = [f"+🤖 {texts.level_title(level)}" for level in LEVELS]
    return spaced if fit_a_row_of_three(spaced) else [label.replace(" ", "", 1) for label in spaced]


def level_labels(current: str) -> list[str]:
    """The level row's labels, the current level ticked: "🤖 Easy", "🤖 Medium ✓", "🤖 Hard"; without the
    robots in a language where a ticked label would not fit a button of a row of three ("Лёгкий",
    "Средний ✓", "Сложный"): whichever level is ticked, so the row keeps its look when the level changes."""
    titles = [texts.level_title(level) for level in LEVELS]
    robots = fit_a_row_of_three([f"🤖 {title} ✓" for title in titles])
    return [
        ("🤖 " if robots else "") + title + (" ✓" if level == current else "")
        for level, title in zip(LEVELS, titles, strict=True)
    ]


def end_choice_markup(game: Game, match: Match, tile: Tile, ends: list[End]) -> InlineKeyboardMarkup:
    """The "which end?" question for ``tile``: one button per end that makes a difference (of two
    mirror-image ends, only the engine's first), each with the number it shows where those differ."""
    version = turn_number(match)
    values = match.round.line.open_ends()
    distinct = match.round.distinct_ends(tile)
    offered = sorted((end for end in ends if end in distinct), key=ENDS.index)
    numbered = len({values[end] for end in offered}) > 1  # "left: 2 / right: 2" would tell nothing
    row = [
        InlineKeyboardButton(
            text=f"{table_texts.end_label(end.value)}: {values[end]}" if numbered else table_texts.end_label(end.value),
            callback_data=TileTap(game=game.id, version=version, tile=tile_code(tile), end=END_CODES[end]).pack(),
        )
        for end in offered
    ]
    back = InlineKeyboardButton(
        text=table_texts.back_button(), callback_data=TileTap(game=game.id, version=version, tile="").pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[row[:2], row[2:], [back]] if len(row) > 2 else [row, [back]])


def current_hand_markup(
    game: Game, match: Match, seat: int, links: TableLinks | None = None
) -> InlineKeyboardMarkup | None:
    """What a redraw of the seat's hand shows: its unanswered "which end?" question, if it stands
    (the same turn, the tile still fitting several ends), else the tiles (:func:`hand_markup`)."""
    asked = asked_ends(game, match, seat)
    if asked is not None:
        return end_choice_markup(game, match, *asked)
    return hand_markup(game, match, seat, links)


def asked_ends(game: Game, match: Match, seat: int) -> tuple[Tile, list[End]] | None:
    """The tile and the ends of the question the seat was asked and has not answered, while it stands."""
    question = game.doc.game.asked.get(seat)
    if question is None or question.turn != turn_number(match) or not absence.to_move(game.doc, match, seat):
        return None
    try:
        tile = tile_of(int(question.tile[0]), int(question.tile[1]))
        match.check(Move(tile, None), seat=seat)
    except EndRequiredError as asked:
        return tile, list(asked.ends)  # type: ignore[arg-type]
    except (IllegalMoveError, TileError, ValueError, IndexError):
        return None  # a broken record of it: the tiles
    return None


def solo_menu_markup() -> InlineKeyboardMarkup:
    rows = preset_rows(lambda preset: SoloTap(step=SoloStep.PRESET, preset=preset).pack())
    rows.append(
        [InlineKeyboardButton(text=room_texts.friend_button(), callback_data=RoomTap(action=RoomAction.MENU).pack())]
    )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def preset_rows(callback_data: Callable[[str], str]) -> list[list[InlineKeyboardButton]]:
    """A button per rule set, two to a row: "Швидке блокове" does not fit a row of three on a phone."""
    presets = list(texts.PRESET_TITLES)
    return [
        [
            InlineKeyboardButton(text=texts.preset_title(preset), callback_data=callback_data(preset))
            for preset in presets[i : i + PRESETS_PER_ROW]
        ]
        for i in range(0, len(presets), PRESETS_PER_ROW)
    ]


def opponents_markup(preset: str) -> InlineKeyboardMarkup:
    """One tap deals: a row per number of opponents ("2 Hard"), a button per level in each."""
    rules = Rules.preset(preset)
    choices = range(max(1, rules.min_seats - 1), rules.max_seats)
    several = len(choices) > 1
    rows = [
        [
            InlineKeyboardButton(
                text=f"{n} {texts.level_title(level)}" if several else f"🤖 {texts.level_title(level)}",
                callback_data=SoloGo(preset=preset, opponents=n, level=level).pack(),
            )
            for level in LEVELS
        ]
        for n in choices
    ]
    back = InlineKeyboardButton(text=table_texts.back_button(), callback_data=SoloTap(step=SoloStep.MENU).pack())
    return InlineKeyboardMarkup(inline_keyboard=[*rows, [back]])


def rules_markup() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=preset_rows(lambda preset: RulesTap(preset=preset).pack()))

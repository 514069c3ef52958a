"""What a game looks like in Telegram: captions, lobby text and the inline keyboards."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.model import absence
from bot.model.clock import clock_seconds
from bot.model.game import Game, turn_number
from bot.telegram.callbacks import (
    AwayTap,
    EndCode,
    HandTap,
    LevelTap,
    LobbyAction,
    LobbyTap,
    RoomAction,
    RoomTap,
    RulesTap,
    SoloGo,
    SoloStep,
    SoloTap,
    TileTap,
)
from bot.words import texts
from engine import ENDS, End, Match, Rules, Tile
from engine.players import LEVELS

END_CODES = {End.LEFT: EndCode.LEFT, End.RIGHT: EndCode.RIGHT, End.UP: EndCode.UP, End.DOWN: EndCode.DOWN}
CODE_ENDS = {code: end for end, code in END_CODES.items()}
TILES_PER_ROW = 4


def tile_code(tile: Tile) -> str:
    return f"{tile.high}{tile.low}"


def lobby_markup(game: Game) -> InlineKeyboardMarkup:
    def button(text: str, action: LobbyAction) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data=LobbyTap(game=game.id, action=action).pack())

    seats = len(game.doc.seats)
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [button(texts.join_button(), LobbyAction.JOIN), button(texts.leave_button(), LobbyAction.LEAVE)],
            [button(f"+🤖 {texts.level_title(level)}", LobbyAction.add(level)) for level in LEVELS],
            [
                button(texts.lobby_seats_button(seats), LobbyAction.SEATS),
                button(texts.lobby_clock_button(clock_seconds(game.doc, "group")), LobbyAction.CLOCK),
            ],
            [button(texts.start_button(), LobbyAction.START), button(texts.cancel_button(), LobbyAction.CANCEL)],
        ]
    )


def lobby_text(game: Game) -> str:
    rules = Rules.preset(game.row.preset)
    creator = next((s.name for s in game.doc.seats if s and s.user_id == game.row.creator_id), None)
    names = [s.shown_name if s else None for s in game.doc.seats]
    return texts.lobby_text(
        game.row.preset, rules, names, creator or texts.someone(), fill_level=game.doc.computer_level
    )


def board_markup(game: Game) -> InlineKeyboardMarkup | None:
    if game.doc.killed:  # ended with /kill: nothing to tap any more
        return None
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=texts.my_hand_button(), callback_data=HandTap(game=game.id).pack())]
        ]
    )


def status_lines(game: Game, match: Match) -> list[str]:
    """Whose turn, tiles per seat, boneyard, scores and the last actions: shared by every caption.

    Read from the round's public :class:`engine.Table` only (drawn tiles left out), never from
    its hands: a caption goes to the group and to every seat alike."""
    names = game.doc.names()
    state = match.table()
    rules = match.rules
    target = match.target
    title = f"<b>{texts.preset_title(rules.id)}</b>"
    if rules.is_match:
        title = texts.match_title(rules.id, len(match.rounds), target)
    lines = [title]
    if game.doc.killed:
        lines.append(texts.killed_line())
    elif state.end is not None:
        lines.append(texts.round_over())
    else:
        lines.append(texts.to_play(names[state.turn]) + _clock_suffix(game, match))
    counts = " · ".join(f"{texts.escape(names[i])} {size}" for i, size in enumerate(state.hand_sizes))
    if rules.draws:
        counts += " · " + texts.boneyard_count(state.boneyard_count)
    lines.append(counts)
    away = absence.away_names(game.doc)
    if away and not match.is_over:
        lines.append(texts.away_line(away))
    if rules.is_match or rules.in_play.value != "none":
        lines.append(texts.score_line(" · ".join(f"{texts.escape(names[i])} {s}" for i, s in enumerate(state.scores))))
    recent = texts.describe_events(list(state.history[-8:]), names)[-3:]
    if recent:
        lines.append(". ".join(recent) + ".")
    return lines


def board_caption(game: Game, match: Match) -> str:
    return _fit("\n".join(status_lines(game, match)))


def _clock_suffix(game: Game, match: Match) -> str:
    """ " · ⏱ 60 s per move" while a person (not away) is to play under a clock."""
    seconds = clock_seconds(game.doc, game.row.kind)
    if seconds <= 0 or not absence.to_move(game.doc, match, match.round.turn):
        return ""
    seat = game.doc.seats[match.round.turn]
    return texts.clock_suffix(seconds) if seat is not None and seat.user_id is not None else ""


def hand_caption(game: Game, match: Match, seat: int) -> str:
    lines = status_lines(game, match)
    if game.doc.killed:
        return _fit("\n".join(lines))
    if absence.to_move(game.doc, match, seat):
        lines[1] = texts.your_turn()
        seconds = clock_seconds(game.doc, game.row.kind)
        if seconds > 0:
            lines[1] += " " + texts.your_clock(seconds)
    elif not absence.present(game.doc, seat) and not match.is_over:
        lines.insert(2, texts.hand_away_line())
    return _fit("\n".join(lines))


def hand_markup(game: Game, match: Match, seat: int) -> InlineKeyboardMarkup:
    """A button per tile; playable ones marked while it is this seat's turn."""
    state = match.round
    my_turn = absence.to_move(game.doc, match, seat)
    playable = {move.tile for move in state.legal_moves()} if my_turn else set()
    version = turn_number(match)
    buttons = []
    for tile in sorted(state.hands[seat], reverse=True):  # the order of the picture (Observation.hand)
        label = f"{tile.high}|{tile.low}"
        if tile in playable:
            label = ("⭐ " if state.line.is_empty and state.forced == tile else "🟢 ") + label
        data = TileTap(game=game.id, version=version, tile=tile_code(tile)).pack()
        buttons.append(InlineKeyboardButton(text=label, callback_data=data))
    rows = [buttons[i : i + TILES_PER_ROW] for i in range(0, len(buttons), TILES_PER_ROW)]
    rows += level_rows(game, match)
    rows += take_back_rows(game, match, seat)
    if game.row.kind == "private" and match.is_over:
        rows.append(
            [InlineKeyboardButton(text=texts.play_again_button(), callback_data=SoloTap(step=SoloStep.MENU).pack())]
        )
    return InlineKeyboardMarkup(inline_keyboard=rows or [[]])


def take_back_markup(game_id: int) -> InlineKeyboardMarkup:
    button = InlineKeyboardButton(text=texts.take_back_button(), callback_data=AwayTap(game=game_id).pack())
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def take_back_rows(game: Game, match: Match, seat: int) -> list[list[InlineKeyboardButton]]:
    """Under an away person's hand, while the game runs: "Take my seat back" (not after a /kick)."""
    info = game.doc.seats[seat]
    if info is None or info.away not in absence.RETURNABLE or match.is_over or game.doc.killed:
        return []
    return take_back_markup(game.id).inline_keyboard


def computer_level(game: Game) -> str | None:
    """The level the game's computers play at (a private game's are all alike); None without any."""
    levels = [seat.level for seat in game.doc.seats if seat and seat.is_computer]
    return (levels[0] or game.doc.computer_level) if levels else None


def level_rows(game: Game, match: Match) -> list[list[InlineKeyboardButton]]:
    """Under a private game still running: Easy, Medium, Hard, the current one ticked; else nothing."""
    current = computer_level(game)
    if game.row.kind != "private" or match.is_over or current is None:
        return []
    row = [
        InlineKeyboardButton(
            text=f"🤖 {texts.level_title(level)}" + (" ✓" if level == current else ""),
            callback_data=LevelTap(game=game.id, level=level).pack(),
        )
        for level in LEVELS
    ]
    return [row]


def end_choice_markup(game: Game, match: Match, tile: Tile, ends: list[End]) -> InlineKeyboardMarkup:
    version = turn_number(match)
    values = match.round.line.open_ends()
    row = [
        InlineKeyboardButton(
            text=f"{texts.end_label(end.value)}: {values[end]}",
            callback_data=TileTap(game=game.id, version=version, tile=tile_code(tile), end=END_CODES[end]).pack(),
        )
        for end in sorted(ends, key=ENDS.index)
    ]
    back = InlineKeyboardButton(
        text=texts.back_button(), callback_data=TileTap(game=game.id, version=version, tile="").pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[row[:2], row[2:], [back]] if len(row) > 2 else [row, [back]])


def result_caption(game: Game, match: Match, round_index: int) -> str:
    names = game.doc.names()
    state = match.rounds[round_index]
    outcome = state.outcome()
    assert outcome is not None
    rules = match.rules
    how = texts.domino() if outcome.end.value == "domino" else texts.fish()
    if not outcome.winners:
        verdict = texts.draw_verdict() if rules.fish_tie.value == "draw" else texts.lowest_tie_verdict()
    elif len(outcome.winners) > 1:
        verdict = texts.shared_win([names[w] for w in outcome.winners])
    else:
        winner = outcome.winners[0]
        verdict = texts.round_winner(names[winner], outcome.points[winner])
    lines = [texts.round_heading(round_index + 1, how), verdict]
    for seat, hand in enumerate(state.hands):
        tiles = " ".join(texts.tile_text(t) for t in hand) or "—"
        lines.append(texts.hand_left(names[seat], tiles, outcome.pips[seat]))
    is_last = round_index == len(match.rounds) - 1
    if rules.is_match:
        totals = _totals_after(match, round_index)
        lines.append(texts.score_line(" · ".join(f"{texts.escape(names[i])} {s}" for i, s in enumerate(totals))))
    if is_last and match.is_over:
        champion = match.winner
        if champion is None:
            lines.append(texts.game_over())
        else:
            lines.append(texts.game_winner(names[champion]))
    return _fit("\n".join(lines))


def _totals_after(match: Match, round_index: int) -> list[int]:
    totals = [0] * match.seats
    for state in match.rounds[: round_index + 1]:
        outcome = state.outcome()
        if outcome is None:
            continue
        for seat in range(match.seats):
            totals[seat] += outcome.fives[seat] + outcome.points[seat]
    return totals


def solo_menu_markup() -> InlineKeyboardMarkup:
    rows = []
    presets = list(texts.PRESET_TITLES)
    for i in range(0, len(presets), 2):
        rows.append(
            [
                InlineKeyboardButton(
                    text=texts.preset_title(p), callback_data=SoloTap(step=SoloStep.PRESET, preset=p).pack()
                )
                for p in presets[i : i + 2]
            ]
        )
    rows.append(
        [InlineKeyboardButton(text=texts.friend_button(), callback_data=RoomTap(action=RoomAction.MENU).pack())]
    )
    return InlineKeyboardMarkup(inline_keyboard=rows)


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
    back = InlineKeyboardButton(text=texts.back_button(), callback_data=SoloTap(step=SoloStep.MENU).pack())
    return InlineKeyboardMarkup(inline_keyboard=[*rows, [back]])


def rules_markup() -> InlineKeyboardMarkup:
    presets = list(texts.PRESET_TITLES)
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=texts.preset_title(p), callback_data=RulesTap(preset=p).pack())
                for p in presets[i : i + 3]
            ]
            for i in range(0, len(presets), 3)
        ]
    )


def _fit(caption: str, limit: int = 1024) -> str:
    """Within Telegram's caption limit, dropping whole lines from the end so no HTML tag is cut."""
    lines = caption.split("\n")
    while len("\n".join(lines)) > limit and len(lines) > 1:
        lines.pop()
    return "\n".join(lines)[:limit]

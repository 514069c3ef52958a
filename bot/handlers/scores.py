"""/stats, /top, /history and /export (bot/model/scores.py keeps the results they show).

In a group each shows that group's games only; in a private chat, the person's own games
(wherever they were played) and the overall ratings.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from aiogram import Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.display import charts
from bot.display.table_frame import plain
from bot.model import scores
from bot.model.game import TableDoc
from bot.table.service import GameService
from bot.telegram.callbacks import TopTap
from bot.telegram.outbox import Outbox
from bot.telegram.people import Person
from bot.telegram.quiet import QuietAnswers
from bot.words import score_texts
from bot.words.languages import Languages
from engine import Rules
from renderer.charts import Board, Form
from storage import Database
from storage.results import GameResult, PlayerStats, Standing

router = Router(name="scores")

# How many players a leaderboard lists, and how many games /history does.
TOP_SIZE = 10
HISTORY_SIZE = 10
BOARDS = {"r": False, "w": True}  # TopTap.board -> by wins
WINS_WORDS = {"wins", "win", "w"}
RATING_WORDS = {"rating", "r"}


def _in_chat(message: Message) -> bool:
    return message.chat.type != ChatType.PRIVATE


# --- /stats ---------------------------------------------------------------------------------------


@router.message(Command("stats"))
async def stats_command(
    message: Message,
    command: CommandObject,
    db: Database,
    quiet: QuietAnswers,
    service: GameService,
    person: Person | None = None,
) -> None:
    # A malformed command is answered quietly (bot/telegram/quiet.py): never at a game's expense.
    if (command.args or "").strip():
        await quiet.answer(message, score_texts.no_arguments("stats"), reply=True)
        return
    if person is None:
        await message.reply(score_texts.who_are_you())
        return
    chat_id = message.chat.id if _in_chat(message) else None
    stats = await db.results.player_stats(scores.user_player(person.user_id), chat_id)  # for the words and the picture
    text = await stats_text(db, person, chat_id, stats)
    form = await stats_picture(db, person, chat_id, stats)
    if form is None or len(text) > scores.CAPTION_LIMIT:
        await message.reply(text)
        return
    photo = await service.presenter.pictures.form(form)
    await message.reply_photo(BufferedInputFile(photo.data, photo.filename), caption=text)


async def stats_picture(
    db: Database, person: Person, chat_id: int | None, stats: PlayerStats | None = None
) -> Form | None:
    """The /stats picture: the rating line (beside the chat's median in a group), bars per rule set."""
    stats = stats or await db.results.player_stats(scores.user_player(person.user_id), chat_id)
    if stats.games == 0:
        return None
    median = None
    if chat_id is not None:
        median = charts.median_of([s.skill for s in await db.results.standings(chat_id, min_games=1)])
    return charts.form_of(person.name, stats, median, in_chat=chat_id is not None)


async def stats_text(db: Database, person: Person, chat_id: int | None, stats: PlayerStats | None = None) -> str:
    """A person's numbers in a chat (None: everywhere); ``stats``: those numbers, if read already."""
    in_chat = chat_id is not None
    player = scores.user_player(person.user_id)
    stats = stats or await db.results.player_stats(player, chat_id)
    if stats.games == 0:
        return score_texts.stats_empty(in_chat)
    lines = [score_texts.stats_title(person.name, in_chat), score_texts.stats_total(stats.games, stats.wins)]
    lines += [score_texts.stats_preset(p.preset, p.games, p.wins) for p in stats.presets]
    lines.append(score_texts.stats_rating(scores.shown(stats.skill) if stats.skill else None, in_chat))
    if in_chat:
        overall = await db.results.player_stats(player, None)
        if overall.skill is not None:
            lines.append(score_texts.stats_overall_rating(scores.shown(overall.skill)))
    lines.append(score_texts.stats_streak(stats.best_streak))
    return "\n".join(lines)


# --- /top -----------------------------------------------------------------------------------------


@router.message(Command("top"))
async def top_command(
    message: Message, command: CommandObject, db: Database, quiet: QuietAnswers, service: GameService
) -> None:
    word = (command.args or "").strip().lower()
    if word and word not in WINS_WORDS | RATING_WORDS:
        await quiet.answer(message, score_texts.top_how(), reply=True)
        return
    chat_id = message.chat.id if _in_chat(message) else None
    by_wins = word in WINS_WORDS
    text, markup = await top_view(db, chat_id, by_wins=by_wins)
    board = await top_picture(db, chat_id, by_wins=by_wins)
    if board is None or len(text) > scores.CAPTION_LIMIT:
        await message.answer(text, reply_markup=markup)
        return
    photo = await service.presenter.pictures.board(board)
    await message.answer_photo(BufferedInputFile(photo.data, photo.filename), caption=text, reply_markup=markup)


@router.callback_query(TopTap.filter())
async def top_tap(
    query: CallbackQuery,
    callback_data: TopTap,
    db: Database,
    service: GameService,
    languages: Languages,
    outbox: Outbox,
) -> None:
    by_wins = BOARDS.get(callback_data.board)
    message = query.message
    if by_wins is None or not isinstance(message, Message):
        await query.answer(score_texts.button_outdated(), show_alert=True)
        return
    await query.answer()
    chat_id = message.chat.id if _in_chat(message) else None
    async with languages.speaking_to(message.chat.id):  # the chat's words, not the tapper's
        text, markup = await top_view(db, chat_id, by_wins=by_wins)
        board = await top_picture(db, chat_id, by_wins=by_wins) if message.photo else None
    if board is None:  # a board sent as text (before the pictures, or too long for a caption)
        await outbox.edit_text(message.chat.id, message.message_id, text, markup)
        return
    photo = await service.presenter.pictures.board(board)
    await outbox.edit_photo(message.chat.id, message.message_id, photo.data, photo.filename, text, markup)


async def top_view(db: Database, chat_id: int | None, *, by_wins: bool) -> tuple[str, InlineKeyboardMarkup | None]:
    """A chat's leaderboard (None: everyone's), by rating or by wins, with the buttons to switch."""
    in_chat = chat_id is not None
    standings = await db.results.standings(chat_id, min_games=scores.MIN_GAMES)
    if not standings:
        return score_texts.top_empty(scores.MIN_GAMES, in_chat), None
    lines = [score_texts.top_title(by_wins, in_chat)]
    for place, standing in enumerate(ordered(standings, by_wins=by_wins)[:TOP_SIZE], start=1):
        name = scores.display_name(standing.name, standing.user_id, standing.level)
        if by_wins:
            lines.append(score_texts.top_by_wins(place, name, standing.games, standing.wins))
        else:
            lines.append(score_texts.top_by_rating(place, name, scores.shown(standing.skill), standing.games))
    lines.append(score_texts.top_rule(scores.MIN_GAMES))
    buttons = [
        InlineKeyboardButton(text=score_texts.by_rating_button(not by_wins), callback_data=TopTap(board="r").pack()),
        InlineKeyboardButton(text=score_texts.by_wins_button(by_wins), callback_data=TopTap(board="w").pack()),
    ]
    return "\n".join(lines), InlineKeyboardMarkup(inline_keyboard=[buttons])


async def top_picture(db: Database, chat_id: int | None, *, by_wins: bool) -> Board | None:
    """The /top picture: the same players in the same order, each with the trend of their rating."""
    standings = await db.results.standings(chat_id, min_games=scores.MIN_GAMES)
    if not standings:
        return None
    rows = []
    for standing in ordered(standings, by_wins=by_wins)[:TOP_SIZE]:
        name = scores.display_name(standing.name, standing.user_id, standing.level)
        stats = await db.results.player_stats(standing.player, chat_id)
        value = str(standing.wins) if by_wins else str(scores.shown(standing.skill))
        rows.append((name, value, plain(score_texts.games_won(standing.games, standing.wins)), stats.ratings))
    return charts.board_of(score_texts.top_title(by_wins, chat_id is not None), rows)


def ordered(standings: list[Standing], *, by_wins: bool) -> list[Standing]:
    """Best first: by rating (then games played), or by wins (then win rate, then rating)."""
    if by_wins:
        return sorted(standings, key=lambda s: (-s.wins, -s.wins / s.games, -scores.shown(s.skill), s.name))
    return sorted(standings, key=lambda s: (-scores.shown(s.skill), -s.games, s.name))


# --- /history -------------------------------------------------------------------------------------


@router.message(Command("history"))
async def history_command(
    message: Message, command: CommandObject, db: Database, quiet: QuietAnswers, person: Person | None = None
) -> None:
    if (command.args or "").strip():
        await quiet.answer(message, score_texts.no_arguments("history"), reply=True)
        return
    in_chat = _in_chat(message)
    if in_chat:
        results = await db.results.recent(chat_id=message.chat.id, limit=HISTORY_SIZE)
    elif person is not None:
        results = await db.results.recent(user_id=person.user_id, limit=HISTORY_SIZE)
    else:
        results = []
    if not results:
        await message.answer(score_texts.history_empty(in_chat))
        return
    lines = [score_texts.history_title(in_chat)]
    lines += [history_line(result) for result in results]
    lines.append(score_texts.history_hint())
    await message.answer("\n".join(lines))


def history_line(result: GameResult) -> str:
    names = [scores.name_in_game(seat) for seat in result.seats]
    sides = scores.sides_of(result.preset, len(result.seats))
    if len(sides) < len(result.seats):
        return team_history_line(result, names, sides)
    winners = [names[seat.seat] for seat in result.winners]
    if not result.finished:
        verdict = score_texts.abandoned_verdict()
    elif not winners:
        verdict = score_texts.draw_verdict()
    elif len(winners) == 1:
        verdict = score_texts.winner_verdict(winners[0])
    else:
        verdict = score_texts.shared_verdict(", ".join(winners))
    if result.hinted:
        verdict = score_texts.hinted_verdict(verdict)
    return score_texts.history_entry(result.game_id, scores.date_of(result), result.preset, ", ".join(names), verdict)


def team_history_line(result: GameResult, names: list[str], sides: scores.Sides) -> str:
    """A partnership game: "Ann and Cat beat Bob and Dan, 212 to 148"; in goat, who were the goats."""
    teams = [score_texts.partners([names[index] for index in side]) for side in sides]
    points = [result.seats[side[0]].points for side in sides]
    won = [side for side in range(len(sides)) if result.seats[sides[side][0]].won]
    date = scores.date_of(result)
    if result.finished and len(won) == 1:
        winner, loser = won[0], 1 - won[0]
        if Rules.preset(result.preset).target_loses:
            words = score_texts.goats_verdict(teams[winner], teams[loser], points[winner], points[loser])
        else:
            words = score_texts.team_verdict(teams[winner], teams[loser], points[winner], points[loser])
        if result.hinted:
            words = score_texts.hinted_verdict(words)
        return score_texts.history_team_entry(result.game_id, date, result.preset, words)
    verdict = score_texts.draw_verdict() if result.finished else score_texts.abandoned_verdict()
    if result.hinted:
        verdict = score_texts.hinted_verdict(verdict)
    return score_texts.history_entry(result.game_id, date, result.preset, score_texts.versus(teams), verdict)


# --- /export --------------------------------------------------------------------------------------


@router.message(Command("export"))
async def export_command(
    message: Message, command: CommandObject, db: Database, quiet: QuietAnswers, person: Person | None = None
) -> None:
    result = await chosen_result(
        message, command, db, quiet, person, how=score_texts.export_how(), nothing=score_texts.export_nothing
    )
    if result is None:
        return
    in_chat = _in_chat(message)
    record = await export_record(db, result)
    if record is None:
        await message.reply(score_texts.export_unknown(result.game_id, in_chat))
        return
    document = BufferedInputFile(
        json.dumps(record, ensure_ascii=False, indent=1).encode(), filename=f"dominoes-{result.game_id}.json"
    )
    caption = score_texts.export_caption(result.game_id, result.preset, scores.date_of(result))
    await message.answer_document(document, caption=caption)


async def chosen_result(
    message: Message,
    command: CommandObject,
    db: Database,
    quiet: QuietAnswers,
    person: Person | None,
    *,
    how: str,
    nothing: Callable[[bool], str],
) -> GameResult | None:
    """The game a command names (``/export 12``), or the last finished one, of this chat (a group)
    or of the person (a private chat); None once the refusal is said (``how``: a bad number,
    ``nothing``: no game yet)."""
    in_chat = _in_chat(message)
    word = (command.args or "").strip().removeprefix("#")
    if not in_chat and person is None:
        await message.reply(score_texts.who_are_you())
        return None
    owner = None if in_chat or person is None else person.user_id
    if word:
        if not (word.isascii() and word.isdigit()) or len(word) > 12:
            await quiet.answer(message, how, reply=True)
            return None
        result = await db.results.get(int(word))
        if result is None or not belongs(result, message.chat.id if in_chat else None, owner):
            await message.reply(score_texts.export_unknown(int(word), in_chat))
            return None
        return result
    result = await (
        db.results.last_finished(chat_id=message.chat.id) if in_chat else db.results.last_finished(user_id=owner)
    )
    if result is None:
        await message.reply(nothing(in_chat))
    return result


def belongs(result: GameResult, chat_id: int | None, user_id: int | None) -> bool:
    """A group's own game; in a private chat, a game the person sat at."""
    if chat_id is not None:
        return result.chat_id == chat_id
    return user_id is not None and any(seat.user_id == user_id for seat in result.seats)


async def export_record(db: Database, result: GameResult) -> dict[str, Any] | None:
    """The game record (docs/record.md) as the engine wrote it, with names, levels and the date added
    (fields a reader ignores if it does not know them)."""
    row = await db.games.get(result.game_id)
    if row is None:
        return None
    record = TableDoc.from_json(row.data).game.record
    if record is None:
        return None
    extra: dict[str, Any] = {
        "names": [seat.name for seat in result.seats],
        "levels": [seat.level for seat in result.seats],
        "date": scores.date_of(result),
        "outcome": result.outcome,
    }
    sides = scores.sides_of(result.preset, len(result.seats))
    if len(sides) < len(result.seats):  # for people reading the file (docs/record.md); readers ignore it
        extra["teams"] = [list(side) for side in sides]
    return {**record, **{key: value for key, value in extra.items() if key not in record}}

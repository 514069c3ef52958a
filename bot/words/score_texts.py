"""The words of scores, ratings, /stats, /top, /history and /export, through gettext (bot/words/i18n.py).

Functions build words in the current language, so call them where the text is sent. Names come
in raw and are escaped here (HTML parse mode).
"""

from __future__ import annotations

from bot.words.i18n import _, ngettext
from bot.words.texts import escape, level_title, preset_title


def computer(level: str | None) -> str:
    """A computer player on a leaderboard or in a list of rating changes (one per level)."""
    return _("🤖 Computer ({level})").format(level=level_title(level or "medium"))


def signed(change: int) -> str:
    """+12, −12 (a real minus sign), ±0."""
    if change > 0:
        return f"+{change}"
    if change < 0:
        return f"−{-change}"
    return "±0"


# --- the final result's caption ------------------------------------------------------------------


def ratings_heading(in_chat: bool) -> str:
    return _("<b>Ratings in this chat:</b>") if in_chat else _("<b>Ratings:</b>")


def rating_change(name: str, rating: int, change: int) -> str:
    """One player's line under the final result; ``name`` is already escaped."""
    return _("{name}: {rating} ({change})").format(name=name, rating=rating, change=signed(change))


# --- /stats --------------------------------------------------------------------------------------


def stats_title(name: str, in_chat: bool) -> str:
    if in_chat:
        return _("<b>{name}</b> in this chat").format(name=escape(name))
    return _("<b>{name}</b> in all games").format(name=escape(name))


def stats_empty(in_chat: bool) -> str:
    if in_chat:
        return _("You have not finished a game in this chat yet. Type /new to start one.")
    return _("You have not finished a game yet. Type /start to play against the computer.")


def games_won(games: int, wins: int) -> str:
    """ "12 games, 5 wins (42%)" in the reader's language."""
    return _("{games}, {wins} ({rate}%)").format(
        games=ngettext("{count} game", "{count} games", games).format(count=games),
        wins=ngettext("{count} win", "{count} wins", wins).format(count=wins),
        rate=win_rate(games, wins),
    )


def win_rate(games: int, wins: int) -> int:
    return round(100 * wins / games) if games else 0


def stats_total(games: int, wins: int) -> str:
    return _("All rule sets: {summary}").format(summary=games_won(games, wins))


def stats_preset(preset: str, games: int, wins: int) -> str:
    return _("{preset}: {summary}").format(preset=preset_title(preset), summary=games_won(games, wins))


def stats_rating(rating: int | None, in_chat: bool) -> str:
    if rating is None:
        return _("Rating here: none yet") if in_chat else _("Rating: none yet")
    return _("Rating here: {rating}").format(rating=rating) if in_chat else _("Rating: {rating}").format(rating=rating)


def stats_overall_rating(rating: int) -> str:
    return _("Rating in all games: {rating}").format(rating=rating)


def chart_rating_label(games: int) -> str:
    """Over the /stats picture's line."""
    return ngettext(
        "Rating after each of the last {count} game", "Rating after each of the last {count} games", games
    ).format(count=games)


def chart_median_label() -> str:
    return _("chat median")


def stats_streak(best: int) -> str:
    return _("Best streak: {streak}").format(
        streak=ngettext("{count} win in a row", "{count} wins in a row", best).format(count=best)
    )


# --- /top ----------------------------------------------------------------------------------------


def top_title(by_wins: bool, in_chat: bool) -> str:
    if in_chat:
        return _("<b>Top players in this chat, by wins</b>") if by_wins else _("<b>Top players in this chat</b>")
    return _("<b>Top players in all games, by wins</b>") if by_wins else _("<b>Top players in all games</b>")


def top_by_rating(place: int, name: str, rating: int, games: int) -> str:
    """``name`` is already escaped."""
    return _("{place}. {name} — {rating} ({games})").format(
        place=place,
        name=name,
        rating=rating,
        games=ngettext("{count} game", "{count} games", games).format(count=games),
    )


def top_by_wins(place: int, name: str, games: int, wins: int) -> str:
    """``name`` is already escaped."""
    return _("{place}. {name} — {summary}").format(place=place, name=name, summary=games_won(games, wins))


def top_rule(min_games: int) -> str:
    return ngettext(
        "Players with at least {count} finished game.", "Players with at least {count} finished games.", min_games
    ).format(count=min_games)


def top_empty(min_games: int, in_chat: bool) -> str:
    if in_chat:
        return ngettext(
            "Nobody has finished {count} game in this chat yet: the leaderboard lists players with at least {count}.",
            "Nobody has finished {count} games in this chat yet: the leaderboard lists players with at least {count}.",
            min_games,
        ).format(count=min_games)
    return ngettext(
        "Nobody has finished {count} game yet: the leaderboard lists players with at least {count}.",
        "Nobody has finished {count} games yet: the leaderboard lists players with at least {count}.",
        min_games,
    ).format(count=min_games)


def by_rating_button(selected: bool) -> str:
    return _("✓ By rating") if selected else _("By rating")


def by_wins_button(selected: bool) -> str:
    return _("✓ By wins") if selected else _("By wins")


# --- /history ------------------------------------------------------------------------------------


def history_title(in_chat: bool) -> str:
    return _("<b>Recent games in this chat</b>") if in_chat else _("<b>Your recent games</b>")


def history_empty(in_chat: bool) -> str:
    return _("No games have been played to the end here yet.") if in_chat else _("You have no games yet.")


def history_entry(number: int, date: str, preset: str, players: str, verdict: str) -> str:
    """``players`` and ``verdict`` are already escaped."""
    return _("#{number} · {date} · {preset}: {players} — {verdict}").format(
        number=number, date=date, preset=preset_title(preset), players=players, verdict=verdict
    )


def history_team_entry(number: int, date: str, preset: str, verdict: str) -> str:
    """A partnership game's line, the teams named in ``verdict`` (already escaped)."""
    return _("#{number} · {date} · {preset}: {verdict}").format(
        number=number, date=date, preset=preset_title(preset), verdict=verdict
    )


def partners(names: list[str]) -> str:
    """Two partners (already escaped): "Ann and Cat" (a bare & would break Telegram's HTML)."""
    if len(names) != 2:
        return ", ".join(names)
    # TRANSLATORS: two partners of a team, as in "Ann and Cat beat Bob and Dan".
    return _("{first} and {second}").format(first=names[0], second=names[1])


def versus(teams: list[str]) -> str:
    """The teams of a game with no winner: "Ann and Cat vs Bob and Dan"."""
    if len(teams) != 2:
        return ", ".join(teams)
    return _("{first} vs {second}").format(first=teams[0], second=teams[1])


def team_verdict(winners: str, losers: str, won: int, lost: int) -> str:
    """A partnership game's result; the teams already escaped, the points the teams' totals."""
    return _("{winners} beat {losers}, {won} to {lost}").format(winners=winners, losers=losers, won=won, lost=lost)


def goats_verdict(winners: str, losers: str, won: int, lost: int) -> str:
    """A goat game's result: the losers reached the target of penalty points, and are the goats."""
    return _("{winners} won, {won} to {lost} penalty points; {losers} are the goats 🐐").format(
        winners=winners, losers=losers, won=won, lost=lost
    )


def winner_verdict(name: str) -> str:
    return _("{name} won").format(name=name)


def shared_verdict(names: str) -> str:
    return _("shared win: {names}").format(names=names)


def draw_verdict() -> str:
    return _("a draw")


def abandoned_verdict() -> str:
    return _("abandoned")


def hinted_verdict(verdict: str) -> str:
    """A history line's verdict for a game played with hints (not rated)."""
    return _("{verdict} · 💡 with hints, not rated").format(verdict=verdict)


def hinted_unrated() -> str:
    return _("💡 Hints were used in this game, so it changes no rating.")


def history_hint() -> str:
    return _("/export followed by a number sends that game's record.")


# --- /export -------------------------------------------------------------------------------------


def export_caption(number: int, preset: str, date: str) -> str:
    return _("The record of game #{number} ({preset}, {date}).").format(
        number=number, preset=preset_title(preset), date=date
    )


def export_nothing(in_chat: bool) -> str:
    if in_chat:
        return _("No game has been played to the end in this chat yet, so there is nothing to export.")
    return _("You have not finished a game yet, so there is nothing to export.")


def export_how() -> str:
    return _("Send /export for the last finished game, or /export and a game number from /history, such as /export 12.")


def export_unknown(number: int, in_chat: bool) -> str:
    if in_chat:
        return _("This chat has no game #{number}. /history lists its games.").format(number=number)
    return _("You have no game #{number}. /history lists yours.").format(number=number)


def button_outdated() -> str:
    return _("This button no longer works. Send the command again.")


def no_arguments(command: str) -> str:
    return _("/{command} needs nothing after it: send it alone.").format(command=command)


def top_how() -> str:
    return _("Send /top for the leaderboard by rating, or /top wins for the one by wins.")


def who_are_you() -> str:
    return _("I cannot tell who sent this: send it from your own account, not on behalf of the group.")

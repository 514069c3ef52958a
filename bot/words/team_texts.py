"""The words of a partnership game (``goat``, ``partners``): the two teams, their scores, who partners whom,
the winning team and, in ``goat``, the goats.

A team is named by its colour mark and a letter, the same in the picture (red and blue seat cards,
renderer/theme.py) and in words: "🟥 Team A" holds seats 1 and 3 as people count them (engine seats 0
and 2), "🟦 Team B" seats 2 and 4.  The marks are emoji, so every language shows the same colours.
"""

from __future__ import annotations

from collections.abc import Sequence

import bot.words.score_texts as score_texts
from bot.words.i18n import N_, _
from bot.words.texts import escape, preset_title

# The colour mark of each team, as in the pictures: team 0 red, team 1 blue.
TEAM_MARKS: tuple[str, str] = ("🟥", "🟦")
TEAM_NAMES: tuple[str, str] = (N_("Team A"), N_("Team B"))


def team_mark(team: int) -> str:
    return TEAM_MARKS[team]


def team_name(team: int) -> str:
    """ "🟥 Team A": the mark and the name, as every caption says it."""
    return f"{TEAM_MARKS[team]} {_(TEAM_NAMES[team])}"


def marked(name: str, team: int) -> str:
    """A seat's name with its team's mark: "🟥 Ann"."""
    return f"{TEAM_MARKS[team]} {name}"


def pair(names: Sequence[str]) -> str:
    """Two partners' names: "Ann and Cat" (one name alone as it is); HTML-escaped."""
    return score_texts.partners([escape(name) for name in names])


def team_with_names(team: int, names: Sequence[str]) -> str:
    """ "🟥 Team A (Ann and Cat)"."""
    return _("{team} ({names})").format(team=team_name(team), names=pair(names))


def join_team_button(team: int) -> str:
    return _("Join {team}").format(team=team_name(team))


def lobby_teams_intro() -> str:
    return _("Partners sit opposite: seats 1 and 3 play against seats 2 and 4. Tap a team to sit down with it.")


def lobby_team_heading(team: int) -> str:
    return f"<b>{team_name(team)}</b>"


def teams_line(teams: Sequence[Sequence[str]]) -> str:
    """ "🟥 Ann and Cat vs 🟦 Bob and Dan": who partners whom, under the board."""
    return score_texts.versus([f"{TEAM_MARKS[team]} {pair(names)}" for team, names in enumerate(teams)])


def game_started(teams: Sequence[Sequence[str]]) -> str:
    """The lobby once dealt: who plays with whom."""
    return _("The game has started: {teams}.").format(teams=teams_line(teams))


def team_scores(scores: Sequence[int]) -> str:
    """ "🟥 Team A 35 · 🟦 Team B 61"."""
    return " · ".join(f"{team_name(team)} {score}" for team, score in enumerate(scores))


def score_line(scores: Sequence[int]) -> str:
    return _("Score: {scores}").format(scores=team_scores(scores))


def penalty_line(scores: Sequence[int], target: int | None) -> str:
    """``goat``: the points are penalties, and reaching the target loses."""
    return _("Penalty points: {scores} ({target} loses)").format(scores=team_scores(scores), target=target)


def goat_title(preset: str, round_number: int, target: int | None) -> str:
    return _("<b>{preset}</b> · round {round} · {target} loses").format(
        preset=preset_title(preset), round=round_number, target=target
    )


def your_partner(name: str, team: int) -> str:
    return _("Your partner: {name} · you play for {team}").format(name=escape(name), team=team_name(team))


def team_wins_round(team: int, names: Sequence[str], points: int) -> str:
    who = team_with_names(team, names)
    if points:
        return _("<b>{team}</b> wins the round (+{points}).").format(team=who, points=points)
    return _("<b>{team}</b> wins the round.").format(team=who)


def team_charged(team: int, names: Sequence[str], points: int) -> str:
    """``goat``: the losing team takes the pips in its own two hands as penalty points."""
    return _("<b>{team}</b> takes {points} penalty points.").format(team=team_with_names(team, names), points=points)


def team_tie() -> str:
    return _("Both teams hold the same count: nobody scores.")


def team_wins_game(team: int, names: Sequence[str]) -> str:
    return _("🏆 <b>{team} wins the game!</b>").format(team=team_with_names(team, names))


def goats(team: int, names: Sequence[str]) -> str:
    # TRANSLATORS: "the goats" (козлы / кози) is what the losing team of Козёл is called.
    return _("🐐 <b>{team} are the goats!</b>").format(team=team_with_names(team, names))

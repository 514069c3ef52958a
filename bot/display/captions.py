"""The words of a game's messages: the lobby text, the board's and a hand's captions, a round's result."""

from __future__ import annotations

from bot.display.names import shown_name, shown_names
from bot.model import absence
from bot.model.clock import clock_seconds
from bot.model.game import Game
from bot.words import hint_texts, manners_texts, table_texts, team_texts, texts
from engine import Match, Rules


def lobby_text(game: Game) -> str:
    rules = Rules.preset(game.row.preset)
    seated = next((s.name for s in game.doc.seats if s and s.user_id == game.row.creator_id), None)
    # "someone" only for a lobby stored before the creator's name was kept
    creator = seated or game.doc.options.creator or table_texts.someone()
    names = [shown_name(s) if s else None for s in game.doc.seats]
    seat_lines = _team_seat_lines(rules, names) if rules.has_teams and len(names) == rules.max_seats else None
    text = texts.lobby_text(
        game.row.preset, rules, names, creator, fill_level=game.doc.options.computer_level, seat_lines=seat_lines
    )
    return text + "\n\n" + hint_texts.lobby_hints_line() if game.doc.options.hints else text


def _team_seat_lines(rules: Rules, names: list[str | None]) -> str:
    """A partnership lobby's seats by team: who partners whom, numbered as people count seats (1 to 4)."""
    lines = [team_texts.lobby_teams_intro()]
    for team, seats in enumerate(rules.sides(len(names))):
        lines.append(team_texts.lobby_team_heading(team))
        lines += [f"{seat + 1}. {texts.escape(names[seat] or '—')}" for seat in seats]
    return "\n".join(lines)


def seat_names(game: Game, rules: Rules) -> list[str]:
    """The names as captions say them: in a partnership game each with its team's mark ("🟥 Ann")."""
    names = shown_names(game.doc.seats)
    if not rules.has_teams:
        return names
    return [team_texts.marked(name, rules.side_of(seat)) for seat, name in enumerate(names)]


def teams_of(game: Game, rules: Rules) -> list[list[str]]:
    """The partners' plain names, team by team."""
    names = shown_names(game.doc.seats)
    return [[names[seat] for seat in side] for side in rules.sides(len(names))]


def _score_line(rules: Rules, scores: tuple[int, ...] | list[int], target: int | None, names: list[str]) -> str:
    """ "Score: Ann 10 · Bob 25"; a partnership game's by team, goat's as penalty points."""
    if rules.has_teams:
        totals = [scores[side[0]] for side in rules.sides(len(scores))]
        return team_texts.penalty_line(totals, target) if rules.target_loses else team_texts.score_line(totals)
    return table_texts.score_line(" · ".join(f"{texts.escape(names[i])} {s}" for i, s in enumerate(scores)))


def status_lines(game: Game, match: Match) -> list[str]:
    """Whose turn, tiles per seat, boneyard, scores and the last actions: shared by every caption.

    Read from the round's public :class:`engine.Table` only (drawn tiles left out), never from
    its hands: a caption goes to the group and to every seat alike."""
    rules = match.rules
    names = seat_names(game, rules)
    state = match.table()
    target = match.target
    title = f"<b>{texts.preset_title(rules.id)}</b>"
    if rules.target_loses:
        title = team_texts.goat_title(rules.id, len(match.rounds), target)
    elif rules.is_match:
        title = table_texts.match_title(rules.id, len(match.rounds), target)
    lines = [title]
    if game.doc.game.killed:
        lines.append(manners_texts.killed_line())
    elif state.end is not None:
        lines.append(table_texts.round_over())
    else:
        lines.append(table_texts.to_play(names[state.turn]) + _clock_suffix(game, match))
    # "Ann: 7", not "Ann 7": a computer's name ends in a number of its own ("🤖 Hard 1: 7").
    counts = " · ".join(f"{texts.escape(names[i])}: {size}" for i, size in enumerate(state.hand_sizes))
    if rules.draws:
        counts += " · " + table_texts.boneyard_count(state.boneyard_count)
    lines.append(counts)
    away = absence.away_names(game.doc)
    if away and not match.is_over:
        lines.append(manners_texts.away_line(away))
    if rules.is_match or rules.in_play.value != "none":
        lines.append(_score_line(rules, state.scores, target, names))
    forced_lead = rules.names_the_lead(state.round_index)
    recent = table_texts.describe_events(list(state.history[-8:]), names, forced_lead=forced_lead)[-3:]
    if recent:
        lines.append(". ".join(recent) + ".")
    return lines


def board_caption(game: Game, match: Match) -> str:
    lines = status_lines(game, match)
    if match.rules.has_teams:  # who partners whom, under the counts
        lines.insert(3, team_texts.teams_line(teams_of(game, match.rules)))
    return _fit("\n".join(lines))


def _clock_suffix(game: Game, match: Match) -> str:
    """ " · ⏱ 60 s per move" while a person (not away) is to play under a clock."""
    seconds = clock_seconds(game.doc, game.row.kind)
    if seconds <= 0 or not absence.to_move(game.doc, match, match.round.turn):
        return ""
    seat = game.doc.seats[match.round.turn]
    return manners_texts.clock_suffix(seconds) if seat is not None and seat.user_id is not None else ""


def hand_caption(game: Game, match: Match, seat: int, group_title: str | None = None) -> str:
    """A player's hand message; a finished group game's ends saying where its result is.

    ``group_title`` is the group's name as the bot last saw it (None: unknown), read only then."""
    lines = status_lines(game, match)
    if game.doc.game.killed:
        return _fit("\n".join(lines))
    if absence.to_move(game.doc, match, seat):
        lines[1] = table_texts.your_turn()
        seconds = clock_seconds(game.doc, game.row.kind)
        if seconds > 0:
            lines[1] += " " + manners_texts.your_clock(seconds)
    elif not absence.present(game.doc, seat) and not match.is_over:
        lines.insert(2, manners_texts.hand_away_line())
    rules = match.rules
    if rules.has_teams:
        partner = next(other for other in rules.sides(match.seats)[rules.side_of(seat)] if other != seat)
        lines.insert(2, team_texts.your_partner(shown_names(game.doc.seats)[partner], rules.side_of(seat)))
    if ends_in_group(game, match):
        # The result went to the group only: the private chat is told where, in its last line,
        # which is kept whatever else has to go for the caption's limit.
        closing = table_texts.game_over_in_group(group_title)
        return _fit("\n".join(lines), 1024 - len(closing) - 1) + "\n" + closing
    return _fit("\n".join(lines))


def ends_in_group(game: Game, match: Match) -> bool:
    """A group game whose match is over (not ended with /kill): its players' hands say the result is in the group.

    A friend room's result comes into each player's private chat and a private game's hand
    message is the game itself, so theirs say nothing of the kind."""
    return game.row.kind == "group" and match.is_over and not game.doc.game.killed


def result_caption(game: Game, match: Match, round_index: int) -> str:
    rules = match.rules
    names = seat_names(game, rules)
    state = match.rounds[round_index]
    outcome = state.outcome()
    assert outcome is not None
    how = table_texts.domino() if outcome.end.value == "domino" else table_texts.fish()
    if rules.has_teams:
        verdict = _team_verdict(game, match, round_index)
    elif not outcome.winners:
        verdict = table_texts.draw_verdict() if rules.fish_tie.value == "draw" else table_texts.lowest_tie_verdict()
    elif len(outcome.winners) > 1:
        verdict = table_texts.shared_win([names[w] for w in outcome.winners])
    else:
        winner = outcome.winners[0]
        verdict = table_texts.round_winner(names[winner], outcome.points[winner])
    lines = [table_texts.round_heading(round_index + 1, how), verdict]
    for seat, hand in enumerate(state.hands):
        tiles = " ".join(texts.tile_text(t) for t in hand) or "—"
        lines.append(table_texts.hand_left(names[seat], tiles, outcome.pips[seat]))
    is_last = round_index == len(match.rounds) - 1
    if rules.is_match:
        lines.append(_score_line(rules, totals_after(match, round_index), match.target, names))
    if is_last and match.is_over:
        champion = match.winner
        if champion is None:
            lines.append(table_texts.game_over())
        elif rules.has_teams:
            teams = teams_of(game, rules)
            lines.append(team_texts.team_wins_game(champion, teams[champion]))
            if rules.target_loses:
                lines.append(team_texts.goats(1 - champion, teams[1 - champion]))
        else:
            lines.append(table_texts.game_winner(names[champion]))
    return _fit("\n".join(lines))


def _team_verdict(game: Game, match: Match, round_index: int) -> str:
    """Which team won the round and what it scored, or (goat) which team takes the penalty points."""
    rules = match.rules
    outcome = match.rounds[round_index].outcome()
    assert outcome is not None
    if not outcome.winners:
        return team_texts.team_tie()
    teams = teams_of(game, rules)
    won = rules.side_of(outcome.winners[0])
    if rules.target_loses:
        lost = 1 - won
        charged = outcome.points[rules.sides(match.seats)[lost][0]]
        charge = team_texts.team_charged(lost, teams[lost], charged)
        return team_texts.team_wins_round(won, teams[won], 0) + " " + charge
    return team_texts.team_wins_round(won, teams[won], outcome.points[outcome.winners[0]])


def totals_after(match: Match, round_index: int) -> list[int]:
    totals = [0] * match.seats
    for state in match.rounds[: round_index + 1]:
        outcome = state.outcome()
        if outcome is None:
            continue
        for seat in range(match.seats):
            totals[seat] += outcome.fives[seat] + outcome.points[seat]
    return totals


def _fit(caption: str, limit: int = 1024) -> str:
    """Within Telegram's caption limit, dropping whole lines from the end so no HTML tag is cut."""
    lines = caption.split("\n")
    while len("\n".join(lines)) > limit and len(lines) > 1:
        lines.pop()
    return "\n".join(lines)[:limit]

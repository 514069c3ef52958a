"""``docs/rules.md``, made from the code, so that it says what the bot plays and nothing else.

Each rule set's row of parameters is read from the engine's presets (:data:`engine.PRESETS`) and
said in plain words here, one sentence per value of each parameter: a new value the page does not
know is a ``KeyError``, not a silent gap.  Titles and summaries are the English texts the bot shows
for ``/rules`` (:mod:`bot.words.texts`), the teams are named as the bot names them
(:mod:`bot.words.team_texts`), and the computer levels are those of :mod:`engine.players`.

>>> page = rules_page()
>>> page.startswith("# The rules")
True
>>> "/new quickblock" in page and "## Two against two" in page
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from bot.words.i18n import DEFAULT_LANGUAGE, speaking
from bot.words.team_texts import TEAM_MARKS, TEAM_NAMES
from bot.words.texts import LEVEL_TITLES, PRESET_SUMMARIES, PRESET_TITLES
from engine import ALL_TILES, PRESETS, Boneyard, FishTie, InPlay, RoundScoring, Rules, Starter, Tile
from engine.core import find_starter, round_to_five
from engine.players import LEVELS
from engine.rules import LaterStarter, TopTie

GENERATOR = "python -m docs"
RULES_PAGE = Path(__file__).resolve().parent / "rules.md"
SET_SIZE = len(ALL_TILES)


def rules_page() -> str:
    """The whole page, in English, the same on every run."""
    with speaking(DEFAULT_LANGUAGE):
        sections = [
            _introduction(),
            _overview(),
            _common_ground(),
            *(_preset(rules) for rules in PRESETS.values()),
            _two_against_two(),
            _computer_players(),
        ]
    return "\n\n".join(section.strip("\n") for section in sections) + "\n"


# --- the page's sections ---------------------------------------------------------------------


def _introduction() -> str:
    count = len(PRESETS)
    return f"""# The rules

<!-- Made by `{GENERATOR}` from engine/rules.py, bot/words/texts.py and engine/players/: edit those and
run `{GENERATOR}` again, never this page (tests/docs fails while it is not current). -->

The bot plays {count} rule sets of dominoes. In a group, `/new <id>` opens a lobby for one of them
(`/new` alone takes the group's default); in a private chat, `/start` offers them as buttons.
`/rules <id>` shows the summary quoted under each rule set below, in English, Russian or
Ukrainian. Players are numbered from 1 here and in the bot, in the order they take turns (a game
record counts seats from 0: see [record.md](record.md))."""


def _overview() -> str:
    rows = [
        "| rule set | `/new` | players | drawing | a game is |",
        "|---|---|---|---|---|",
    ]
    for rules in PRESETS.values():
        title = PRESET_TITLES[rules.id]
        rows.append(
            f"| [{title}](#{_anchor(title)}) | `{rules.id}` | {_seat_range(rules)} | "
            f"{_drawing_in_short(rules)} | {_length_in_short(rules)} |"
        )
    return "\n".join(rows)


def _common_ground() -> str:
    return f"""## What every rule set shares

- **The set**: {SET_SIZE} tiles, 0-0 to 6-6, each once. A tile's **pips** are its two halves added
  up; a hand's pip count is the pips of its tiles added up.
- **The line**: the first tile (the **lead**) starts the line of play, which has two open ends. A
  tile is played by matching one of its halves to an open end; its other half becomes that end. A
  blank matches a blank. A double lies crosswise and, except for the spinner of All Fives, opens
  nothing new.
- **You must play if you can.** Nobody passes or draws by choice. When a tile fits both ends, you
  choose the end (the bot asks which).
- **The boneyard**: the tiles not dealt. In rule sets with drawing, a player with no tile that fits
  draws one tile at a time until one fits, and passes only when nothing may be drawn. Without
  drawing, a player with no tile that fits passes. The bot draws and passes for you and says so
  ("Ann drew 2 and passed").
- **A round ends** when someone plays their last tile (a **domino**: they win it) or when nobody
  can play or draw any more (a **fish**, a blocked game: the lowest pip count wins it).
- **What you see**: your own hand, the line, how many tiles each player holds, how many are left
  in the boneyard, and who drew or passed at which ends. Nobody sees another hand or the order of
  the boneyard, computer players included. Every hand is shown when the round ends.
- **A match** is several rounds up to a target score. The target counts only when a round ends
  (points scored during a round count towards it). There is no undo."""


def _preset(rules: Rules) -> str:
    title = PRESET_TITLES[rules.id]
    rows = [(label, describe(rules)) for label, describe in _PARAMETERS if describe(rules)]
    table = "\n".join(["| | |", "|---|---|", *(f"| {label} | {text} |" for label, text in rows)])
    return f"""## {title}

`/new {rules.id}` · `/rules {rules.id}`

> {PRESET_SUMMARIES[rules.id]}

{table}"""


def _two_against_two() -> str:
    team_presets = [rules for rules in PRESETS.values() if rules.has_teams]
    titles = " and ".join(f"[{PRESET_TITLES[rules.id]}](#{_anchor(PRESET_TITLES[rules.id])})" for rules in team_presets)
    seats = team_presets[0].max_seats
    teams = " against ".join(_team(rules=team_presets[0], team=team) for team in range(2))
    return f"""## Two against two

{titles} are played by {seats} players in two fixed teams:
{teams}.
Partners sit opposite each other, so the turn goes from one team to the other and back.

- Each player sees only their own hand, never their partner's.
- A team is one side for everything that is won or counted: its pip count is its two hands added
  up. A domino by either partner wins the round for the team; in a fish the team with the lower
  count wins it, whichever player holds the smallest hand. Equal counts: nobody wins the round.
- Whatever a team scores (or, in Goat, is charged) is written to both partners, so partners
  always have the same total, and the match is decided between the two teams' totals.
- In a group, the lobby has a **Join** button for each team; a seated player taps the other team's
  button to move over. Computer players fill free seats on either team.
- Against the computer in a private chat, you play with a computer partner opposite you against
  two computer opponents.
- Every name carries its team's mark ({TEAM_MARKS[0]}, {TEAM_MARKS[1]}); the board shows the two team
  totals, and each hand names the partner."""


_LEVEL_PLAY: Mapping[str, str] = {
    "easy": (
        "plays like a beginner: legal and plausible, with no plan. It often plays its heaviest tile "
        "that fits, otherwise any tile that fits."
    ),
    "medium": (
        "plays like a sensible club player, one move ahead: it sheds heavy tiles early, keeps a variety of numbers "
        "in hand, gets rid of awkward doubles, takes the points of All Fives, and blocks a number an "
        "opponent has shown it lacks (by drawing or passing at it), never one its partner lacks."
    ),
    "hard": (
        "thinks ahead: it deals the hidden tiles many times over, each time in a way that agrees with "
        "everything its seat has seen (who holds how many tiles, who drew or passed at which ends), "
        "plays every move it could make to the end of the round in those deals, "
        "and picks the best on average; near the end of a round it works each deal out exactly."
    ),
}
"""How each level plays, in the words a player would use (each level's own docstring in
engine/players/ says how it is built)."""


def _computer_players() -> str:
    levels = "\n".join(f"- **{LEVEL_TITLES[level]}** (`{level}`) {_LEVEL_PLAY[level]}" for level in LEVELS)
    return f"""## Computer players

{levels}

Every level plays every rule set and seat count, and decides only from what its own seat may see
(see "What you see" above); in Two against two it plays for its team. In a group the lobby's
**+🤖** buttons add a computer of a level, and Start fills the free seats with the level added last;
in a private game the row of levels under the game changes every computer's level from its next
move on."""


# --- one parameter of a rule set, in words ------------------------------------------------------


def _players(rules: Rules) -> str:
    if rules.has_teams:
        return f"{rules.max_seats}, in two teams: {_team(rules, 0)} against {_team(rules, 1)}"
    return f"{_seat_range(rules)}, each for themselves"


def _tiles_dealt(rules: Rules) -> str:
    by_size: dict[int, list[int]] = {}
    for seats, size in sorted(rules.hand_sizes.items()):
        by_size.setdefault(size, []).append(seats)
    if len(by_size) == 1:
        [(size, seat_counts)] = by_size.items()
        dealt = f"{size} each"
        if len(seat_counts) == 1 and seat_counts[0] * size == SET_SIZE:
            return f"{dealt}: all {SET_SIZE} tiles are dealt"
        return dealt
    parts = [f"{size} each with {_counts(seat_counts)} players" for size, seat_counts in by_size.items()]
    return ", ".join(parts)


def _drawing(rules: Rules) -> str:
    return {
        Boneyard.DRAW: _draw_until_playable,
        Boneyard.NONE: _no_drawing,
    }[rules.boneyard](rules)


def _draw_until_playable(rules: Rules) -> str:
    if rules.reserve:
        return (
            f"Draw from the boneyard, one tile at a time, until you can play, but its last {rules.reserve} "
            f"tiles are never drawn: with {rules.reserve} or fewer left, you pass."
        )
    return "Draw from the boneyard, one tile at a time, until you can play; pass only when it is empty."


def _no_drawing(rules: Rules) -> str:
    all_dealt = all(seats * size == SET_SIZE for seats, size in rules.hand_sizes.items())
    left = "" if all_dealt else "; the tiles not dealt stay face down, out of play"
    return f"None: with no tile that fits, you pass{left}."


def _first_lead(rules: Rules) -> str:
    if rules.starter is Starter.MATCH:
        return "A player drawn at random leads, with any tile."
    return f"{_forced_lead(rules)}. It is the only move, so the bot places it by itself."


def _forced_lead(rules: Rules) -> str:
    order = _double_order(rules)
    head, rest = order[0], order[1:]
    return (
        f"Whoever holds {head} must lead it; without it in any hand, the first double dealt in the "
        f"order {', '.join(rest)}; with no double dealt at all, the heaviest tile (the most pips; "
        "between equal ones, the one with the higher half)"
    )


def _later_rounds(rules: Rules) -> str:
    if not rules.is_match:
        return ""
    if rules.later_starter is LaterStarter.OWN:
        return _later_rounds_own(rules)
    return {
        LaterStarter.NEXT_SEAT: "The player after the previous round's leader, with any tile, whoever won.",
        LaterStarter.LAST_TILE: (
            "Whoever played the last tile of the previous round (the player who went out, or the one "
            "who blocked the line), with any tile, whichever team won."
        ),
    }[rules.later_starter]


def _later_rounds_own(rules: Rules) -> str:
    if rules.starter is Starter.MATCH:
        return (
            "The winner of the previous round, with any tile; after a round with no single winner, the "
            "player after the previous round's leader."
        )
    return "As in the first round, from the new deal."


def _spinner(rules: Rules) -> str:
    if rules.spinner:
        return (
            "Yes: the first double played is a spinner. Once tiles lie on both of its long sides, its two "
            "short sides open too, and the line grows four ways."
        )
    return "No."


def _scoring_during_play(rules: Rules) -> str:
    return {
        InPlay.NONE: "",
        InPlay.FIVES: (
            "After every play the open ends are added up (a double at an end counts both halves; a "
            "spinner side nobody has played on counts nothing); when the sum is a multiple of 5, the "
            "player who made it scores that many points at once."
        ),
    }[rules.in_play]


def _round_points(rules: Rules) -> str:
    rounded = f"{round_to_five(12)} for 12, {round_to_five(13)} for 13"
    return {
        RoundScoring.NONE: "None: a round is won, lost or shared, and nothing is counted.",
        RoundScoring.OTHERS_MINUS_OWN: (
            "The winner scores the pips left in the other hands minus those left in their own, never "
            "below 0. Between two players: the opponent's pips after a domino, the difference after a fish."
        ),
        RoundScoring.OTHERS_ROUNDED: (
            f"The winner also scores the pips left in the other hands, rounded to the nearest 5 ({rounded}); "
            "nothing is taken off for their own hand, after a fish either."
        ),
        RoundScoring.ALL_HANDS: (
            "The winning team scores the pips left in all four hands, its own included: after a domino "
            "the three hands still held, after a fish all four."
        ),
        RoundScoring.LOSERS_OWN: (
            "The losing team is charged the pips left in its own two hands, as penalty points; the "
            "winners are charged nothing."
        ),
    }[rules.round_scoring]


def _fish_tie(rules: Rules) -> str:
    if rules.has_teams:
        nobody = "is charged" if rules.target_loses else "scores"
        return f"Equal team counts: nobody wins the round and nobody {nobody}."
    kept = " (points scored during play are kept)" if rules.in_play is not InPlay.NONE else ""
    return {
        FishTie.SHARED_WIN: "The players tied for the lowest count share the win.",
        FishTie.DRAW: "A draw: nobody wins and nobody scores.",
        FishTie.NOBODY_SCORES: f"Nobody wins the round and nobody scores at its end{kept}.",
    }[rules.fish_tie]


def _game_length(rules: Rules) -> str:
    if not rules.is_match:
        return "One round."
    targets = _by_value(rules.targets)
    if rules.target_loses:
        [(target, _seats)] = targets.items()
        return (
            f"Rounds until a team has {target} penalty points or more: that team loses the match (the "
            "goats 🐐), the other wins it."
        )
    if rules.has_teams:
        [(target, _seats)] = targets.items()
        return f"Rounds until a team has {target} points or more: that team wins the match."
    if len(targets) == 1:
        [(target, _seats)] = targets.items()
        goal = f"{target} points or more"
    else:
        (first, first_seats), *others = targets.items()
        goal = f"{first} points or more with {_counts(first_seats)} players, " + ", ".join(
            f"{target} or more with {_counts(seats)}" for target, seats in others
        )
    return f"Rounds until someone has {goal}; the highest score then wins. {_top_tie(rules)}"


def _top_tie(rules: Rules) -> str:
    return {TopTie.EXTRA_ROUND: "A shared highest score means one more round, as often as needed."}[rules.top_tie]


_PARAMETERS: tuple[tuple[str, Callable[[Rules], str]], ...] = (
    ("Players", _players),
    ("Tiles dealt", _tiles_dealt),
    ("Drawing", _drawing),
    ("First lead", _first_lead),
    ("Later rounds", _later_rounds),
    ("Spinner", _spinner),
    ("Scoring during play", _scoring_during_play),
    ("Points for a round", _round_points),
    ("A fish with a tie for the lowest count", _fish_tie),
    ("Length", _game_length),
)
"""The rows of a rule set's table; a row whose words are empty does not apply to it."""


# --- the overview's short forms -----------------------------------------------------------------


def _drawing_in_short(rules: Rules) -> str:
    if rules.boneyard is Boneyard.NONE:
        return "no"
    return f"yes, but never the last {rules.reserve}" if rules.reserve else "yes"


def _length_in_short(rules: Rules) -> str:
    if not rules.is_match:
        return "one round"
    targets = _by_value(rules.targets)
    if rules.target_loses:
        return " / ".join(f"{target} points lose" for target in targets)
    if len(targets) == 1:
        return f"to {next(iter(targets))} points"
    return "to " + ", ".join(f"{target} ({_counts(seats)} players)" for target, seats in targets.items())


# --- small helpers --------------------------------------------------------------------------------


def _seat_range(rules: Rules) -> str:
    return _counts(list(range(rules.min_seats, rules.max_seats + 1)))


def _counts(numbers: list[int]) -> str:
    """2 → "2", [3, 4] → "3 or 4", [2, 3, 4] → "2 to 4"."""
    if len(numbers) == 1:
        return str(numbers[0])
    if len(numbers) == 2:
        return f"{numbers[0]} or {numbers[1]}"
    return f"{numbers[0]} to {numbers[-1]}"


def _by_value(mapping: Mapping[int, int]) -> dict[int, list[int]]:
    """Seat counts grouped by what they map to, in order: {2: 100, 3: 61, 4: 61} → {100: [2], 61: [3, 4]}."""
    grouped: dict[int, list[int]] = {}
    for seats, value in sorted(mapping.items()):
        grouped.setdefault(value, []).append(seats)
    return grouped


def _team(rules: Rules, team: int) -> str:
    seats = " and ".join(str(seat + 1) for seat in rules.sides(rules.max_seats)[team])
    return f"{TEAM_MARKS[team]} {TEAM_NAMES[team]} (players {seats})"


def _double_order(rules: Rules) -> list[str]:
    """The doubles in the order the rules' forced lead looks for them, as the engine finds it."""
    doubles = [tile for tile in ALL_TILES if tile.high == tile.low]
    order: list[Tile] = []
    while doubles:
        found = find_starter(rules, [[double] for double in doubles])
        assert found is not None, f"{rules.id} has no forced lead"
        order.append(doubles.pop(found[0]))
    return [str(tile) for tile in order]


def _sentence(words: str) -> str:
    words = words[0].upper() + words[1:]
    return words if words.endswith(".") else words + "."


def _anchor(heading: str) -> str:
    """The fragment GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")

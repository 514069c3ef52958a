"""The command menu (setMyCommands), per language and scope (bot/app.py)."""

from __future__ import annotations

from bot.words.i18n import N_

GROUP_COMMANDS: tuple[tuple[str, str], ...] = (
    ("new", N_("Open a new game here")),
    ("join", N_("Join the open game")),
    ("rules", N_("The rule sets")),
    ("stats", N_("Your games, wins and rating")),
    ("top", N_("The best players of this chat")),
    ("history", N_("Recent games")),
    ("export", N_("A game's record as a file (/export N)")),
    ("replay", N_("A game as an animation, move by move (/replay N)")),
    ("review", N_("Your costliest moves of a game (/review N)")),
    ("settings", N_("This chat's settings (administrators)")),
    ("leave", N_("Leave the table (a computer plays your seat)")),
    ("kick", N_("Reply to a player: a computer takes their seat")),
    ("kill", N_("End the game (its creator or an administrator)")),
    ("language", N_("The language I speak to you in")),
    ("help", N_("How to play")),
)
PRIVATE_COMMANDS: tuple[tuple[str, str], ...] = (
    ("start", N_("Play against the computer or a friend")),
    ("rules", N_("The rule sets")),
    ("stats", N_("Your games, wins and rating")),
    ("top", N_("The best players of all")),
    ("history", N_("Your recent games")),
    ("export", N_("A game's record as a file (/export N)")),
    ("replay", N_("A game as an animation, move by move (/replay N)")),
    ("review", N_("Your costliest moves of a game (/review N)")),
    ("language", N_("The language I speak to you in")),
    ("help", N_("How to play")),
)

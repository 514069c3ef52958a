"""The table: the game service (dealing, moves, computer turns, the clock running out), group lobbies,
table manners (/leave, /kick, /kill, away seats), rematches, friend rooms, a group's move to a
supergroup, and what start-up does to bring every game up to date.

May import: ``bot.display``, ``bot.model``, ``bot.words``, ``bot.telegram``, ``storage``, ``engine``.
Handlers call into it; it never imports a handler.
"""

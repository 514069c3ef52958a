"""What a stored game is to the bot: the game document and its seats, people away from the table,
the turn clock's timing, the rematch request, a chat's defaults, and the results and ratings of ended games.

May import: ``bot.words``, ``bot.telegram`` (button data), ``storage``, ``engine``. Nothing here sends
a message: the packages above show what these values hold.
"""

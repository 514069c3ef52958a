"""What a stored game is to the bot: the game document (a table's options and seats, and the state
of the game played at it), people away from the table, the turn clock's timing, the rematch request,
a chat's defaults, and the results and ratings of ended games.

May import: ``bot.words``, ``bot.telegram`` (button data), ``storage``, ``engine``; the document and
the rules on it (``game``, ``absence``, ``clock``) only ``storage`` and ``engine``: how a name or a
level is said is the display's and the words'.  Nothing here sends a message: the packages above
show what these values hold.
"""

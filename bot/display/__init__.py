"""What a game looks like in Telegram: the seats' names as a reader sees them, captions and
keyboards, the group's board message, the pictures drawn away from the event loop, the /settings
message, and the presenter that brings a game's messages up to date with its stored state.

May import: ``bot.model``, ``bot.words``, ``bot.telegram``, ``storage``, ``renderer``, ``engine``.
"""

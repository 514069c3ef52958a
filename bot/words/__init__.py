"""Every word the bot shows, through gettext (catalogues in ``locales/``): the texts, the language
each chat is spoken to in, and the words of scores.

May import: ``storage`` (a chat's language) and ``engine`` (what a move or a rule set is called).
"""

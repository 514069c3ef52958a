"""The project's own documentation, beside the code it describes.

``docs/rules.md`` is made from the code (``python -m docs``, :mod:`docs.rules_page`): the engine's
presets and the words the bot shows for them, so it cannot say other than the bot does;
``tests/docs`` fails when it is not current.  ``docs/record.md`` is written by hand, and
``tests/docs`` replays its examples to the output it shows.

May import: ``engine`` and ``bot.words`` (the texts the page quotes).  Nothing imports this package.
"""

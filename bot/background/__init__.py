"""Work that runs by itself: the periodic sweeps that close idle games and wake games nobody is
looking after.

May import: ``bot.table`` and everything below it.
"""

"""Seat names cut to a width so that the seats of one game stay apart.

One rule for every place a name is short of room (the pictures' seat cards and result rows, the
table page's seat cards); what "fits" means is the caller's: pixels of a font, or characters.

A name too long for its room keeps what tells it apart: its first word, the initials of the words
after it and any number whole ("Alexander Petrov" -> "Alexander P.", "Компьютер 2" -> "Компью… 2"),
and only then is its first word cut. Names of one game that would still read alike keep their end
("Alexa…1987"), and names that are the same, or still alike, are told apart by the seat's number
("Ann #3").

>>> fits = lambda text: len(text) <= 9
>>> short_names(["Компьютер 1", "Компьютер 2", "Alexander Petrov", "Alexander Smirnov"], fits)
['Компью… 1', 'Компью… 2', 'Alexa… P.', 'Alexa… S.']
>>> short_names(["Ann", "Ann"], fits)
['Ann #1', 'Ann #2']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

ELLIPSIS = "…"
Fits = Callable[[str], bool]


def _is_word(token: str) -> bool:
    """A word that may be shortened to its initial: it starts with a letter (numbers and emoji stay whole)."""
    return token[:1].isalpha() and not token.isdigit()


def _initialled(tokens: list[str]) -> list[str]:
    """Every word after the first shortened to its initial: "Alexander Petrov" -> "Alexander P."."""
    first = next((index for index, token in enumerate(tokens) if _is_word(token)), None)
    return [
        f"{token[0]}." if _is_word(token) and index != first and len(token) > 2 else token
        for index, token in enumerate(tokens)
    ]


def _cut_longest(tokens: list[str], fits: Fits) -> str | None:
    """The longest word cut from its end, as little as needed, the rest kept whole; None if nothing fits."""
    words = [index for index, token in enumerate(tokens) if _is_word(token) and len(token) > 1]
    if not words:
        return None
    longest = max(words, key=lambda index: len(tokens[index]))
    word = tokens[longest]
    for keep in range(len(word) - 1, 0, -1):
        candidate = " ".join([*tokens[:longest], word[:keep].rstrip() + ELLIPSIS, *tokens[longest + 1 :]])
        if fits(candidate):
            return candidate
    return None


def cut_end(text: str, fits: Fits) -> str:
    """``text`` if it fits, else its longest beginning that fits with an ellipsis (at least its first character)."""
    if fits(text):
        return text
    low, high = 1, len(text) - 1
    while low < high:  # a longer beginning is never narrower
        middle = (low + high + 1) // 2
        if fits(text[:middle].rstrip() + ELLIPSIS):
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def shorten(name: str, fits: Fits) -> str:
    """``name`` as it is if it fits, else shortened as the module says (each step only if the last did not fit)."""
    text = " ".join(name.split())
    if fits(text):
        return text
    tokens = _initialled(text.split())
    initialled = " ".join(tokens)
    if fits(initialled):
        return initialled
    return _cut_longest(tokens, fits) or cut_end(initialled, fits)


def keep_end(name: str, fits: Fits) -> str:
    """``name`` cut in its middle, as much of its end kept as of its beginning: "Alexa…1987"."""
    text = " ".join(name.split())
    if fits(text):
        return text
    for keep in range(len(text) - 1, 1, -1):
        head, tail = text[: (keep + 1) // 2].rstrip(), text[len(text) - keep // 2 :].lstrip()
        candidate = head + ELLIPSIS + tail
        if fits(candidate):
            return candidate
    return cut_end(text, fits)


def short_names(names: Sequence[str], fits: Fits) -> list[str]:
    """Every seat's name shortened to fit, no two of one game alike (unless a room is too small for any name)."""
    full = [" ".join(name.split()) for name in names]
    repeated = Counter(full)
    numbered = [f"{name} #{seat + 1}" if repeated[name] > 1 else name for seat, name in enumerate(full)]
    shown = [shorten(name, fits) for name in numbered]
    shown = _apart(shown, lambda seat: keep_end(numbered[seat], fits))
    return _apart(shown, lambda seat: shorten(f"{full[seat]} #{seat + 1}", fits))


def _apart(shown: list[str], again: Callable[[int], str]) -> list[str]:
    """``shown`` with every name that reads like another's made ``again`` for its seat."""
    clashes = Counter(shown)
    return [again(seat) if clashes[text] > 1 else text for seat, text in enumerate(shown)]

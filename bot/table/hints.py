"""💡 Hints: the move the hard player would make for a person's seat, from that seat's own view.

A private game against the computer always offers them; a group game only when its creator
turned them on in the lobby. Asking is remembered in the game (``GameState.hinted``): its result
says so and it changes no rating (bot/model/scores.py). The hint is computed from the seat's
:class:`~engine.Observation` alone, with a seed of the game and turn, so asking twice at one turn
gives the same answer.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import NamedTuple

from bot.table.needs import Table
from bot.table.service import TableError
from bot.words.refusals import Refusal
from engine.hints import Hint, hint


class GivenHint(NamedTuple):
    hint: Hint
    ends: int  # the ends its tile fits that make a difference (0: it leads), for the words


async def give_hint(service: Table, game_id: int, user_id: int, version: int) -> GivenHint:
    """The hint for ``user_id``'s seat at the turn ``version`` names; the game is marked as hinted."""
    async with service.locked(game_id) as game:
        match, seat = service.present_seat(game, user_id, version)
        if not game.offers_hints:
            raise TableError(Refusal.HINTS_OFF)
        state = match.round
        if state.is_over or state.turn != seat:
            raise TableError(Refusal.NOT_YOUR_TURN)
        given = hint(match.observe(seat), random.Random(f"hint:{game.id}:{version}:{seat}"))
        hinted = game.doc.game.hinted
        if seat not in hinted:
            doc = replace(game.doc, game=replace(game.doc.game, hinted=tuple(sorted((*hinted, seat)))))
            # Nothing to show: the game keeps its wake-up (none on a turn without a clock), so that
            # the wake-up sweep never takes over a game its instance is looking after.
            await service.documents.save(game, doc, wake_at=game.row.wake_at)
    if state.line.is_empty:
        return GivenHint(given, 0)
    return GivenHint(given, len(state.distinct_ends(given.move.tile)))

"""What one seat may know, and what everyone at the table (or watching) may know.

A :class:`Table` holds only public facts: the line, tile counts, the boneyard
count, and the history of plays, draws and passes with the open ends at each
(drawn tiles left out). An :class:`Observation` adds one seat's own hand. Both
are built by copying public values out of a :class:`~engine.state.RoundState`;
neither keeps a reference to it, so there is no path from them to a hidden hand.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.events import Drew, Event
from engine.line import Line
from engine.rules import Rules
from engine.state import Move, RoundEnd, RoundState, legal_moves_for
from engine.tiles import Tile


class Table(NamedTuple):
    """The public face of a round: what a spectator sees."""

    rules: Rules
    seats: int
    round_index: int
    starter: int
    line: Line
    turn: int
    hand_sizes: tuple[int, ...]
    boneyard_count: int
    drawable: int
    history: tuple[Event, ...]
    fives: tuple[int, ...]
    scores: tuple[int, ...]
    end: RoundEnd | None

    @staticmethod
    def of(state: RoundState, *, scores: tuple[int, ...] | None = None, round_index: int = 0) -> Table:
        return Table(
            rules=state.rules,
            seats=state.seats,
            round_index=round_index,
            starter=state.starter,
            line=state.line,
            turn=state.turn,
            hand_sizes=tuple(len(hand) for hand in state.hands),
            boneyard_count=len(state.boneyard),
            drawable=state.drawable,
            history=tuple(_public(event) for event in state.events),
            fives=state.fives,
            scores=state.fives if scores is None else scores,
            end=state.end,
        )


class Observation(NamedTuple):
    """Everything seat ``seat`` may know: the table and its own hand."""

    table: Table
    seat: int
    hand: tuple[Tile, ...]
    forced: Tile | None  # the tile this seat must lead, when it is this seat's forced lead

    @staticmethod
    def of(state: RoundState, seat: int, *, scores: tuple[int, ...] | None = None, round_index: int = 0) -> Observation:
        forced = state.forced if state.turn == seat else None
        table = Table.of(state, scores=scores, round_index=round_index)
        # Sorted, 6-6 first: the order a player arranges a hand in, the same in pictures and buttons.
        return Observation(table, seat, tuple(sorted(state.hands[seat], reverse=True)), forced)

    @property
    def is_my_turn(self) -> bool:
        return self.table.end is None and self.table.turn == self.seat

    def legal_moves(self) -> list[Move]:
        """This seat's legal moves when it is to play; empty otherwise."""
        if not self.is_my_turn:
            return []
        return legal_moves_for(self.hand, self.table.line, self.forced)


def _public(event: Event) -> Event:
    if type(event) is Drew and event.tiles:
        return event._replace(tiles=())
    return event

"""Foreign computer players behind our player interface, for ``bench/ai.py``.

Each bridge is a player like ours: ``choose(observation, rng) -> Move``. It is
given our :class:`~engine.observation.Observation` of its seat, nothing more,
and builds the foreign engine's state from it, so it can no more peek at a
hidden hand than our own players can.

- :class:`OpenSpielISMCTS`: OpenSpiel's Python information-set MCTS
  (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, random rollouts) on
  ``python_block_dominoes``: 2 seats, 7 tiles each, 14 untouched, seat 0 leads
  any tile (our :data:`BLOCK_2X7`). OpenSpiel's state needs the opponent's hand,
  which the observation does not have: the bridge deals it one at random that
  fits what the seat has seen, and gives the bot a resampler (:func:`resample`)
  that looks at nothing but the bot's own hand and the public action history,
  with the passes it implies (OpenSpiel does not record passes: a player that
  moves twice in a row means the other could not follow either end). Every
  search iteration of the bot starts from such a resampled state.
- :class:`OpenSpielTeamISMCTS`: the same bot on ``python_team_dominoes``: 4
  seats, 7 tiles each, seats 0+2 against 1+3, seat 0 leads any tile (our
  :data:`TEAM_4X7`). The three hidden hands are dealt to fit the numbers each
  seat has shown it lacks (OpenSpiel skips a seat that cannot follow). Its
  returns are the team's, so it plays for its team. OpenSpiel judges a round
  by the teams' pip counts even after a domino; our referee gives a domino to
  the team that went out (RULES.md), which differs only when the partner of
  the seat that went out holds more pips than both opponents together.
- :class:`DominoesSearch`: PyPI ``dominoes`` 6.1.0's strongest honest player,
  its ``double`` heuristic with ``probabilistic_alphabeta`` (alpha-beta over hands
  sampled by ``Game.random_possible_hands``, which uses only the hand sizes, the
  passes and the union of the other hands: with all 28 tiles dealt that union
  is public). 4 seats, 7 tiles each, the 6-6 holder leads it (our
  :data:`BLOCK_4X7`). The bridge fills the other hands with the unseen tiles
  in a fixed order; the player only ever uses their union and sizes.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from engine import ENDS, End, Line, Move, Observation, Passed, Played, Starter, Tile
from engine.line import EMPTY_LINE
from engine.players.base import unseen_tiles
from engine.rules import ANCHORS

BLOCK_2X7 = ANCHORS["block-2x7"]
"""OpenSpiel's ``python_block_dominoes`` as our rules: one round, seat 0 leads any tile."""

BLOCK_4X7 = ANCHORS["block-4x7"]
"""PyPI ``dominoes``' game as our rules: all 28 tiles dealt, the 6-6 holder leads it, one round."""

TEAM_BLOCK_4X7 = ANCHORS["team-block-4x7"]
"""PyPI ``dominoes``' game scored as it scores it: for teams 0+2 and 1+3."""

TEAM_4X7 = ANCHORS["team-4x7"]
"""OpenSpiel's ``python_team_dominoes`` as our rules: teams 0+2 and 1+3, seat 0 leads any tile, one round."""


def _end_for(line: Line, tile: Tile, value: int | None) -> End | None:
    """Our end for a foreign move that names only the number it covers (left when both show it)."""
    if value is None:
        return None
    for index, end_value in enumerate(line.ends):
        if end_value == value and value in (tile.high, tile.low):
            return ENDS[index]
    raise ValueError(f"{tile} does not cover {value} on {line.ends}")


# --- OpenSpiel ------------------------------------------------------------------------------


class OpenSpielISMCTS:
    """OpenSpiel's Python IS-MCTS bot on ``python_block_dominoes`` (2 seats only)."""

    level = "openspiel-ismcts"
    GAME = "python_block_dominoes"
    MODULE = "block_dominoes"
    RULES = BLOCK_2X7
    SEATS = 2

    def __init__(self, simulations: int = 200, uct_c: float = 2.0) -> None:
        import importlib

        import numpy as np  # noqa: F401 - fail early when OpenSpiel is missing
        import pyspiel

        self._block = importlib.import_module(f"open_spiel.python.games.{self.MODULE}")
        self._game = pyspiel.load_game(self.GAME)
        self.simulations = simulations
        self.uct_c = uct_c

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        moves = observation.legal_moves()
        if len(moves) == 1:
            return moves[0]
        numbers = np.random.RandomState(rng.randrange(2**31))
        state = self.state_from(observation, numbers)
        bot = ismcts.ISMCTSBot(
            game=self._game,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=numbers),
            uct_c=self.uct_c,
            max_simulations=self.simulations,
            random_state=numbers,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        bot.set_resampler(lambda s, player: self.resample(s, player, numbers))
        action = self._block._ACTIONS[int(bot.step(state))]
        tile = Tile.parse(f"{int(action.tile[0])}-{int(action.tile[1])}")
        edge = None if action.edge is None else int(action.edge)
        return Move(tile, _end_for(observation.table.line, tile, edge))

    # The bridge proper: our observation -> OpenSpiel state, with sampled hidden hands.

    def state_from(self, observation: Observation, numbers: Any) -> Any:
        table = observation.table
        seats = self.SEATS
        rules = table.rules
        if (
            table.seats != seats
            or rules.hand_sizes.get(seats) != 7
            or rules.starter is not Starter.MATCH
            or rules.draws
            or table.starter != 0
        ):
            raise ValueError(f"OpenSpiel's {self.GAME} is {seats} seats, 7 tiles each, seat 0 leading")
        me = observation.seat
        history = _openspiel_history(table.history)
        hand = [_os_tile(tile) for tile in observation.hand]
        state = self._replay(self._deal(hand, history, me, table.turn, numbers), history)
        if state.current_player() != table.turn:
            raise AssertionError(f"OpenSpiel has player {state.current_player()} to move, we have {table.turn}")
        ours = sorted(
            (str(m.tile), None if m.end is None else table.line.ends[ENDS.index(m.end)])
            for m in observation.legal_moves()
        )
        theirs = sorted(
            (_our_tile_text(self._block._ACTIONS[a].tile), _edge(self._block._ACTIONS[a].edge))
            for a in state.legal_actions()
        )
        if sorted(set(ours)) != sorted(set(theirs)):
            raise AssertionError(f"legal moves differ: ours {ours}, OpenSpiel {theirs}")
        return state

    def resample(self, state: Any, player: int, numbers: Any) -> Any:
        """A state that the bot cannot tell from ``state``: its own hand and the public history
        are kept, the other hands are dealt anew among the tiles each may hold."""
        history = [(a.player, a.tile, a.edge) for a in state.actions_history]
        hand = list(state.hands[player])
        return self._replay(self._deal(hand, history, player, state.current_player(), numbers), history)

    def _deal(
        self, hand: list[Any], history: list[tuple[int, Any, Any]], me: int, to_move: int, numbers: Any
    ) -> list[list[tuple[float, float]]]:
        """Every seat's dealt hand: ``me``'s own, the others' played tiles plus unseen tiles that fit
        the numbers each has shown it lacks (a seat skipped over could not follow either end)."""
        seats = self.SEATS
        lacking = _openspiel_lacking(history, seats, to_move)
        used = set(hand) | {tile for _, tile, _ in history}
        free = [t for t in self._block._DECK if t not in used]
        sizes = [7 - sum(1 for player, _, _ in history if player == seat) for seat in range(seats)]
        others = sorted((seat for seat in range(seats) if seat != me), key=lambda seat: -len(lacking[seat]))
        fits = {seat: [t for t in free if t[0] not in lacking[seat] and t[1] not in lacking[seat]] for seat in others}
        hidden = _deal_fitting(others, fits, sizes, free, numbers)
        if hidden is None:  # cannot happen on a real history; keep the bot playing anyway
            hidden = _deal_fitting(others, {seat: free for seat in others}, sizes, free, numbers)
            assert hidden is not None
        initial: list[list[tuple[float, float]]] = []
        for seat in range(seats):
            played = [tile for player, tile, _ in history if player == seat]
            initial.append((hand if seat == me else hidden[seat]) + played)
        return initial

    def _replay(self, initial: list[list[tuple[float, float]]], history: list[tuple[int, Any, Any]]) -> Any:
        block = self._block
        state = self._game.new_initial_state()
        if self.SEATS == 2:
            deal_order = [tile for seat in range(2) for tile in initial[seat]]
        else:  # team dominoes deals one tile to each seat in turn
            deal_order = [initial[seat][index] for index in range(7) for seat in range(self.SEATS)]
        for tile in deal_order:
            state.apply_action(block._DECK.index(tile))
        for player, tile, edge in history:
            state.apply_action(block._ACTIONS_STR.index(str(block.Action(player, tile, edge))))
        return state


class OpenSpielTeamISMCTS(OpenSpielISMCTS):
    """The same bot on ``python_team_dominoes``: 4 seats, 7 tiles each, seats 0+2 against 1+3, seat 0
    leads any tile, no boneyard (our :data:`TEAM_4X7`). Its returns are the team's, so its search
    plays for its team. Where a seat cannot follow, OpenSpiel skips it: the bridge reads those
    skips as passes, for the bot's resampler as for ours."""

    level = "openspiel-team-ismcts"
    GAME = "python_team_dominoes"
    MODULE = "team_dominoes"
    RULES = TEAM_4X7
    SEATS = 4


def _deal_fitting(
    seats: list[int], fits: dict[int, list[Any]], sizes: list[int], free: list[Any], numbers: Any
) -> dict[int, list[Any]] | None:
    """A random deal of ``free`` tiles, ``sizes[seat]`` to each seat, each from its ``fits``: random
    draws first (enough almost always), then a depth-first search in random order, which finds a
    deal whenever one exists (a real history always has one: the real deal)."""
    for _ in range(20):
        pool = set(free)
        hidden: dict[int, list[Any]] = {}
        for seat in seats:
            allowed = [t for t in fits[seat] if t in pool]
            if len(allowed) < sizes[seat]:
                break
            hidden[seat] = [allowed[int(i)] for i in numbers.choice(len(allowed), size=sizes[seat], replace=False)]
            pool.difference_update(hidden[seat])
        else:
            return hidden

    def search(index: int, pool: frozenset[Any]) -> dict[int, list[Any]] | None:
        if index == len(seats):
            return {}
        seat = seats[index]
        allowed = [t for t in fits[seat] if t in pool]
        order = [allowed[int(i)] for i in numbers.permutation(len(allowed))]
        for chosen in itertools.combinations(order, sizes[seat]):
            rest = search(index + 1, pool.difference(chosen))
            if rest is not None:
                rest[seat] = list(chosen)
                return rest
        return None

    return search(0, frozenset(free))


def _os_tile(tile: Tile) -> tuple[float, float]:
    return (float(tile.low), float(tile.high))


def _our_tile_text(tile: tuple[float, float]) -> str:
    return str(Tile.parse(f"{int(tile[0])}-{int(tile[1])}"))


def _edge(edge: float | None) -> int | None:
    return None if edge is None else int(edge)


def _openspiel_history(history: tuple[Any, ...]) -> list[tuple[int, tuple[float, float], float | None]]:
    """Our plays as OpenSpiel's (player, tile, covered number) actions; passes are implicit there."""
    line = EMPTY_LINE
    actions: list[tuple[int, tuple[float, float], float | None]] = []
    for event in history:
        if type(event) is Played:
            edge = None if event.end is None else float(line.ends[ENDS.index(event.end)])  # type: ignore[arg-type]
            actions.append((event.seat, _os_tile(event.tile), edge))
            line = line.place(event.tile, event.end, spinner=False)
        elif type(event) is not Passed:
            raise ValueError(f"no {type(event).__name__} in block dominoes")
    return actions


def _openspiel_lacking(history: list[tuple[int, Any, Any]], seats: int, to_move: int) -> list[set[float]]:
    """Per seat, the numbers it has shown it lacks: every seat skipped between two actions (and
    between the last action and the seat ``to_move``) could follow neither open end. Without a
    boneyard a seat never gets a number back."""
    lacking: list[set[float]] = [set() for _ in range(seats)]
    edges: list[float] = []
    previous: int | None = None

    def skipped(upto: int) -> None:
        if previous is None:
            return
        seat = (previous + 1) % seats
        while seat != upto:
            lacking[seat].update(edges)
            seat = (seat + 1) % seats

    for player, tile, edge in history:
        skipped(player)
        if edge is None:
            edges = [tile[0], tile[1]]
        else:
            edges.remove(edge)
            edges.append(tile[0] if tile[1] == edge else tile[1])
        previous = player
    skipped(to_move)
    return lacking


# --- PyPI dominoes -------------------------------------------------------------------------


class DominoesSearch:
    """``dominoes``' ``double`` heuristic with ``probabilistic_alphabeta`` (4 seats, all tiles dealt)."""

    level = "dominoes-alphabeta"

    def __init__(self, sample_size: int = 20, start_move: int = 6) -> None:
        import dominoes

        self._dominoes = dominoes
        self.sample_size = sample_size
        self.start_move = start_move

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        moves = observation.legal_moves()
        if len(moves) == 1:
            return moves[0]
        dominoes = self._dominoes
        random.seed(rng.randrange(2**31))  # dominoes samples hands with the global generator
        game = self.game_from(observation)
        search = dominoes.players.probabilistic_alphabeta(
            start_move=self.start_move, sample_size=self.sample_size, player=dominoes.players.double
        )
        dominoes.players.double(game)
        search(game)
        domino, left = game.valid_moves[0]
        tile = Tile.parse(f"{domino.first}-{domino.second}")
        line = observation.table.line
        end = End.LEFT if left else End.RIGHT
        if line.ends[ENDS.index(end)] not in (tile.high, tile.low):
            raise AssertionError(f"dominoes chose {tile} on the {end.value} end of {line.ends}")
        return Move(tile, end)

    def game_from(self, observation: Observation) -> Any:
        """``dominoes.Game`` for this seat: its own hand, the public moves and passes, and the
        other hands filled with the unseen tiles (whose union is public when all 28 are dealt)."""
        dominoes = self._dominoes
        table = observation.table
        if table.seats != 4 or table.boneyard_count:
            raise ValueError("dominoes plays 4 seats with all 28 tiles dealt")
        moves: list[Any] = []
        for event in table.history:
            if type(event) is Played:
                moves.append((dominoes.Domino(event.tile.high, event.tile.low), event.end is not End.RIGHT))
            else:
                moves.append(None)
        unseen = unseen_tiles(observation)
        hands = []
        for seat in range(4):
            if seat == observation.seat:
                tiles = list(observation.hand)
            else:
                tiles, unseen = unseen[: table.hand_sizes[seat]], unseen[table.hand_sizes[seat] :]
            hands.append(dominoes.Hand([dominoes.Domino(tile.high, tile.low) for tile in tiles]))
        board = dominoes.SkinnyBoard(table.line.ends[0], table.line.ends[1], len(table.line))
        game = dominoes.Game(board, hands, moves, table.turn, (), table.starter, None)
        game._update_valid_moves()
        ours = {(m.tile, m.end) for m in observation.legal_moves()}
        theirs = {
            (Tile.parse(f"{d.first}-{d.second}"), End.LEFT if left else End.RIGHT) for d, left in game.valid_moves
        }
        if not theirs <= ours or not {t for t, _ in ours} == {t for t, _ in theirs}:
            raise AssertionError(f"legal moves differ: ours {ours}, dominoes {theirs}")
        return game

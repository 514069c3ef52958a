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
- :class:`DominoesSearch`: PyPI ``dominoes`` 6.1.0's strongest honest player,
  its ``double`` heuristic with ``probabilistic_alphabeta`` (alpha-beta over hands
  sampled by ``Game.random_possible_hands``, which uses only the hand sizes, the
  passes and the union of the other hands: with all 28 tiles dealt that union
  is public). 4 seats, 7 tiles each, the 6-6 holder leads it (our
  :data:`BLOCK_4X7`). The bridge fills the other hands with the unseen tiles
  in a fixed order; the player only ever uses their union and sizes.
"""

from __future__ import annotations

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

    def __init__(self, simulations: int = 200, uct_c: float = 2.0) -> None:
        import numpy as np  # noqa: F401 - fail early when OpenSpiel is missing
        import pyspiel
        from open_spiel.python.games import block_dominoes

        self._block = block_dominoes
        self._game = pyspiel.load_game("python_block_dominoes")
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

    # The bridge proper: our observation -> OpenSpiel state, with a sampled opponent hand.

    def state_from(self, observation: Observation, numbers: Any) -> Any:
        table = observation.table
        if table.rules.hand_sizes.get(2) != 7 or table.rules.starter is not Starter.MATCH or table.starter != 0:
            raise ValueError("OpenSpiel's block dominoes is 2 seats, 7 tiles each, seat 0 leading")
        me = observation.seat
        history = _openspiel_history(table.history)
        hand = [_os_tile(tile) for tile in observation.hand]
        played = [[tile for player, tile, _ in history if player == seat] for seat in range(2)]
        opponent_hand = self._sample_opponent(hand, history, me, numbers)
        initial: list[list[tuple[float, float]]] = [[], []]
        initial[me] = hand + played[me]
        initial[1 - me] = opponent_hand + played[1 - me]
        state = self._replay(initial, history)
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
        are kept, the opponent's hand is dealt anew among the tiles it may hold."""
        history = [(a.player, a.tile, a.edge) for a in state.actions_history]
        hand = list(state.hands[player])
        played = [[tile for p, tile, _ in history if p == seat] for seat in range(2)]
        opponent_hand = self._sample_opponent(hand, history, player, numbers)
        initial: list[list[tuple[float, float]]] = [[], []]
        initial[player] = hand + played[player]
        initial[1 - player] = opponent_hand + played[1 - player]
        return self._replay(initial, history)

    def _sample_opponent(
        self, hand: list[tuple[float, float]], history: list[tuple[int, Any, Any]], me: int, numbers: Any
    ) -> list[tuple[float, float]]:
        opponent = 1 - me
        lacking = _openspiel_passes(history, me)
        used = set(hand) | {tile for _, tile, _ in history}
        size = 7 - sum(1 for player, _, _ in history if player == opponent)
        allowed = [t for t in self._block._DECK if t not in used and t[0] not in lacking and t[1] not in lacking]
        if len(allowed) < size:  # cannot happen on a real history; keep the bot playing anyway
            allowed = [t for t in self._block._DECK if t not in used]
        chosen = numbers.choice(len(allowed), size=size, replace=False)
        return [allowed[int(i)] for i in chosen]

    def _replay(self, initial: list[list[tuple[float, float]]], history: list[tuple[int, Any, Any]]) -> Any:
        block = self._block
        state = self._game.new_initial_state()
        for seat in range(2):
            for tile in initial[seat]:
                state.apply_action(block._DECK.index(tile))
        for player, tile, edge in history:
            state.apply_action(block._ACTIONS_STR.index(str(block.Action(player, tile, edge))))
        return state


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


def _openspiel_passes(history: list[tuple[int, Any, Any]], me: int) -> set[float]:
    """Numbers the opponent of ``me`` has shown it lacks: it passed whenever ``me`` moved twice in a row
    (and ``me`` is to move now, so after ``me``'s last action too)."""
    lacking: set[float] = set()
    edges: list[float] = []
    previous: int | None = None
    for player, tile, edge in history:
        if previous == player == me:
            lacking.update(edges)
        if edge is None:
            edges = [tile[0], tile[1]]
        else:
            edges.remove(edge)
            edges.append(tile[0] if tile[1] == edge else tile[1])
        previous = player
    if previous == me:
        lacking.update(edges)
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

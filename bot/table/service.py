"""The game service: dealing, moves, computer turns and wake-ups, tying engine, storage and presenter together
(a group's lobby is bot/table/lobbies.py's).

Every change follows one path: take the game's lock, load it, decide with the engine,
commit it (with the move in the log), and only then show it in Telegram.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, replace
from typing import Protocol

from bot.display import keyboards
from bot.display.presenter import Presenter
from bot.model import absence, scores
from bot.model.clock import Expiry, TurnClock
from bot.model.documents import Documents, load_game
from bot.model.game import (
    DEFAULT_LEVEL,
    EndQuestion,
    Game,
    record_of,
    turn_key,
    turn_number,
)
from bot.telegram.locks import GameLocks
from bot.telegram.outbox import Outbox
from bot.words.refusals import Refusal
from engine import End, EndRequiredError, IllegalMoveError, Match, Move, Rules, Tile
from engine.players import LEVELS, player_for
from storage import AlreadyHandledError, ChatBusyError, GameStatus, StaleVersionError
from storage.games import MoveLog

log = logging.getLogger(__name__)

NAME_LIMIT = 24
# Seconds past a person's deadline before another instance takes the run-out over: the timer of
# the instance that armed it normally fires first.
WAKE_SLACK = 1.0


class TableError(ValueError):
    """A request the game refuses: ``refusal`` says why, in words the person reads (its ``text``)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.name.lower())
        self.refusal = refusal


class StaleTap(TableError):
    """A tap on an older view of the game (someone moved since): ``to_move`` is whether its seat is
    on turn now, so that a tap on a hand still waiting for its turn can be told just that."""

    def __init__(self, to_move: bool) -> None:
        super().__init__(Refusal.STALE)
        self.to_move = to_move


@contextmanager
def chat_free() -> Iterator[None]:
    """Around creating a game: the database's refusal of a chat's second open game (two requests
    racing past the check before it) becomes the polite "a game is already running"."""
    try:
        yield
    except ChatBusyError:
        raise TableError(Refusal.GAME_RUNNING) from None


@dataclass(frozen=True)
class TapOutcome:
    """What a tile tap did: played, or it needs the player to choose an end."""

    game: Game
    played: bool
    choose_ends: tuple[object, ...] = ()
    tile: Tile | None = None


def require_level(level: str) -> None:
    if level not in LEVELS:
        raise TableError(Refusal.UNKNOWN_LEVEL)


def short_name(name: str) -> str:
    name = " ".join(name.split()) or "?"
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"


class TableManners(Protocol):
    """What the table does when a turn's clock runs out, when hands cannot be delivered, and when a
    woken game still owes notices (bot/table/manners.py gives the one the bot runs with)."""

    async def time_ran_out(self, service: GameService, game_id: int, turn: int) -> None: ...

    async def seats_unreachable(self, service: GameService, game: Game, seats: list[int]) -> Game: ...

    async def pay_owed(self, service: GameService, game_id: int) -> None: ...


class GameService:
    """Stores games through ``documents``, shows them through ``presenter`` and writes through
    ``outbox``; the turn clock is made by ``clock`` (given what to call when a turn runs out), and
    what happens when it runs out, when a hand cannot be delivered and when a woken game still owes
    notices is ``manners``' (none: nothing)."""

    def __init__(
        self,
        documents: Documents,
        presenter: Presenter,
        outbox: Outbox,
        locks: GameLocks,
        *,
        group_delay: float,
        private_delay: float,
        clock: Callable[[Expiry | None], TurnClock] = TurnClock,
        manners: TableManners | None = None,
    ) -> None:
        self.documents = documents
        self.db = documents.db
        self.presenter = presenter
        self.outbox = outbox
        self.locks = locks
        self.group_delay = group_delay
        self.private_delay = private_delay
        self.manners = manners
        self.clock = clock(None if manners is None else self._time_ran_out)
        self._drivers: dict[int, asyncio.Task[None]] = {}

    async def _time_ran_out(self, game_id: int, turn: int) -> None:
        if self.manners is not None:
            await self.manners.time_ran_out(self, game_id, turn)

    async def _show(self, game: Game) -> Game:
        """Bring the game's messages up to date (under its lock); a seat whose hand could not be
        delivered is the manners' to settle."""
        shown = await self.presenter.sync(game)
        if shown.unreachable and self.manners is not None:
            return await self.manners.seats_unreachable(self, shown.game, list(shown.unreachable))
        return shown.game

    @asynccontextmanager
    async def locked(self, game_id: int) -> AsyncIterator[Game]:
        """The game, loaded fresh under its lock: one change at a time per game.

        Should another instance of the bot have saved the game meanwhile (its lock expired under
        a stalled holder), the database refuses this change (its version is checked in the
        UPDATE) and the person is shown the game as it is now."""
        async with self.locks(game_id):
            game = await self._stored(game_id)
            try:
                yield game
            except AlreadyHandledError:
                raise  # the update was delivered again: nothing to say (bot/telegram/middlewares.py)
            except StaleVersionError:
                log.warning("game %s changed under this change; it was not applied", game_id)
                raise TableError(Refusal.STALE) from None

    async def _stored(self, game_id: int) -> Game:
        """The game as stored now (under its lock or not); refused if it is gone or closed."""
        row = await self.db.games.get(game_id)
        if row is None:
            raise TableError(Refusal.NO_GAME)
        if row.status is GameStatus.CLOSED:
            raise TableError(Refusal.IDLE_CLOSED)
        return load_game(row)

    # --- dealing -------------------------------------------------------------------------

    async def show(self, game: Game) -> Game:
        """Bring a committed change to Telegram and let the computers move."""
        return await self._after_change(game)

    async def deal(self, game: Game) -> Game:
        """Deal a game whose seats are all taken (a started lobby, a private game, a rematch) and commit it."""
        rules = Rules.preset(game.row.preset)
        match = Match.new(rules, len(game.doc.seats), _dealer())
        match, moves = _auto_moves(match)
        # The forced lead alone can end the game: nobody can follow it (a quickblock fish).
        return await self._commit(Game(game.row, absence.everyone_back(game.doc), game.match), match, moves)

    # --- play ------------------------------------------------------------------------------

    async def tap_tile(self, game_id: int, user_id: int, version: int, tile: Tile, end: object) -> TapOutcome:
        tapped = Move(tile, end)  # type: ignore[arg-type]
        # Judged first on the game as stored, without waiting for its lock, which a message waiting
        # for Telegram's budget may hold for seconds: a refusal of a tap of turn ``version``, or its
        # question of ends, stays true once the game has moved past that turn (turns only go on),
        # so it is answered at once. Only a move that may be played waits, and is judged again.
        judged = self._judge_tap(await self._stored(game_id), user_id, version, tapped)
        if isinstance(judged, TapOutcome):
            return judged
        async with self.locked(game_id) as game:
            judged = self._judge_tap(game, user_id, version, tapped)
            if isinstance(judged, TapOutcome):
                return judged
            match, seat, move = judged
            game = Game(game.row, absence.moved(game.doc, seat), match)  # their run-outs of the clock start again
            game = await self._play(game, seat, move, by_computer=False)
        return TapOutcome(game, played=True)

    def _judge_tap(self, game: Game, user_id: int, version: int, move: Move) -> tuple[Match, int, Move] | TapOutcome:
        """The match, seat and move a tap plays; its question of ends; or its refusal (raised)."""
        try:
            match, seat = self.present_seat(game, user_id, version)
        except TableError as error:
            stale_seat = game.doc.seat_of(user_id)
            if error.refusal is Refusal.STALE and game.match is not None and stale_seat is not None:
                raise StaleTap(absence.to_move(game.doc, game.match, stale_seat)) from None
            raise
        try:
            match.check(move, seat=seat)  # the engine's own checks, the very ones that apply makes
        except EndRequiredError:
            ends = match.round.distinct_ends(move.tile)
            if len(ends) > 1:
                return TapOutcome(game, played=False, choose_ends=tuple(ends), tile=move.tile)
            move = Move(move.tile, ends[0])  # its ends are one choice (a lone double's two sides): no question
        except IllegalMoveError as error:  # out_of_turn, game_over, not_in_hand, does_not_fit, forced_lead ...
            raise TableError(Refusal.for_engine_code(error.code)) from None
        return match, seat, move

    async def offer_ends(
        self, game_id: int, user_id: int, version: int, tile: Tile, ends: list[End], where: tuple[int, int]
    ) -> None:
        """Turn the hand message at ``where`` (chat, message) into the choice of ends for ``tile``,
        under the game's lock and only while the turn ``version`` is the game's: a move made
        meanwhile (the clock's, say) has redrawn the hand, and an older keyboard must not land on it.
        The question is stored with the game, so that every later redraw of the hand (a wake-up, a
        restart) asks it again until it is answered, "back" is tapped or the turn moves on."""
        try:
            async with self.locked(game_id) as game:
                match, seat = self.present_seat(game, user_id, version)
                question = EndQuestion(version, keyboards.tile_code(tile))
                if game.doc.game.asked.get(seat) == question:
                    return  # asked already (a burst of taps on the tile): the hand shows it, no edit again
                game = await self._ask(game, seat, question)
                markup = keyboards.end_choice_markup(game, match, tile, ends)
                await self.outbox.edit_markup(where[0], where[1], markup)
        except TableError:
            return  # the game moved on: the hand shows it

    async def _ask(self, game: Game, seat: int, question: EndQuestion | None) -> Game:
        """The seat's "which end?" question stored (None: dropped). It needs no showing by anyone
        else, so the game keeps its wake-up (none on a turn without a clock): a stored question
        never makes the wake-up sweep take over a game this instance is looking after."""
        asked = dict(game.doc.game.asked)
        if question is None:
            asked.pop(seat, None)
        else:
            asked[seat] = question
        if asked == game.doc.game.asked:
            return game
        doc = replace(game.doc, game=replace(game.doc.game, asked=asked))
        return await self.documents.save(game, doc, wake_at=game.row.wake_at)

    @staticmethod
    def present_seat(game: Game, user_id: int, version: int) -> tuple[Match, int]:
        """The match and ``user_id``'s seat, for a button of the turn ``version`` names; refused if
        the game is not running, not theirs, at another turn, or a computer plays their seat."""
        match = game.match
        if game.row.status is not GameStatus.PLAYING or match is None:
            raise TableError(Refusal.NO_GAME)
        seat = game.doc.seat_of(user_id)
        if seat is None:
            raise TableError(Refusal.NOT_YOUR_GAME)
        if version != turn_number(match):
            raise TableError(Refusal.STALE)
        if not absence.present(game.doc, seat):
            raise TableError(Refusal.SEAT_AWAY)
        return match, seat

    async def _play(self, game: Game, seat: int, move: Move, *, by_computer: bool) -> Game:
        """Apply and commit one move (and any forced lead of a new round that follows it)."""
        assert game.match is not None
        match = game.match.apply(move, seat=seat)
        round_index = len(match.rounds) - 1
        moves = [_log(round_index, match, by_computer)]
        if match.round.is_over and not match.is_over:
            match = match.deal_next(_dealer())
            match, more = _auto_moves(match)
            moves += more
        # A move answers the question of ends, whoever was asked it: the turn has moved on.
        return await self._commit(
            Game(game.row, replace(game.doc, game=replace(game.doc.game, asked={})), None), match, moves
        )

    async def _commit(self, game: Game, match: Match, moves: list[MoveLog]) -> Game:
        """Commit ``match`` (a deal or a move) on ``game``'s document: its record, the turn's clock and
        the wake-up go into one save with ``moves``; the table pages see it at once, the chats once
        it is shown. The status is decided last: a forced lead can end the round, and the match, by itself."""
        status = GameStatus.FINISHED if match.is_over else GameStatus.PLAYING
        doc = replace(game.doc, game=replace(game.doc.game, record=record_of(match)))
        doc = self.clock.stamp(doc, game.row.kind, match)
        wake_at = self._wake_on_commit(Game(replace(game.row, status=status), doc, match))
        return await self.documents.commit(game, doc, match, moves, status=status, wake_at=wake_at)

    async def play_tap(
        self,
        game_id: int,
        user_id: int,
        version: int,
        tile: Tile,
        end: object,
        *,
        answered: Callable[[TapOutcome], Awaitable[object]],
    ) -> TapOutcome:
        """A tile tap, whole: judged and committed (:meth:`tap_tile`; a refusal raises), then
        ``answered`` (the tap's answer goes before anything is shown, which may wait for the chat's
        budget), then the move shown and the computers and the clock set going. A question of
        ends is only returned: the caller asks it."""
        outcome = await self.tap_tile(game_id, user_id, version, tile, end)
        if outcome.played:
            await answered(outcome)
            await self._after_change(outcome.game)
        return outcome

    async def _after_change(self, game: Game) -> Game:
        try:
            async with self.locks(game.id):
                row = await self.db.games.get(game.id)
                if row is None:
                    return game
                game = load_game(row)
                if row.status in (GameStatus.CANCELLED, GameStatus.CLOSED):
                    return game  # ended meanwhile (/kill, idle): its messages were frozen then
                game = await self._show(game)
        finally:
            # Even when showing failed: the committed turn keeps its clock and its computer player.
            self.clock.follow(game)
            self._drive_computers(game)
        await self._settle(game)
        return game

    def wake_time(self, game: Game) -> float | None:
        """When an instance should next look at this game if nothing else happens to it: a little
        after a computer's move is due or its person's clock runs out; never, on the turn of a
        person without a clock (their tap will come to whichever instance). Sooner if the clock's
        notices are still owed: a little after their payer's claim lapses, since it may have died
        (bot/table/manners.py pay_owed), even once the game is over."""
        match = game.match
        if game.row.status is GameStatus.FINISHED:
            return self._owed_wake(game)
        if game.row.status is not GameStatus.PLAYING or match is None or match.is_over:
            return None
        return _sooner(self._turn_wake(game, match), self._owed_wake(game))

    def _turn_wake(self, game: Game, match: Match) -> float | None:
        seat = game.doc.seats[match.round.turn]
        if seat is None or seat.computer_plays:
            delay = self.group_delay if game.row.kind == "group" else self.private_delay
            return self.clock.now() + delay + self.db.wake_grace
        if game.doc.game.deadline is not None:
            return game.doc.game.deadline + WAKE_SLACK
        return None

    def _owed_wake(self, game: Game) -> float | None:
        state = game.doc.game
        if not state.owed:
            return None
        if state.owed_claimed_until is None:  # nobody's to send (a document from before claims): soon
            return self.clock.now() + WAKE_SLACK
        return state.owed_claimed_until + WAKE_SLACK

    def _on_computers_turn(self, game: Game) -> bool:
        match = game.match
        if game.row.status is not GameStatus.PLAYING or match is None or match.is_over:
            return False
        seat = game.doc.seats[match.round.turn]
        return seat is None or seat.computer_plays

    def _wake_on_commit(self, game: Game) -> float | None:
        """The wake-up a move is committed with: on a computer's turn, the final one; on a
        person's, soon, in case this instance dies before the move is shown (then :meth:`_settle`)."""
        if self._on_computers_turn(game):
            return self.wake_time(game)
        return self.clock.now() + self.db.wake_grace

    async def _settle(self, game: Game) -> None:
        """The change is shown and its timers armed: the game needs looking at only when
        :meth:`wake_time` says (until then, the save's own wake-up stands, in case this instance
        dies before showing it). On a computer's turn the commit has usually stored the right one."""
        if game.row.status not in (GameStatus.PLAYING, GameStatus.FINISHED):
            return
        wake, stored = self.wake_time(game), game.row.wake_at
        if self._on_computers_turn(game):
            if stored is not None and stored > self.clock.now():
                return  # the one the move was committed with (or an earlier one) stands
        elif wake == stored:
            return
        try:
            await self.db.games.set_wake(game.id, game.row.version, wake)
        except Exception:  # the stored wake-up stands; at worst the game is looked at once more
            log.exception("game %s: its next wake-up could not be stored", game.id)

    async def wake(self, game_id: int) -> None:
        """Look after a game nobody looked after in time (its instance stopped, or a timer was
        lost): show it as stored, run its clock on from the stored deadline (one already past
        runs out at once) and wake its computers. The same as a restart does for every game.
        A finished one: its results if they were not all posted, and the notices it still owes."""
        try:
            async with self.locks(game_id):
                row = await self.db.games.get(game_id)
                if row is None or row.status not in (GameStatus.PLAYING, GameStatus.FINISHED):
                    return
                game = load_game(row)
                if row.status is GameStatus.PLAYING:
                    game = await self._show(await self._with_deadline(game))
                elif game.match is not None and game.doc.game.results_posted < len(game.match.rounds):
                    game = await self._show(game)
        except StaleVersionError:
            return  # someone else changed it meanwhile: they look after it now
        self.clock.follow(game)
        self._drive_computers(game)
        await self._settle(game)
        if self.manners is not None:
            await self.manners.pay_owed(self, game_id)

    def _drive_computers(self, game: Game) -> None:
        match = game.match
        if match is None or match.is_over or game.row.status is not GameStatus.PLAYING:
            return
        seat = game.doc.seats[match.round.turn]
        if seat is None or not seat.computer_plays:
            return
        running = self._drivers.get(game.id)
        if running is not None and not running.done():
            return
        self._drivers[game.id] = asyncio.create_task(self._computers(game.id), name=f"computers-{game.id}")

    async def _computers(self, game_id: int) -> None:
        """Play every computer turn in a row, with a short pause so people can follow."""
        try:
            while True:
                row = await self.db.games.get(game_id)
                if row is None:
                    return
                delay = self.group_delay if row.kind == "group" else self.private_delay
                await asyncio.sleep(delay)
                try:
                    async with self.locked(game_id) as game:
                        match = game.match
                        if game.row.status is not GameStatus.PLAYING or match is None or match.round.is_over:
                            return
                        turn = match.round.turn
                        seat = game.doc.seats[turn]
                        if seat is None or not seat.computer_plays:
                            return
                        rng = random.Random(f"{game.id}:{turn_number(match)}")
                        move = player_for(seat.level or DEFAULT_LEVEL).choose(match.observe(turn), rng)
                        game = await self._play(game, turn, move, by_computer=True)
                        game = await self._show(game)
                except TableError as error:
                    if error.refusal is not Refusal.STALE:
                        return
                    continue  # another instance moved first: look again at the game as it is now
                self.clock.follow(game)
                await self._settle(game)
                if game.match is None or game.match.is_over:
                    return
                next_seat = game.doc.seats[game.match.round.turn]
                if next_seat is None or not next_seat.computer_plays:
                    return
        except Exception:
            log.exception("game %s: computer turn failed", game_id)
        finally:
            self._drivers.pop(game_id, None)

    async def show_hand(self, game_id: int, user_id: int) -> None:
        async with self.locked(game_id) as game:
            seat = game.doc.seat_of(user_id)
            if seat is None or game.doc.seats[seat].away == absence.KICKED:  # type: ignore[union-attr]
                raise TableError(Refusal.NOT_YOUR_GAME)
            if game.row.status is not GameStatus.PLAYING or game.match is None:
                raise TableError(Refusal.NO_GAME)
            await self.presenter.resend_hand(game, seat, user_id)

    async def refresh_hand(self, game_id: int, user_id: int, *, back_from: int | None = None) -> None:
        """Redraw a player's hand where it is (after a stale tap or a "back").

        Only that hand: the board and the other hands have not changed, and every edit in a
        group spends its budget of about 20 a minute. ``back_from``: "back" was tapped under the
        question of ends of that turn, which is then dropped; any other redraw asks it again."""
        async with self.locked(game_id) as game:
            seat = game.doc.seat_of(user_id)
            if game.match is not None and seat is not None:
                question = game.doc.game.asked.get(seat)
                if back_from is not None and (question is None or question.turn != back_from):
                    return  # taken back, answered or moved on already: the hand shows that (a burst of "back")
                if question is not None and question.turn == back_from:
                    game = await self._ask(game, seat, None)
                await self.presenter.sync_hand(game, seat, user_id)

    async def catch_up_hand(self, game_id: int, user_id: int) -> None:
        """After a tap on an older view: the player's hand brought to the game as it is now, as the
        move that made the view old does, unless it shows that already (the usual case: then nothing
        is sent, and a burst of such taps costs no edit, each of which would wait for the chat's
        budget and hold up the game meanwhile)."""
        async with self.locked(game_id) as game:
            seat = game.doc.seat_of(user_id)
            match = game.match
            if match is None or seat is None:
                return
            shown = game.doc.game.hands.get(seat)
            if shown is not None and shown.turn_key == turn_key(match):
                return
            await self.presenter.sync_hand(game, seat, user_id, redraw=False)

    async def resume(self) -> int:
        """After a restart: bring every running game's messages up to date, run its turn clock on
        from the stored deadline (one already past runs out at once) and wake its computers.
        First, the results of games that ended while nothing recorded them (bot/model/scores.py)."""
        await self.backfill_results()
        if self.db.shared:
            # Other instances are looking after their games right now; those nobody looks after
            # come due (their stored wake-up passes) and the wake-up sweep takes them (bot/background/wakeups.py).
            return 0
        rows = await self.db.games.with_status(GameStatus.PLAYING)
        for row in rows:
            try:
                await self.wake(row.id)
            except Exception:
                log.exception("game %s could not be resumed", row.id)
        return len(rows)

    async def backfill_results(self) -> int:
        """At start-up: record every ended game whose result is missing, and post the final result of
        every recently finished game that never got it. Returns how many results were recorded."""
        db = self.db
        recorded = 0
        for game_id in await db.results.unrecorded():
            try:
                async with self.locks(game_id):
                    row = await db.games.get(game_id)
                    if row is not None and await scores.record(db, load_game(row)) is not None:
                        recorded += 1
            except Exception:
                log.exception("game %s: its result could not be recorded", game_id)
        for game_id in await db.results.unposted(scores.UNPOSTED_WINDOW):
            try:
                async with self.locks(game_id):
                    row = await db.games.get(game_id)
                    if row is not None and row.status is GameStatus.FINISHED:
                        await self._show(load_game(row))
            except Exception:
                log.exception("game %s: its final result could not be posted", game_id)
        return recorded

    async def _with_deadline(self, game: Game) -> Game:
        """The game with the deadline its turn needs (one saved before it had a clock has none yet)."""
        if game.match is None:
            return game
        doc = self.clock.stamp(game.doc, game.row.kind, game.match)
        return game if doc == game.doc else await self.documents.save(game, doc)

    async def close(self) -> None:
        self.clock.close()
        for task in list(self._drivers.values()):
            task.cancel()


def _dealer() -> random.Random:
    return random.Random(secrets.randbits(64))


def _auto_moves(match: Match) -> tuple[Match, list[MoveLog]]:
    """Place a forced lead that the rules place by themselves (quickblock, duel, hundred).

    When nobody can follow it, that lead ends the round by itself: then the next round is
    dealt (and led) here too, so a game is never left with a finished round and nobody to move.
    """
    moves: list[MoveLog] = []
    while (auto := match.round.auto_move()) is not None:
        match = match.apply(auto)
        moves.append(_log(len(match.rounds) - 1, match, True))
        if not match.round.is_over or match.is_over:
            break
        match = match.deal_next(_dealer())
    return match, moves


def _log(round_index: int, match: Match, by_computer: bool) -> MoveLog:
    played = match.rounds[round_index].plays()[-1]
    return MoveLog(
        round=round_index,
        seat=played.seat,
        tile=str(played.tile),
        side=played.end.value if played.end is not None else None,
        by_computer=by_computer,
    )


def _sooner(first: float | None, second: float | None) -> float | None:
    """The earlier of two wake-ups, None standing for never."""
    if first is None:
        return second
    if second is None:
        return first
    return min(first, second)

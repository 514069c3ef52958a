"""Table manners: the turn clock running out, /leave, /kick, /kill and "Take my seat back".

Every change follows the service's one path: take the game's lock, load it, check it, commit it
(version-checked), and only then show it and tell people.  A seat a computer takes stays its
person's (bot/model/absence.py); the service's computer driver plays it like any computer seat.

:class:`Manners` is given to the game service (``GameService(manners=Manners())``) for the events
that do not start from an update: the turn clock running out (bot/model/clock.py), a hand that
cannot be delivered (the seats the presenter reports, ``Shown.unreachable``) and a woken game's notices.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import replace
from functools import partial

import bot.table.lobbies as lobbies
from bot.display import captions, keyboards
from bot.model import absence, scores
from bot.model.clock import CLOCKED_KINDS, person_to_move
from bot.model.game import Game, GameState, Notice, TableDoc, turn_number
from bot.table.lobbies import refresh_lobby
from bot.table.service import GameService, TableError
from bot.telegram.outbox import Unreachable
from bot.telegram.people import Person
from bot.words import manners_texts
from bot.words.refusals import Refusal
from engine.players import player_for
from storage import UNSET, GameStatus, Unset

log = logging.getLogger(__name__)


class Manners:
    """The table's manners as the game service is given them (``GameService(manners=Manners())``):
    a clock that ran out, hands that cannot be delivered, notices a woken game still owes."""

    async def time_ran_out(self, service: GameService, game_id: int, turn: int) -> None:
        await time_ran_out(service, game_id, turn)

    async def seats_unreachable(self, service: GameService, game: Game, seats: list[int]) -> Game:
        return await seats_unreachable(service, game, seats)

    async def pay_owed(self, service: GameService, game_id: int) -> None:
        await pay_owed(service, game_id)


# --- the turn clock ----------------------------------------------------------------------------


async def time_ran_out(service: GameService, game_id: int, turn: int) -> Game | None:
    """The clock of ``turn`` ran out: play for its person (as a medium computer would), count it,
    and after the second run-out in a row give the seat to a computer.

    Everything is checked again under the lock, so a late, repeated or stale timer does nothing,
    and a move the person made meanwhile wins.  Returns the game as committed, or None.
    """
    try:
        async with service.locked(game_id) as game:
            match = game.match
            doc = game.doc
            deadline = doc.game.deadline
            if game.row.status is not GameStatus.PLAYING or match is None or match.is_over:
                return None
            if turn_number(match) != turn or doc.game.deadline_turn != turn or deadline is None:
                return None
            seat = person_to_move(doc, match)
            if seat is None:
                return None
            if service.clock.now() < deadline:  # woke early (the wall clock moved): sleep on
                service.clock.follow(game)
                return None
            doc, went_away = absence.timed_out(doc, seat)
            rng = random.Random(f"{game.id}:{turn}:clock")
            move = player_for(absence.AWAY_LEVEL).choose(match.observe(seat), rng)
            claimed = False
            if not match.apply(move, seat=seat).is_over:  # a run-out that ends the game: the result says it all
                doc, claimed = _owe(doc, (seat, turn, went_away), service.clock.now(), paying_lease(service))
            game = await service._play(Game(game.row, doc, match), seat, move, by_computer=True)
    except TableError:  # the game is gone or closed
        return None
    game = await service.show(game)
    if claimed:  # with the move itself: nobody else sends them
        await _pay_claimed(service, game)
    else:
        await pay_owed(service, game.id)
    return game


def _owe(doc: TableDoc, notice: Notice, now: float, lease: float) -> tuple[TableDoc, bool]:
    """``doc`` owing one more notice, and whether this commit claims the notices owed: it does
    unless another payer is sending earlier ones (which sends this one too once done). Claimed in
    the very commit of the clock's move, there is no moment when a notice is owed with nobody
    bound to send it."""
    state = doc.game
    busy = _being_paid(state, now)
    until = state.owed_claimed_until if busy else now + lease
    return replace(doc, game=replace(state, owed=(*state.owed, notice), owed_claimed_until=until)), not busy


def _being_paid(state: GameState, now: float) -> bool:
    return bool(state.owed) and state.owed_claimed_until is not None and state.owed_claimed_until > now


async def pay_owed(service: GameService, game_id: int) -> None:
    """Send the run-out notices a game owes (ones a payer that died never struck off, or ones
    owed while another payer was busy), then strike them off.

    They are first claimed under the game's lock for :func:`paying_lease` seconds, so that no
    other payer (in this process or another instance) sends them meanwhile, then sent outside
    it, since a group's budget may keep them waiting. Should this payer die before striking
    them off, they are sent again by whoever looks at the game once the claim has lapsed: the
    claim stores the game's wake-up at its end at the latest (and every later commit keeps one
    there, even the one that finishes the game: :meth:`GameService.wake_time`), so the wake-up
    sweep of any instance looks at the game then even if nothing else would (a person to move
    with no clock running out meanwhile, or a game over)."""
    try:
        async with service.locked(game_id) as game:
            now = service.clock.now()
            state = game.doc.game
            if not state.owed or _being_paid(state, now):
                return
            claimed = Game(
                game.row,
                replace(game.doc, game=replace(state, owed_claimed_until=now + paying_lease(service))),
                game.match,
            )
            # The game's wake-up as a commit now would store it: by the claim's end at the latest.
            game = await service.documents.save(game, claimed.doc, wake_at=service.wake_time(claimed))
    except TableError:  # gone, closed, or changed under the claim
        return
    await _pay_claimed(service, game)


async def _pay_claimed(service: GameService, game: Game) -> None:
    """Send the notices ``game`` owes (this payer's claim stands on them), strike them off, and
    pay any owed meanwhile."""
    over = game.match is None or game.match.is_over
    for seat, _turn, went_away in game.doc.game.owed:
        person = game.doc.seats[seat]
        if person is None or person.user_id is None:
            continue
        told = partial(manners_texts.timeout_private, went_away)
        # Once the game is over there is no seat to take back and nobody to tell at the table.
        await _tell_person(service, game, person.user_id, told, take_back=went_away and not over)
        if went_away and not over:
            notice = partial(manners_texts.away_notice, person.name, absence.TIMEOUT)
            await _tell_table(service, game, notice, but=person.user_id)
    paid = set(game.doc.game.owed)
    try:
        async with service.locked(game.id) as fresh:
            # Owed meanwhile (while this payer was busy): claimed here, so they always have a payer.
            left = tuple(notice for notice in fresh.doc.game.owed if notice not in paid)
            claim = service.clock.now() + paying_lease(service) if left else None
            settled = replace(fresh.doc, game=replace(fresh.doc.game, owed=left, owed_claimed_until=claim))
            # A change since the claim (not shown yet, perhaps) keeps the save's default wake-up.
            wake: float | Unset | None = UNSET
            if fresh.row.version == game.row.version or left:
                wake = service.wake_time(Game(fresh.row, settled, fresh.match))
            game = await service.documents.save(fresh, settled, wake_at=wake)
    except TableError:  # closed meanwhile, or changed again (the claim lapses, they are sent again)
        return
    if left:
        await _pay_claimed(service, game)


def paying_lease(service: GameService) -> float:
    """Seconds a payer has to send the notices it claimed before another may send them: three
    times the time an instance has to show a change before another takes the game over (the
    database's ``wake_grace``), room for a private notice and one into a group under their budgets."""
    return 3 * service.db.wake_grace


# --- a hand that cannot be delivered -------------------------------------------------------------


async def seats_unreachable(service: GameService, game: Game, seats: list[int]) -> Game:
    """Under the game's lock (the seats the presenter could not reach): the people at ``seats`` blocked the bot, so a
    computer plays for them; the table is told once.  A private game against the computer is left
    as it is (there is nobody else to play for)."""
    match = game.match
    if game.row.kind not in CLOCKED_KINDS or game.row.status is not GameStatus.PLAYING or match is None:
        return game
    doc = game.doc
    told: list[str] = []
    for seat in seats:
        info = absence.person_at(doc, seat)
        if info is None or info.away in (absence.BLOCKED, absence.KICKED):
            continue
        if info.away is None:
            told.append(info.name)
        doc = absence.away(doc, seat, absence.BLOCKED)  # away already: nothing more is sent to them
    if doc == game.doc:
        return game
    game = await service.documents.save(game, service.clock.stamp(doc, game.row.kind, match))
    for name in told:
        await _tell_table(service, game, partial(manners_texts.away_notice, name, absence.BLOCKED))
    return game


# --- /leave, /kick, /kill ------------------------------------------------------------------------


async def leave(service: GameService, chat_id: int, person: Person) -> Game:
    """/leave: in a lobby the seat is freed; during a game a computer takes it (take it back any time)."""
    row = await service.db.games.active_in_chat(chat_id)
    if row is None:
        raise TableError(Refusal.NO_GAME_HERE)
    if row.status is GameStatus.LOBBY:
        game = await lobbies.leave(service, row.id, person)
        await refresh_lobby(service, game)
        return game
    async with service.locked(row.id) as game:
        seat = _playing_seat(game, person.user_id)
        info = game.doc.seats[seat]
        if info is not None and info.away is not None:
            raise TableError(Refusal.ALREADY_AWAY)
        game = await _put_away(service, game, seat, absence.LEFT)
    game = await service.show(game)
    await _tell_table(
        service, game, lambda: manners_texts.away_notice(person_name(game, seat), absence.LEFT), but=person.user_id
    )
    await _tell_person(service, game, person.user_id, manners_texts.left_private, take_back=True)
    return game


async def kick(service: GameService, game_id: int, by: Person, target: int) -> Game:
    """/kick (the caller checked who may): in a lobby the seat is freed; during a game a computer
    takes it for good (a kicked person cannot take it back)."""
    async with service.locked(game_id) as game:
        if game.row.status is GameStatus.LOBBY:
            seat = game.doc.seat_of(target)
            if seat is None:
                raise TableError(Refusal.KICK_NOT_PLAYER)
            game = await service.documents.save(game, game.doc.with_seat(seat, None))
            lobby = True
        else:
            seat = _playing_seat(game, target, missing=Refusal.KICK_NOT_PLAYER)
            game = await _put_away(service, game, seat, absence.KICKED)
            lobby = False
    if lobby:
        await refresh_lobby(service, game)
        return game
    game = await service.show(game)
    await _tell_table(
        service, game, lambda: manners_texts.away_notice(person_name(game, seat), absence.KICKED, by=by.name)
    )
    await _tell_person(service, game, target, lambda: manners_texts.kicked_private(by.name), take_back=False)
    return game


async def kill(service: GameService, game_id: int, by: Person) -> Game:
    """/kill (the caller checked who may): the lobby or game ends at once, marked ``killed``; the
    board loses its buttons, the hands freeze, the group is told."""
    async with service.locked(game_id) as game:
        if game.row.status not in (GameStatus.LOBBY, GameStatus.PLAYING):
            raise TableError(Refusal.NO_GAME_HERE)
        doc = service.clock.cleared(replace(game.doc, game=replace(game.doc.game, killed=True)))
        game = await service.documents.save(game, doc, status=GameStatus.CANCELLED)
        await scores.record_quietly(service.db, game)  # abandoned: kept, no rating changes
    service.clock.follow(game)
    outbox = service.outbox
    chat_id = game.row.chat_id
    if game.match is None:  # a lobby
        lobby_message = game.doc.game.lobby_message
        if lobby_message is not None:
            async with service.presenter.languages.speaking_to(chat_id):
                text = manners_texts.lobby_killed(by.name)
            await outbox.edit_text(chat_id, lobby_message, text)
        return game
    if game.row.kind == "group":
        service.presenter.boards.request(game)  # the board once more: "ended", no buttons
    await _freeze_hands(service, game)
    await _tell_table(service, game, lambda: manners_texts.killed_notice(by.name))
    return game


# --- "Take my seat back" ---------------------------------------------------------------------------


async def take_back(service: GameService, game_id: int, user_id: int) -> Game:
    """Commit the person's return (show it with :func:`after_take_back` once the tap is answered)."""
    async with service.locked(game_id) as game:
        match = game.match
        if game.row.status is not GameStatus.PLAYING or match is None or match.is_over or game.doc.game.killed:
            raise TableError(Refusal.TAKE_BACK_OVER)
        seat = game.doc.seat_of(user_id)
        if seat is None:
            raise TableError(Refusal.NOT_YOUR_GAME)
        info = game.doc.seats[seat]
        assert info is not None
        if info.away is None:
            raise TableError(Refusal.ALREADY_BACK)
        if info.away not in absence.RETURNABLE:
            raise TableError(Refusal.TAKE_BACK_KICKED)
        doc = service.clock.stamp(absence.back(game.doc, seat), game.row.kind, match)
        return await service.documents.save(game, doc)


async def after_take_back(service: GameService, game: Game, user_id: int) -> Game:
    seat = game.doc.seat_of(user_id)
    game = await service.show(game)
    if seat is not None:
        await _tell_table(service, game, lambda: manners_texts.back_notice(person_name(game, seat)), but=user_id)
    return game


# --- helpers ---------------------------------------------------------------------------------------


def person_name(game: Game, seat: int) -> str:
    info = game.doc.seats[seat]
    return info.name if info is not None else "?"


def _playing_seat(game: Game, user_id: int, missing: Refusal = Refusal.NOT_SEATED) -> int:
    match = game.match
    if game.row.status is not GameStatus.PLAYING or match is None or match.is_over:
        raise TableError(Refusal.NO_GAME_HERE)
    seat = game.doc.seat_of(user_id)
    if seat is None:
        raise TableError(missing)
    return seat


async def _put_away(service: GameService, game: Game, seat: int, reason: str) -> Game:
    assert game.match is not None
    doc = service.clock.stamp(absence.away(game.doc, seat, reason), game.row.kind, game.match)
    return await service.documents.save(game, doc)


async def _freeze_hands(service: GameService, game: Game) -> None:
    """Each person's hand message without buttons, its caption saying the game was ended."""
    match = game.match
    assert match is not None
    outbox = service.outbox
    for seat, hand in game.doc.game.hands.items():
        info = game.doc.seats[seat]
        if info is None or info.user_id is None or info.away == absence.BLOCKED:
            continue
        async with service.presenter.languages.speaking_to(info.user_id):
            caption = captions.hand_caption(game, match, seat)
        try:
            await outbox.edit_caption(info.user_id, hand.message_id, caption, None)
        except Unreachable:
            log.info("game %s: seat %s cannot be reached privately", game.id, seat)


async def _tell_person(
    service: GameService, game: Game, user_id: int, words: Callable[[], str], *, take_back: bool
) -> None:
    """Sends ``words()``, built in the person's language."""
    async with service.presenter.languages.speaking_to(user_id):
        text = words()
        markup = keyboards.take_back_markup(game.id) if take_back else None
    try:
        await service.outbox.send_text(user_id, text, markup)
    except Unreachable:
        log.info("game %s: %s cannot be reached privately", game.id, user_id)


async def _tell_table(service: GameService, game: Game, words: Callable[[], str], *, but: int | None = None) -> None:
    """Sends ``words()`` to a group game's group; in a friend room (no group), to the private chats of
    the people present; each built in its chat's language."""
    outbox = service.outbox
    if game.row.kind == "group":
        chats = [game.row.chat_id]
    elif game.row.kind == "room":
        chats = [
            info.user_id
            for info in game.doc.seats
            if info is not None and info.user_id is not None and info.user_id != but and info.away is None
        ]
    else:
        return
    for chat_id in chats:
        async with service.presenter.languages.speaking_to(chat_id):
            text = words()
        try:
            await outbox.send_text(chat_id, text)
        except Unreachable:
            log.info("game %s: chat %s cannot be reached", game.id, chat_id)

"""Rematch taps, the new game they start, and cancelling a request when another game begins.

A tap confirms under the finished game's lock.  The last confirmation deals the new game (same
seats, same options: :func:`bot.model.rematch_request.fresh_doc`) in the same chat, as long as no other game
began there since; otherwise the request is cancelled.  Beginning another game in a chat
(/new, a game against the computer, a friend room) cancels the chat's pending requests at
once (:func:`cancel_pending`); the tap checks again, so nothing depends on that having run.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from bot.display import captions, keyboards
from bot.model import rematch_request, scores
from bot.model.documents import load_game
from bot.model.game import CANCELLED, STARTED, Game, RematchRequest, TableDoc
from bot.table.needs import Table
from bot.table.service import TableError
from bot.telegram.outbox import Unreachable
from bot.words.refusals import Notice, Refusal
from storage import ChatBusyError, GameStatus

log = logging.getLogger(__name__)

# How many of a chat's newest games are looked at for a pending request.
RECENT = 5


@dataclass(frozen=True)
class RematchOutcome:
    """What a tap did: ``answer`` is what the person is told; ``changed`` is the finished game
    whose result messages must be redrawn; ``new`` the dealt new game, still to be shown."""

    answer: Refusal | Notice
    alert: bool = False
    changed: Game | None = None
    new: Game | None = None


async def confirm(service: Table, game_id: int, user_id: int) -> RematchOutcome:
    async with service.locked(game_id) as game:
        request = game.doc.game.rematch
        if request is None or game.row.status is not GameStatus.FINISHED:
            raise TableError(Refusal.REMATCH_CLOSED)
        people = {person for person, _ in rematch_request.people(game.doc)}
        if user_id not in people:
            raise TableError(Refusal.REMATCH_NOT_PLAYER)
        if game.row.kind == "room" and game.row.creator_id not in people:
            raise TableError(Refusal.REMATCH_CLOSED)  # a room lives in its creator's chat, which is gone
        if request.state == STARTED:
            raise TableError(Refusal.REMATCH_STARTED)
        if request.state == CANCELLED:
            raise TableError(Refusal.REMATCH_CLOSED)
        if user_id in request.confirmed:
            return RematchOutcome(Notice.REMATCH_AGAIN)
        if await _another_game_began(service, game):
            game = await _save(service, game, replace(request, state=CANCELLED))
            return RematchOutcome(Refusal.REMATCH_CLOSED, alert=True, changed=game)
        request = replace(request, confirmed=(*request.confirmed, user_id))
        if not rematch_request.everyone_confirmed(game.doc, request):
            game = await _save(service, game, request)
            return RematchOutcome(Notice.REMATCH_CONFIRMED, changed=game)
        try:
            new = await _deal_rematch(service, game)
        except ChatBusyError:  # a game was opened in the chat a moment ago: that one is played
            game = await _save(service, game, replace(request, state=CANCELLED))
            return RematchOutcome(Refusal.REMATCH_CLOSED, alert=True, changed=game)
        game = await _save(service, game, replace(request, state=STARTED, game=new.id))
        return RematchOutcome(Notice.REMATCH_GO, changed=game, new=new)


async def cancel_pending(service: Table, chat_id: int, new_game_id: int) -> None:
    """Another game (``new_game_id``) began in ``chat_id``: its older pending requests are off."""
    for row in await service.db.games.newest_in_chat(chat_id, RECENT):
        if row.id >= new_game_id or row.status is not GameStatus.FINISHED:
            continue
        pending = TableDoc.from_json(row.data).game.rematch
        if pending is None or not pending.is_open:
            continue
        async with service.locked(row.id) as game:
            request = game.doc.game.rematch
            if request is None or not request.is_open:
                continue
            game = await _save(service, game, replace(request, state=CANCELLED))
        await show(service, game)


async def show(service: Table, game: Game) -> None:
    """Redraw the final result message(s) of ``game``: who has confirmed, or what became of it."""
    request = game.doc.game.rematch
    match = game.match
    if request is None or match is None or not match.rounds:
        return
    scored = await service.db.results.get(game.id)
    for chat_id, message_id in request.messages:
        async with service.presenter.languages.speaking_to(chat_id):
            base = scores.with_ratings(captions.result_caption(game, match, len(match.rounds) - 1), scored)
            caption = rematch_request.caption(base, game.doc, request)
            markup = keyboards.final_result_markup(game.id, rematch_request.markup(game.id, game.doc, request))
        try:
            await service.outbox.edit_caption(chat_id, message_id, caption, markup)
        except Unreachable:
            log.info("game %s: the rematch line cannot be shown in %s", game.id, chat_id)


async def _another_game_began(service: Table, game: Game) -> bool:
    """Whether the chat has a newer game than ``game``, or an open one (one game per chat)."""
    newest = await service.db.games.newest_in_chat(game.row.chat_id, 1)
    if newest and newest[0].id != game.id:
        return True
    return await service.db.games.active_in_chat(game.row.chat_id) is not None


async def _deal_rematch(service: Table, game: Game) -> Game:
    """The new game: same chat, kind, rules, creator, seats and options; dealt and committed."""
    doc = rematch_request.fresh_doc(game.doc)
    row = await service.db.games.create(
        chat_id=game.row.chat_id,
        kind=game.row.kind,
        status=GameStatus.LOBBY,
        preset=game.row.preset,
        creator_id=game.row.creator_id,
        data=doc.to_json(),
    )
    async with service.locks(row.id):
        return await service.deal(load_game(row))


async def _save(service: Table, game: Game, request: RematchRequest) -> Game:
    return await service.documents.save(game, rematch_request.with_request(game.doc, request))

"""Bring a game's Telegram messages up to date with its stored state.

:meth:`Presenter.sync` is idempotent: it is called after every committed change and
again after a restart, and it only ever sends what the players have not seen yet
(a result not yet posted, a board or hand for a new round, a new message when the
turn comes to a player) and edits the rest in place.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

import bot.display.captions as captions
import bot.display.keyboards as keyboards
from bot.display.boards import BoardPainter
from bot.display.names import shown_names
from bot.display.pictures import Photo, PictureMaker
from bot.display.table_links import TableLinks
from bot.model import absence, rematch_request, scores
from bot.model.documents import Documents
from bot.model.game import Game, HandMessage, RematchRequest, turn_key
from bot.telegram.outbox import Outbox, Unreachable
from bot.telegram.twins import send_photo_then_buttons
from bot.words import table_texts
from bot.words.languages import Languages
from engine import Match

log = logging.getLogger(__name__)


class Shown(NamedTuple):
    """A game as shown, and the seats whose hand could not be delivered (the person blocked the
    bot): the table decides what becomes of them (bot/table/manners.py)."""

    game: Game
    unreachable: tuple[int, ...] = ()


def nobody_watching(game_id: int, user_id: int) -> bool:
    return False


class Presenter:
    """Shows the games that :class:`~bot.model.documents.Documents` stores, and stores (through it)
    which messages show them.

    ``links``: where the table page opens (None: no Mini App). ``watching``: whether a person has
    the game's table page open (game id, user id); their hand message then waits until they close
    it (and comes silently if it comes meanwhile)."""

    def __init__(
        self,
        documents: Documents,
        outbox: Outbox,
        pictures: PictureMaker,
        boards: BoardPainter,
        languages: Languages,
        *,
        links: TableLinks | None = None,
        watching: Callable[[int, int], bool] = nobody_watching,
    ) -> None:
        self.documents = documents
        self.db = documents.db
        self.languages = languages  # one for the whole bot: its cache must see every change
        self.outbox = outbox
        self.pictures = pictures
        self.boards = boards
        self.links = links
        self.watching = watching

    async def sync(self, game: Game) -> Shown:
        """Every message of the game brought up to date with it (see the module's docstring)."""
        match = game.match
        if match is None:
            return Shown(game)
        self.documents.tell(game)
        # At the match's end the hands go first: their last edit says the game is over (and, in a
        # group game, that the result is in the group). A result not yet posted is what a restart
        # looks for (GameService.backfill_results), so posted last it stands for the hands' edit
        # too: a stop between the two leaves nothing undone for good.
        lost: list[int] = []
        if match.is_over:
            game = await self._show_hands(game, match, lost)
        game = await self._post_results(game, match)
        if game.row.kind == "group":
            self.boards.request(game)
        if not match.is_over:
            game = await self._show_hands(game, match, lost)
        return Shown(game, tuple(sorted(lost)))

    async def _show_hands(self, game: Game, match: Match, lost: list[int]) -> Game:
        """Every player's hand message brought up to date in their private chat."""
        people = [
            (seat, info.user_id)
            for seat, info in enumerate(game.doc.seats)
            # Nothing reaches a person who blocked the bot; a kicked one no longer sees the seat's hand.
            if info
            and info.user_id is not None
            and info.away not in (absence.BLOCKED, absence.KICKED)
            # One playing at the table page sees every move there: their hand message is brought up
            # to date when they close it (bot/webapp), not a picture a move meanwhile.
            and (match.is_over or not self.watching(game.id, info.user_id))
        ]
        shown = await asyncio.gather(
            *(self._show_hand(game, match, seat, user_id, lost=lost) for seat, user_id in people)
        )
        return await self._store_hands(game, {seat: hand for (seat, _), hand in zip(people, shown, strict=True)})

    async def _post_results(self, game: Game, match: Match) -> Game:
        finished = [i for i, state in enumerate(match.rounds) if state.is_over]
        doc = game.doc
        for round_index in finished:
            if round_index < doc.game.results_posted:
                continue
            state = match.rounds[round_index]
            pictures: dict[tuple[str, ...], Photo] = {}  # by the names as each chat reads them
            # The game's final result offers a rematch (bot/model/rematch_request.py) where the kind has one.
            offer = rematch_request.offered(game) and match.is_over and round_index == len(match.rounds) - 1
            request = RematchRequest()
            scored = await scores.record_final(self.db, game, round_index)  # recorded before it is posted
            sent = list(doc.game.results_sent)  # the chats that have it already (a restart in the middle)
            done = {chat for chat, _ in sent}
            chats = [chat for chat in self._result_chats(game) if chat not in done]
            for position, chat_id in enumerate(chats):
                async with self.languages.speaking_to(chat_id):
                    names = tuple(shown_names(doc.seats))
                    caption = scores.with_ratings(captions.result_caption(game, match, round_index), scored)
                    markup = rematch_request.markup(game.id, doc, request) if offer else None
                    if match.is_over and round_index == len(match.rounds) - 1:
                        markup = keyboards.final_result_markup(game.id, markup)
                if names not in pictures:
                    # A partnership game's picture has the team totals too (the caption's score line).
                    totals = captions.totals_after(match, round_index) if match.rules.has_teams else None
                    pictures[names] = await self.pictures.result(state, list(names), totals)
                picture = pictures[names]
                try:
                    # Its buttons once its id is known (bot/telegram/twins.py): a copy of a send whose
                    # answer was lost must not offer a rematch nobody will ever update.
                    message_id = await send_photo_then_buttons(self.outbox, chat_id, *picture, caption, markup)
                except Unreachable:
                    log.info("game %s: the result cannot be sent to %s", game.id, chat_id)
                    continue
                if message_id is not None:
                    sent.append((chat_id, message_id))
                    if position < len(chats) - 1:  # more to go: this chat is done, whatever becomes of us
                        progress = replace(doc.game, results_sent=tuple(sent))
                        game = await self.documents.save(game, replace(doc, game=progress))
                        doc = game.doc
            doc = replace(doc, game=replace(doc.game, results_posted=round_index + 1, results_sent=()))
            if offer:
                doc = rematch_request.with_request(doc, replace(request, messages=tuple(sent)))
            game = await self.documents.save(game, doc)
        return game

    @staticmethod
    def _result_chats(game: Game) -> list[int]:
        """Where results go: the game's chat; a friend room has none, so each player's private chat."""
        if game.row.kind == "room":
            return [seat.user_id for seat in game.doc.seats if seat is not None and seat.user_id is not None]
        return [game.row.chat_id]

    async def sync_hand(self, game: Game, seat: int, user_id: int, *, redraw: bool = True) -> Game:
        """Redraw one player's hand message where it is (after a "back"), and nothing else; with
        ``redraw=False`` only as a sync would, where it does not show this turn yet."""
        if game.match is None:
            return game
        shown = await self._show_hand(game, game.match, seat, user_id, redraw=redraw)
        return await self._store_hands(game, {seat: shown})

    async def resend_hand(self, game: Game, seat: int, user_id: int) -> Game:
        """Send the hand again as a new message (the player asked for it)."""
        match = game.match
        assert match is not None
        old = game.doc.game.hands.get(seat)
        hands = {s: hand for s, hand in game.doc.game.hands.items() if s != seat}
        game = Game(game.row, replace(game.doc, game=replace(game.doc.game, hands=hands)), match)
        shown = await self._show_hand(game, match, seat, user_id)
        game = await self._store_hands(game, {seat: shown})
        if old is not None and shown is not None and shown != old:
            await self.outbox.delete(user_id, old.message_id)
        return game

    async def _store_hands(self, game: Game, shown: dict[int, HandMessage | None]) -> Game:
        hands = dict(game.doc.game.hands)
        for seat, hand in shown.items():
            if hand is not None:
                hands[seat] = hand
        if hands == game.doc.game.hands:
            return game
        # Which message shows a hand is bookkeeping of what was just shown: the game keeps its
        # wake-up (none on a turn without a clock), or "My hand" would have the game taken over.
        doc = replace(game.doc, game=replace(game.doc.game, hands=hands))
        return await self.documents.save(game, doc, wake_at=game.row.wake_at)

    async def _show_hand(
        self, game: Game, match: Match, seat: int, user_id: int, *, redraw: bool = False, lost: list[int] | None = None
    ) -> HandMessage | None:
        """Bring one hand message up to date; the message it now is (None: as it was, or unreachable).

        In a group game the hand that is to play gets a new message (so Telegram notifies the
        player), and once played it is frozen at once: the picture without the tile played, a
        caption that is no longer their turn, no buttons.  Only the board in the group follows
        every move, so a move costs the mover's hand picture, not one per player.  In a private
        game the one message is the whole game: edited in place, and replaced only for a new round.
        """
        async with self.languages.speaking_to(user_id):
            return await self._show_hand_here(game, match, seat, user_id, redraw=redraw, lost=lost)

    async def _show_hand_here(
        self, game: Game, match: Match, seat: int, user_id: int, *, redraw: bool, lost: list[int] | None
    ) -> HandMessage | None:
        key = turn_key(match)
        round_prefix = f"{len(match.rounds) - 1}:"
        my_turn = absence.to_move(game.doc, match, seat)  # an away seat's turn is its computer's
        current = game.doc.game.hands.get(seat)
        frozen = round_prefix + ("over" if match.is_over else "waiting")
        chat = user_id
        try:
            if current is None or not current.turn_key.startswith(round_prefix):
                # (A match can be over before a person is ever on turn: a quick block lead nobody can follow.)
                return await self._send_hand(game, match, seat, chat, current, key if my_turn else frozen)
            if game.row.kind == "private":  # a friend room's hands work as a group game's, without the board
                caption, markup = (
                    captions.hand_caption(game, match, seat),
                    keyboards.current_hand_markup(game, match, seat, self.links),
                )
                if current.turn_key == key and redraw:  # the picture is as it was: only the buttons change
                    shown = await self.outbox.edit_caption(chat, current.message_id, caption, markup)
                else:
                    picture = await self.pictures.private(match, seat, shown_names(game.doc.seats))
                    shown = await self.outbox.edit_photo(chat, current.message_id, *picture, caption, markup)
                if shown:
                    return HandMessage(current.message_id, key)
                return await self._send_hand(game, match, seat, chat, current, key)
            if my_turn and current.turn_key != key:
                return await self._send_hand(game, match, seat, chat, current, key)
            if current.turn_key == key:
                if redraw:  # where it is (a "back", a stale tap): the tiles, or the question still asked
                    markup = keyboards.current_hand_markup(game, match, seat, self.links)
                    await self.outbox.edit_markup(chat, current.message_id, markup)
                return None
            if current.turn_key == frozen or (current.turn_key.endswith(":waiting") and not match.is_over):
                return None
            # The move just made shows where it was made, at once and even when only computers play
            # before the next turn: the tile gone from the picture, the caption no longer the
            # player's turn, no buttons.  Until then the hand does not change (it only changes on
            # its own turn), so this is one picture a move, in the player's own chat.
            # At the match's end this edit also says the game is over and that its result is in the
            # group (captions.ends_in_group): the player learns it where they play, at no extra message.
            picture = await self.pictures.private(match, seat, shown_names(game.doc.seats))
            caption = await self._hand_caption(game, match, seat)
            await self.outbox.edit_photo(chat, current.message_id, *picture, caption, None)
            return HandMessage(current.message_id, frozen)
        except Unreachable:
            log.info("game %s: seat %s cannot be reached privately", game.id, seat)
            await self.db.users.set_private_ok(user_id, False)
            if lost is not None:
                lost.append(seat)
            return None

    async def _send_hand(
        self, game: Game, match: Match, seat: int, chat: int, current: HandMessage | None, key: str
    ) -> HandMessage | None:
        picture = await self.pictures.private(match, seat, shown_names(game.doc.seats))
        caption = await self._hand_caption(game, match, seat)
        markup = keyboards.current_hand_markup(game, match, seat, self.links)
        my_turn = absence.to_move(game.doc, match, seat)
        notify = my_turn and not self.watching(game.id, chat)  # at the table they see it there, at once
        # The tiles go on once the message's id is known (bot/telegram/twins.py): a copy Telegram made
        # of a send whose answer was lost is then a picture without buttons, not a second live hand.
        message_id = await send_photo_then_buttons(self.outbox, chat, *picture, caption, markup, notify=notify)
        if message_id is None:
            return None
        if current is None and self.links is not None:
            # The person's first hand of this game: the private chat's menu button opens its table too.
            await self.outbox.set_menu_app(chat, table_texts.open_table_button(), self.links.page(game.id))
        if current is not None:
            self.outbox.delete_soon(chat, current.message_id)
        return HandMessage(message_id, key)

    async def _hand_caption(self, game: Game, match: Match, seat: int) -> str:
        """The hand's caption; a finished group game's names the group, as the bot last saw it."""
        title = None
        if captions.ends_in_group(game, match):
            chat = await self.db.users.get_chat(game.row.chat_id)
            title = chat.title if chat is not None else None
        return captions.hand_caption(game, match, seat, title)

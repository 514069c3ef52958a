"""Fifty taps at once under Telegram's limits: one move, every tap answered, no queue of edits
(issue 31, items 2 and 11).

A person double-tapping on a slow phone, or on several devices, sends the same tap many times.
Each used to queue an edit of the hand under the game's lock ("message is not modified", sent one
a second within the chat's budget), so that the computer's reply and the person's next real tap
waited behind all of them (48 s once, the "which end?" answer then too old to be given). Here, in
a private game against the computer with Telegram's limits on in the fake and the bot's own
budgets as deployed: 50 taps at once on a tile that fits one way, on a tile that fits two ends, and
on the "⬅" of that question. Each time exactly one move (none for the question), every tap
answered, and the hand message edited a few times at most (the move, the computer's reply), not
once per tap. No timing is asserted; ``bench/taps.py`` prints how long it all takes.
"""

from __future__ import annotations

from collections import Counter

import pytest

from fake_telegram import CallbackQuery, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people.players import (
    TURN_TIMEOUT,
    answer_text,
    hand_message,
    open_private_game,
    tile_buttons,
)
from tests.kit.scenarios.arena import Turn, snapshot, turn_of

pytestmark = pytest.mark.asyncio

BURST = 50
GAMES = 4  # deals tried until Ann's turns have offered a tile that fits one way and one that fits two
# Edits of the tapped hand message a burst may cost: its move shown, the computer's reply, and one
# catching up with a tap on the view just left behind (before: one per tap, fifty).
EDITS = 4
PLAYED = "✅"
WAIT = 3 * TURN_TIMEOUT  # the old code took a second per tap of a burst before the game went on


class Game:
    def __init__(self, fake: FakeTelegram, bot: BotProcess, ann: User) -> None:
        self.fake, self.bot, self.ann = fake, bot, ann
        self.id = 0
        self.ends: list[str] = []  # the question's end buttons, as last asked
        self.questions = 0  # questions of ends asked by a burst
        self.moved: list[str] = []  # the buttons of the bursts that played

    async def open(self) -> None:
        await open_private_game(self.fake, self.ann, "block", 1, level="easy")
        self.id = max(g.id for g in snapshot(self.bot.database).values() if g.creator_id == self.ann.id)

    async def ann_turn(self) -> tuple[Turn, Message] | None:
        """Ann's turn with its keyboard shown and the bot quiet; None once the game is over."""

        def ready() -> tuple[Turn, Message] | bool | None:
            game = snapshot(self.bot.database)[self.id]
            if game.status != "playing":
                return False
            turn = turn_of(game)
            message = hand_message(self.fake, self.ann)
            shown = [b.version for b in tile_buttons(message.inline_keyboard)] if message is not None else []
            if turn is None or turn.user_id != self.ann.id or turn.version not in shown:
                return None
            assert message is not None
            return turn, message

        found = await self.fake.wait_for(ready, WAIT, what="Ann's turn")
        await self.fake.wait_idle(quiet=0.5, timeout=WAIT)
        return found if isinstance(found, tuple) else None

    def people_moves(self) -> int:
        return sum(1 for move in snapshot(self.bot.database)[self.id].moves if not move[4])

    def burst(self, message: Message, data: str) -> list[CallbackQuery]:
        """Fifty taps of one button, all waiting before the bot fetches any."""
        queries = []
        for _ in range(BURST):
            query = self.fake.factory.callback_query(self.ann, message, data)
            self.fake.recorder.user_action("tap", f"Ann burst {data!r} (callback {query.id})", message.chat_id)
            queries.append(query)
        return queries

    async def answered(self, queries: list[CallbackQuery]) -> None:
        await self.fake.wait_for(lambda: all(q.answered for q in queries) or None, WAIT, what="every tap answered")

    def hand_edits(self, message: Message, since: int) -> list[int]:
        """The transcript positions of the edits of ``message`` after ``since``."""
        return [
            e.seq
            for e in self.fake.transcript
            if e.kind == "request"
            and e.seq > since
            and e.method.startswith("edit")
            and e.chat_id == message.chat_id
            and e.params.get("message_id") in (message.message_id, str(message.message_id))
        ]

    def last_seq(self) -> int:
        """The newest request's number: a long poll gets its number when it starts and is written down
        when it ends, after requests that started later, so the last entry is not always the newest."""
        return max(e.seq for e in self.fake.transcript)

    def answers_at(self, queries: list[CallbackQuery], since: int) -> list[int]:
        ids = {q.id for q in queries}
        return [
            e.seq
            for e in self.fake.transcript
            if e.kind == "request"
            and e.seq > since
            and e.method == "answerCallbackQuery"
            and e.params.get("callback_query_id") in ids
        ]

    async def move_burst(self, message: Message, data: str) -> None:
        """Fifty taps of a move: exactly one applied, answered once "✅", the hand edited a few times."""
        since, moves = self.last_seq(), self.people_moves()
        queries = self.burst(message, data)
        await self.answered(queries)
        if any("choose" in answer_text(q) for q in queries):  # a tile of two ends: the question first
            await self.question_asked_once(message, queries, since, moves)
            await self.move_burst(message, self.ends[0])
            return
        await self.ann_turn()  # her next turn (or the end): the game went on
        assert self.people_moves() - moves == 1, "fifty taps of one move played it once"
        assert sum(1 for q in queries if answer_text(q).startswith(PLAYED)) == 1
        edits = self.hand_edits(message, since)
        assert len(edits) <= EDITS, f"{len(edits)} edits of the hand for one move"
        assert len(self.answers_at(queries, since)) == BURST, "each tap answered once"
        self.moved.append(data)

    async def question_asked_once(self, message: Message, queries: list[CallbackQuery], since: int, moves: int) -> None:
        """Fifty taps on a tile that fits two ends: every one answered so, the question asked once."""
        assert all("choose" in answer_text(q) for q in queries), {answer_text(q) for q in queries}

        def asked() -> list[str] | None:
            live = self.fake.world.message(message.chat_id, message.message_id)
            assert live is not None
            return [b.data for b in tile_buttons(live.inline_keyboard) if b.is_end_choice] or None

        self.ends = await self.fake.wait_for(asked, WAIT, what="the question of ends")
        await self.fake.wait_idle(quiet=1.5, timeout=WAIT)  # more than a second: a queued edit would show
        assert self.people_moves() == moves
        edits = self.hand_edits(message, since)
        assert len(edits) == 1, f"{len(edits)} edits of the hand to ask one question"
        self.questions += 1


async def test_fifty_taps_at_once_play_once_and_queue_nothing(
    limited_fake: FakeTelegram, budgeted_bot: BotProcess
) -> None:
    fake = limited_fake
    check = Checkpoint(fake, budgeted_bot)
    game = Game(fake, budgeted_bot, fake.add_user("Ann", last_name="Bursts"))
    for _ in range(GAMES):
        await game.open()
        while not (game.questions and len(game.moved) >= 2) and (found := await game.ann_turn()) is not None:
            turn, message = found
            fits = Counter(tile for tile, _ in turn.legal)
            # A tile the rules let go to two ends may still be one choice (a lone double): the answers tell.
            twice = sorted(tile for tile, n in fits.items() if n > 1)
            tile = twice[0] if twice and not game.questions else sorted(fits)[0]
            await game.move_burst(message, f"t:{game.id}:{turn.version}:{tile}:")
        if game.questions and len(game.moved) >= 2:
            break
    assert game.questions and len(game.moved) >= 2, f"{GAMES} deals without a question of ends on Ann's turns"
    await fake.wait_idle(quiet=0.5, timeout=WAIT)
    assert fake.flood_events == [], [str(e) for e in fake.flood_events]
    check.assert_clean()

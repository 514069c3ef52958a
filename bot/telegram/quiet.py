"""Answers to group commands that change nothing never hold up a game (issue 17, item 9).

Every message into a group spends the group's budget, about 20 a minute (:mod:`bot.telegram.pacing`),
and the board waits for that budget. A member who keeps sending ``/join`` to a closed lobby or
``/new nonsense`` would, if each got its refusal, spend the budget the game's board and results
need: in one run the first board of a game came 13 s after "The game has started". So a
refusal (an answer that changes nothing) in a group goes through :class:`QuietAnswers`:

- each person is answered at most once per group in ``every`` seconds; the rest are dropped
  (Telegram gives no way to answer without a message that counts: a reaction would do, but is
  not something to rely on for the budget);
- it is sent only while the group's budget is full, so it never takes a token the board or
  the game's own messages are waiting for; when the budget is short it is dropped (and that
  person may be answered the next time).

Private chats are answered always: their budget is a chat's own, and nobody else's game waits.
Each instance of the bot keeps its own memory of whom it answered (at worst one answer more per
instance).

>>> now = [0.0]
>>> quiet = QuietAnswers(every=60, clock=lambda: now[0])
>>> quiet.may_answer(-1, 7), quiet.may_answer(-1, 7), quiet.may_answer(-1, 8)
(True, False, True)
>>> now[0] = 60.0; quiet.may_answer(-1, 7)
True
>>> quiet.may_answer(5, 5), quiet.may_answer(5, 5)  # a private chat
(True, True)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from aiogram.types import Message

from bot.telegram.pacing import UNLIMITED, Pacer

log = logging.getLogger(__name__)

FORGET_AFTER = 10_000  # people remembered before those answered long ago are dropped


class QuietAnswers:
    """Refusals to group commands, at most one per person per group in ``every`` seconds (0: no limit)."""

    def __init__(
        self, pacer: Pacer = UNLIMITED, every: float = 60, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.pacer = pacer
        self.every = every
        self._clock = clock
        self._answered: dict[tuple[int, int], float] = {}  # (chat, person) -> when last answered

    def may_answer(self, chat_id: int, user_id: int) -> bool:
        """Whether this person may be answered in this chat now; if so, counts the answer as given."""
        if chat_id > 0 or self.every <= 0:
            return True
        now = self._clock()
        last = self._answered.get((chat_id, user_id))
        if last is not None and now - last < self.every:
            return False
        self._answered[(chat_id, user_id)] = now
        if len(self._answered) > FORGET_AFTER:
            for key in [key for key, when in self._answered.items() if now - when >= self.every]:
                del self._answered[key]
        return True

    async def answer(self, message: Message, text: str, *, reply: bool = False, **options: Any) -> Message | None:
        """Answer ``message`` with ``text`` (as a reply if ``reply``), unless it should stay unanswered.

        Returns the message sent, or None when the answer was dropped."""
        chat_id = message.chat.id
        user = message.from_user
        who = user.id if user is not None else chat_id  # a message on behalf of a chat
        if self.every > 0 and chat_id < 0:
            if not await self.pacer.has_room(chat_id):  # not answered: the next time may be
                log.info("chat %s: not answering %s while the game needs the budget", chat_id, who)
                return None
            if not self.may_answer(chat_id, who):
                log.info("chat %s: not answering %s again so soon", chat_id, who)
                return None
        if reply:
            return await message.reply(text, **options)
        return await message.answer(text, **options)

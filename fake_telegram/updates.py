"""Updates: what users do, turned into real Update objects, and the queue that serves them.

The queue serves ``getUpdates`` (:meth:`UpdateQueue.get`) and, while a webhook is set, the
webhook sender (``webhook.py``: :meth:`UpdateQueue.deliverable`, :meth:`UpdateQueue.delivered`).
Either way an update stays pending until it is confirmed (a later ``offset``, or a 2xx answer
to its POST), so ``fake.wait_delivered``/``wait_idle`` mean the same in both modes.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import fake_telegram.errors as errors

from .errors import ApiError
from .formatting import FormattedText, detect_entities, sort_entities
from .shapes import chat_json, member_json, message_json, user_json
from .state import ADMIN, CREATOR, LEFT, MEMBER, PRESENT, CallbackQuery, Chat, Message, User, World

# Update types a bot gets when allowed_updates is empty or was never set.
DEFAULT_EXCLUDED = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
LONG_POLL_MAX = 50


@dataclass
class PendingUpdate:
    update_id: int
    kind: str
    payload: dict[str, Any]
    callback_id: str | None = None
    # Webhook delivery: a POST is under way / not before this monotonic time / POSTs so far.
    sending: bool = False
    retry_at: float = 0.0
    attempts: int = 0
    chat_id: int | None = field(default=None, init=False)  # the chat it is about, if any
    user_id: int | None = field(default=None, init=False)  # who caused it (the member, for chat_member)

    def __post_init__(self) -> None:
        payload = self.payload
        chat = payload.get("chat") or (payload.get("message") or {}).get("chat")
        self.chat_id = chat.get("id") if isinstance(chat, dict) else None
        member = payload.get("new_chat_member")
        if self.kind == "chat_member" and isinstance(member, dict):
            self.user_id = member.get("user", {}).get("id")
        else:
            self.user_id = (payload.get("from") or {}).get("id")

    def json(self) -> dict[str, Any]:
        return {"update_id": self.update_id, self.kind: self.payload}


class UpdateQueue:
    """getUpdates semantics: offset confirms, limit 1-100, long polling up to 50 s, one poller at a time."""

    def __init__(self, first_id: int = 1000) -> None:
        self.pending: list[PendingUpdate] = []
        self.dropped: list[PendingUpdate] = []  # filtered out by allowed_updates
        self.allowed: list[str] | None = None
        self._next_id = first_id
        self._wakeup = asyncio.Event()
        self._poller = 0
        self._ended: dict[int, str] = {}  # pollers ended by something other than a newer poll, and why
        self.stopping = False
        self.listeners: list[Callable[[], None]] = []  # told of every new update (the webhook sender)
        self.made: dict[int, PendingUpdate] = {}  # every update ever queued, by id (for redeliver)

    def next_id(self) -> int:
        update_id = self._next_id
        self._next_id += 1
        return update_id

    @property
    def polls_begun(self) -> int:
        """How many getUpdates calls came (answered or still waiting): a bot that polls is up."""
        return self._poller

    def peek_next_id(self) -> int:
        return self._next_id

    def continue_from(self, next_id: int) -> None:
        """Go on from a sequence an earlier run left (a bot skips update ids it handled already)."""
        self._next_id = max(self._next_id, next_id)

    def push(self, update: PendingUpdate) -> None:
        self.made.setdefault(update.update_id, update)
        self.pending.append(update)
        self._notify()

    def _notify(self) -> None:
        self._wakeup.set()
        for listener in self.listeners:
            listener()

    def redeliver(self, update_id: int) -> PendingUpdate:
        """Update ``update_id``, confirmed already, is pending again with the same id and contents,
        in its place among the others: what Telegram does with an update whose delivery it did not
        see confirmed (the bot was killed before its next ``getUpdates`` confirmed it, or the answer
        to its webhook POST was lost). By ``getUpdates`` it comes to a poll that does not confirm
        it, as after a restart (a poll with a later ``offset`` confirms it again, unseen); by
        webhook it is POSTed again."""
        original = self.made.get(update_id)
        if original is None:
            raise ValueError(f"no update {update_id} was ever queued")
        if any(update.update_id == update_id for update in self.pending):
            raise ValueError(f"update {update_id} is still pending: it will be delivered anyway")
        again = PendingUpdate(original.update_id, original.kind, original.payload, original.callback_id)
        place = next((i for i, update in enumerate(self.pending) if update.update_id > update_id), len(self.pending))
        self.pending.insert(place, again)
        self._notify()
        return again

    def wake(self) -> None:
        self._wakeup.set()

    def _allowed(self, kind: str) -> bool:
        if not self.allowed:
            return kind not in DEFAULT_EXCLUDED
        return kind in self.allowed

    def allows(self, kind: str) -> bool:
        """Whether updates of ``kind`` reach the bot under the current ``allowed_updates``."""
        return self._allowed(kind)

    def pending_count(self) -> int:
        """Updates waiting to be confirmed (getWebhookInfo's pending_update_count)."""
        return sum(1 for update in self.pending if self._allowed(update.kind))

    def drop_pending(self) -> None:
        """``drop_pending_updates``: every unconfirmed update is gone (one being POSTed just finishes)."""
        self.pending.clear()

    def abort_poll(self, reason: str) -> None:
        """End the waiting long poll, if any, with a 409 ``reason`` (setWebhook does this)."""
        self._ended[self._poller] = reason
        self._poller += 1
        self._wakeup.set()

    # ------------------------------------------------------------------ webhook delivery
    def deliverable(
        self, now: float, limit: int, key: Callable[[PendingUpdate], Hashable]
    ) -> tuple[list[PendingUpdate], float | None]:
        """Up to ``limit`` updates to POST now, and when the next one waiting to be retried is due.

        Only the oldest pending update of each delivery queue (``key``) may go, and only when it is
        not being POSTed already and its retry time has come: each queue is delivered in order, one
        update at a time, as the Bot API server's WebhookActor does.
        """
        self._drop_unallowed()
        seen: set[Hashable] = set()
        ready: list[PendingUpdate] = []
        wake: float | None = None
        for update in self.pending:
            queue = key(update)
            if queue in seen:
                continue
            seen.add(queue)
            if update.sending:
                continue
            if update.retry_at > now:
                wake = update.retry_at if wake is None else min(wake, update.retry_at)
                continue
            ready.append(update)
            if len(ready) >= limit:
                break
        return ready, wake

    def delivered(self, update: PendingUpdate) -> None:
        """Its POST was answered 2xx: confirmed, as a later offset confirms it for getUpdates."""
        for index, pending in enumerate(self.pending):
            if pending is update:
                del self.pending[index]
                return

    def _drop_unallowed(self) -> None:
        if any(not self._allowed(update.kind) for update in self.pending):
            self._ready(len(self.pending))

    def _confirm(self, offset: int) -> None:
        if offset > 0:
            self.pending = [u for u in self.pending if u.update_id >= offset]
        elif offset < 0:
            self.pending = self.pending[offset:]

    def _ready(self, limit: int) -> list[PendingUpdate]:
        kept: list[PendingUpdate] = []
        for update in self.pending:
            if self._allowed(update.kind):
                kept.append(update)
            else:
                self.dropped.append(update)
        self.pending = kept
        return kept[:limit]

    async def get(self, offset: int, limit: int, timeout: int, allowed: list[str] | None) -> list[PendingUpdate]:
        if allowed is not None:
            self.allowed = list(allowed)
        limit = min(max(limit, 1), 100)
        timeout = min(max(timeout, 0), LONG_POLL_MAX)
        self._poller += 1
        me = self._poller
        self._wakeup.set()  # an older poller, if any, learns it was replaced
        await asyncio.sleep(0)
        self._confirm(offset)
        deadline = time.monotonic() + timeout
        while True:
            if self._poller != me:
                raise ApiError(409, self._ended.pop(me, errors.GET_UPDATES_CONFLICT))
            ready = self._ready(limit)
            remaining = deadline - time.monotonic()
            if ready or remaining <= 0 or self.stopping:
                return ready
            self._wakeup.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):  # no extra task per long poll, unlike wait_for
                    await self._wakeup.wait()


class UpdateFactory:
    """Builds the updates Telegram sends when users act, and stores the messages they create."""

    def __init__(self, world: World, queue: UpdateQueue) -> None:
        self.world = world
        self.queue = queue

    def _push(self, kind: str, payload: dict[str, Any], callback_id: str | None = None) -> PendingUpdate:
        update = PendingUpdate(self.queue.next_id(), kind, payload, callback_id)
        self.queue.push(update)
        return update

    def _store(
        self,
        chat: Chat,
        user: User,
        text: str | None,
        *,
        reply_to: int | None = None,
        service: dict[str, Any] | None = None,
    ) -> Message:
        formatted = None
        if text is not None:
            formatted = FormattedText(text, sort_entities(detect_entities(text)))
        message = Message(
            chat_id=chat.id,
            message_id=chat.new_message_id(),
            sender_id=user.id,
            date=self.world.now(),
            sent_by_bot=False,
            text=formatted,
            reply_to=reply_to,
            service=service or {},
        )
        chat.messages[message.message_id] = message
        return message

    def user_message(
        self, user: User, chat: Chat, text: str, *, reply_to: int | None = None, deliver: bool = True
    ) -> tuple[Message, PendingUpdate | None]:
        """Store the message; push its update unless the bot would not get it (``deliver=False``)."""
        message = self._store(chat, user, text, reply_to=reply_to)
        if not deliver:
            return message, None
        return message, self._push("message", message_json(message, self.world))

    def reaches_bot(self, chat: Chat, text: str, reply_to: int | None, *, privacy_mode: bool) -> bool:
        """Whether Telegram delivers a group message to the bot.

        The bot must be in the group.  With privacy mode on (BotFather's default) and the bot not an
        admin, it gets only commands (``/cmd`` or ``/cmd@this_bot``), replies to its own messages and
        messages that mention it.
        """
        if chat.bot_status not in PRESENT:
            return False
        if not privacy_mode or chat.bot_status in (ADMIN, CREATOR):
            return True
        username = (self.world.bot.username or "").lower()
        command = re.match(r"/[A-Za-z0-9_]+(?:@([A-Za-z0-9_]+))?", text)
        if command:
            return command.group(1) is None or command.group(1).lower() == username
        replied = chat.messages.get(reply_to) if reply_to is not None else None
        if replied is not None and replied.sent_by_bot:
            return True
        return f"@{username}" in text.lower()

    def edited_message(self, message: Message, text: str, *, deliver: bool = True) -> PendingUpdate | None:
        """The sender changed their message's text: Telegram sends ``edited_message`` with an ``edit_date``."""
        message.text = FormattedText(text, sort_entities(detect_entities(text)))
        message.edit_date = self.world.now()
        if not deliver:
            return None
        return self._push("edited_message", message_json(message, self.world))

    def service_message(self, user: User, chat: Chat, service: dict[str, Any]) -> tuple[Message, PendingUpdate]:
        message = self._store(chat, user, None, service=service)
        return message, self._push("message", message_json(message, self.world))

    def my_chat_member(self, user: User, chat: Chat, old: str, new: str) -> PendingUpdate:
        bot = self.world.bot
        payload = {
            "chat": chat_json(chat, self.world),
            "from": user_json(user),
            "date": self.world.now(),
            "old_chat_member": member_json(chat, bot, old, self.world),
            "new_chat_member": member_json(chat, bot, new, self.world),
        }
        return self._push("my_chat_member", payload)

    def chat_member(self, actor: User, chat: Chat, member: User, old: str, new: str) -> PendingUpdate:
        payload = {
            "chat": chat_json(chat, self.world),
            "from": user_json(actor),
            "date": self.world.now(),
            "old_chat_member": member_json(chat, member, old, self.world),
            "new_chat_member": member_json(chat, member, new, self.world),
        }
        return self._push("chat_member", payload)

    def callback_query(self, user: User, message: Message, data: str) -> CallbackQuery:
        world = self.world
        query = CallbackQuery(
            id=world.new_callback_id(),
            user_id=user.id,
            chat_id=message.chat_id,
            message_id=message.message_id,
            data=data,
            chat_instance=world.chat_instance(message.chat_id),
            update_id=0,
            created_at=time.monotonic(),
        )
        payload = {
            "id": query.id,
            "from": user_json(user),
            "message": message_json(message, world),
            "chat_instance": query.chat_instance,
            "data": data,
        }
        world.callbacks[query.id] = query
        query.update_id = self._push("callback_query", payload, query.id).update_id
        return query

    def bot_joined(self, actor: User, chat: Chat, *, created: bool) -> None:
        """The bot is added to a group: my_chat_member, then the service message Telegram sends."""
        self.my_chat_member(actor, chat, LEFT, MEMBER)
        if created:
            self.service_message(actor, chat, {"group_chat_created": True})
        else:
            bot = user_json(self.world.bot)
            self.service_message(
                actor, chat, {"new_chat_participant": bot, "new_chat_member": bot, "new_chat_members": [bot]}
            )

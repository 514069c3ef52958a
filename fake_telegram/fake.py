"""The test-side API: a fake Telegram that a test drives (users, chats, taps) and inspects.

The server runs in the test's own asyncio loop (``async with FakeTelegram() as fake``): a bot
started as a subprocess talks to it over HTTP while the test awaits ``fake.wait_for(...)``.
All state is touched from that one loop, so there are no locks and no threads.

The bot gets its updates by ``getUpdates`` or, once it calls ``setWebhook``, by HTTP POSTs to
its webhook (``webhook.py``); the waiting helpers work the same either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from .context import Settings
from .limits import Fault, FaultInjector, Faults, Limits, RateLimiter, ScriptedFault
from .server import ApiServer, Pipeline
from .spec import ApiSpec, load_spec
from .state import ADMIN, CREATOR, KICKED, LEFT, MEMBER, PRESENT, CallbackQuery, Chat, Message, User, Webhook, World
from .transcript import Entry, Recorder, Violation
from .updates import UpdateFactory, UpdateQueue
from .validation import DEEP_LINK_PAYLOAD, Validator, parse_deep_link
from .webhook import QUEUE_MODES, webhook_info

T = TypeVar("T")
DEFAULT_TOKEN = "123456789:AAFakeTelegramTestTokenForDominoes1"


class FakeTelegramError(AssertionError):
    """A test asked for something a real user could not do (tap a missing button, read a deleted message)."""


@dataclass(frozen=True)
class Button:
    text: str
    callback_data: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class MessageView:
    """A message as a person in the chat sees it now."""

    message_id: int
    sender: str
    from_bot: bool
    text: str  # the text, or the caption of a photo/document
    buttons: tuple[tuple[Button, ...], ...]
    photo: bytes | None
    photo_size: tuple[int, int] | None
    document_name: str | None
    edited: bool
    service: dict[str, Any]

    def button_texts(self) -> list[list[str]]:
        return [[b.text for b in row] for row in self.buttons]


def _buttons(message: Message) -> tuple[tuple[Button, ...], ...]:
    return tuple(
        tuple(Button(b.get("text", ""), b.get("callback_data"), b.get("url")) for b in row)
        for row in message.inline_keyboard
    )


class FakeTelegram:
    """A fake Bot API server with the knobs and views end-to-end tests need.

    >>> fake = FakeTelegram(bot_username="dominoes_test_bot")
    >>> alice = fake.add_user("Alice", language_code="ru")
    >>> group = fake.add_group("Friends", members=[alice])
    >>> fake.send(alice, "/new classic", chat=group).text.entities[0]["type"]
    'bot_command'
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "dominoes_test_bot",
        bot_name: str = "Dominoes",
        limits: Limits | None = None,
        faults: Faults | None = None,
        spec: ApiSpec | None = None,
        spec_path: Path | None = None,
        seed: int = 0,
        callback_expiry: float = 15.0,
        privacy_mode: bool = True,
        webhook_timeout: float = 60.0,
        webhook_retry_delay: float = 1.0,
        webhook_queues: str = "telegram",
        webhook_local_mode: bool = True,
        webhook_set_interval: float = 1.0,
    ) -> None:
        if webhook_queues not in QUEUE_MODES:
            raise ValueError(f"webhook_queues must be one of {QUEUE_MODES}, not {webhook_queues!r}")
        self.token = token
        self.privacy_mode = privacy_mode
        self.spec = spec or load_spec(spec_path)
        rng = random.Random(seed)
        bot = User(int(token.split(":", 1)[0]), bot_name, username=bot_username, is_bot=True)
        self.world = World(bot, rng)
        self.queue = UpdateQueue()
        self.factory = UpdateFactory(self.world, self.queue)
        self.recorder = Recorder()
        faults = faults or Faults()
        self.pipeline = Pipeline(
            token=token,
            spec=self.spec,
            world=self.world,
            queue=self.queue,
            validator=Validator(self.spec, bot_username),
            settings=Settings(
                callback_expiry=callback_expiry,
                webhook_timeout=webhook_timeout,
                webhook_retry_delay=webhook_retry_delay,
                webhook_queues=webhook_queues,
                webhook_local_mode=webhook_local_mode,
                webhook_set_interval=webhook_set_interval,
            ),
            limiter=RateLimiter(limits or Limits()),
            injector=FaultInjector(faults),
            recorder=self.recorder,
            hang_seconds=faults.hang_seconds,
        )
        self.server = ApiServer(self.pipeline)

    # ------------------------------------------------------------------ lifecycle
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Serve on loopback; returns the base URL to give the bot as ``TELEGRAM_API_URL``."""
        return await self.server.start(host, port)

    async def stop(self) -> None:
        await self.server.stop()

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return self.server.base_url

    def env(self) -> dict[str, str]:
        """Environment for the bot process: its token and where the Bot API is."""
        return {"BOT_TOKEN": self.token, "TELEGRAM_API_URL": self.base_url}

    @property
    def bot(self) -> User:
        return self.world.bot

    @property
    def settings(self) -> Settings:
        """Callback expiry and the webhook knobs; may be changed while the fake runs."""
        return self.pipeline.settings

    # ------------------------------------------------------------------ webhook mode
    @property
    def webhook(self) -> Webhook:
        """The webhook the bot set (``url`` is "" while it polls)."""
        return self.world.webhook

    def webhook_info(self) -> dict[str, Any]:
        """What ``getWebhookInfo`` answers now."""
        return webhook_info(self.world.webhook, self.queue)

    def deliveries(self, update_id: int | None = None, *, ok: bool | None = None) -> list[Entry]:
        """Attempts to POST updates to the webhook (transcript entries of kind "webhook"), oldest first."""
        return [
            e
            for e in self.recorder.entries
            if e.kind == "webhook"
            and (update_id is None or e.params.get("update_id") == update_id)
            and (ok is None or e.ok == ok)
        ]

    def webhook_state(self) -> str:
        """One paragraph on webhook delivery, for failure messages ("" while the bot polls)."""
        hook = self.world.webhook
        if not hook.url:
            return ""
        sending = [u for _, u in self.server.webhook.in_flight.values()]
        error = f"; last error: {hook.last_error_message}" if hook.last_error_date else ""
        lines = [
            f"webhook {hook.url} (max_connections {hook.max_connections}): {self.queue.pending_count()} pending, "
            f"{len(sending)} being POSTed{error}"
        ]
        lines += [f"  update {u.update_id} {u.kind} chat={u.chat_id} attempt {u.attempts}" for u in sending]
        return "\n".join(lines)

    def set_limits(self, limits: Limits) -> None:
        self.pipeline.limiter = RateLimiter(limits)

    def set_faults(self, faults: Faults) -> None:
        self.pipeline.injector = FaultInjector(faults, self.pipeline.injector.scripted)
        self.pipeline.hang_seconds = faults.hang_seconds

    def inject(
        self,
        kind: str = "429",
        *,
        method: str | None = None,
        chat: Chat | int | None = None,
        times: int = 1,
        retry_after: int = 1,
        code: int = 400,
        description: str = "Bad Request: injected error",
        apply_before_hang: bool = False,
        delay: float = 1.0,
    ) -> None:
        """The next ``times`` calls (of ``method``, in ``chat``) fail: "429", "500", "hang", "drop" (the
        connection closed at once without an answer) or "error"; "hang" and "drop" take effect first
        with ``apply_before_hang`` (only the answer is lost); or are "slow": answered ``delay`` seconds
        late, taking effect at once (``apply_before_hang``: only the answer was slow) or only then (the
        call was slow to arrive)."""
        if kind not in ("429", "500", "hang", "drop", "slow", "error"):
            raise ValueError(f"unknown fault kind {kind!r}")
        fault = Fault(
            kind,
            retry_after=retry_after,
            code=code,
            description=description,
            apply_before_hang=apply_before_hang,
            delay=delay,
        )
        self.pipeline.injector.scripted.append(ScriptedFault(fault, method, self._chat_id(chat), times))

    # ------------------------------------------------------------------ people and chats
    def add_user(
        self,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "en",
        is_premium: bool = False,
        user_id: int | None = None,
    ) -> User:
        user = User(
            user_id or self.world.new_user_id(), first_name, last_name, username, language_code, is_premium=is_premium
        )
        self.world.users[user.id] = user
        return user

    def add_group(
        self,
        title: str,
        *,
        members: list[User] | tuple[User, ...] = (),
        admins: list[User] | tuple[User, ...] = (),
        creator: User | None = None,
        supergroup: bool = False,
        username: str | None = None,
        bot_admin: bool = False,
        all_members_are_administrators: bool = False,
        announce: bool = False,
    ) -> Chat:
        """A group (or supergroup) with the bot in it; ``announce`` also sends the join updates."""
        world = self.world
        chat_id = world.new_supergroup_id() if supergroup else world.new_group_id()
        chat = Chat(chat_id, "supergroup" if supergroup else "group", title=title, username=username)
        chat.all_members_are_administrators = all_members_are_administrators and not supergroup
        owner = creator or (members[0] if members else None)
        for user in (*members, *admins):
            chat.members[user.id] = MEMBER
        for user in admins:
            chat.members[user.id] = ADMIN
        if owner is not None:
            chat.members[owner.id] = CREATOR
        chat.bot_status = ADMIN if bot_admin else MEMBER
        chat.bot_can_delete = bot_admin
        world.chats[chat.id] = chat
        if announce and owner is not None:
            self.factory.bot_joined(owner, chat, created=True)
            self.recorder.user_action("bot added", f"{owner.name} created {title!r} with the bot", chat.id)
        return chat

    def add_bot_to_group(self, chat: Chat, *, by: User, admin: bool = False) -> None:
        chat.bot_status = ADMIN if admin else MEMBER
        chat.bot_can_delete = admin
        chat.members.setdefault(by.id, MEMBER)
        self.factory.bot_joined(by, chat, created=False)
        self.recorder.user_action("bot added", f"{by.name} added the bot to {chat.title!r}", chat.id)

    def remove_bot_from_group(self, chat: Chat, *, by: User, kick: bool = True) -> None:
        old = chat.bot_status
        chat.bot_status = KICKED if kick else LEFT
        self.factory.my_chat_member(by, chat, old, chat.bot_status)
        self.recorder.user_action("bot removed", f"{by.name} removed the bot from {chat.title!r}", chat.id)

    def set_member(self, chat: Chat, user: User, status: str) -> None:
        """Change someone's status in a group ("creator", "administrator", "member", "left", "kicked")."""
        chat.members[user.id] = status

    def promote_bot(self, chat: Chat, *, can_delete_messages: bool = True) -> None:
        chat.bot_status = ADMIN
        chat.bot_can_delete = can_delete_messages

    def block_bot(self, user: User) -> None:
        """The user blocks the bot: private sends get 403, and the bot hears a my_chat_member update."""
        user.blocked = True
        chat = self.world.private_chat(user)
        self.factory.my_chat_member(user, chat, MEMBER, KICKED)
        self.recorder.user_action("block", f"{user.name} blocked the bot", chat.id)

    def unblock_bot(self, user: User) -> None:
        user.blocked = False
        chat = self.world.private_chat(user)
        self.factory.my_chat_member(user, chat, KICKED, MEMBER)
        self.recorder.user_action("unblock", f"{user.name} unblocked the bot", chat.id)

    def migrate_to_supergroup(self, chat: Chat, *, by: User | None = None) -> Chat:
        """Upgrade a group: service messages in both chats; the old id answers "group chat was upgraded"."""
        if chat.type != "group":
            raise FakeTelegramError(f"{chat.title!r} is a {chat.type}, only groups migrate")
        actor = by or self._owner(chat)
        world = self.world
        new = Chat(world.new_supergroup_id(), "supergroup", title=chat.title, members=dict(chat.members))
        new.bot_status, new.bot_can_delete, new.migrated_from = chat.bot_status, chat.bot_can_delete, chat.id
        world.chats[new.id] = new
        self.factory.service_message(actor, chat, {"migrate_to_chat_id": new.id})
        chat.migrated_to = new.id
        self.factory.service_message(actor, new, {"migrate_from_chat_id": chat.id})
        self.recorder.user_action("migrate", f"{chat.title!r} {chat.id} became supergroup {new.id}", chat.id)
        return new

    def _owner(self, chat: Chat) -> User:
        for user_id, status in chat.members.items():
            if status == CREATOR:
                return self.world.users[user_id]
        for user_id, status in chat.members.items():
            if status in PRESENT:
                return self.world.users[user_id]
        raise FakeTelegramError(f"{chat.title!r} has nobody in it")

    # ------------------------------------------------------------------ what users do
    def send(
        self, user: User, text: str, *, chat: Chat | None = None, reply_to: Message | int | None = None
    ) -> Message:
        """``user`` writes ``text`` in ``chat`` (default: their private chat with the bot)."""
        if chat is None or chat.type == "private":
            chat = self._open_private(user)
        else:
            self._check_can_write(user, chat)
        reply_id = reply_to.message_id if isinstance(reply_to, Message) else reply_to
        deliver = chat.type == "private" or self.factory.reaches_bot(
            chat, text, reply_id, privacy_mode=self.privacy_mode
        )
        message, update = self.factory.user_message(user, chat, text, reply_to=reply_id, deliver=deliver)
        outcome = f"update {update.update_id}" if update else "not delivered to the bot (privacy mode / not a member)"
        self.recorder.user_action("message", f"{user.name} in {self._chat_name(chat)}: {text!r} ({outcome})", chat.id)
        return message

    def edit(self, user: User, message: Message, text: str) -> Message:
        """``user`` edits their own ``message`` to ``text``: an ``edited_message`` update, when the
        bot would get the message so written (privacy mode in groups, as for :meth:`send`)."""
        live = self._live(message)
        if live.sent_by_bot or live.sender_id != user.id:
            raise FakeTelegramError(f"{user.name} can only edit their own messages")
        chat = self.world.chats[live.chat_id]
        deliver = chat.type == "private" or self.factory.reaches_bot(
            chat, text, live.reply_to, privacy_mode=self.privacy_mode
        )
        update = self.factory.edited_message(live, text, deliver=deliver)
        outcome = f"update {update.update_id}" if update else "not delivered to the bot"
        self.recorder.user_action(
            "edit",
            f"{user.name} edited message {live.message_id} in {self._chat_name(chat)}: {text!r} ({outcome})",
            chat.id,
        )
        return live

    def start_bot(self, user: User, payload: str | None = None) -> Message:
        """The user opens the bot and presses Start (``/start`` or ``/start <payload>``)."""
        return self.send(user, "/start" if not payload else f"/start {payload}")

    def open_link(self, user: User, url: str, *, group: Chat | None = None) -> Message:
        """The user follows a ``t.me/<bot>?start=...`` link (or ``?startgroup=...`` into ``group``).

        As Telegram clients do, a payload outside ``[A-Za-z0-9_-]{1,64}`` is dropped: plain /start.
        """
        link = parse_deep_link(url)
        if link is None or link.bot.lower() != (self.bot.username or "").lower():
            raise FakeTelegramError(f"{url!r} is not a link to @{self.bot.username}")
        payload = link.payload if link.payload and DEEP_LINK_PAYLOAD.fullmatch(link.payload) else None
        if link.parameter == "startgroup":
            if group is None:
                raise FakeTelegramError("a startgroup link needs the group the user picks")
            if group.bot_status not in PRESENT:
                self.add_bot_to_group(group, by=user)
            command = f"/start@{self.bot.username}" + (f" {payload}" if payload else "")
            return self.send(user, command, chat=group)
        return self.start_bot(user, payload)

    def tap(self, user: User, message: Message, *, text: str | None = None, data: str | None = None) -> CallbackQuery:
        """The user taps a callback button (found by its text or callback_data) under ``message``."""
        button = self._find_button(user, message, text, data)
        if button.callback_data is None:
            raise FakeTelegramError(f"button {button.text!r} is not a callback button (url={button.url!r})")
        live = self._live(message)
        query = self.factory.callback_query(user, live, button.callback_data)
        self.recorder.user_action(
            "tap",
            f"{user.name} tapped {button.text!r} ({button.callback_data!r}) on message {live.message_id} "
            f"in {self._chat_name(self.world.chats[live.chat_id])} (callback {query.id})",
            live.chat_id,
        )
        return query

    def follow(self, user: User, message: Message, *, text: str | None = None, group: Chat | None = None) -> Message:
        """The user taps a URL button that is a deep link to the bot."""
        button = self._find_button(user, message, text, None)
        if not button.url:
            raise FakeTelegramError(f"button {button.text!r} has no url")
        return self.open_link(user, button.url, group=group)

    def _open_private(self, user: User) -> Chat:
        chat = self.world.private_chat(user)
        if user.blocked:
            self.unblock_bot(user)
        user.started = True
        return chat

    def _check_can_write(self, user: User, chat: Chat) -> None:
        if chat.migrated_to is not None:
            raise FakeTelegramError(f"{chat.title!r} became supergroup {chat.migrated_to}; write there")
        if chat.members.get(user.id) == KICKED:
            raise FakeTelegramError(f"{user.name} was banned from {chat.title!r}")
        if chat.members.get(user.id) not in PRESENT:
            chat.members[user.id] = MEMBER

    def _live(self, message: Message) -> Message:
        live = self.world.message(message.chat_id, message.message_id)
        if live is None or live.deleted:
            raise FakeTelegramError(f"message {message.message_id} in chat {message.chat_id} was deleted")
        return live

    def _find_button(self, user: User, message: Message, text: str | None, data: str | None) -> Button:
        live = self._live(message)
        chat = self.world.chats[live.chat_id]
        if chat.type == "private" and chat.user_id != user.id:
            raise FakeTelegramError(f"{user.name} cannot see {chat.id}'s private chat")
        if chat.is_group and chat.members.get(user.id) not in PRESENT:
            raise FakeTelegramError(f"{user.name} is not in {chat.title!r}")
        buttons = [b for row in _buttons(live) for b in row]
        if data is not None:
            found = [b for b in buttons if b.callback_data == data]
        else:
            found = [b for b in buttons if b.text == text] or [
                b for b in buttons if text is not None and text in b.text
            ]
        if len(found) != 1:
            labels = [f"{b.text!r}→{b.callback_data or b.url}" for b in buttons]
            raise FakeTelegramError(
                f"{len(found)} buttons match text={text!r} data={data!r} on message {live.message_id}: {labels}"
            )
        return found[0]

    # ------------------------------------------------------------------ reading
    def chat(self, chat_id: int) -> Chat:
        return self.world.chats[chat_id]

    def private_chat(self, user: User) -> Chat:
        return self.world.private_chat(user)

    def messages(
        self, chat: Chat | User, *, include_deleted: bool = False, from_bot: bool | None = None
    ) -> list[Message]:
        target = self._as_chat(chat)
        found = [m for m in target.messages.values() if include_deleted or not m.deleted]
        if from_bot is not None:
            found = [m for m in found if m.sent_by_bot == from_bot]
        return sorted(found, key=lambda m: m.message_id)

    def last_message(self, chat: Chat | User, *, from_bot: bool = True) -> Message | None:
        # Message ids only grow and a message is stored once, so a chat's dict is in id order:
        # the newest is found from the end, without sorting the chat's whole history.
        for message in reversed(self._as_chat(chat).messages.values()):
            if not message.deleted and message.sent_by_bot == from_bot:
                return message
        return None

    def photo_bytes(self, message: Message) -> bytes | None:
        if not message.photo:
            return None
        stored = self.world.files.get(message.photo[-1]["file_id"])
        return stored.data if stored else None

    def view(self, chat: Chat | User) -> list[MessageView]:
        """What someone in the chat sees now, oldest first (a user stands for their private chat)."""
        views = []
        for message in self.messages(chat):
            sender = self.world.users.get(message.sender_id)
            photo = message.photo[-1] if message.photo else None
            views.append(
                MessageView(
                    message_id=message.message_id,
                    sender=sender.name if sender else "?",
                    from_bot=message.sent_by_bot,
                    text=message.shown_text,
                    buttons=_buttons(message),
                    photo=self.photo_bytes(message),
                    photo_size=(photo["width"], photo["height"]) if photo else None,
                    document_name=message.document.get("file_name") if message.document else None,
                    edited=message.edit_date is not None,
                    service=dict(message.service),
                )
            )
        return views

    def screen(self, chat: Chat | User) -> str:
        """The chat as readable text, for failure messages and debugging."""
        target = self._as_chat(chat)
        lines = [f"— {self._chat_name(target)} —"]
        for item in self.view(target):
            media = f"[photo {item.photo_size[0]}x{item.photo_size[1]}] " if item.photo_size else ""
            media += f"[document {item.document_name}] " if item.document_name else ""
            edited = " (edited)" if item.edited else ""
            body = item.text or (", ".join(f"{k}={v}" for k, v in item.service.items()) if item.service else "")
            lines.append(f"#{item.message_id} {item.sender}{edited}: {media}{body}")
            lines.extend("    " + " ".join(f"[{b.text}]" for b in row) for row in item.buttons)
        return "\n".join(lines)

    def _as_chat(self, chat: Chat | User) -> Chat:
        return self.world.private_chat(chat) if isinstance(chat, User) else chat

    def _chat_id(self, chat: Chat | int | None) -> int | None:
        return chat.id if isinstance(chat, Chat) else chat

    def _chat_name(self, chat: Chat) -> str:
        if chat.type == "private":
            user = self.world.users[chat.user_id or chat.id]
            return f"private chat with {user.name} ({chat.id})"
        return f"{chat.title!r} ({chat.type} {chat.id})"

    # ------------------------------------------------------------------ records
    @property
    def transcript(self) -> list[Entry]:
        return self.recorder.entries

    def transcript_text(self, last: int | None = None) -> str:
        return self.recorder.text(last)

    @property
    def violations(self) -> list[Violation]:
        return self.recorder.violations

    def take_violations(self) -> list[Violation]:
        """The violations so far, clearing the list (for tests that provoke them on purpose)."""
        found = list(self.recorder.violations)
        self.recorder.violations.clear()
        return found

    def assert_no_violations(self) -> None:
        if self.recorder.violations:
            listing = "\n".join(str(v) for v in self.recorder.violations)
            raise AssertionError(
                f"the bot broke Telegram rules:\n{listing}\n--- transcript ---\n{self.transcript_text(last=30)}"
            )

    @property
    def flood_events(self) -> list[Entry]:
        """Calls answered 429 by the flood limits (not by injected faults)."""
        return self.recorder.flood_events

    def calls(
        self, method: str | None = None, *, chat: Chat | int | None = None, ok: bool | None = None
    ) -> list[Entry]:
        chat_id = self._chat_id(chat)
        return [
            e
            for e in self.recorder.entries
            if e.kind == "request"
            and (method is None or e.method.lower() == method.lower())
            and (chat_id is None or e.chat_id == chat_id)
            and (ok is None or e.ok == ok)
        ]

    @property
    def callback_queries(self) -> list[CallbackQuery]:
        return list(self.world.callbacks.values())

    def unanswered_callbacks(self) -> list[CallbackQuery]:
        return [q for q in self.world.callbacks.values() if not q.answered]

    def assert_callbacks_answered(self, within: float = 2.0) -> None:
        """Every tap so far was answered, each within ``within`` seconds of the tap."""
        late = [q for q in self.world.callbacks.values() if q.latency is None or q.latency > within]
        if late:
            listing = "\n".join(
                f"callback {q.id} ({q.data!r}): "
                + ("never answered" if q.latency is None else f"answered after {q.latency:.2f} s")
                for q in late
            )
            raise AssertionError(f"callback queries not answered within {within} s:\n{listing}")

    def forget_history(self, keep: int = 2000) -> None:
        """For a fake that runs for hours (the sandbox): keep the newest ``keep`` transcript entries,
        the taps of the last few minutes and the updates still pending; forget the rest."""
        recorder = self.recorder
        del recorder.entries[:-keep]
        del recorder.flood_events[:-keep]
        del recorder.violations[:-keep]
        horizon = recorder._time() - 4 * self.settings.callback_expiry
        callbacks = self.world.callbacks
        for query_id in [key for key, query in callbacks.items() if query.created_at < horizon]:
            del callbacks[query_id]
        pending = {update.update_id for update in self.queue.pending}
        made = self.queue.made
        for update_id in sorted(made)[:-keep]:
            if update_id not in pending:
                del made[update_id]

    @property
    def pending_updates(self) -> int:
        return len(self.queue.pending)

    def redeliver(self, update_id: int) -> None:
        """Deliver update ``update_id`` again, the same id and contents, as Telegram does when it
        did not see its delivery confirmed: by webhook it is POSTed again; by ``getUpdates`` the
        next poll that does not confirm it gets it, so call this while the bot is stopped (it was
        killed after handling the update, before confirming it) and start it again."""
        self.queue.redeliver(update_id)

    # ------------------------------------------------------------------ waiting
    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0, *, what: str = "") -> T:
        """Wait until ``predicate()`` is truthy (checked after every request and user action); return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        changed = self.recorder.changed
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                label = what or getattr(predicate, "__name__", "condition")
                webhook = self.webhook_state()
                raise TimeoutError(
                    f"{label} not met within {timeout} s\n--- last requests ---\n{self.transcript_text(last=20)}"
                    + (f"\n--- {webhook}" if webhook else "")
                )
            changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, 0.1))

    async def wait_for_message(
        self,
        chat: Chat | User,
        predicate: Callable[[Message], bool] | None = None,
        *,
        after: Message | int | None = None,
        timeout: float = 5.0,
    ) -> Message:
        """The first message from the bot in ``chat`` newer than ``after`` (and matching ``predicate``)."""
        floor = after.message_id if isinstance(after, Message) else (after or 0)

        def found() -> Message | None:
            for message in self.messages(chat, from_bot=True):
                if message.message_id > floor and (predicate is None or predicate(message)):
                    return message
            return None

        return await self.wait_for(found, timeout, what=f"a bot message in {self._chat_name(self._as_chat(chat))}")

    async def wait_answered(self, query: CallbackQuery, timeout: float = 5.0) -> CallbackQuery:
        await self.wait_for(lambda: query.answered, timeout, what=f"an answer to callback {query.id} ({query.data!r})")
        return query

    async def wait_delivered(self, timeout: float = 5.0) -> None:
        """Until the bot has fetched and confirmed every pending update (or its webhook answered 2xx to it)."""
        await self.wait_for(lambda: not self.queue.pending or None, timeout, what="the bot to confirm all updates")

    async def wait_idle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Until updates are confirmed and no call but getUpdates came for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            busy = [e for e in self.recorder.entries if e.method != "getUpdates" and e.kind == "request"]
            last = busy[-1].at if busy else 0.0
            if not self.queue.pending and self.recorder.elapsed() - last >= quiet:
                return
            if loop.time() >= deadline:
                webhook = self.webhook_state()
                raise TimeoutError(
                    f"the bot did not go quiet within {timeout} s\n{self.transcript_text(last=20)}"
                    + (f"\n--- {webhook}" if webhook else "")
                )
            await asyncio.sleep(min(quiet / 3, 0.1))

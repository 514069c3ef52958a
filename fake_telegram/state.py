"""What the fake Telegram knows: users, chats, members, messages, callback queries, bot settings."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from .formatting import FormattedText
from .media import FileStore

# Member statuses as the Bot API names them.
CREATOR = "creator"
ADMIN = "administrator"
MEMBER = "member"
LEFT = "left"
KICKED = "kicked"
PRESENT = frozenset({CREATOR, ADMIN, MEMBER})


@dataclass
class User:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    is_premium: bool = False
    started: bool = False  # has opened the private chat with the bot (pressed Start)
    blocked: bool = False  # has blocked the bot

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name


@dataclass
class Message:
    chat_id: int
    message_id: int
    sender_id: int
    date: int
    sent_by_bot: bool
    text: FormattedText | None = None
    caption: FormattedText | None = None
    photo: list[dict[str, Any]] | None = None
    document: dict[str, Any] | None = None
    animation: dict[str, Any] | None = None  # sendAnimation: shown inline; ``document`` has the same file
    reply_markup: dict[str, Any] | None = None  # as sent; only inline keyboards are shown back
    reply_to: int | None = None
    edit_date: int | None = None
    deleted: bool = False
    service: dict[str, Any] = field(default_factory=dict)
    edits: int = 0
    link_preview_options: dict[str, Any] | None = None

    @property
    def inline_keyboard(self) -> list[list[dict[str, Any]]]:
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            rows: list[list[dict[str, Any]]] = self.reply_markup["inline_keyboard"]
            return rows
        return []

    @property
    def shown_text(self) -> str:
        """Text, or caption, as a reader sees it ("" for service messages)."""
        if self.text is not None:
            return self.text.text
        if self.caption is not None:
            return self.caption.text
        return ""


@dataclass
class Chat:
    id: int
    type: str  # "private", "group", "supergroup"
    title: str | None = None
    username: str | None = None
    user_id: int | None = None  # the other side of a private chat
    members: dict[int, str] = field(default_factory=dict)
    bot_status: str = MEMBER
    bot_can_delete: bool = False
    migrated_to: int | None = None
    migrated_from: int | None = None
    all_members_are_administrators: bool = False
    messages: dict[int, Message] = field(default_factory=dict)  # in id order: ids only grow, stored once
    next_message_id: int = 1
    menu_button: dict[str, Any] | None = None

    def new_message_id(self) -> int:
        message_id = self.next_message_id
        self.next_message_id += 1
        return message_id

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")


@dataclass
class CallbackQuery:
    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    chat_instance: str
    update_id: int
    created_at: float  # monotonic
    delivered_at: float | None = None
    deliveries: int = 0  # times its update was handed to the bot (again: its delivery was not confirmed)
    answered_at: float | None = None
    answer: dict[str, Any] | None = None
    answer_errors: list[str] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        return self.answered_at is not None

    @property
    def latency(self) -> float | None:
        """Seconds from the tap to the bot's answer."""
        return None if self.answered_at is None else self.answered_at - self.created_at


@dataclass
class Webhook:
    """The webhook as the Bot API server keeps it (``Client``'s ``webhook_*`` fields); empty ``url``: none."""

    url: str = ""
    secret_token: str = ""
    max_connections: int = 0  # 0 while no webhook is set (getWebhookInfo then leaves it out)
    ip_address: str = ""  # fixed by setWebhook's ip_address, else the address connected to
    fixed_ip: bool = False
    has_custom_certificate: bool = False
    last_error_date: int = 0  # unix time; 0: no error since the webhook was set
    last_error_message: str = ""
    generation: int = 0  # bumped whenever a webhook is closed or created: deliveries of an older one stop
    next_set_at: float = 0.0  # monotonic; setWebhook with a URL before then answers 429 "retry after 1"
    target: Any = None  # the parsed URL (webhook.WebhookUrl) while set

    def close(self) -> None:
        """What ``Client::on_webhook_closed`` resets."""
        self.url, self.secret_token, self.max_connections = "", "", 0
        self.ip_address, self.fixed_ip, self.has_custom_certificate = "", False, False
        self.last_error_date, self.last_error_message, self.target = 0, "", None
        self.generation += 1


class World:
    """All state, mutated only from the event loop that serves the fake."""

    def __init__(self, bot: User, rng: random.Random) -> None:
        self.bot = bot
        self.rng = rng
        self.users: dict[int, User] = {bot.id: bot}
        self.chats: dict[int, Chat] = {}
        self.callbacks: dict[str, CallbackQuery] = {}
        self.files = FileStore(rng)
        self.commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.bot_texts: dict[tuple[str, str], str] = {}  # (description|short_description|name, lang)
        self.default_menu_button: dict[str, Any] = {"type": "default"}
        self.webhook = Webhook()
        self._next_user = 100_000_001
        self._next_group = 4_000_000_001
        self._next_supergroup = 1_000_000_000_001

    @property
    def webhook_url(self) -> str:
        return self.webhook.url

    # ------------------------------------------------------------------ ids
    def new_user_id(self) -> int:
        self._next_user += self.rng.randint(1, 97)
        return self._next_user

    def new_group_id(self) -> int:
        self._next_group += self.rng.randint(1, 97)
        return -self._next_group

    def new_supergroup_id(self) -> int:
        self._next_supergroup += self.rng.randint(1, 97)
        return -self._next_supergroup

    def new_callback_id(self) -> str:
        return str(self.rng.randint(10**17, 10**19))

    @staticmethod
    def chat_instance(chat_id: int) -> str:
        """A stable identifier per chat, shaped like Telegram's (a signed 64-bit number as text)."""
        value = (chat_id * 0x9E3779B97F4A7C15) % (1 << 64)
        return str(value - (1 << 64) if value >= (1 << 63) else value)

    def counters(self) -> dict[str, int]:
        """Where the id sequences stand (kept by snapshots, so ids never repeat after a restart)."""
        return {
            "user": self._next_user,
            "group": self._next_group,
            "supergroup": self._next_supergroup,
            "files": self.files.count,
        }

    def restore_counters(self, counters: dict[str, int]) -> None:
        self._next_user = max(self._next_user, int(counters["user"]))
        self._next_group = max(self._next_group, int(counters["group"]))
        self._next_supergroup = max(self._next_supergroup, int(counters["supergroup"]))
        self.files.count = max(self.files.count, int(counters["files"]))

    # ------------------------------------------------------------------ lookups
    def user(self, user_id: int) -> User | None:
        return self.users.get(user_id)

    def private_chat(self, user: User) -> Chat:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = Chat(id=user.id, type="private", user_id=user.id, members={user.id: MEMBER})
            self.chats[user.id] = chat
        return chat

    def chat_by_ref(self, ref: int | str) -> Chat | None:
        if isinstance(ref, int):
            return self.chats.get(ref)
        if ref.startswith("@"):
            wanted = ref[1:].lower()
            for chat in self.chats.values():
                if chat.username and chat.username.lower() == wanted:
                    return chat
        return None

    def message(self, chat_id: int, message_id: int) -> Message | None:
        chat = self.chats.get(chat_id)
        return chat.messages.get(message_id) if chat else None

    def now(self) -> int:
        return int(time.time())

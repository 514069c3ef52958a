"""The fake's world kept on disk, so that a fake started again goes on where the last one stopped.

The sandbox needs this: its SQLite database survives a restart, so the chats the bot wrote into
must survive too (the bot edits its old messages, and an ``update_id`` it saw already would be
skipped as handled). A snapshot is a folder: ``world.json`` (people, chats with their messages,
the bot's commands and texts, the id counters, updates not yet confirmed) and ``files/`` (the
bytes of every photo and document a live message shows, one file per content, named by its
SHA-1). Files no live message shows are left out, and dropped from memory by
:func:`forget_unused_files`: a board picture edited a hundred times keeps one file, not a hundred.

Callback queries are not kept: a tap that was in flight is answered "query is too old" after a
restart, as Telegram answers one that waited too long.

>>> import tempfile
>>> from fake_telegram import FakeTelegram
>>> fake = FakeTelegram()
>>> ann = fake.add_user("Ann")
>>> _ = fake.send(ann, "/start")
>>> folder = Path(tempfile.mkdtemp())
>>> save(fake.world, fake.queue, folder)
>>> again = FakeTelegram()
>>> load(again.world, again.queue, folder)
>>> again.world.users[ann.id].name, again.messages(ann, from_bot=False)[0].shown_text
('Ann', '/start')
>>> again.queue.next_id() == fake.queue.next_id()
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .formatting import FormattedText
from .media import StoredFile
from .state import Chat, Message, User, World
from .updates import PendingUpdate, UpdateQueue

FORMAT = 1
WORLD_FILE = "world.json"
FILES = "files"


class SnapshotError(ValueError):
    """A snapshot that cannot be read back (not one of ours, from a newer format, or damaged)."""


def live_file_ids(world: World) -> set[str]:
    """The file ids that messages still shown (not deleted) refer to."""
    ids: set[str] = set()
    for chat in world.chats.values():
        for message in chat.messages.values():
            if message.deleted:
                continue
            for size in message.photo or ():
                ids.add(size["file_id"])
            if message.document:
                ids.add(message.document["file_id"])
    return ids


def forget_unused_files(world: World) -> int:
    """Drop the files no live message shows; returns how many were dropped."""
    return world.files.keep(live_file_ids(world))


def save(world: World, queue: UpdateQueue, folder: Path) -> None:
    """Write the world into ``folder`` (created if missing); ``world.json`` is replaced atomically."""
    files_folder = folder / FILES
    files_folder.mkdir(parents=True, exist_ok=True)
    kept = live_file_ids(world)
    files: list[dict[str, Any]] = []
    names: set[str] = set()
    for stored in world.files.stored():
        if stored.file_id not in kept:
            continue
        name = hashlib.sha1(stored.data).hexdigest()
        if name not in names and not (files_folder / name).exists():
            _write_atomically(files_folder / name, stored.data)
        names.add(name)
        record = dataclasses.asdict(stored)
        record["data"] = name
        files.append(record)
    document = {
        "format": FORMAT,
        "next_update_id": queue.peek_next_id(),
        "counters": world.counters(),
        "users": [dataclasses.asdict(user) for user in world.users.values() if user.id != world.bot.id],
        "chats": [_chat_json(chat) for chat in world.chats.values()],
        "files": files,
        "commands": [[scope, language, commands] for (scope, language), commands in world.commands.items()],
        "bot_texts": [[kind, language, text] for (kind, language), text in world.bot_texts.items()],
        "default_menu_button": world.default_menu_button,
        "pending": [
            {"update_id": u.update_id, "kind": u.kind, "payload": u.payload, "callback_id": u.callback_id}
            for u in queue.pending
        ],
    }
    _write_atomically(folder / WORLD_FILE, json.dumps(document, ensure_ascii=False).encode())
    for stale in files_folder.iterdir():
        if stale.name not in names and not stale.name.startswith("."):
            stale.unlink(missing_ok=True)


def exists(folder: Path) -> bool:
    return (folder / WORLD_FILE).exists()


def load(world: World, queue: UpdateQueue, folder: Path) -> None:
    """Fill a new fake's ``world`` and ``queue`` from ``folder``; :class:`SnapshotError` if it cannot."""
    path = folder / WORLD_FILE
    try:
        document = json.loads(path.read_bytes())
    except (OSError, ValueError) as error:
        raise SnapshotError(f"{path} cannot be read: {error}") from error  # i18n: not shown
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SnapshotError(f"{path} is not a snapshot of format {FORMAT}")  # i18n: not shown
    try:
        _restore(world, queue, document, folder / FILES)
    except (KeyError, TypeError, ValueError, OSError) as error:
        raise SnapshotError(f"{path} is damaged: {error!r}") from error  # i18n: not shown


def _restore(world: World, queue: UpdateQueue, document: dict[str, Any], files_folder: Path) -> None:
    users = [User(**record) for record in document["users"]]
    chats = [_chat_from_json(record) for record in document["chats"]]
    contents: dict[str, bytes] = {}
    stored_files = []
    for record in document["files"]:
        name = record["data"]
        if name not in contents:
            contents[name] = (files_folder / name).read_bytes()
        stored_files.append(StoredFile(**{**record, "data": contents[name]}))
    pending = [PendingUpdate(**record) for record in document["pending"]]
    commands = {(scope, language): list(items) for scope, language, items in document["commands"]}
    bot_texts = {(kind, language): str(text) for kind, language, text in document["bot_texts"]}
    menu_button = dict(document["default_menu_button"])
    counters = {key: int(document["counters"][key]) for key in ("user", "group", "supergroup", "files")}
    next_id = int(document["next_update_id"])
    # Everything is read: now the new fake changes (a damaged snapshot left it as it was).
    for user in users:
        world.users[user.id] = user
    for chat in chats:
        world.chats[chat.id] = chat
    for stored in stored_files:
        world.files.add_stored(stored)
    world.commands.update(commands)
    world.bot_texts.update(bot_texts)
    world.default_menu_button = menu_button
    world.restore_counters(counters)
    queue.continue_from(next_id)
    queue.pending.extend(pending)
    queue.made.update({update.update_id: update for update in pending})


def _chat_json(chat: Chat) -> dict[str, Any]:
    record = dataclasses.asdict(chat)
    record["members"] = [[user_id, status] for user_id, status in chat.members.items()]
    record["messages"] = [_message_json(message) for message in chat.messages.values()]
    return record


def _message_json(message: Message) -> dict[str, Any]:
    record = dataclasses.asdict(message)
    for key in ("text", "caption"):
        value = getattr(message, key)
        record[key] = None if value is None else {"text": value.text, "entities": list(value.entities)}
    return record


def _chat_from_json(record: dict[str, Any]) -> Chat:
    fields = dict(record)
    fields["members"] = {int(user_id): status for user_id, status in fields["members"]}
    messages = [_message_from_json(item) for item in fields.pop("messages")]
    chat = Chat(**fields)
    chat.messages = {message.message_id: message for message in messages}
    return chat


def _message_from_json(record: dict[str, Any]) -> Message:
    fields = dict(record)
    for key in ("text", "caption"):
        value = fields.get(key)
        fields[key] = None if value is None else FormattedText(value["text"], tuple(value["entities"]))
    return Message(**fields)


def _write_atomically(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise

"""The fake's world on disk (``fake_telegram/snapshot.py``): what the sandbox keeps across a restart."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from fake_telegram import FakeTelegram
from fake_telegram.formatting import FormattedText
from fake_telegram.media import Upload
from fake_telegram.snapshot import SnapshotError, forget_unused_files, load, save
from fake_telegram.state import Message


def _png(colour: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (60, 40), colour).save(buffer, "PNG")
    return buffer.getvalue()


def _bot_photo(fake: FakeTelegram, chat_id: int, data: bytes, caption: str) -> Message:
    """What sendPhoto leaves behind, without a bot: a stored photo in a bot message."""
    chat = fake.world.chats[chat_id]
    sizes = fake.world.files.add_photo(data, 60, 40)
    message = Message(
        chat.id, chat.new_message_id(), fake.bot.id, fake.world.now(), True, caption=FormattedText(caption), photo=sizes
    )
    chat.messages[message.message_id] = message
    return message


def _world(fake: FakeTelegram) -> tuple[Message, Message]:
    ann = fake.add_user("Ann", language_code="uk")
    bob = fake.add_user("Bob")
    group = fake.add_group("Domino night", members=[ann, bob], announce=True)
    fake.send(ann, "/new <b>fives</b>", chat=group)
    board = _bot_photo(fake, group.id, _png("red"), "board")
    old = _bot_photo(fake, group.id, _png("blue"), "old board")
    old.deleted = True
    document = fake.world.files.add_document(Upload("document", "game-1.json", "application/json", b"{}"))
    record = Message(ann.id, fake.world.private_chat(ann).new_message_id(), fake.bot.id, 0, True, document=document)
    fake.world.private_chat(ann).messages[record.message_id] = record
    fake.world.commands['{"type": "default"}', "uk"] = [{"command": "new", "description": "Нова гра"}]
    return board, record


def test_a_world_comes_back_as_it_was(tmp_path: Path) -> None:
    fake = FakeTelegram()
    board, record = _world(fake)
    save(fake.world, fake.queue, tmp_path)

    again = FakeTelegram()
    load(again.world, again.queue, tmp_path)
    assert [u.name for u in again.world.users.values() if not u.is_bot] == ["Ann", "Bob"]
    group = next(chat for chat in again.world.chats.values() if chat.is_group)
    assert again.screen(group).splitlines()[1:] == fake.screen(fake.world.chats[group.id]).splitlines()[1:]
    assert again.photo_bytes(group.messages[board.message_id]) == _png("red")
    stored = again.world.files.get(record.document["file_id"]) if record.document else None
    assert stored is not None and stored.data == b"{}" and stored.file_name == "game-1.json"
    assert again.world.commands['{"type": "default"}', "uk"][0]["description"] == "Нова гра"
    # The pending updates come back with their ids, and new ids go on after them.
    assert [u.update_id for u in again.queue.pending] == [u.update_id for u in fake.queue.pending]
    assert again.queue.next_id() == fake.queue.next_id()
    # Ids of people and groups made later do not repeat the kept ones.
    assert again.add_user("Cat").id not in fake.world.users


def test_only_shown_files_are_kept_once_each(tmp_path: Path) -> None:
    fake = FakeTelegram()
    board, _ = _world(fake)
    save(fake.world, fake.queue, tmp_path)
    # One file per content: the deleted blue board is not kept, the red one once for all its sizes.
    assert sorted(p.stat().st_size for p in (tmp_path / "files").iterdir()) == sorted([len(_png("red")), 2])
    assert forget_unused_files(fake.world) > 0
    assert fake.photo_bytes(board) == _png("red")
    board.deleted = True
    save(fake.world, fake.queue, tmp_path)
    assert [p.stat().st_size for p in (tmp_path / "files").iterdir()] == [2]


@pytest.mark.parametrize(
    "damage",
    [
        lambda folder: (folder / "world.json").write_text("{not json"),
        lambda folder: (folder / "world.json").write_text(json.dumps({"format": 99})),
        lambda folder: [p.unlink() for p in (folder / "files").iterdir()],
        lambda folder: (folder / "world.json").write_text(
            json.dumps({**json.loads((folder / "world.json").read_text()), "users": [{"id": 1, "nickname": "x"}]})
        ),
    ],
    ids=["not-json", "newer-format", "files-missing", "unknown-field"],
)
def test_a_damaged_snapshot_is_refused_and_changes_nothing(tmp_path: Path, damage: object) -> None:
    fake = FakeTelegram()
    _world(fake)
    save(fake.world, fake.queue, tmp_path)
    damage(tmp_path)  # type: ignore[operator]
    again = FakeTelegram()
    with pytest.raises(SnapshotError):
        load(again.world, again.queue, tmp_path)
    assert list(again.world.users) == [again.bot.id] and not again.world.chats and not again.queue.pending

"""Uploaded files: photo checks with Pillow, PhotoSize lists, file ids, and the bytes behind them."""

from __future__ import annotations

import base64
import io
import random
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, UnidentifiedImageError

from . import errors
from .errors import ApiError, bad_request

PHOTO_MAX_BYTES = 10 * 1024 * 1024
PHOTO_MAX_SIDES = 10_000
PHOTO_MAX_RATIO = 20.0
# Telegram keeps a photo in sizes that fit these boxes ("s", "m", "x", "y", "w"), up to the original.
PHOTO_BOXES = (90, 320, 800, 1280, 2560)


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request."""

    name: str
    filename: str
    content_type: str
    data: bytes

    def describe(self) -> str:
        return f"<file {self.filename!r} {len(self.data)} bytes>"


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    kind: str  # "photo" or "document"
    data: bytes
    file_path: str
    file_name: str | None = None
    mime_type: str | None = None
    width: int | None = None
    height: int | None = None
    sizes: list[dict[str, Any]] = field(default_factory=list)  # the whole PhotoSize array, for photos

    def file_json(self) -> dict[str, Any]:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.data),
            "file_path": self.file_path,
        }


def image_size(data: bytes) -> tuple[int, int]:
    """Width and height of an image, or Telegram's error for bytes that are not one."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise bad_request(errors.IMAGE_PROCESS_FAILED, violation="photo_invalid", detail=str(exc)) from exc


def check_photo(data: bytes) -> tuple[int, int]:
    """The sendPhoto rules: at most 10 MB, width + height at most 10000, side ratio at most 20."""
    if len(data) > PHOTO_MAX_BYTES:
        raise bad_request(errors.PHOTO_TOO_BIG, violation="photo_size", detail=f"{len(data)} bytes > {PHOTO_MAX_BYTES}")
    if not data:
        raise bad_request("file must be non-empty", violation="photo_invalid")
    width, height = image_size(data)
    if (
        width <= 0
        or height <= 0
        or width + height > PHOTO_MAX_SIDES
        or max(width, height) / min(width, height) > PHOTO_MAX_RATIO
    ):
        raise bad_request(errors.PHOTO_INVALID_DIMENSIONS, violation="photo_dimensions", detail=f"{width}x{height}")
    return width, height


def photo_dimensions(width: int, height: int) -> list[tuple[int, int]]:
    """The sizes Telegram keeps: each box smaller than the photo, then the photo itself (at most 2560)."""
    sizes: list[tuple[int, int]] = []
    longest = max(width, height)
    for box in PHOTO_BOXES:
        if longest > box:
            scale = box / longest
            sizes.append((max(1, round(width * scale)), max(1, round(height * scale))))
        else:
            sizes.append((width, height))
            break
    return sizes


class FileStore:
    """Every file the bot uploaded, by file_id and by download path."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._count = 0
        self._by_id: dict[str, StoredFile] = {}
        self._by_path: dict[str, StoredFile] = {}

    def _ids(self, id_prefix: bytes, unique_prefix: bytes) -> tuple[str, str]:
        self._count += 1
        counter = self._count.to_bytes(4, "big")
        noise = self._rng.randbytes(12)
        file_id = base64.urlsafe_b64encode(id_prefix + counter + noise).decode().rstrip("=")
        unique = base64.urlsafe_b64encode(unique_prefix + counter + noise[:2]).decode().rstrip("=")
        return file_id, unique

    def _register(self, stored: StoredFile) -> None:
        self._by_id[stored.file_id] = stored
        self._by_path[stored.file_path] = stored

    def add_photo(self, data: bytes, width: int, height: int) -> list[dict[str, Any]]:
        sizes: list[dict[str, Any]] = []
        members: list[StoredFile] = []
        area = width * height
        for w, h in photo_dimensions(width, height):
            file_id, unique = self._ids(b"\x02\x00\x02\x02", b"\x01\x00\x03")
            size = max(1, len(data) * (w * h) // max(area, 1))
            sizes.append({"file_id": file_id, "file_unique_id": unique, "file_size": size, "width": w, "height": h})
            members.append(
                StoredFile(file_id, unique, "photo", data, f"photos/file_{self._count}.jpg", width=w, height=h)
            )
        for member in members:
            member.sizes = sizes
            self._register(member)
        return sizes

    def add_document(self, upload: Upload) -> dict[str, Any]:
        file_id, unique = self._ids(b"\x05\x00\x02\x02", b"\x02\x00\x03")
        name = upload.filename or "document"
        stored = StoredFile(
            file_id, unique, "document", upload.data, f"documents/file_{self._count}", name, upload.content_type
        )
        self._register(stored)
        return {
            "file_name": name,
            "mime_type": upload.content_type or "application/octet-stream",
            "file_id": file_id,
            "file_unique_id": unique,
            "file_size": len(upload.data),
        }

    def get(self, file_id: str) -> StoredFile | None:
        return self._by_id.get(file_id)

    def by_path(self, path: str) -> StoredFile | None:
        return self._by_path.get(path)

    def resolve(self, value: str, kind: str) -> StoredFile:
        """A file sent again by file_id; URLs cannot be fetched here."""
        if value.startswith(("http://", "https://")):
            raise bad_request(errors.URL_CONTENT_FAILED, detail="the fake Bot API has no network to fetch URLs")
        stored = self._by_id.get(value)
        if stored is None:
            raise ApiError(400, errors.WRONG_FILE_ID)
        if stored.kind != kind:
            raise bad_request(f"can't use file of type {stored.kind.title()} as {kind.title()}", violation="file_type")
        return stored

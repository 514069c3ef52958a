"""Uploaded files: photo checks, PhotoSize lists, file ids, and the bytes behind them.

A PNG's size is read from its IHDR chunk after its chunk structure is checked (signature, IHDR
first and well-formed, every chunk complete, checksums of all but the image data, an IDAT, an
IEND), which is what Pillow's ``Image.open`` checks and a little more, for a fraction of the
cost; any other format is opened with Pillow.
"""

from __future__ import annotations

import base64
import io
import random
import struct
import zlib
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, UnidentifiedImageError

import fake_telegram.errors as errors

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


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# (bit depth, colour type) pairs the PNG specification allows (section 11.2.2), as Pillow's _MODES.
PNG_MODES = frozenset(
    {(1, 0), (2, 0), (4, 0), (8, 0), (16, 0), (8, 2), (16, 2), (1, 3), (2, 3), (4, 3), (8, 3), (8, 4), (16, 4)}
    | {(8, 6), (16, 6)}
)
PNG_MAX_SIDE = 2**31 - 1
_IHDR = struct.Struct(">I4sIIBBBBBI")  # length, type, width, height, depth, colour, compression, filter, interlace, CRC
_CHUNK_HEAD = struct.Struct(">I4s")


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG from its IHDR chunk; ``ValueError`` if the file is not a whole, valid PNG.

    >>> import io; from PIL import Image; buffer = io.BytesIO(); Image.new("RGB", (3, 2)).save(buffer, "PNG")
    >>> png_size(buffer.getvalue())
    (3, 2)
    """
    if not data.startswith(PNG_SIGNATURE) or len(data) < len(PNG_SIGNATURE) + _IHDR.size:
        raise ValueError("not a PNG file")
    length, kind, width, height, depth, colour, compression, filters, interlace, crc = _IHDR.unpack_from(data, 8)
    if length != 13 or kind != b"IHDR":
        raise ValueError("the first chunk is not a 13-byte IHDR")
    if zlib.crc32(data[12:29]) != crc:
        raise ValueError("broken PNG file (bad header checksum in b'IHDR')")
    if not (0 < width <= PNG_MAX_SIDE and 0 < height <= PNG_MAX_SIDE):
        raise ValueError(f"bad image size {width}x{height}")
    if (depth, colour) not in PNG_MODES or compression or filters or interlace > 1:
        raise ValueError(
            f"unknown PNG mode: depth {depth}, colour type {colour}, methods {compression}/{filters}/{interlace}"
        )
    pos, size, image_data = 33, len(data), False
    while True:
        if pos + 12 > size:
            raise ValueError("truncated PNG file (no IEND chunk)")
        length, kind = _CHUNK_HEAD.unpack_from(data, pos)
        end = pos + 12 + length
        if length > PNG_MAX_SIDE or not kind.isalpha():
            raise ValueError(f"broken PNG file (chunk {kind!r} at byte {pos})")
        if end > size:
            raise ValueError(f"truncated PNG file (chunk {kind!r} at byte {pos} ends after byte {size})")
        if kind == b"IEND":
            break
        if kind == b"IDAT":
            image_data = True
        elif zlib.crc32(data[pos + 4 : end - 4]) != int.from_bytes(data[end - 4 : end], "big"):
            raise ValueError(f"broken PNG file (bad checksum in {kind!r})")
        pos = end
    if not image_data:
        raise ValueError("PNG file without image data (no IDAT chunk)")
    return width, height


def image_size(data: bytes) -> tuple[int, int]:
    """Width and height of an image, or Telegram's error for bytes that are not one."""
    if data.startswith(PNG_SIGNATURE):
        try:
            return png_size(data)
        except ValueError as exc:
            raise bad_request(errors.IMAGE_PROCESS_FAILED, violation="photo_invalid", detail=str(exc)) from exc
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise bad_request(errors.IMAGE_PROCESS_FAILED, violation="photo_invalid", detail=str(exc)) from exc


def animation_facts(data: bytes) -> tuple[int, int, int, str] | None:
    """(width, height, whole seconds, MIME type) of an MP4 or a GIF, as Telegram reads them; None
    for anything else.

    >>> animation_facts(b"not a video") is None
    True
    """
    if data[4:8] == b"ftyp":
        return _mp4_facts(data)
    if data[:6] in (b"GIF87a", b"GIF89a"):
        try:
            with Image.open(io.BytesIO(data)) as image:
                total = 0
                for index in range(getattr(image, "n_frames", 1)):
                    image.seek(index)
                    total += int(image.info.get("duration", 0))
                return image.size[0], image.size[1], round(total / 1000), "image/gif"
        except (UnidentifiedImageError, OSError, ValueError):
            return None
    return None


def _mp4_facts(data: bytes) -> tuple[int, int, int, str] | None:
    """From the movie header (time scale, duration) and the first track header (width, height)."""
    movie = data.find(b"mvhd")
    track = data.find(b"tkhd")
    if movie < 4 or track < 4:
        return None
    version = data[movie + 4]
    if version == 1:
        scale = int.from_bytes(data[movie + 24 : movie + 28], "big")
        length = int.from_bytes(data[movie + 28 : movie + 36], "big")
    else:
        scale = int.from_bytes(data[movie + 16 : movie + 20], "big")
        length = int.from_bytes(data[movie + 20 : movie + 24], "big")
    size = int.from_bytes(data[track - 4 : track], "big")
    end = track - 4 + size  # the box ends with width and height, 16.16 fixed point
    width = int.from_bytes(data[end - 8 : end - 4], "big") >> 16
    height = int.from_bytes(data[end - 4 : end], "big") >> 16
    if not scale or width <= 0 or height <= 0:
        return None
    return width, height, round(length / scale), "video/mp4"


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
        self.count = 0
        self._by_id: dict[str, StoredFile] = {}
        self._by_path: dict[str, StoredFile] = {}

    def _ids(self, id_prefix: bytes, unique_prefix: bytes) -> tuple[str, str]:
        self.count += 1
        counter = self.count.to_bytes(4, "big")
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
                StoredFile(file_id, unique, "photo", data, f"photos/file_{self.count}.jpg", width=w, height=h)
            )
        for member in members:
            member.sizes = sizes
            self._register(member)
        return sizes

    def add_document(self, upload: Upload) -> dict[str, Any]:
        file_id, unique = self._ids(b"\x05\x00\x02\x02", b"\x02\x00\x03")
        name = upload.filename or "document"
        stored = StoredFile(
            file_id, unique, "document", upload.data, f"documents/file_{self.count}", name, upload.content_type
        )
        self._register(stored)
        return {
            "file_name": name,
            "mime_type": upload.content_type or "application/octet-stream",
            "file_id": file_id,
            "file_unique_id": unique,
            "file_size": len(upload.data),
        }

    def stored(self) -> list[StoredFile]:
        return list(self._by_id.values())

    def add_stored(self, stored: StoredFile) -> None:
        """A file kept from an earlier run (snapshots)."""
        self._register(stored)

    def keep(self, file_ids: set[str]) -> int:
        """Forget every file not in ``file_ids``; returns how many were forgotten."""
        dropped = [stored for file_id, stored in self._by_id.items() if file_id not in file_ids]
        for stored in dropped:
            del self._by_id[stored.file_id]
            self._by_path.pop(stored.file_path, None)
        return len(dropped)

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

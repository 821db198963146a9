"""The host's journal: an append-only file of framed msgpack entries, one file per game.

This module is pure file logic: it knows frames, not Wizard. What the host writes into
the entries, and how a table is rebuilt from them, is ``wizard_tui.net.restore``.

File layout (``docs/architecture.md``, "Crash safety and takeover")::

    MAGIC                                   the 16 bytes b"wizard-journal1\\n"
    then entries, each:
      u32be length                          of the payload, 1..MAX_ENTRY
      u32be crc32(payload)                  zlib.crc32
      payload                               one msgpack map

``append`` writes a whole frame with one ``write`` and forces it to the disk (``fsync``)
before it returns, so an entry that ``append`` returned from survives a crash of the
process or of the machine. A crash in the middle of an append leaves a torn last frame
(short header, short payload, or a payload whose CRC does not match): ``read_journal``
detects it and drops it, never misreads it, and ``JournalWriter.reopen`` cuts it off
before appending again. The file is created with mode 0600: it holds the host's bot seeds
(or, in a private game, its bots' signing keys) and the players' session tokens.
"""

from __future__ import annotations

import contextlib
import os
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

MAGIC = b"wizard-journal1\n"
# An entry is a few hundred bytes (a private round's transcript: ~60 KB for 6 players); a
# larger length is damage.
MAX_ENTRY = 1 << 20
SUFFIX = ".journal"
_HEADER = struct.Struct(">II")


class JournalError(Exception):
    """A journal that cannot be used: not a journal, unreadable, or unwritable."""


@dataclass(frozen=True, slots=True)
class JournalContents:
    """What ``read_journal`` found: the intact entries, and how much was dropped after them."""

    path: Path
    entries: tuple[dict[str, Any], ...]
    valid_bytes: int  # the file's length up to the end of the last intact entry
    torn_bytes: int  # bytes after it: a torn last entry (0 for a clean file)
    torn_reason: str = ""


def journal_path(directory: Path, game_id: bytes) -> Path:
    return Path(directory) / f"{game_id.hex()}{SUFFIX}"


def list_journals(directory: Path) -> list[Path]:
    """Every journal file in ``directory``, newest first (by modification time)."""
    try:
        paths = [p for p in Path(directory).iterdir() if p.name.endswith(SUFFIX) and p.is_file()]
    except FileNotFoundError:
        return []
    return sorted(paths, key=lambda p: p.stat().st_mtime, reverse=True)


def encode_entry(entry: dict[str, Any]) -> bytes:
    """One framed entry, exactly as it goes into the file."""
    payload = msgpack.packb(entry, use_bin_type=True)
    if not 0 < len(payload) <= MAX_ENTRY:
        raise ValueError(f"a journal entry is 1..{MAX_ENTRY} bytes, got {len(payload)}")
    return _HEADER.pack(len(payload), zlib.crc32(payload)) + payload


def _frames(data: bytes, start: int) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """(end offset, entry) for each intact frame from ``start``; then at most one
    (offset, reason) for the damage that stopped it."""
    pos = start
    while pos < len(data):
        if len(data) - pos < _HEADER.size:
            yield pos, "the last entry's header is cut short"
            return
        length, crc = _HEADER.unpack_from(data, pos)
        body = pos + _HEADER.size
        if not 0 < length <= MAX_ENTRY:
            yield pos, f"an entry claims {length} bytes"
            return
        if len(data) - body < length:
            yield pos, "the last entry is cut short"
            return
        payload = data[body : body + length]
        if zlib.crc32(payload) != crc:
            yield pos, "an entry's checksum does not match"
            return
        try:
            entry = msgpack.unpackb(payload, raw=False, strict_map_key=True)
        except (ValueError, TypeError, msgpack.UnpackException) as exc:
            yield pos, f"an entry is not msgpack ({exc})"
            return
        if type(entry) is not dict or type(entry.get("t")) is not str:
            yield pos, "an entry is not a map with a type"
            return
        pos = body + length
        yield pos, entry


def read_journal(path: Path) -> JournalContents:
    """Every intact entry of the journal at ``path``; a torn tail is reported, not read."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read the journal {path}: {exc.strerror or exc}") from None
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):  # created, then the crash came before the magic was out
            return JournalContents(path, (), 0, len(data), "the journal's header is cut short")
        raise JournalError(f"{path} is not a wizard-tui journal")
    entries: list[dict[str, Any]] = []
    valid, reason = len(MAGIC), ""
    for end, item in _frames(data, len(MAGIC)):
        if isinstance(item, str):
            reason = item
            break
        entries.append(item)
        valid = end
    return JournalContents(path, tuple(entries), valid, len(data) - valid, reason)


class JournalWriter:
    """Appends entries to one journal file, each forced to the disk before it returns."""

    def __init__(self, path: Path, fd: int, *, sync: bool = True) -> None:
        self.path = path
        self._fd: int | None = fd
        self.sync = sync  # False only for benchmarks that measure the difference

    @classmethod
    def create(cls, path: Path, first: dict[str, Any], *, sync: bool = True) -> JournalWriter:
        """A new journal at ``path`` (which must not exist) holding ``first``; its directory
        is made (mode 0700) if need be."""
        path = Path(path)
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        except OSError as exc:
            raise JournalError(f"cannot create the journal {path}: {exc.strerror or exc}") from None
        writer = cls(path, fd, sync=sync)
        try:
            writer._write(MAGIC + encode_entry(first))
            _sync_directory(path.parent)  # so the file itself survives a power cut
        except BaseException:
            writer.close()
            raise
        return writer

    @classmethod
    def reopen(cls, contents: JournalContents, *, sync: bool = True) -> JournalWriter:
        """Append to the journal ``contents`` was read from, after cutting off its torn tail."""
        path = contents.path
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise JournalError(f"cannot open the journal {path}: {exc.strerror or exc}") from None
        writer = cls(path, fd, sync=sync)
        try:
            if contents.torn_bytes:
                os.ftruncate(fd, contents.valid_bytes)
                if contents.valid_bytes < len(MAGIC):
                    writer._write(MAGIC[contents.valid_bytes :])
                elif sync:
                    os.fsync(fd)
        except OSError as exc:
            writer.close()
            raise JournalError(f"cannot repair the journal {path}: {exc.strerror or exc}") from None
        return writer

    def append(self, entry: dict[str, Any]) -> None:
        """Write one entry and force it to the disk. Raises ``OSError`` if that failed."""
        self._write(encode_entry(entry))

    def _write(self, frame: bytes) -> None:
        if self._fd is None:
            raise JournalError(f"the journal {self.path} is closed")
        view = memoryview(frame)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        if self.sync:
            os.fsync(self._fd)

    @property
    def closed(self) -> bool:
        return self._fd is None

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)


def _sync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform or file system allows it
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

"""Records as files: JSON text a person can read and diff, written atomically, and read
back with every problem a ``RecordError``."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..i18n import N_
from ..phrase import phrase
from .model import MAX_RECORD_BYTES, GameRecord, RecordError
from .parse import parse_record


def dumps_record(record: GameRecord | Mapping[str, Any]) -> str:
    """The record as JSON text: one line per trick, so a person can read it and diff it."""
    doc = record.to_dict() if isinstance(record, GameRecord) else record
    return _dump(doc, 0) + "\n"


def _dump(value: Any, level: int) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or _is_flat(value) or len(flat) <= 72:
        return flat
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {_dump(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    items = [pad + _dump(v, level + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"


def _is_flat(value: dict | list) -> bool:
    """Lists of numbers or of number pairs, and tricks, stay on one line."""
    if isinstance(value, dict):  # a trick, an envelope
        return ("plays" in value and "winner" in value) or ("sig" in value and "body" in value)
    return all(
        not isinstance(v, dict | list) or (isinstance(v, list) and _is_flat(v)) for v in value
    )


def write_record(
    directory: str | os.PathLike[str],
    record: GameRecord,
    *,
    name: str | None = None,
    fsync: bool = True,
) -> Path:
    """Write ``record`` as ``directory/<game_id hex>.json`` (or ``name``) atomically.

    The text goes to a temporary file beside the target, which then replaces it in one
    rename, so a reader never sees half a record, even if the host dies mid-write.
    ``fsync=False`` skips forcing the data to disk (for bulk simulation).
    """
    folder = Path(directory)
    target = folder / (name or record.filename)
    data = dumps_record(record).encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            # mkstemp makes the file private; a record holds only public data once written.
            os.fchmod(out.fileno(), 0o644)
            out.write(data)
            if fsync:
                out.flush()
                os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read and parse one record file; every problem is a ``RecordError``, never a traceback."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except IsADirectoryError:
        said = phrase(N_("is a directory, not a record file"))
        raise RecordError("unreadable", said) from None
    except FileNotFoundError:
        raise RecordError("unreadable", phrase(N_("no such file"))) from None
    except OSError as exc:
        raise RecordError("unreadable", exc.strerror or str(exc)) from None
    if len(data) > MAX_RECORD_BYTES:
        said = phrase(N_("larger than {size} bytes: not a record"), size=MAX_RECORD_BYTES)
        raise RecordError("unreadable", said)
    return parse_record(loads_record(data))


def loads_record(data: bytes | str) -> object:
    """Decode JSON text, explaining empty, truncated or malformed documents."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            said = phrase(N_("not UTF-8 text (byte {byte})"), byte=exc.start)
            raise RecordError("json", said) from None
    if not data.strip():
        raise RecordError("json", phrase(N_("the file is empty")))
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        # An unterminated string also means the text ran out before the string closed.
        if exc.pos >= len(data.rstrip()) or exc.msg.startswith("Unterminated string"):
            raise RecordError(
                "json",
                phrase(
                    N_("the JSON document ends early (truncated file?) at line {line}"),
                    line=exc.lineno,
                ),
            ) from None
        raise RecordError(
            "json",
            phrase(
                N_("malformed JSON at line {line}, column {column}: {error}"),
                line=exc.lineno,
                column=exc.colno,
                error=exc.msg,  # Python's json module's English
            ),
        ) from None
    except (ValueError, RecursionError) as exc:
        raise RecordError("json", phrase(N_("malformed JSON: {error}"), error=str(exc))) from None

"""The player's side's checks of what the host sent: a client never trusts it blindly.

A value that is not what ``docs/protocol.md`` says raises ``ProtocolError`` (``bad_message``);
the session tells the player and goes on with the next message.
"""

from __future__ import annotations

from typing import Any, cast

from netplay.errors import BAD_MESSAGE, ProtocolError

KEY_BYTES = 32  # a commitment, a seed, a signing public key


def expect(ok: bool, problem: str) -> None:
    if not ok:
        raise ProtocolError(BAD_MESSAGE, f"the host sent a malformed message: {problem}")


def a_dict(value: Any, what: str) -> dict[str, Any]:
    expect(type(value) is dict, what)
    return cast(dict[str, Any], value)


def a_list(value: Any, what: str, max_len: int | None = None) -> list[Any]:
    expect(type(value) is list and (max_len is None or len(value) <= max_len), what)
    return cast(list[Any], value)


def strings(value: Any, what: str) -> list[str]:
    expect(type(value) is list and all(type(v) is str for v in value), what)
    return cast(list[str], value)


def bytes_of(value: Any, size: int, what: str) -> bytes:
    expect(type(value) is bytes and len(value) == size, what)
    return cast(bytes, value)


def an_int(value: Any, what: str) -> int:
    """``value``, an int (not a bool)."""
    expect(type(value) is int, what)
    return cast(int, value)


def byte_strings(value: Any, count: int, what: str) -> list[bytes]:
    """``value`` as ``count`` strings of 32 bytes (a commitment vector, signing keys)."""
    expect(
        type(value) is list
        and len(value) == count
        and all(type(v) is bytes and len(v) == KEY_BYTES for v in value),
        what,
    )
    return cast(list[bytes], value)


def int_in(value: Any, lo: int, hi: int, what: str) -> int:
    """``value``, an int (not a bool) in ``lo..hi``."""
    expect(type(value) is int and lo <= value <= hi, what)
    return cast(int, value)


__all__ = [
    "a_dict",
    "a_list",
    "an_int",
    "byte_strings",
    "bytes_of",
    "expect",
    "int_in",
    "strings",
]

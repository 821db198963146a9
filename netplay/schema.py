"""Compact, exact schemas for decoded messages.

A game declares each message once and checks every incoming one against it::

    PLAY = Message("play", card=Int(0, 59))
    INBOUND = Schemas(PLAY, Message("bid", bid=Int(0, 20)))
    INBOUND.check(msg)  # raises ProtocolError("bad_message", "play.card: ...")

Types are compared exactly (``type(x) is int``): ``True`` is an int to
``isinstance`` and must not pass as a card. Every map rejects keys it does not
declare, so a typo or a field from a newer version is an error, not a silent
drop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .errors import BAD_MESSAGE, ProtocolError


def _fail(path: str, problem: str) -> ProtocolError:
    return ProtocolError(BAD_MESSAGE, f"{path}: {problem}")


def _type_name(value: Any) -> str:
    return "nil" if value is None else type(value).__name__


class Field(Protocol):
    def check(self, value: Any, path: str) -> object:
        """Raise ``ProtocolError(BAD_MESSAGE)`` naming ``path`` if ``value`` does not fit
        (what it returns, if anything, is not used: a ``Record`` returns the map)."""
        ...


class Int:
    """An int (never a bool) in ``lo..hi`` inclusive."""

    def __init__(self, lo: int | None = None, hi: int | None = None) -> None:
        self.lo, self.hi = lo, hi

    def check(self, value: Any, path: str) -> None:
        if type(value) is not int:
            raise _fail(path, f"expected an int, got {_type_name(value)}")
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise _fail(path, f"{value} is outside {self.lo}..{self.hi}")


class Bool:
    def check(self, value: Any, path: str) -> None:
        if type(value) is not bool:
            raise _fail(path, f"expected a bool, got {_type_name(value)}")


class Str:
    """A str of ``min_len..max_len`` characters; ``printable`` bars control characters
    (a name shown in a terminal must not carry escape sequences); ``choices`` limits
    it to a fixed set."""

    def __init__(
        self,
        min_len: int = 0,
        max_len: int = 256,
        *,
        printable: bool = False,
        choices: frozenset[str] | set[str] | None = None,
    ) -> None:
        self.min_len, self.max_len = min_len, max_len
        self.printable = printable
        self.choices = None if choices is None else frozenset(choices)

    def check(self, value: Any, path: str) -> None:
        if type(value) is not str:
            raise _fail(path, f"expected a string, got {_type_name(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            raise _fail(path, f"length {len(value)} is outside {self.min_len}..{self.max_len}")
        if self.printable and not value.isprintable():
            raise _fail(path, "contains control or invisible characters")
        if self.choices is not None and value not in self.choices:
            raise _fail(path, f"{value!r:.40} is not one of {sorted(self.choices)}")


class Bin:
    """Bytes of exactly ``size`` bytes, or at most ``max_size``."""

    def __init__(self, size: int | None = None, *, max_size: int | None = None) -> None:
        if (size is None) == (max_size is None):
            raise ValueError("give exactly one of size and max_size")
        self.size, self.max_size = size, max_size

    def check(self, value: Any, path: str) -> None:
        if type(value) is not bytes:
            raise _fail(path, f"expected bytes, got {_type_name(value)}")
        if self.size is not None and len(value) != self.size:
            raise _fail(path, f"expected {self.size} bytes, got {len(value)}")
        if self.max_size is not None and len(value) > self.max_size:
            raise _fail(path, f"{len(value)} bytes is over the limit of {self.max_size}")


class List:
    """A list of ``min_len..max_len`` items, each checked by ``item``."""

    def __init__(self, item: Field, *, min_len: int = 0, max_len: int = 128) -> None:
        self.item, self.min_len, self.max_len = item, min_len, max_len

    def check(self, value: Any, path: str) -> None:
        if type(value) is not list:
            raise _fail(path, f"expected a list, got {_type_name(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            raise _fail(path, f"{len(value)} items is outside {self.min_len}..{self.max_len}")
        for i, item in enumerate(value):
            self.item.check(item, f"{path}[{i}]")


class Nullable:
    """``inner`` or nil."""

    def __init__(self, inner: Field) -> None:
        self.inner = inner

    def check(self, value: Any, path: str) -> None:
        if value is not None:
            self.inner.check(value, path)


class Optional:
    """Marks a ``Record`` key that may be absent; if present, ``inner`` checks it."""

    def __init__(self, inner: Field) -> None:
        self.inner = inner

    def check(self, value: Any, path: str) -> None:
        self.inner.check(value, path)


class Record:
    """A map with exactly the declared string keys (``Optional`` ones may be missing)."""

    def __init__(self, fields: Mapping[str, Field], *, name: str = "") -> None:
        self.fields = dict(fields)
        self.name = name

    def check(self, value: Any, path: str = "") -> dict[str, Any]:
        """Check ``value`` and return it, so ``msg = SCHEMA.check(msg)`` reads well."""
        path = path or self.name
        if type(value) is not dict:
            raise _fail(path, f"expected a map, got {_type_name(value)}")
        for key in value:
            if key not in self.fields:
                raise _fail(path, f"unknown key {key!r:.40}")
        for key, field in self.fields.items():
            if key in value:
                field.check(value[key], f"{path}.{key}")
            elif not isinstance(field, Optional):
                raise _fail(path, f"missing key {key!r}")
        return value


class _Literal:
    def __init__(self, value: str) -> None:
        self.value = value

    def check(self, value: Any, path: str) -> None:
        if value != self.value or type(value) is not str:
            raise _fail(path, f"expected {self.value!r}")


class Message(Record):
    """The schema of one message type: ``Message("play", card=Int(0, 59))``."""

    def __init__(self, t: str, /, **fields: Field) -> None:
        if "t" in fields:
            raise ValueError('"t" is the message type; do not declare it as a field')
        super().__init__({"t": _Literal(t), **fields}, name=t)
        self.t = t


class Schemas:
    """The messages one side accepts, by type; anything else is an error."""

    def __init__(self, *messages: Message) -> None:
        self.by_type: dict[str, Message] = {}
        for message in messages:
            if message.t in self.by_type:
                raise ValueError(f"message type {message.t!r} declared twice")
            self.by_type[message.t] = message

    def __contains__(self, t: object) -> bool:
        return t in self.by_type

    def check(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Check ``msg`` against the schema its ``"t"`` names; return it."""
        t = msg.get("t")
        schema = self.by_type.get(t) if type(t) is str else None  # (a list is unhashable)
        if schema is None:
            raise ProtocolError(BAD_MESSAGE, f"unknown message type {msg.get('t')!r:.40}")
        return schema.check(msg)

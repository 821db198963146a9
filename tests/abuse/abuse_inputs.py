"""Hostile inputs for the abuse suite and ``benchmarks/fuzz_host.py``; no I/O.

Every message a client may send is generated from the host's own schemas
(``wizard_tui.net.protocol.INBOUND``), so a new message or field is attacked without
anyone remembering to add it here. Whether a value fits a field is decided by ``fits``,
written here from the field's declared bounds and not by calling the schema's own check:
a schema that starts letting a bool pass as an int is then caught, not agreed with.

Two generators of the same inputs: hypothesis strategies (``bad_message``), for the CI
suite's fixed samples, and ``random_*`` functions over a ``random.Random``, for the long
fuzz run, where hypothesis would be too slow for 100 000 inputs.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import msgpack
from hypothesis import strategies as st

from netplay import schema
from netplay.framing import frame
from netplay.limits import DEFAULT_LIMITS
from wizard_tui.net import protocol as p

LIMITS = DEFAULT_LIMITS
MAX_WIRE = 65535  # Noise: the largest transport message (padded payload + 16-byte tag)
MAX_PAYLOAD = MAX_WIRE - 16 - 1  # one byte goes to the padding's marker (netplay.secure)

# What the host answers a schema failure with: always fatal, and one of these.
FATAL_SHAPE = frozenset({"bad_message", "bad_encoding", "unexpected_message"})

# Every refusal code a non-fatal mistake may get (docs/protocol.md, Reason codes).
REFUSALS = frozenset(
    {
        "wrong_phase",
        "not_your_turn",
        "game_over",
        "bid_out_of_range",
        "bid_forbidden",
        "card_not_in_hand",
        "must_follow_suit",
        "not_your_seat",
        "stale_round",
        "not_seated",
        "not_host",
        "not_ready",
        "lobby_closed",
        "table_full",
        "chat_too_fast",
        "wrong_deal",
        "out_of_phase",
        "duplicate",
        "bad_seed",
        "bad_seat",
        "wrong_round",
        "bad_length",
    }
)

TYPES = tuple(p.INBOUND.by_type)
"""Every message type a client may send the host."""


def fields(t: str) -> dict[str, Any]:
    """The fields of message ``t`` (without ``"t"``), name -> schema field."""
    return {k: f for k, f in p.INBOUND.by_type[t].fields.items() if k != "t"}


def required(t: str) -> list[str]:
    """The fields message ``t`` cannot do without (an ``Optional`` one may be left out)."""
    return [k for k, f in fields(t).items() if not isinstance(f, schema.Optional)]


# -- does a value fit a field? (independent of netplay.schema's own checks) ---------------


def fits(field: Any, value: Any) -> bool:
    if isinstance(field, schema.Optional):
        return fits(field.inner, value)
    if isinstance(field, schema.Nullable):
        return value is None or fits(field.inner, value)
    if isinstance(field, schema.Record):  # a map of exactly its keys (a signed envelope)
        return (
            type(value) is dict
            and all(type(k) is str and k in field.fields for k in value)
            and all(
                (k in value and fits(f, value[k]))
                or (k not in value and isinstance(f, schema.Optional))
                for k, f in field.fields.items()
            )
        )
    if isinstance(field, schema.Int):
        return (
            type(value) is int
            and (field.lo is None or value >= field.lo)
            and (field.hi is None or value <= field.hi)
        )
    if isinstance(field, schema.Str):
        return (
            type(value) is str
            and field.min_len <= len(value) <= field.max_len
            and (not field.printable or value.isprintable())
            and (field.choices is None or value in field.choices)
        )
    if isinstance(field, schema.Bin):
        return (
            type(value) is bytes
            and (field.size is None or len(value) == field.size)
            and (field.max_size is None or len(value) <= field.max_size)
        )
    if isinstance(field, schema.Bool):
        return type(value) is bool
    raise TypeError(f"no rule for a field of type {type(field).__name__}: teach fits() about it")


def valid_value(field: Any) -> Any:
    """The smallest value that fits ``field``."""
    if isinstance(field, schema.Optional | schema.Nullable):
        return valid_value(field.inner)
    if isinstance(field, schema.Record):
        return {k: valid_value(f) for k, f in field.fields.items()}
    if isinstance(field, schema.Int):
        return field.lo if field.lo is not None else 0
    if isinstance(field, schema.Str):
        return sorted(field.choices)[0] if field.choices else "a" * max(1, field.min_len)
    if isinstance(field, schema.Bin):
        return bytes(field.size if field.size is not None else 0)
    if isinstance(field, schema.Bool):
        return False
    raise TypeError(f"no rule for a field of type {type(field).__name__}")


def valid_message(t: str, **values: Any) -> dict[str, Any]:
    """A message of type ``t`` that passes its schema: given values, else the smallest."""
    msg = {"t": t}
    for name, field in fields(t).items():
        msg[name] = values[name] if name in values else valid_value(field)
    return msg


def _nested_list(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def _nested_map(depth: int) -> Any:
    value: Any = {}
    for _ in range(depth):
        value = {"k": value}
    return value


def wrong_values(field: Any) -> list[tuple[str, Any]]:
    """Named values that do not fit ``field``: every other type, out of range, bool for
    int, nil, huge strings, nested containers. Only those ``fits`` refuses are kept."""
    out: list[tuple[str, Any]] = [
        ("nil", None),
        ("true", True),
        ("false", False),
        ("zero", 0),
        ("minus one", -1),
        ("int64 max", 2**63 - 1),
        ("int64 min", -(2**63)),
        ("uint64 max", 2**64 - 1),
        ("float", 1.0),
        ("nan", math.nan),
        ("infinity", math.inf),
        ("empty str", ""),
        ("digit str", "5"),
        ("control chars", "\x1b[2J\x07"),
        ("a zero-width char", "a\u200b"),
        ("str of max_str", "x" * LIMITS.max_str),
        ("str over max_str", "x" * (LIMITS.max_str + 1)),
        ("empty bin", b""),
        ("bin 31", bytes(31)),
        ("bin 32", bytes(32)),
        ("bin 33", bytes(33)),
        ("bin over max_bin", bytes(LIMITS.max_bin + 1)),
        ("empty list", []),
        ("list of one", [1]),
        ("list of max_array + 1", [0] * (LIMITS.max_array + 1)),
        ("list nested 100 deep", _nested_list(100)),
        ("list nested 500 deep", _nested_list(500)),
        ("empty map", {}),
        ("map", {"a": 1}),
        ("map with a bin key", {b"k": 1}),
        ("map nested 100 deep", _nested_map(100)),
        ("map of max_map + 1", {str(i): i for i in range(LIMITS.max_map + 1)}),
        ("ext", msgpack.ExtType(1, b"x")),
    ]
    if isinstance(field, schema.Int):
        if field.lo is not None:
            out.append(("below the range", field.lo - 1))
        if field.hi is not None:
            out.append(("above the range", field.hi + 1))
    if isinstance(field, schema.Str):
        out.append(("one char too long", "a" * (field.max_len + 1)))
    return [(name, value) for name, value in out if not fits(field, value)]


# What "t" itself may be swapped for. Not "bye" or "ping"/"pong" without fields: those are
# netplay's own messages and legal (a goodbye, a keepalive).
WRONG_TYPES: list[tuple[str, Any]] = [
    ("nil type", None),
    ("int type", 3),
    ("bool type", True),
    ("bin type", b"bid"),
    ("list type", ["bid"]),
    ("empty type", ""),
    ("unknown type", "teleport"),
    ("type in capitals", "BID"),
    ("type with a space", "bid "),
    ("a second hello", "hello"),
    ("a welcome", "welcome"),
]


@dataclass(frozen=True)
class Mutant:
    """One hostile message: what was changed, and the message."""

    what: str
    msg: Any

    def payload(self) -> bytes:
        return msgpack.packb(self.msg, use_bin_type=True)


def every_mutant(base: dict[str, dict[str, Any]] | None = None) -> list[Mutant]:
    """Every field of every inbound message with every wrong value; every type swapped;
    a missing and an unknown key for every message. ``base``: valid messages by type to
    mutate (default: ``valid_message``)."""
    out = []
    for t in TYPES:
        msg = (base or {}).get(t) or valid_message(t)
        for name, field in fields(t).items():
            for what, value in wrong_values(field):
                out.append(Mutant(f"{t}.{name}: {what}", {**msg, name: value}))
            if name in required(t):
                out.append(Mutant(f"{t}: no {name}", {k: v for k, v in msg.items() if k != name}))
        out.append(Mutant(f"{t}: an unknown key", {**msg, "x": 1}))
        out.append(Mutant(f"{t}: a bin key", {**msg, b"x": 1}))
        for what, value in WRONG_TYPES:
            out.append(Mutant(f"{t} -> {what}", {**msg, "t": value}))
    out.append(Mutant("not a map", [1, 2]))
    out.append(Mutant("no type", {"seat": 0}))
    return out


# -- hypothesis ---------------------------------------------------------------------------

_ANY_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=300),
    st.binary(max_size=300),
)
_ANY_VALUE = st.recursive(
    _ANY_SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def bad_value(field: Any) -> st.SearchStrategy[Any]:
    """A value that does not fit ``field``: a named wrong value or any msgpack value."""
    named = [value for _, value in wrong_values(field)]
    return st.one_of(
        st.sampled_from(named),
        st.booleans().filter(lambda v: not fits(field, v)),  # the classic: a bool for an int
        _ANY_VALUE.filter(lambda v: not fits(field, v)),
    )


@st.composite
def bad_message(draw: Any, base: dict[str, dict[str, Any]] | None = None) -> Mutant:
    """One inbound message with one thing wrong: a field, a key, or its type."""
    t = draw(st.sampled_from(TYPES))
    msg = dict((base or {}).get(t) or valid_message(t))
    names = list(fields(t))
    kind = draw(st.sampled_from(["field"] * 6 + ["missing", "extra", "type"]))
    if kind == "field" and names:
        name = draw(st.sampled_from(names))
        msg[name] = draw(bad_value(fields(t)[name]))
        return Mutant(f"{t}.{name}", msg)
    if kind == "missing" and required(t):
        name = draw(st.sampled_from(required(t)))
        del msg[name]
        return Mutant(f"{t}: no {name}", msg)
    if kind == "type":
        what, value = draw(st.sampled_from(WRONG_TYPES))
        return Mutant(f"{t} -> {what}", {**msg, "t": value})
    key = draw(st.text(min_size=1, max_size=10).filter(lambda k: k not in msg))
    return Mutant(f"{t}: unknown key", {**msg, key: draw(_ANY_VALUE)})


# -- plain random, for the long fuzz run ---------------------------------------------------


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(10 if depth < 3 else 8)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([0, -1, 1, 59, 60, 20, 21, 2**63 - 1, -(2**63), 2**64 - 1])
    if kind == 3:
        return rng.randint(-(2**40), 2**40)
    if kind == 4:
        return rng.choice([0.0, -1.5, math.nan, math.inf])
    if kind == 5:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(40)))
    if kind == 6:
        return rng.randbytes(rng.choice([0, 1, 31, 32, 33, rng.randrange(300)]))
    if kind == 7:
        return rng.choice([v for _, v in wrong_values(schema.Int(0, 0))])
    if kind == 8:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {f"k{i}": random_value(rng, depth + 1) for i in range(rng.randrange(4))}


def random_mutant(rng: random.Random, base: dict[str, dict[str, Any]] | None = None) -> Mutant:
    """Like ``bad_message``, from a plain ``random.Random``."""
    t = rng.choice(TYPES)
    msg = dict((base or {}).get(t) or valid_message(t))
    names = list(fields(t))
    roll = rng.random()
    if roll < 0.7 and names:
        name = rng.choice(names)
        field = fields(t)[name]
        if rng.random() < 0.5:
            what, value = rng.choice(wrong_values(field))
        else:
            what, value = "random", random_value(rng)
            while fits(field, value):
                value = random_value(rng)
        msg[name] = value
        return Mutant(f"{t}.{name}: {what}", msg)
    if roll < 0.8 and required(t):
        name = rng.choice(required(t))
        del msg[name]
        return Mutant(f"{t}: no {name}", msg)
    if roll < 0.9:
        what, value = rng.choice(WRONG_TYPES)
        return Mutant(f"{t} -> {what}", {**msg, "t": value})
    return Mutant(f"{t}: unknown key", {**msg, f"x{rng.randrange(99)}": random_value(rng)})


# -- frames ---------------------------------------------------------------------------------


def junk_frame(rng: random.Random) -> tuple[bytes, str]:
    """Raw bytes for inside an encrypted channel (so never sealed), self-contained: the
    declared length is either over the limit or fully sent. Returns (bytes, expected code)."""
    roll = rng.random()
    if roll < 0.3:
        length = rng.choice([65536, 65537, 100_000, 2**32 - 1, rng.randrange(65536, 2**32)])
        # 65 536 is within max_frame: the host reads it whole before Noise refuses it.
        body = rng.randbytes(length if length == 65536 else rng.randrange(64))
        return length.to_bytes(4, "big") + body, "frame_too_large"
    length = rng.choice([0, 1, 15, 16, 17, 100, rng.randrange(2000)])
    return length.to_bytes(4, "big") + rng.randbytes(length), "decrypt_failed"


def stranger_junk(rng: random.Random) -> bytes:
    """Random bytes a stranger sends before any handshake: never a valid Noise message 1
    (that is 33 bytes whose last is the version byte 1)."""
    kind = rng.randrange(5)
    if kind == 0:
        data = rng.randbytes(rng.randrange(1, 200))
    elif kind == 1:  # a plausible frame header, then junk
        n = rng.randrange(0, 600)
        data = n.to_bytes(4, "big") + rng.randbytes(min(n, rng.randrange(0, 600)))
    elif kind == 2:
        data = rng.choice([b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"SSH-2.0-OpenSSH_9.6\r\n"])
    elif kind == 3:
        data = (2**32 - 1).to_bytes(4, "big") + rng.randbytes(8)
    else:
        data = frame(rng.randbytes(33))
    if len(data) >= 37 and data[:4] == (33).to_bytes(4, "big") and data[36] == 1:
        data = data[:36] + b"\x02" + data[37:]
    return data


def huge_payloads() -> list[tuple[str, bytes, frozenset[str]]]:
    """Deeply nested and huge msgpack, sealed inside the channel: (what, payload, codes)."""
    shape = frozenset({"bad_message", "bad_encoding"})

    def chat_with(value: Any) -> bytes:
        return msgpack.packb({"t": "chat", "text": value}, use_bin_type=True)

    return [
        ("a list nested 500 deep", chat_with(_nested_list(500)), shape),
        ("a list nested 60 000 deep", b"\x82\xa1t\xa4chat\xa4text" + b"\x91" * 60_000, shape),
        ("a map nested 500 deep", chat_with(_nested_map(500)), shape),
        (
            "maps nested 3000 deep",
            b"\x82\xa1t\xa4chat\xa4text" + b"\x81\xa1k" * 3000 + b"\xc0",
            shape,
        ),
        ("a str of 60 000 bytes", chat_with("x" * 60_000), shape),
        ("a bin of 60 000 bytes", chat_with(bytes(60_000)), shape),
        (
            "an array header of 2^32 - 1 items",
            b"\x82\xa1t\xa4chat\xa4text\xdd\xff\xff\xff\xff",
            shape,
        ),
        ("a map header of 2^32 - 1 entries", b"\xdf\xff\xff\xff\xff", shape),
        ("16 strings of 4 000 bytes", chat_with(["x" * 4000] * 16), shape),
        ("the largest payload", chat_with("y" * (MAX_PAYLOAD - 16)), shape),
        ("truncated msgpack", msgpack.packb(valid_message("bid"))[:-2], shape),
        ("trailing bytes", msgpack.packb(valid_message("start")) + b"\xc0", shape),
        ("not msgpack at all", b"\xc1" * 40, shape),
        ("an empty payload", b"", shape),
        ("a timestamp", msgpack.packb({"t": "chat", "text": msgpack.Timestamp(1)}), shape),
        ("an int as the message", msgpack.packb(7), shape),
    ]

"""The messages netplay itself speaks: hello, welcome, error, ping, pong, bye.

Builders make them; checks validate them on arrival. A hello is checked in a
deliberate order: protocol name, then version, then the other fields, so a
client from a newer release gets "install the same version" rather than a
complaint about a field it added.
"""

from __future__ import annotations

from typing import Any

from .errors import BAD_MESSAGE, INCOMPATIBLE_VERSION, WRONG_PROTOCOL, ProtocolError
from .limits import DEFAULT_LIMITS, Limits
from .schema import Bool, Field, Int, Message, Nullable, Optional, Str

HELLO = "hello"
WELCOME = "welcome"
ERROR = "error"
PING = "ping"
PONG = "pong"
BYE = "bye"

TOKEN = Str(1, 128, printable=True)

PING_SCHEMA = Message(PING)
PONG_SCHEMA = Message(PONG)
BYE_SCHEMA = Message(BYE)
ERROR_SCHEMA = Message(ERROR, code=Str(1, 64), message=Str(0, 1024), fatal=Bool())

# Keys of a welcome that netplay owns; the app's extra fields must not reuse them.
WELCOME_KEYS = frozenset({"t", "session", "token", "resumed", "seat"})


def hello(
    protocol: str, version: int, name: str, token: str | None, *, watch: bool = False
) -> dict[str, Any]:
    """``watch``: the client asks to watch (a spectator: no seat); only then is it sent."""
    msg = {"t": HELLO, "protocol": protocol, "version": version, "name": name, "token": token}
    if watch:
        msg["watch"] = True
    return msg


def welcome(
    session: str, token: str, *, resumed: bool, seat: int | None, extra: dict[str, Any]
) -> dict[str, Any]:
    clash = WELCOME_KEYS & extra.keys()
    if clash:
        raise ValueError(f"welcome fields {sorted(clash)} belong to netplay")
    return {
        "t": WELCOME,
        "session": session,
        "token": token,
        "resumed": resumed,
        "seat": seat,
        **extra,
    }


def error(code: str, message: str, *, fatal: bool) -> dict[str, Any]:
    return {"t": ERROR, "code": code, "message": message, "fatal": fatal}


def check_hello(
    msg: dict[str, Any], protocol: str, version: int, limits: Limits = DEFAULT_LIMITS
) -> dict[str, Any]:
    """Validate a client's hello against what this server speaks; return it."""
    theirs = msg.get("protocol")
    if theirs != protocol or type(theirs) is not str:
        raise ProtocolError(
            WRONG_PROTOCOL,
            f"this host speaks {protocol}, not {theirs!r:.40}: "
            "you connected to a different program",
        )
    their_version = msg.get("version")
    if their_version != version or type(their_version) is not int:
        # Say which side is behind, so the player knows whose program to update.
        if type(their_version) is not int:
            which = ""
        elif their_version > version:
            which = ", newer than this host"
        else:
            which = ", older than this host"
        raise ProtocolError(
            INCOMPATIBLE_VERSION,
            f"this host speaks {protocol} protocol {version}; you have "
            f"{their_version!r:.20}{which}: install the same version as the host",
        )
    return Message(
        HELLO,
        protocol=Str(1, 64),
        version=Int(),
        name=Str(1, limits.max_name, printable=True),
        token=Nullable(TOKEN),
        watch=Optional(Bool()),
    ).check(msg)


_WELCOME_FIELDS: dict[str, Field] = {
    "session": Str(1, 128, printable=True),
    "token": TOKEN,
    "resumed": Bool(),
    "seat": Nullable(Int(0, 255)),
}


def check_welcome(msg: dict[str, Any]) -> dict[str, Any]:
    """Validate netplay's own fields of a welcome; the app's extra fields are its business."""
    for key, field in _WELCOME_FIELDS.items():
        if key not in msg:
            raise ProtocolError(BAD_MESSAGE, f"welcome: missing key {key!r}")
        field.check(msg[key], f"welcome.{key}")
    return msg

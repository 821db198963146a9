"""One connection's protocol state, either side, with no I/O (the h11 habit).

Bytes go in with ``receive_data``; events come out of ``next_event`` one at a
time, so the caller can act on each (the server raises the frame limit once a
hello is accepted) before the next frame is parsed. Every unexpected input
raises a ``ProtocolError`` naming it and closes the connection's state for good.

Phases: HANDSHAKE (server: waiting for hello; client: waiting for welcome),
OPEN, CLOSED. The Noise handshake comes before all of this (``secure``); the
connection's ``cipher`` is then the established channel, so even the hello is
encrypted. ``PLAIN`` (the default) is for tests of these state machines only.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from . import handshake as hs
from .errors import RATE_LIMITED, UNEXPECTED_MESSAGE, ProtocolError
from .framing import PLAIN, Cipher, FrameDecoder, FrameEncoder, max_payload
from .limits import DEFAULT_LIMITS, Limits
from .ratelimit import TokenBucket


class Phase(enum.Enum):
    HANDSHAKE = "handshake"
    OPEN = "open"
    CLOSED = "closed"


@dataclass(frozen=True)
class Hello:
    """Server side: a valid hello (protocol and version already match)."""

    name: str
    token: str | None
    msg: dict[str, Any]


@dataclass(frozen=True)
class Welcome:
    """Client side: the server let us in."""

    session: str
    token: str
    resumed: bool
    seat: int | None
    msg: dict[str, Any]


@dataclass(frozen=True)
class Received:
    """An application message, for the app."""

    msg: dict[str, Any]


@dataclass(frozen=True)
class PingReceived:
    """The peer pinged: answer with a pong."""


@dataclass(frozen=True)
class PeerClosed:
    """The peer ended the connection: ``code`` is "bye" for a clean goodbye, else the
    code of the fatal error it sent."""

    code: str
    message: str


Event = Hello | Welcome | Received | PingReceived | PeerClosed


class _Connection:
    def __init__(self, limits: Limits, *, max_frame: int, cipher: Cipher) -> None:
        self.limits = limits
        self.phase = Phase.HANDSHAKE
        self.decoder = FrameDecoder(limits, max_frame=max_frame, cipher=cipher)
        self.encoder = FrameEncoder(cipher, max_frame=limits.max_frame)
        self.max_payload = max_payload(cipher, limits.max_frame)
        """The largest payload ``frame`` takes (65 518 bytes with the Noise cipher, padded)."""

    def receive_data(self, data: bytes) -> None:
        if self.phase is Phase.CLOSED:
            return  # bytes after the end are not read; the transport is closing
        try:
            self.decoder.receive_data(data)
        except ProtocolError:
            self.phase = Phase.CLOSED
            raise

    def next_event(self, now: float) -> Event | None:
        """The next event, or None until more bytes arrive (or once closed)."""
        while self.phase is not Phase.CLOSED:
            try:
                msg = self.decoder.next_message()
                if msg is None:
                    return None
                event = self._handle(msg, now)
            except ProtocolError:
                self.phase = Phase.CLOSED
                raise
            if event is not None:
                return event
        return None

    def frame(self, payload: bytes) -> bytes:
        """Wire bytes for one payload; call in the order the frames are written."""
        return self.encoder.frame(payload)

    def close(self) -> None:
        self.phase = Phase.CLOSED

    def _handle(self, msg: dict[str, Any], now: float) -> Event | None:
        raise NotImplementedError

    def _keepalive(self, msg: dict[str, Any]) -> Event | None:
        if msg["t"] == hs.PING:
            hs.PING_SCHEMA.check(msg)
            return PingReceived()
        hs.PONG_SCHEMA.check(msg)  # its arrival already proved the peer alive
        return None


class ServerConnection(_Connection):
    """A client's connection as the server sees it."""

    def __init__(
        self,
        protocol: str,
        version: int,
        limits: Limits = DEFAULT_LIMITS,
        *,
        now: float,
        cipher: Cipher = PLAIN,
    ) -> None:
        # Until the hello is in, the peer is a stranger: it gets a small frame limit.
        super().__init__(limits, max_frame=limits.handshake_frame, cipher=cipher)
        self.protocol = protocol
        self.version = version
        self._bucket = TokenBucket(limits.rate, limits.burst, now)

    def _handle(self, msg: dict[str, Any], now: float) -> Event | None:
        if not self._bucket.take(now):
            raise ProtocolError(
                RATE_LIMITED,
                f"more than {self.limits.burst} messages at once or {self.limits.rate:g} "
                "a second: the host stopped listening to you",
            )
        kind = msg["t"]
        if self.phase is Phase.HANDSHAKE:
            if kind != hs.HELLO:
                raise ProtocolError(UNEXPECTED_MESSAGE, f"expected hello first, got {kind!r:.40}")
            hs.check_hello(msg, self.protocol, self.version, self.limits)
            self.phase = Phase.OPEN
            self.decoder.max_frame = self.limits.max_frame
            return Hello(name=msg["name"], token=msg["token"], msg=msg)
        if kind in (hs.PING, hs.PONG):
            return self._keepalive(msg)
        if kind == hs.BYE:
            hs.BYE_SCHEMA.check(msg)
            self.phase = Phase.CLOSED
            return PeerClosed("bye", "the client said goodbye")
        if kind in (hs.HELLO, hs.WELCOME):
            raise ProtocolError(UNEXPECTED_MESSAGE, f"{kind!r} is not expected now")
        return Received(msg)


class ClientConnection(_Connection):
    """Our connection to the server, as the client sees it."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS, *, cipher: Cipher = PLAIN) -> None:
        # The server is trusted with full-size frames from the start: its welcome
        # carries the app's fields.
        super().__init__(limits, max_frame=limits.max_frame, cipher=cipher)

    def _handle(self, msg: dict[str, Any], now: float) -> Event | None:
        kind = msg["t"]
        if kind == hs.ERROR:
            hs.ERROR_SCHEMA.check(msg)
            if self.phase is Phase.HANDSHAKE or msg["fatal"]:
                self.phase = Phase.CLOSED
                return PeerClosed(msg["code"], msg["message"])
            return Received(msg)
        if self.phase is Phase.HANDSHAKE:
            if kind != hs.WELCOME:
                raise ProtocolError(
                    UNEXPECTED_MESSAGE, f"expected welcome from the host, got {kind!r:.40}"
                )
            hs.check_welcome(msg)
            self.phase = Phase.OPEN
            return Welcome(msg["session"], msg["token"], msg["resumed"], msg["seat"], msg)
        if kind in (hs.PING, hs.PONG):
            return self._keepalive(msg)
        if kind == hs.BYE:
            hs.BYE_SCHEMA.check(msg)
            self.phase = Phase.CLOSED
            return PeerClosed("bye", "the host closed the game")
        if kind in (hs.HELLO, hs.WELCOME):
            raise ProtocolError(UNEXPECTED_MESSAGE, f"{kind!r} is not expected now")
        return Received(msg)

"""Helpers for netplay's socket tests: fast limits, a recording app, raw and secure peers,
a proxy that can cut, freeze, record and tamper with the bytes it relays.

A plain module (imported by name: pytest puts this folder on sys.path) because
tests must not import conftest.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import pytest

from netplay import Client, Limits, Refused, Server, Session, StaticIdentity
from netplay.client import ClientEvent, LinkState
from netplay.framing import FrameDecoder, encode, encode_payload, frame
from netplay.secure import HandshakeReader, SecureInitiator, make_prologue

PROTOCOL = "test-game"
VERSION = 3

# Short times so heartbeat and reconnect tests take a fraction of a second.
FAST = Limits(
    handshake_timeout=0.5,
    ping_interval=0.05,
    idle_timeout=0.3,
    linger=0.2,
    reconnect_delay=0.02,
    reconnect_max_delay=0.1,
    reconnect_give_up=3.0,
)


async def wait_until(condition: Callable[[], object], timeout: float = 3.0) -> None:
    """Poll ``condition`` until it is true; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"condition not met within {timeout} s")
        await asyncio.sleep(0.005)


class RecordingApp:
    """Seats joiners in order, records every callback, echoes ``echo`` messages."""

    def __init__(self) -> None:
        self.server: Server | None = None
        self.calls: list[tuple[str, Any]] = []
        self.refuse: Refused | None = None
        self.on_message_hook: Callable[[Session, dict[str, Any]], None] | None = None
        self.next_seat = 0

    def names(self, kind: str) -> list[Any]:
        return [arg for name, arg in self.calls if name == kind]

    def on_join(self, session: Session, hello: dict[str, Any]) -> dict[str, Any]:
        if self.refuse is not None:
            raise self.refuse
        session.seat = self.next_seat
        self.next_seat += 1
        self.calls.append(("join", session))
        return {"players": self.next_seat}

    def on_message(self, session: Session, msg: dict[str, Any]) -> None:
        self.calls.append(("message", (session, msg)))
        if self.on_message_hook is not None:
            self.on_message_hook(session, msg)
        elif msg["t"] == "echo":
            assert self.server is not None
            self.server.send(session, {"t": "echoed", "n": msg.get("n")})

    def on_disconnect(self, session: Session) -> None:
        self.calls.append(("disconnect", session))

    def on_resume(self, session: Session) -> None:
        self.calls.append(("resume", session))
        assert self.server is not None
        self.server.send(session, {"t": "snapshot", "seat": session.seat})


class Events:
    """Collects a client's events in the background so tests can wait on them."""

    def __init__(self, client: Client) -> None:
        self.items: list[ClientEvent] = []
        self.ended = False
        self._task = asyncio.create_task(self._collect(client))

    async def _collect(self, client: Client) -> None:
        async for event in client.events():
            self.items.append(event)
        self.ended = True

    def messages(self, t: str) -> list[dict[str, Any]]:
        return [e for e in self.items if isinstance(e, dict) and e["t"] == t]

    def states(self) -> list[LinkState]:
        return [e for e in self.items if isinstance(e, LinkState)]

    async def stop(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class RawPeer:
    """A hand-driven TCP peer that writes any bytes: what a stranger who does not speak
    the secure handshake can do. The server never answers it in clear; it only closes."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = FrameDecoder()

    @classmethod
    async def connect(cls, port: int, **kwargs: Any) -> RawPeer:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, **kwargs)
        return cls(reader, writer)

    def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(encode(msg))

    def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)

    async def hello(self, name: str = "raw", token: str | None = None) -> dict[str, Any]:
        self.send(
            {"t": "hello", "protocol": PROTOCOL, "version": VERSION, "name": name, "token": token}
        )
        welcome = await self.receive()
        assert welcome["t"] == "welcome", welcome
        return welcome

    async def receive(self, timeout: float = 3.0) -> dict[str, Any]:
        """The next message; fails on EOF or timeout."""
        async with asyncio.timeout(timeout):
            while True:
                msg = self.decoder.next_message()
                if msg is not None:
                    return msg
                data = await self.reader.read(65536)
                assert data, "connection closed while waiting for a message"
                self.decoder.receive_data(data)

    async def receive_until(self, t: str, timeout: float = 3.0) -> dict[str, Any]:
        """Skip pings and other traffic until a message of type ``t``."""
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.receive(timeout)
                if msg["t"] == t:
                    return msg

    async def closed_by_peer(self, timeout: float = 3.0) -> bool:
        """True once the other side closes (EOF or reset), skipping any frames before it."""
        async with asyncio.timeout(timeout):
            try:
                while await self.reader.read(65536):
                    pass
            except ConnectionError:
                pass
        return True

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


class SecurePeer(RawPeer):
    """A hand-driven peer that runs the real Noise handshake (as ``Client`` does), then
    writes whatever it likes inside the channel: sealed messages, sealed garbage, or
    frames it tampers with, replays or reorders. It reads the server's encrypted frames."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        secure: SecureInitiator,
    ) -> None:
        super().__init__(reader, writer)
        self.secure = secure
        self.decoder = FrameDecoder(cipher=secure)

    @classmethod
    async def connect(  # type: ignore[override]
        cls,
        port: int,
        *,
        identity: StaticIdentity | None = None,
        password: str | None = None,
        protocol: str = PROTOCOL,
        **kwargs: Any,
    ) -> SecurePeer:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, **kwargs)
        return await cls.over(
            reader, writer, identity=identity, password=password, protocol=protocol
        )

    @classmethod
    async def over(
        cls,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        identity: StaticIdentity | None = None,
        password: str | None = None,
        protocol: str = PROTOCOL,
    ) -> SecurePeer:
        """Shake hands on an open connection (3 s at most)."""
        secure = SecureInitiator(
            identity or StaticIdentity.generate(), make_prologue(protocol), password=password
        )
        frames = HandshakeReader()
        writer.write(frame(secure.start()))
        async with asyncio.timeout(3.0):
            while not secure.done:
                data = await reader.read(65536)
                assert data, "the server closed the connection during the handshake"
                frames.feed(data)
                while not secure.done and (message := frames.next_message()) is not None:
                    reply = secure.receive(message)
                    if reply is not None:
                        writer.write(frame(reply))
        peer = cls(reader, writer, secure)
        peer.decoder.receive_data(frames.rest())
        return peer

    def seal(self, payload: bytes) -> bytes:
        """One framed transport message holding ``payload`` (advances our send nonce)."""
        return frame(self.secure.seal(payload))

    def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(self.seal(encode_payload(msg)))

    def send_sealed(self, payload: bytes) -> None:
        """Any bytes as one encrypted frame: garbage inside the channel."""
        self.writer.write(self.seal(payload))


class Proxy:
    """A TCP relay between clients and the server that a test can cut or freeze.

    Frozen, it swallows bytes in both directions without closing: to both ends
    the other looks alive but silent, as a peer behind a dead network does.
    ``wire`` records every byte relayed, per direction ("up" is client to server);
    ``tamper_down``, if set, rewrites each chunk the server sends (a man on the wire).
    ``target_port`` may be changed: new connections then go to another server.
    """

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.frozen = False
        self.connections = 0
        self.wire: dict[str, bytearray] = {"up": bytearray(), "down": bytearray()}
        self.tamper_down: Callable[[bytes], bytes] | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return self._server.sockets[0].getsockname()[1]

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.create_task(self._relay(reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _relay(self, c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        s_reader, s_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers += [c_writer, s_writer]
        try:
            await asyncio.gather(
                self._pipe(c_reader, s_writer, "up"), self._pipe(s_reader, c_writer, "down")
            )
            while self.frozen:  # a dead network carries no hang-up either
                await asyncio.sleep(0.005)
        finally:
            for writer in (c_writer, s_writer):
                writer.transport.abort()

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, direction: str
    ) -> None:
        # Pass data, a half-close and a reset on, as a router would (unless frozen).
        try:
            while data := await reader.read(65536):
                if direction == "down" and self.tamper_down is not None:
                    data = self.tamper_down(data)
                self.wire[direction] += data
                if not self.frozen:
                    writer.write(data)
        except ConnectionError:
            if not self.frozen:
                writer.transport.abort()
            return
        if not self.frozen:
            with contextlib.suppress(OSError):  # the other side may be gone already
                writer.write_eof()

    def cut(self) -> None:
        """Reset every relayed connection, both ends."""
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()

    async def close(self) -> None:
        self.cut()
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

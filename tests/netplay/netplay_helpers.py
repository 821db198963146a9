"""Helpers for netplay's socket tests: fast limits, a recording app, raw peers, a proxy.

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

from netplay import Client, Limits, Refused, Server, Session
from netplay.client import ClientEvent, LinkState
from netplay.framing import FrameDecoder, encode

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
    """A hand-driven TCP peer that speaks frames, or anything else."""

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


class Proxy:
    """A TCP relay between clients and the server that a test can cut or freeze.

    Frozen, it swallows bytes in both directions without closing: to both ends
    the other looks alive but silent, as a peer behind a dead network does.
    """

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.frozen = False
        self.connections = 0
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
            await asyncio.gather(self._pipe(c_reader, s_writer), self._pipe(s_reader, c_writer))
            while self.frozen:  # a dead network carries no hang-up either
                await asyncio.sleep(0.005)
        finally:
            for writer in (c_writer, s_writer):
                writer.transport.abort()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Pass data, a half-close and a reset on, as a router would (unless frozen).
        try:
            while data := await reader.read(65536):
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

"""The asyncio server: accepts connections and runs sessions for a synchronous app.

Thin on purpose: each connection's protocol state is a ``ServerConnection``
(sans-I/O), its bytes move through a ``Link``, and this module only ties them
to sessions and to the app's callbacks. Callbacks run on the event loop and
never await, so the game host can be plain synchronous engine code; anything
they send is queued, never waited on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import handshake as hs
from .connection import Hello, PeerClosed, PingReceived, Received, ServerConnection
from .errors import (
    HANDSHAKE_TIMEOUT,
    IDLE_TIMEOUT,
    INTERNAL_ERROR,
    REFUSED,
    REPLACED,
    SERVER_FULL,
    UNKNOWN_SESSION,
    NetplayError,
    ProtocolError,
)
from .framing import encode_payload
from .limits import DEFAULT_LIMITS, Limits
from .link import Link
from .sessions import Session, SessionTable

log = logging.getLogger("netplay.server")

_PING = encode_payload({"t": hs.PING})
_PONG = encode_payload({"t": hs.PONG})
_BYE = encode_payload({"t": hs.BYE})


class App(Protocol):
    """What the server calls; every method runs on the loop and must not block."""

    def on_join(self, session: Session, hello: dict[str, Any]) -> dict[str, Any]:
        """A new player: set ``session.seat`` if you like; return extra welcome fields,
        or raise ``Refused(code, message)`` to turn them away."""
        ...

    def on_message(self, session: Session, msg: dict[str, Any]) -> None:
        """An app message. Raising ``ProtocolError`` or ``Refused`` ends the connection
        with that error; for a recoverable mistake call ``server.error`` instead."""
        ...

    def on_disconnect(self, session: Session) -> None:
        """The session lost its connection (``session.reason`` says why); it may resume."""
        ...

    def on_resume(self, session: Session) -> None:
        """The session is back (same object, id and seat): send it a full snapshot."""
        ...


@dataclass(eq=False)
class _Client:
    """The server's record of one open connection."""

    link: Link
    session: Session | None = None
    # Messages for this client sent during its on_join, held until the welcome is out.
    pending: list[bytes] | None = None
    reason: str = ""
    conn: ServerConnection = field(init=False)

    def __post_init__(self) -> None:
        assert isinstance(self.link.conn, ServerConnection)
        self.conn = self.link.conn


class Server:
    def __init__(
        self,
        app: App,
        *,
        protocol: str,
        version: int,
        host: str,
        port: int = 0,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.app = app
        self.protocol = protocol
        self.version = version
        self.host = host
        self.limits = limits
        self.sessions = SessionTable()
        self._port = port
        self._server: asyncio.Server | None = None
        self._clients: set[_Client] = set()
        self._by_session: dict[str, _Client] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._ping_task: asyncio.Task[None] | None = None
        self._closing = False

    # -- lifecycle ----------------------------------------------------------------------

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, self.host, self._port)
        self._ping_task = asyncio.create_task(self._ping_loop())

    @property
    def addresses(self) -> list[tuple[str, int]]:
        assert self._server is not None, "start() the server first"
        return [tuple(s.getsockname()[:2]) for s in self._server.sockets]  # type: ignore[misc]

    @property
    def port(self) -> int:
        return self.addresses[0][1]

    async def close(self) -> None:
        """Say bye to every client, close every connection and stop every task."""
        if self._server is None or self._closing:
            return
        self._closing = True
        self._server.close()
        for client in list(self._clients):
            if client.session is not None:
                client.link.send(_BYE)
            client.link.finish()
        # Each handler ends within ``linger`` (finish cuts lingering peers); the margin
        # only guards against a bug leaving a task behind.
        tasks = list(self._tasks)
        if tasks:
            _, stuck = await asyncio.wait(tasks, timeout=2 * self.limits.linger + 1.0)
            for task in stuck:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if self._ping_task is not None:
            self._ping_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ping_task
        await self._server.wait_closed()

    # -- sending (never awaits) ---------------------------------------------------------

    def send(self, session: Session, msg: dict[str, Any]) -> bool:
        """Queue ``msg`` for one session; False if it is not connected (it gets a
        snapshot when it resumes) or its connection is on its way out."""
        return self._send_payload(session, encode_payload(msg))

    def broadcast(self, msg: dict[str, Any], *, exclude: Session | None = None) -> None:
        """Queue ``msg`` for every connected session (encoded once)."""
        payload = encode_payload(msg)
        if len(payload) > self.limits.max_frame:  # refuse before anyone got it, not midway
            raise ValueError(f"message of {len(payload)} bytes is over max_frame")
        for client in list(self._by_session.values()):
            if client.session is not None and client.session is not exclude:
                self._send_payload(client.session, payload)

    def error(self, session: Session, code: str, message: str, *, fatal: bool = False) -> None:
        """Tell a session it did something wrong; a fatal error also closes its connection."""
        client = self._by_session.get(session.id)
        if client is None:
            return
        if fatal:
            self._kick(client, code, message)
        else:
            self._send_payload(session, encode_payload(hs.error(code, message, fatal=False)))

    def forget(self, session: Session) -> None:
        """Drop a session for good: its token stops working and its connection closes."""
        self.sessions.remove(session)
        client = self._by_session.get(session.id)
        if client is not None:
            self._detach(client, REFUSED, notify=False)
            self._kick(client, REFUSED, "the host removed you from the game")

    def _send_payload(self, session: Session, payload: bytes) -> bool:
        client = self._by_session.get(session.id)
        if client is None:
            return False
        if client.pending is not None:
            client.pending.append(payload)
            return True
        return client.link.send(payload)

    # -- connections ----------------------------------------------------------------------

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # A plain callback, so the server owns (and can await) every handler task.
        task = asyncio.create_task(self._handle(reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        conn = ServerConnection(self.protocol, self.version, self.limits, now=loop.time())
        client = _Client(Link(reader, writer, conn, self.limits))
        self._clients.add(client)
        try:
            if self._closing:
                client.link.finish()
            elif len(self._clients) > self.limits.max_connections:
                self._kick(
                    client,
                    SERVER_FULL,
                    f"the host already has {self.limits.max_connections} connections; "
                    "try again later",
                )
            await self._read_loop(client)
        finally:
            self._clients.discard(client)
            self._detach(client, client.reason or client.link.dropped or "connection closed")
            await client.link.close()

    async def _read_loop(self, client: _Client) -> None:
        loop = asyncio.get_running_loop()
        link, conn = client.link, client.conn
        deadline = loop.time() + self.limits.handshake_timeout
        while True:
            handshaking = client.session is None
            timeout = deadline - loop.time() if handshaking else self.limits.idle_timeout
            try:
                data = await link.read(None if link.closing else timeout)
            except TimeoutError:
                if handshaking:
                    self._kick(
                        client,
                        HANDSHAKE_TIMEOUT,
                        f"no hello within {self.limits.handshake_timeout:g} s; "
                        f"is this a {self.protocol} client?",
                    )
                else:
                    self._kick(
                        client,
                        IDLE_TIMEOUT,
                        f"the host heard nothing from you for {self.limits.idle_timeout:g} s",
                    )
                continue
            if not data:
                return
            if link.closing:
                continue  # read and dropped, so closing does not reset the peer
            try:
                conn.receive_data(data)
                while not link.closing and (event := conn.next_event(loop.time())) is not None:
                    self._dispatch(client, event)
            except ProtocolError as exc:
                self._kick(client, exc.code, exc.message)

    def _dispatch(self, client: _Client, event: object) -> None:
        if isinstance(event, Hello):
            self._join(client, event)
        elif isinstance(event, Received):
            assert client.session is not None
            self._on_message(client, client.session, event.msg)
        elif isinstance(event, PingReceived):
            client.link.send(_PONG)
        elif isinstance(event, PeerClosed):
            client.reason = event.code
            client.link.finish()

    def _kick(self, client: _Client, code: str, message: str) -> None:
        """Send a fatal error and close the connection behind it."""
        if client.link.closing:
            return
        client.reason = client.reason or code
        if client.pending is not None:
            client.pending = None  # a refused joiner gets none of what on_join queued
        client.link.send(encode_payload(hs.error(code, message, fatal=True)))
        client.link.finish()
        log.info("closed %s: %s (%s)", client.link.peer, message, code)

    # -- sessions -------------------------------------------------------------------------

    def _join(self, client: _Client, hello: Hello) -> None:
        if hello.token is not None:
            self._resume(client, hello.token)
            return
        session = self.sessions.create(hello.name)
        self._attach(client, session)
        client.pending = []
        try:
            extra = self.app.on_join(session, dict(hello.msg))
            welcome = encode_payload(
                hs.welcome(session.id, session.token, resumed=False, seat=session.seat, extra=extra)
            )
        except NetplayError as exc:
            self._undo_join(client, session)
            self._kick(client, exc.code, exc.message)
            return
        except Exception:
            log.exception("on_join failed for %r", session.name)
            self._undo_join(client, session)
            self._kick(client, INTERNAL_ERROR, "the host failed to add you; see the host's log")
            return
        if client.link.closing:  # on_join ended it with a fatal error rather than Refused
            self._undo_join(client, session)
            return
        pending, client.pending = client.pending or [], None
        client.link.send(welcome)
        for payload in pending:
            client.link.send(payload)

    def _undo_join(self, client: _Client, session: Session) -> None:
        self._detach(client, REFUSED, notify=False)
        self.sessions.remove(session)

    def _resume(self, client: _Client, token: str) -> None:
        session = self.sessions.by_token(token)
        if session is None:
            self._kick(
                client,
                UNKNOWN_SESSION,
                "this host does not know your session (it may have restarted): "
                "join again as a new player",
            )
            return
        old = self._by_session.get(session.id)
        if old is not None:
            # Most likely a dead link not yet noticed; the newcomer holds the secret.
            self._detach(old, REPLACED)
            self._kick(old, REPLACED, "your seat was taken over by a newer connection")
        self._attach(client, session)
        client.link.send(
            encode_payload(
                hs.welcome(session.id, session.token, resumed=True, seat=session.seat, extra={})
            )
        )
        self._call(self.app.on_resume, session)

    def _attach(self, client: _Client, session: Session) -> None:
        client.session = session
        self._by_session[session.id] = client
        session.connected = True
        session.reason = ""

    def _detach(self, client: _Client, reason: str, *, notify: bool = True) -> None:
        session = client.session
        client.session = None
        if session is None or self._by_session.get(session.id) is not client:
            return
        del self._by_session[session.id]
        session.connected = False
        session.reason = reason
        if notify and not self._closing:
            self._call(self.app.on_disconnect, session)

    # -- app callbacks ----------------------------------------------------------------------

    def _on_message(self, client: _Client, session: Session, msg: dict[str, Any]) -> None:
        try:
            self.app.on_message(session, msg)
        except NetplayError as exc:
            self._kick(client, exc.code, exc.message)
        except Exception:
            log.exception("on_message failed for %r on %r", session.name, msg.get("t"))
            self.error(session, INTERNAL_ERROR, "the host failed to handle that; see its log")

    @staticmethod
    def _call(callback: Callable[[Session], None], session: Session) -> None:
        try:
            callback(session)
        except Exception:
            log.exception("%s failed for %r", callback.__name__, session.name)

    async def _ping_loop(self) -> None:
        while True:
            await asyncio.sleep(self.limits.ping_interval)
            for client in list(self._by_session.values()):
                client.link.send(_PING)

"""The asyncio server: accepts connections and runs sessions for a synchronous app.

Thin on purpose: each connection first runs the Noise XX handshake of
``secure`` (``SecureResponder``, with the room password if there is one), then
its protocol state is a ``ServerConnection`` (sans-I/O) whose cipher is that
channel, its bytes move through a ``Link``, and this module only ties them to
sessions and to the app's callbacks. There is no plaintext mode. Callbacks run
on the event loop and never await, so the game host can be plain synchronous
engine code; anything they send is queued, never waited on.
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
    UNEXPECTED_MESSAGE,
    UNKNOWN_SESSION,
    NetplayError,
    ProtocolError,
)
from .framing import encode_payload, max_payload
from .identity import StaticIdentity
from .limits import DEFAULT_LIMITS, Limits
from .link import Link
from .pake import GuessLimiter, normalize_password
from .secure import (
    MAX_HANDSHAKE_MESSAGE,
    HandshakeReader,
    SecureChannel,
    SecureResponder,
    make_prologue,
)
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
    secure: SecureResponder
    frames: HandshakeReader
    ip: str
    session: Session | None = None
    # Messages for this client sent during its on_join, held until the welcome is out.
    pending: list[bytes] | None = None
    reason: str = ""
    heard: float = 0.0  # loop time bytes last arrived from the peer
    deadline: float = 0.0  # loop time the handshake must be done by (a probe extends it)
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
        identity: StaticIdentity | None = None,
        password: str | None = None,
        guess_limiter: GuessLimiter | None = None,
    ) -> None:
        """``identity`` is the host's static key (``load_or_create_identity`` in the app's
        data directory), so clients can pin it; without one the server makes a throwaway
        key, which every client that pinned this host will refuse next time. ``password``
        is the optional room password; ``guess_limiter`` bounds wrong guesses per address
        and per table (``pake.GuessLimiter``'s defaults)."""
        self.app = app
        self.protocol = protocol
        self.version = version
        self.host = host
        self.limits = limits
        if identity is None:
            identity = StaticIdentity.generate()
            log.info("no identity given: this server uses the throwaway key %s", identity)
        self.identity = identity
        self._password = password
        if password is not None:
            normalize_password(password)  # refuses an empty password now, not per connection
        self.guesses = guess_limiter or GuessLimiter()
        self._prologue = make_prologue(protocol)
        self._max_payload = max_payload(SecureChannel, limits.max_frame)
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
        return [tuple(s.getsockname()[:2]) for s in self._server.sockets]

    @property
    def connections(self) -> int:
        """Connections open now, in the handshake or past it."""
        return len(self._clients)

    @property
    def port(self) -> int:
        return self.addresses[0][1]

    @property
    def fingerprint(self) -> str:
        """The host's key as people see it: show it, so players can compare their pin."""
        return self.identity.fingerprint

    @property
    def has_password(self) -> bool:
        return self._password is not None

    async def close(self, *, bye: bool = True) -> None:
        """Say bye to every client, close every connection and stop every task.

        ``bye=False`` closes without the bye, so clients take it for a dropped link and
        keep trying to resume (an app that will be back, such as a host restarting a game)."""
        if self._server is None or self._closing:
            return
        self._closing = True
        self._server.close()
        for client in list(self._clients):
            if client.session is not None and bye:
                client.link.send(_BYE)
            client.link.finish()  # a client still shaking hands just gets EOF
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

    def send_payload(self, session: Session, payload: bytes) -> bool:
        """``send`` of a message the app encoded itself (``framing.encode_payload``'s
        msgpack: a map with a string ``"t"``, which the peer checks as any other)."""
        return self._send_payload(session, payload)

    def broadcast(self, msg: dict[str, Any], *, exclude: Session | None = None) -> None:
        """Queue ``msg`` for every connected session (encoded once)."""
        payload = encode_payload(msg)
        if len(payload) > self._max_payload:  # refuse before anyone got it, not midway
            raise ValueError(
                f"message of {len(payload)} bytes is over the largest frame payload "
                f"({self._max_payload} bytes)"
            )
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
        # A plain callback, so the server owns (and can await) every handler task, and
        # counts a new connection before the next one is accepted.
        loop = asyncio.get_running_loop()
        peer = writer.get_extra_info("peername")
        ip = str(peer[0]) if peer else "?"
        refusal = self._refuse_early(ip, loop.time())
        if refusal is not None:
            # Nothing is read and no work is done for it: the cheapest way out.
            log.info("closed %s unread: %s", peer, refusal)
            writer.transport.abort()
            return

        def admit(key: bytes) -> None:
            # Before the host does the password work or answers (its answer tells a guesser
            # whether it was right): per address, per table, never a key that proved it.
            self.guesses.check(ip, asyncio.get_running_loop().time(), key)

        secure = SecureResponder(self.identity, self._prologue, self._password, admit=admit)
        conn = ServerConnection(
            self.protocol, self.version, self.limits, now=loop.time(), cipher=secure
        )
        frames = HandshakeReader(min(self.limits.handshake_frame, MAX_HANDSHAKE_MESSAGE))
        client = _Client(Link(reader, writer, conn, self.limits), secure, frames, ip)
        self._clients.add(client)
        task = asyncio.create_task(self._handle(client))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _refuse_early(self, ip: str, now: float) -> str | None:
        """Why a new connection is cut before its handshake, or None to go on."""
        pending = [c for c in self._clients if c.session is None and not c.link.closing]
        if len(pending) >= self.limits.max_handshaking:
            return f"{len(pending)} connections are already shaking hands"
        from_ip = sum(1 for c in pending if c.ip == ip)
        if from_ip >= self.limits.max_handshaking_per_address:
            return f"{from_ip} connections from {ip} are already shaking hands"
        return None

    async def _handle(self, client: _Client) -> None:
        try:
            if self._closing:
                client.link.finish()
            await self._read_loop(client)
        finally:
            self._clients.discard(client)
            if client.secure.password_used and not client.secure.done:
                # Hanging up after the host's password message is a guess too.
                self.guesses.failed(client.ip, asyncio.get_running_loop().time())
            self._detach(client, client.reason or client.link.dropped or "connection closed")
            await client.link.close()

    async def _read_loop(self, client: _Client) -> None:
        loop = asyncio.get_running_loop()
        link, conn = client.link, client.conn
        # One deadline for the whole handshake: Noise, the password, then the hello.
        client.deadline = loop.time() + self.limits.handshake_timeout
        while True:
            handshaking = client.session is None
            timeout = client.deadline - loop.time() if handshaking else self.limits.idle_timeout
            try:
                data = await link.read(None if link.closing else max(0.0, timeout))
            except TimeoutError:
                if handshaking and loop.time() < client.deadline:
                    continue  # a probe for its session extended the deadline meanwhile
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
            client.heard = loop.time()
            if link.closing:
                continue  # read and dropped, so closing does not reset the peer
            try:
                if not client.secure.done:
                    rest = self._shake_hands(client, data)
                    if rest is None:
                        continue
                    data = rest
                conn.receive_data(data)
                while not link.closing and (event := conn.next_event(loop.time())) is not None:
                    self._dispatch(client, event)
            except ProtocolError as exc:
                self._kick(client, exc.code, exc.message)

    def _shake_hands(self, client: _Client, data: bytes) -> bytes | None:
        """Feed the secure handshake; the bytes after it once it is done, else None."""
        secure, frames = client.secure, client.frames
        frames.feed(data)
        while not secure.done and (message := frames.next_message()) is not None:
            reply = secure.receive(message)
            if reply is not None:
                client.link.send_frame(reply)
        if not secure.done:
            return None
        if secure.password_used:
            self.guesses.succeeded(client.ip, secure.remote_static)
        secured = sum(1 for c in self._clients if c.secure.done and not c.link.closing)
        if secured > self.limits.max_connections:
            # Said inside the channel, like every other error.
            self._kick(
                client,
                SERVER_FULL,
                f"the host already has {self.limits.max_connections} connections; try again later",
            )
            return None
        return frames.rest()  # the hello often arrives with the last handshake message

    def _dispatch(self, client: _Client, event: object) -> None:
        if isinstance(event, Hello):
            self._join(client, event)
        elif isinstance(event, Received):
            if client.session is None:  # after its hello, before its welcome (a probe)
                raise ProtocolError(UNEXPECTED_MESSAGE, "wait for the welcome")
            self._on_message(client, client.session, event.msg)
        elif isinstance(event, PingReceived):
            client.link.send(_PONG)
        elif isinstance(event, PeerClosed):
            client.reason = event.code
            client.link.finish()

    def _kick(self, client: _Client, code: str, message: str) -> None:
        """Send a fatal error and close the connection behind it. Before the secure channel is
        up there is no way to say anything (never in clear): the connection just closes."""
        if client.link.closing:
            return
        client.reason = client.reason or code
        if client.pending is not None:
            client.pending = None  # a refused joiner gets none of what on_join queued
        if client.secure.done:
            client.link.send(encode_payload(hs.error(code, message, fatal=True)))
        client.link.finish()
        log.info("closed %s: %s (%s)", client.link.peer, message, code)

    # -- sessions -------------------------------------------------------------------------

    def _join(self, client: _Client, hello: Hello) -> None:
        if hello.token is not None:
            self._resume(client, hello.token)
            return
        assert client.secure.remote_static is not None
        key = client.secure.remote_static
        returning = self.sessions.returning(key)
        if returning is not None:  # its program restarted: back to its own session and seat
            self._take_back(client, returning)
            return
        for held in self.sessions.connected_with(key):
            old = self._by_session.get(held.id)
            if old is not None:  # alive, or half-open (its peer asleep or dead, no FIN)?
                self._spawn(self._probe_then_join(client, hello, old, held))
                return
        self._join_new(client, hello)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _probe_then_join(
        self, client: _Client, hello: Hello, old: _Client, session: Session
    ) -> None:
        """A newcomer proved the static key of a session whose connection is still open,
        without its token. A program that restarted while the host still holds its old
        connection (a laptop that slept, a process killed without a FIN) must not be locked
        out: the old connection is pinged, and if it says nothing within ``probe_timeout``
        it is half-open and the newcomer takes the session over. One that answers is
        another running program with the same key: the newcomer joins as a new player."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        client.deadline = max(client.deadline, start + self.limits.probe_timeout + 1.0)
        old.link.send(_PING)
        end = start + self.limits.probe_timeout
        while loop.time() < end and old.heard <= start and self._by_session.get(session.id) is old:
            if old.link.closing or client.link.closing or self._closing:
                break
            await asyncio.sleep(0.02)
        if client.link.closing or self._closing:
            return
        if self._by_session.get(session.id) is old and old.heard > start and not old.link.closing:
            self._join_new(client, hello)
            return
        log.info("session %s: its old connection is silent; the newcomer takes it", session.id)
        self._take_back(client, session)

    def _join_new(self, client: _Client, hello: Hello) -> None:
        assert client.secure.remote_static is not None
        session = self.sessions.create(hello.name, client.secure.remote_static)
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
        # The token picks the session; the static key proven in this connection's handshake
        # must be the one it joined with. A token alone (seen or stolen) resumes nothing,
        # and the answer does not tell which of the two was wrong.
        assert client.secure.remote_static is not None
        session = self.sessions.find(token, client.secure.remote_static)
        if session is None:
            self._kick(
                client,
                UNKNOWN_SESSION,
                "this host does not know your session (it may have restarted, or it was "
                "joined with another identity key): join again as a new player",
            )
            return
        self._take_back(client, session)

    def _take_back(self, client: _Client, session: Session) -> None:
        """``client`` resumes ``session`` (its token and static key checked, or its key)."""
        old = self._by_session.get(session.id)
        if old is not None:
            # Most likely a dead link not yet noticed; the newcomer holds the token and key.
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

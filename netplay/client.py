"""The asyncio client: one connection to a host, kept alive and resumed.

Every connection starts with the Noise XX handshake of ``secure`` (the client is
the initiator), with the room password if the player gave one; the hello and
everything after it are encrypted. The host's static key is checked against the
``KnownHosts`` pin for its address (pinned on first use; a different key is
refused loudly with ``HostKeyChanged``), and within one ``Client`` every
reconnect must meet the same key even without a ``KnownHosts``. The client's own
static key (``identity``) is what the host recognises it by on a resume.

``events()`` yields what the app needs, in order: a ``LinkState`` whenever the
link comes up, drops or ends, the welcome after each (re)connection, then the
host's messages. Pings are answered here. Once a connection's handshake is done,
its bytes are pushed to the client as the transport receives them and decoded
there and then (no task wakes per message). An app that handles each event
synchronously can ``set_handler`` before connecting instead of reading
``events()``: each event is then handled in the same turn of the event loop that
received it, with no queue and no task in between (every hop is another turn of
the loop, which players sharing a machine's cores feel first).

When the link drops (EOF, reset, or nothing heard for ``idle_timeout``) the
client reconnects with backoff and its session token; the host keeps the seat
and sends a snapshot, so the app just redraws. A fatal error from the host ends
the client with that error.

Messages sent while the link is down are not kept (``send`` returns False):
the snapshot after a resume is the truth, and a stale move replayed into it
would be wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Literal

from . import handshake as hs
from .connection import ClientConnection, PeerClosed, PingReceived, Received, Welcome
from .errors import (
    HANDSHAKE_FAILED,
    IDLE_TIMEOUT,
    RECONNECTABLE,
    SEND_QUEUE_FULL,
    UNEXPECTED_MESSAGE,
    NetplayError,
    ProtocolError,
    ServerError,
)
from .framing import encode_payload
from .identity import HostKeyChanged, KnownHosts, StaticIdentity, fingerprint, host_label
from .limits import DEFAULT_LIMITS, Limits
from .link import Link, open_connection
from .pake import PakeError, normalize_password
from .secure import HandshakeReader, SecureInitiator, make_prologue

log = logging.getLogger("netplay.client")

_PONG = encode_payload({"t": hs.PONG})
_BYE = encode_payload({"t": hs.BYE})


@dataclass(frozen=True)
class LinkState:
    """The link changed: ``detail`` is for the player, ``code`` the host's error code if any."""

    state: Literal["connected", "reconnecting", "closed"]
    detail: str
    code: str | None = None


ClientEvent = dict[str, Any] | LinkState

LinkEnd = tuple[str, str | None, bool]
"""Why a link ended: (detail, the host's error code if any, worth reconnecting)."""

PinStatus = Literal["new", "known", "unpinned"]


class Client:
    def __init__(
        self,
        host: str,
        port: int,
        *,
        protocol: str,
        version: int,
        name: str,
        token: str | None = None,
        reconnect: bool = True,
        limits: Limits = DEFAULT_LIMITS,
        identity: StaticIdentity | None = None,
        known_hosts: KnownHosts | None = None,
        password: str | None = None,
        server_key: bytes | None = None,
        watch: bool = False,
    ) -> None:
        """``watch``: join as a spectator (the hello says so; the app decides what that
        means). ``identity``: this player's static key (``load_or_create_identity``); without one,
        a throwaway key for this ``Client`` (its reconnects still resume). ``known_hosts``:
        where host keys are pinned on first use and checked after. ``password``: the room
        password, if the host has one. ``server_key``: the host's static key when it is
        known in advance (a program connecting to its own host), checked like a pin."""
        self.host = host
        self.port = port
        self.protocol = protocol
        self.version = version
        self.name = name
        self.token = token
        self.watch = watch
        self.reconnect = reconnect
        self.limits = limits
        self.identity = identity if identity is not None else StaticIdentity.generate()
        self.known_hosts = known_hosts
        self._password = password
        if password is not None:
            normalize_password(password)  # an empty password is refused now
        if server_key is not None and len(server_key) != 32:
            raise ValueError("server_key is a 32-byte public key")
        self.server_key: bytes | None = server_key
        """The host's static key, once a handshake proved it (or as given)."""
        self.pin_status: PinStatus | None = None
        """After the first connection: "new" (pinned now: show the fingerprint so the
        player can compare it with the host's screen), "known" (it matched the pin) or
        "unpinned" (no ``known_hosts``)."""
        self.label = host_label(host, port)
        """The known-hosts label of this host."""
        self.session: str | None = None
        self.seat: int | None = None
        self.welcome: dict[str, Any] | None = None
        self.state: Literal["new", "connected", "reconnecting", "closed"] = "new"
        self._link: Link | None = None
        self._events: asyncio.Queue[ClientEvent] = asyncio.Queue()
        self._handler: Callable[[ClientEvent], None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    @property
    def server_fingerprint(self) -> str | None:
        """The host's key as people see it (``XXXX-XXXX-XXXX-XXXX``), once known."""
        return fingerprint(self.server_key) if self.server_key is not None else None

    async def connect(self) -> dict[str, Any]:
        """Connect and shake hands; return the welcome.

        Raises ``ServerError`` if the host refuses (wrong version, full, ...),
        ``ProtocolError`` if the secure handshake fails on our side (``HostKeyChanged``;
        ``PakeError``: wrong, missing or unexpected room password; ``handshake_failed``),
        ``OSError`` if it cannot be reached or hangs up, ``TimeoutError`` if it does not
        answer.
        """
        if self._task is not None:
            raise RuntimeError("connect() once per Client")
        try:
            link = await self._open()
        except BaseException:
            self.state = "closed"
            raise
        self._task = asyncio.create_task(self._run(link))
        assert self.welcome is not None
        return self.welcome

    def send(self, msg: dict[str, Any]) -> bool:
        """Queue ``msg`` for the host without waiting; False if the link is down."""
        payload = encode_payload(msg)
        if self._link is None or self.state != "connected":
            return False
        return self._link.send(payload)

    def set_handler(self, handler: Callable[[ClientEvent], None]) -> None:
        """Hand every event to ``handler`` as it happens, in place of ``events()``: the same
        events in the same order, the last a ``LinkState("closed", ...)``. Call it before
        ``connect``. The handler runs on the loop and must not block; an exception from it
        is logged and the connection goes on."""
        if self._task is not None:
            raise RuntimeError("set_handler() before connect()")
        self._handler = handler

    async def events(self) -> AsyncIterator[ClientEvent]:
        """Messages and link changes, until a ``LinkState("closed", ...)``, which is last."""
        if self._handler is not None:
            raise RuntimeError("this Client hands its events to the handler given to set_handler")
        while True:
            event = await self._events.get()
            yield event
            if isinstance(event, LinkState) and event.state == "closed":
                return

    async def close(self) -> None:
        """Say bye and close; ends ``events()``."""
        if self._closing:
            return
        self._closing = True
        link = self._link
        if link is not None and self.state == "connected":
            link.send(_BYE)
            link.finish()  # the host hangs up on bye; the reader then sees EOF
        elif self._task is not None:
            self._task.cancel()  # waiting to reconnect: nothing to say goodbye on
        if self._task is not None:
            _, stuck = await asyncio.wait([self._task], timeout=2 * self.limits.linger + 1.0)
            for task in stuck:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._link is not None:
            await self._link.close()
            self._link = None
        self._end(LinkState("closed", "you left the game"))

    @property
    def link(self) -> Link | None:
        """The connection now, or None between connections (read-only: for tests and tools)."""
        return self._link

    # -- internals ------------------------------------------------------------------------

    def _emit(self, event: ClientEvent) -> None:
        if self.state == "closed":
            return
        if self._handler is None:
            self._events.put_nowait(event)
            return
        try:
            self._handler(event)
        except Exception:
            # The app's bug: it must not take the connection (and its reconnects) down.
            log.exception("the event handler failed on %.80r", event)

    def _end(self, event: LinkState) -> None:
        self._emit(event)
        self.state = "closed"

    async def _open(self) -> Link:
        """One connection and handshake; the open link, or an exception."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(self.limits.handshake_timeout):
            reader, writer = await open_connection(self.host, self.port)
        pinned = self.known_hosts.expected(self.label) if self.known_hosts is not None else None
        secure = SecureInitiator(
            self.identity,
            make_prologue(self.protocol),
            # Checked at message 2, before our own key goes out.
            pinned if pinned is not None else self.server_key,
            self._password,
            server_label=self.label,
        )
        conn = ClientConnection(self.limits, cipher=secure)
        link = Link(reader, writer, conn, self.limits)
        try:
            # One deadline for Noise, the password and the welcome.
            async with asyncio.timeout(self.limits.handshake_timeout):
                await self._shake_hands(link, secure)
                self._check_host(secure.remote_static)
                link.send(
                    encode_payload(
                        hs.hello(
                            self.protocol, self.version, self.name, self.token, watch=self.watch
                        )
                    )
                )
                event = conn.next_event(loop.time())  # frames that came with the handshake
                while event is None:
                    data = await link.read(None)
                    if not data:
                        raise ConnectionError("the host closed the connection during the handshake")
                    conn.receive_data(data)
                    event = conn.next_event(loop.time())
                if isinstance(event, PeerClosed):
                    raise ServerError(event.code, event.message)
                if not isinstance(event, Welcome):
                    raise ProtocolError(UNEXPECTED_MESSAGE, f"expected welcome, got {event}")
        except BaseException:
            link.abort("handshake failed")
            await link.close()
            raise
        self.session, self.token, self.seat = event.session, event.token, event.seat
        self.welcome = event.msg
        self._link = link
        self.state = "connected"
        self._emit(LinkState("connected", f"connected to {self.host}:{self.port}"))
        self._emit(event.msg)
        return link

    async def _shake_hands(self, link: Link, secure: SecureInitiator) -> None:
        """Run the Noise handshake (and the password exchange) to the end; then whatever
        came after it is in the connection's decoder."""
        frames = HandshakeReader()
        link.send_frame(secure.start())
        while not secure.done:
            data = await link.read(None)
            if not data:
                raise ConnectionError(
                    "the host closed the connection during the secure handshake (it may be "
                    "busy, shutting down, or refusing your address after wrong passwords)"
                )
            frames.feed(data)
            while not secure.done and (message := frames.next_message()) is not None:
                try:
                    reply = secure.receive(message)
                except PakeError as exc:
                    if exc.reply is not None:  # so the host learns the outcome too
                        link.send_frame(exc.reply)
                        link.finish()
                        await link.flushed(self.limits.linger)
                    raise
                except HostKeyChanged as exc:
                    where = self.known_hosts.path if self.known_hosts is not None else None
                    raise HostKeyChanged(
                        exc.pinned_key, exc.offered_key, label=self.label, where=where
                    ) from None
                except ProtocolError as exc:
                    if exc.code != HANDSHAKE_FAILED:
                        raise
                    raise ProtocolError(
                        HANDSHAKE_FAILED,
                        f"the secure handshake with {self.label} failed ({exc.message}): it is "
                        f"not a {self.protocol} host, or something on the network altered "
                        "the connection",
                    ) from None
                if reply is not None:
                    link.send_frame(reply)
        link.conn.receive_data(frames.rest())

    def _check_host(self, key: bytes | None) -> None:
        """Pin the host's key on first use, or check it against the pin."""
        assert key is not None
        if self.known_hosts is not None:
            status: PinStatus = self.known_hosts.verify(self.label, key)
        elif self.server_key is not None:
            status = "known"  # SecureInitiator already checked it against ours
        else:
            status = "unpinned"
        if self.server_key is None:
            self.server_key = key
        if self.pin_status is None:
            self.pin_status = status

    async def _run(self, link: Link) -> None:
        """Pump the link; on a drop, reconnect until it works, fails for good, or we close."""
        while True:
            detail, code, retry = await self._pump(link)
            await link.close()
            self._link = None
            if self._closing:
                return
            if not (retry and self.reconnect):
                self._end(LinkState("closed", detail, code))
                return
            self.state = "reconnecting"
            self._emit(LinkState("reconnecting", detail, code))
            next_link = await self._reconnect()
            if next_link is None:
                return
            link = next_link

    async def _pump(self, link: Link) -> LinkEnd:
        """Deliver the link's events until it ends: (detail, code, worth reconnecting)."""
        return await _Pump(self, link).run()

    async def _reconnect(self) -> Link | None:
        loop = asyncio.get_running_loop()
        give_up_at = loop.time() + self.limits.reconnect_give_up
        delay = self.limits.reconnect_delay
        while True:
            await asyncio.sleep(delay)
            try:
                return await self._open()
            except ServerError as exc:
                if exc.code not in RECONNECTABLE:
                    self._end(LinkState("closed", exc.message, exc.code))
                    return None
                detail = exc.message
            except NetplayError as exc:  # HostKeyChanged, a password error, a bad pin file...
                self._end(LinkState("closed", exc.message, exc.code))
                return None
            except (OSError, TimeoutError) as exc:
                detail = str(exc) or type(exc).__name__
            if loop.time() >= give_up_at:
                self._end(
                    LinkState(
                        "closed",
                        f"gave up reconnecting after {self.limits.reconnect_give_up:g} s: {detail}",
                    )
                )
                return None
            delay = min(delay * 2, self.limits.reconnect_max_delay)


class _Pump:
    """Reads one open link for its client. The link pushes each chunk here as the transport
    receives it, and its events are handed on there and then: no task wakes per message.
    ``run`` only waits for the end, which comes from the bytes, the idle timer or EOF."""

    def __init__(self, client: Client, link: Link) -> None:
        self.client = client
        self.link = link
        self.loop = asyncio.get_running_loop()
        self.ended: asyncio.Future[LinkEnd] = self.loop.create_future()
        self.heard = self.loop.time()  # when the host was last heard from
        self.idle_timeout = client.limits.idle_timeout
        self._idle = self.loop.call_at(self.heard + self.idle_timeout, self._check_idle)

    async def run(self) -> LinkEnd:
        try:
            self._handle_events()  # frames that came with the welcome are already in
            if not self.ended.done():
                self.link.push_to(self._receive)
            return await self.ended
        finally:
            self._idle.cancel()

    def _receive(self, data: bytes) -> None:
        if self.ended.done():
            return  # read and dropped while the link closes
        if not data:
            if self.link.dropped == SEND_QUEUE_FULL:
                self._end(("the host is not taking our messages", None, True))
            else:
                self._end(("lost the connection to the host", None, True))
            return
        self.heard = self.loop.time()
        try:
            self.link.conn.receive_data(data)
        except ProtocolError as exc:
            self._end(_broken(exc))
            return
        self._handle_events()

    def _handle_events(self) -> None:
        link, client = self.link, self.client
        try:
            while (event := link.conn.next_event(self.heard)) is not None:
                if isinstance(event, Received):
                    client._emit(event.msg)  # noqa: SLF001  (its client's reader, in this module)
                elif isinstance(event, PingReceived):
                    link.send(_PONG)
                elif isinstance(event, PeerClosed):
                    if event.code == "bye":
                        self._end((event.message, None, False))
                    else:
                        self._end((event.message, event.code, event.code in RECONNECTABLE))
                    return
        except ProtocolError as exc:
            self._end(_broken(exc))
            return
        if link.dropped == SEND_QUEUE_FULL:
            self._end(("the host is not taking our messages", None, True))

    def _check_idle(self) -> None:
        due = self.heard + self.idle_timeout
        if self.loop.time() < due:  # heard from since this timer was set: wait on
            self._idle = self.loop.call_at(due, self._check_idle)
            return
        detail = f"nothing heard from the host for {self.idle_timeout:g} s"
        self._end((detail, IDLE_TIMEOUT, True))

    def _end(self, end: LinkEnd) -> None:
        if not self.ended.done():
            self.ended.set_result(end)


def _broken(exc: ProtocolError) -> LinkEnd:
    log.warning("host broke the protocol: %s (%s)", exc.message, exc.code)
    return f"the host sent something this client cannot read: {exc.message}", exc.code, False

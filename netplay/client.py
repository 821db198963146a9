"""The asyncio client: one connection to a host, kept alive and resumed.

``events()`` yields what the app needs, in order: a ``LinkState`` whenever the
link comes up, drops or ends, the welcome after each (re)connection, then the
host's messages. Pings are answered here. When the link drops (EOF, reset, or
nothing heard for ``idle_timeout``) the client reconnects with backoff and its
session token; the host keeps the seat and sends a snapshot, so the app just
redraws. A fatal error from the host ends the client with that error.

Messages sent while the link is down are not kept (``send`` returns False):
the snapshot after a resume is the truth, and a stale move replayed into it
would be wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Literal

from . import handshake as hs
from .connection import ClientConnection, PeerClosed, PingReceived, Received, Welcome
from .errors import (
    IDLE_TIMEOUT,
    RECONNECTABLE,
    SEND_QUEUE_FULL,
    UNEXPECTED_MESSAGE,
    ProtocolError,
    ServerError,
)
from .framing import encode_payload
from .limits import DEFAULT_LIMITS, Limits
from .link import Link

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
    ) -> None:
        self.host = host
        self.port = port
        self.protocol = protocol
        self.version = version
        self.name = name
        self.token = token
        self.reconnect = reconnect
        self.limits = limits
        self.session: str | None = None
        self.seat: int | None = None
        self.welcome: dict[str, Any] | None = None
        self.state: Literal["new", "connected", "reconnecting", "closed"] = "new"
        self._link: Link | None = None
        self._events: asyncio.Queue[ClientEvent] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    async def connect(self) -> dict[str, Any]:
        """Connect and shake hands; return the welcome.

        Raises ``ServerError`` if the host refuses (wrong version, full, ...),
        ``OSError`` if it cannot be reached, ``TimeoutError`` if it does not answer.
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

    async def events(self) -> AsyncIterator[ClientEvent]:
        """Messages and link changes, until a ``LinkState("closed", ...)``, which is last."""
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

    # -- internals ------------------------------------------------------------------------

    def _emit(self, event: ClientEvent) -> None:
        if self.state != "closed":
            self._events.put_nowait(event)

    def _end(self, event: LinkState) -> None:
        self._emit(event)
        self.state = "closed"

    async def _open(self) -> Link:
        """One connection and handshake; the open link, or an exception."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(self.limits.handshake_timeout):
            reader, writer = await asyncio.open_connection(self.host, self.port)
        conn = ClientConnection(self.limits)
        link = Link(reader, writer, conn, self.limits)
        try:
            link.send(encode_payload(hs.hello(self.protocol, self.version, self.name, self.token)))
            async with asyncio.timeout(self.limits.handshake_timeout):
                while True:
                    data = await link.read(None)
                    if not data:
                        raise ConnectionError("the host closed the connection during the handshake")
                    conn.receive_data(data)
                    event = conn.next_event(loop.time())
                    if isinstance(event, Welcome):
                        break
                    if isinstance(event, PeerClosed):
                        raise ServerError(event.code, event.message)
                    if event is not None:
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

    async def _pump(self, link: Link) -> tuple[str, str | None, bool]:
        """Deliver the link's events until it ends: (detail, code, worth reconnecting)."""
        loop = asyncio.get_running_loop()
        conn = link.conn
        try:
            while True:
                # Frames that came with the welcome are already buffered: drain first.
                while (event := conn.next_event(loop.time())) is not None:
                    if isinstance(event, Received):
                        self._emit(event.msg)
                    elif isinstance(event, PingReceived):
                        link.send(_PONG)
                    elif isinstance(event, PeerClosed):
                        if event.code == "bye":
                            return event.message, None, False
                        return event.message, event.code, event.code in RECONNECTABLE
                if link.dropped == SEND_QUEUE_FULL:
                    return "the host is not taking our messages", None, True
                try:
                    data = await link.read(self.limits.idle_timeout)
                except TimeoutError:
                    detail = f"nothing heard from the host for {self.limits.idle_timeout:g} s"
                    return detail, IDLE_TIMEOUT, True
                if not data:
                    return "lost the connection to the host", None, True
                conn.receive_data(data)
        except ProtocolError as exc:
            log.warning("host broke the protocol: %s (%s)", exc.message, exc.code)
            return (
                f"the host sent something this client cannot read: {exc.message}",
                exc.code,
                False,
            )

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
            except ProtocolError as exc:
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

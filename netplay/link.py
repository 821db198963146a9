"""The asyncio half of one connection, shared by server and client.

It only moves bytes: ``read`` returns the next chunk, ``send`` puts a payload
in a bounded outbox that one writer task drains (write, then drain), so a
sender never waits on a slow peer. A full outbox means the peer stopped
reading, and the link is cut rather than let it hold up anyone else.

Before the connection is encrypted, ``send_frame`` queues the Noise handshake
messages, which go out as they are; every ``send`` after them is sealed by the
connection's cipher in the writer task, in wire order.

Closing on purpose is ``finish``: the queued frames go out, then an EOF, and
the peer gets ``linger`` seconds to hang up before the link is cut. Reading
goes on meanwhile (the caller discards what arrives), because closing a socket
with unread bytes sends a reset that can destroy our last frames in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from .connection import _Connection
from .errors import INTERNAL_ERROR, SEND_QUEUE_FULL
from .framing import frame
from .limits import Limits

log = logging.getLogger("netplay.link")

READ_SIZE = 64 * 1024

_EOF = b""  # queued after the last frame: write EOF and stop (no real payload is empty)


class _Handshake(bytes):
    """A handshake message, queued to go out framed but not sealed."""


class Link:
    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        conn: _Connection,
        limits: Limits,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.conn = conn
        self.limits = limits
        self.peer = str(writer.get_extra_info("peername"))
        self.dropped: str | None = None  # why we cut the link, if we did
        self.closing = False  # no more sends; the link is on its way out
        self._queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=limits.send_queue)
        self._writer_task = asyncio.create_task(self._write_loop())
        self._abort_timer: asyncio.TimerHandle | None = None

    def send(self, payload: bytes) -> bool:
        """Queue one payload; False if the link is closing or was just cut for a full queue.

        A payload over the connection's ``max_payload`` is the sender's bug: ``ValueError``
        here, rather than a writer task that dies with the frames behind it unsent.
        """
        if len(payload) > self.conn.max_payload:
            raise ValueError(
                f"message of {len(payload)} bytes is over the largest frame payload "
                f"({self.conn.max_payload} bytes)"
            )
        return self._put(payload)

    def send_frame(self, message: bytes) -> bool:
        """Queue one handshake message: framed, never sealed (the channel is not up yet)."""
        return self._put(_Handshake(message))

    def _put(self, item: bytes) -> bool:
        if self.closing:
            return False
        try:
            self._queue.put_nowait(item)
        except asyncio.QueueFull:
            self.abort(SEND_QUEUE_FULL)
            return False
        return True

    def finish(self) -> None:
        """Send what is queued, then EOF; cut the link if the peer lingers."""
        if self.closing:
            return
        self.closing = True
        self.conn.close()
        try:
            self._queue.put_nowait(_EOF)
        except asyncio.QueueFull:
            self.abort(SEND_QUEUE_FULL)
            return
        loop = asyncio.get_running_loop()
        self._abort_timer = loop.call_later(self.limits.linger, self.abort, "linger")

    def abort(self, reason: str) -> None:
        """Cut the link now; the reader then sees EOF."""
        if self.dropped is None:
            self.dropped = reason
        self.closing = True
        self.conn.close()
        self.writer.transport.abort()

    async def flushed(self, timeout: float) -> None:
        """After ``finish``: wait up to ``timeout`` s for the queued frames and EOF to go out."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await asyncio.shield(self._writer_task)

    async def read(self, timeout: float | None) -> bytes:
        """The next chunk; b"" once the peer is gone; TimeoutError after ``timeout`` s of quiet."""
        async with asyncio.timeout(timeout):
            try:
                return await self.reader.read(READ_SIZE)
            except ConnectionError:  # a reset is an end like EOF (not OSError: TimeoutError is one)
                return b""

    async def close(self) -> None:
        """Release everything; safe to call more than once."""
        self.closing = True
        self.conn.close()
        if self._abort_timer is not None:
            self._abort_timer.cancel()
        self._writer_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer_task
        if self.dropped is not None or self.writer.transport.get_write_buffer_size():
            # Nobody will read what is left; do not wait on it.
            self.writer.transport.abort()
        else:
            self.writer.close()
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            async with asyncio.timeout(self.limits.linger):
                await self.writer.wait_closed()

    async def _write_loop(self) -> None:
        try:
            while True:
                payload = await self._queue.get()
                if payload is _EOF:
                    if self.writer.can_write_eof():
                        self.writer.write_eof()
                    return
                if isinstance(payload, _Handshake):
                    self.writer.write(frame(payload))
                else:
                    # Sealed here, in wire order, as the cipher's nonce counter needs.
                    self.writer.write(self.conn.frame(payload))
                await self.writer.drain()
        except (ConnectionError, OSError):
            pass  # the reader sees the end and the owner cleans up
        except Exception:
            # A bug (``send`` checks sizes up front); cut the link rather than hang it.
            log.exception("cannot write to %s", self.peer)
            self.abort(INTERNAL_ERROR)

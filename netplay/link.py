"""The asyncio half of one connection, shared by server and client.

It only moves bytes: ``read`` returns the next chunk; ``send`` never waits.
While the peer keeps up (nothing queued, nothing left in the transport's
buffer) the first payload of a turn of the event loop is sealed and written at
once, so a fan-out reaches the wire in the sender's own turn rather than after
a writer task wakes. The others go into a bounded outbox that one writer task
drains: everything waiting in one write, then drain (so the frames of one turn
after the first, say a round's result and the next round after its last state,
cost the peer one wake-up). A full outbox means the peer stopped reading, and
the link is cut rather than let it hold up anyone else. ``send_queue`` bounds
the frames of one turn too, written or queued: the bound a writer task alone,
which only runs between turns, would give.

Before the connection is encrypted, ``send_frame`` queues the Noise handshake
messages, which go out as they are; every ``send`` after them is sealed by the
connection's cipher as it is written, in wire order.

Reading is pull (``read``) by default. A link opened with ``open_connection``
can instead ``push_to`` a callback, which then gets each chunk inside the
transport's own callback: the bytes are decoded and handled in the same turn of
the loop that received them, with no task to wake (the client does this once
its handshake is done).

Closing on purpose is ``finish``: the queued frames go out, then an EOF, and
the peer gets ``linger`` seconds to hang up before the link is cut. Reading
goes on meanwhile (the caller discards what arrives), because closing a socket
with unread bytes sends a reset that can destroy our last frames in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from .connection import _Connection
from .errors import INTERNAL_ERROR, SEND_QUEUE_FULL
from .framing import frame
from .limits import Limits

log = logging.getLogger("netplay.link")

READ_SIZE = 64 * 1024

_EOF = b""  # queued after the last frame: write EOF and stop (no real payload is empty)


class _Handshake(bytes):
    """A handshake message, queued to go out framed but not sealed."""


Sink = Callable[[bytes], None]
"""Takes each chunk read; b"" once the peer is gone (EOF, reset or abort). Must not raise."""


class PushReader(asyncio.StreamReader):
    """A ``StreamReader`` that, once given a sink, hands every chunk to it as the transport
    delivers it instead of buffering it for a ``read`` (which must not be used then)."""

    _sink: Sink | None = None

    if TYPE_CHECKING:  # StreamReader's own internals, used below; typeshed leaves them out
        _buffer: bytearray
        _eof: bool

        def _maybe_resume_transport(self) -> None: ...

    def push_to(self, sink: Sink) -> None:
        self._sink = sink
        if self._buffer:  # arrived since the last read(): first in line
            data = bytes(self._buffer)
            self._buffer.clear()
            self._maybe_resume_transport()
            sink(data)
        if self._eof or self.exception() is not None:
            sink(b"")

    # typeshed widens ``data`` to any iterable of ints; the transport hands bytes, which the
    # sink is promised (a conversion here would cost every chunk a call).
    def feed_data(self, data: bytes) -> None:  # type: ignore[override]
        if self._sink is None:
            super().feed_data(data)
        elif data:
            self._sink(data)

    def feed_eof(self) -> None:
        super().feed_eof()
        if self._sink is not None:
            self._sink(b"")

    def set_exception(self, exc: Exception) -> None:
        super().set_exception(exc)
        if self._sink is not None:
            self._sink(b"")  # a reset is an end like EOF


async def open_connection(host: str, port: int) -> tuple[PushReader, asyncio.StreamWriter]:
    """``asyncio.open_connection`` with a ``PushReader`` (as its docs suggest: copy the code)."""
    loop = asyncio.get_running_loop()
    reader = PushReader(loop=loop)
    protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
    transport, _ = await loop.create_connection(lambda: protocol, host, port)
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)


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
        self._written_now = 0  # 1 once a frame was written at once in this turn
        self._loop = asyncio.get_running_loop()
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

    @property
    def queued(self) -> int:
        """Frames waiting for the writer task (the peer is not keeping up)."""
        return self._queue.qsize()

    def send_frame(self, message: bytes) -> bool:
        """Queue one handshake message: framed, never sealed (the channel is not up yet)."""
        return self._put(_Handshake(message))

    def _put(self, item: bytes) -> bool:
        if self.closing:
            return False
        if self._written_now + self._queue.qsize() >= self.limits.send_queue:
            self.abort(SEND_QUEUE_FULL)
            return False
        if self._written_now or not self._queue.empty() or self._buffered():
            self._queue.put_nowait(item)  # not full: checked above
            return True
        # The first of this turn, and the peer keeps up: write it now.
        self._written_now = 1
        self._loop.call_soon(self._next_turn)
        try:
            self._write(item)
        except Exception:
            log.exception("cannot write to %s", self.peer)  # a bug, as in _write_loop
            self.abort(INTERNAL_ERROR)
            return False
        return True

    def _buffered(self) -> int:
        return self.writer.transport.get_write_buffer_size()

    def _next_turn(self) -> None:
        self._written_now = 0

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

    def push_to(self, sink: Sink) -> None:
        """From now on hand every chunk to ``sink`` as it arrives, in place of ``read``
        (bytes that came before are handed over first). Needs a ``PushReader``."""
        if not isinstance(self.reader, PushReader):
            raise TypeError("push_to needs a link opened with netplay.link.open_connection")
        self.reader.push_to(sink)

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

    def _write(self, item: bytes) -> None:
        """Frame ``item`` onto the transport."""
        self.writer.write(self._wire(item))

    def _take_queued(self, first: bytes) -> tuple[list[bytes], bool]:
        """``first`` and whatever else is queued now, up to EOF: (frames, EOF reached)."""
        batch = [first]
        while batch[-1] is not _EOF and not self._queue.empty():
            batch.append(self._queue.get_nowait())
        if batch[-1] is _EOF:
            return batch[:-1], True
        return batch, False

    def _wire(self, item: bytes) -> bytes:
        """``item`` framed; sealed here, just before it takes its place on the wire, as the
        cipher's nonce counter needs."""
        return frame(item) if isinstance(item, _Handshake) else self.conn.frame(item)

    async def _write_loop(self) -> None:
        try:
            while True:
                batch, eof = self._take_queued(await self._queue.get())
                if batch:  # one write, and one wake-up of the peer, for all of them
                    self.writer.write(b"".join(map(self._wire, batch)))
                if eof:
                    if self.writer.can_write_eof():
                        self.writer.write_eof()
                    return
                await self.writer.drain()
        except (ConnectionError, OSError):
            pass  # the reader sees the end and the owner cleans up
        except Exception:
            # A bug (``send`` checks sizes up front); cut the link rather than hang it.
            log.exception("cannot write to %s", self.peer)
            self.abort(INTERNAL_ERROR)

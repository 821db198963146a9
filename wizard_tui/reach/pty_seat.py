"""A seat's process on a PTY of its own, its bytes pumped to and from an SSH channel.

The child is a session leader with the PTY as its controlling terminal, so a window-size
change (``TIOCSWINSZ``) reaches it as SIGWINCH, as in any terminal. Ending either side ends
the other: the table quits and the session closes; the session drops and the table's
process group is hung up, then killed if it lingers.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import signal
import struct
import termios
from typing import Protocol

import asyncssh

DEFAULT_SIZE = (80, 24)  # `ssh -tt` from a script reports 0x0
READ_SIZE = 65536
STOP_GRACE = 3.0


class ByteReader(Protocol):
    async def read(self, n: int = -1) -> bytes: ...


class ByteWriter(Protocol):
    def write(self, data: bytes) -> None: ...
    async def drain(self) -> None: ...


def _make_controlling_tty() -> None:  # runs in the child, after setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def set_window_size(fd: int, width: int, height: int) -> None:
    if width <= 0 or height <= 0:
        width, height = DEFAULT_SIZE
    size = struct.pack("HHHH", min(height, 1000), min(width, 1000), 0, 0)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, size)


class PtySeat:
    def __init__(self, command: list[str], env: dict[str, str], width: int, height: int) -> None:
        self.command = command
        self.env = env
        self.size = (width, height)
        self.master: int | None = None
        self.child: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int | None:
        return self.child.pid if self.child is not None else None

    async def start(self) -> None:
        master, slave = pty.openpty()
        self.master = master
        set_window_size(master, *self.size)
        try:
            self.child = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=self.env,
                cwd=self.env.get("HOME"),
                start_new_session=True,
                preexec_fn=_make_controlling_tty,
            )
        finally:
            os.close(slave)  # the child holds it; our copy would keep EOF from coming
        os.set_blocking(master, False)

    def resize(self, width: int, height: int) -> None:
        if self.master is not None:
            set_window_size(self.master, width, height)

    async def serve(self, stdin: ByteReader, stdout: ByteWriter) -> int:
        """Pump until the table exits (its status) or the visitor leaves (status 0)."""
        to_visitor = asyncio.create_task(self._pump_out(stdout))
        from_visitor = asyncio.create_task(self._pump_in(stdin))
        try:
            await asyncio.wait({to_visitor, from_visitor}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (to_visitor, from_visitor):
                task.cancel()
            await asyncio.gather(to_visitor, from_visitor, return_exceptions=True)
        if to_visitor.done() and not to_visitor.cancelled() and self.child is not None:
            with contextlib.suppress(TimeoutError):
                return await asyncio.wait_for(self.child.wait(), STOP_GRACE)
        return 0

    async def _pump_out(self, stdout: ByteWriter) -> None:
        while True:
            data = await self._read_master()
            if not data:
                return  # EIO: every copy of the slave is closed, the table has exited
            stdout.write(data)
            await stdout.drain()  # a slow visitor slows their own table, nobody else

    async def _read_master(self) -> bytes:
        assert self.master is not None
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = self.master
        loop.add_reader(fd, lambda: None if ready.done() else ready.set_result(None))
        try:
            await ready
        finally:
            loop.remove_reader(fd)
        try:
            return os.read(fd, READ_SIZE)
        except BlockingIOError:
            return await self._read_master()
        except OSError:
            return b""

    async def _pump_in(self, stdin: ByteReader) -> None:
        while True:
            try:
                data = await stdin.read(READ_SIZE)
            except asyncssh.TerminalSizeChanged as change:
                self.resize(change.width, change.height)
                continue
            except asyncssh.BreakReceived:
                continue
            if not data:
                return  # the visitor closed the channel or the connection dropped
            await self._write_master(data)

    async def _write_master(self, data: bytes) -> None:
        assert self.master is not None
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.master, view)
            except BlockingIOError:
                await asyncio.sleep(0.01)
                continue
            except OSError:
                return
            view = view[written:]

    async def stop(self) -> None:
        """End the table's process group (hang-up, then kill) and close the PTY."""
        child = self.child
        if child is not None and child.returncode is None:
            _signal_group(child.pid, signal.SIGHUP)
            try:
                await asyncio.wait_for(child.wait(), STOP_GRACE)
            except TimeoutError:
                _signal_group(child.pid, signal.SIGKILL)
                await child.wait()
        if self.master is not None:
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = None


def _signal_group(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)

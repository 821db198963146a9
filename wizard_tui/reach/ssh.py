"""``python -m wizard_tui.reach.ssh``: the SSH way in (``wizard-tui host --ssh``).

An asyncssh server (optional extra ``ssh``). ``ssh -p 2222 ann@host`` seats "ann": each
session gets its own ``wizard-tui join 127.0.0.1:<game port>`` on a PTY of its own
(``pty_seat``), with only a whitelist of the visitor's environment. The host key is an
ed25519 key kept in the data directory, so friends' ``known_hosts`` stay valid.

The host runs this as a child process (``services``): it prints one line
``ready <port> <SHA256 fingerprint>`` once it listens, and shuts down, ending every
session, when its standard input closes (the host went away, however it went).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hmac
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path

import asyncssh

from ..i18n import N_, choose, translation_for
from ..paths import data_dir
from .pty_seat import PtySeat
from .seat import (
    PASSWORD_ENV,
    VISITING_SEATS,
    SeatHome,
    SeatTaken,
    forget_kept_homes,
    marked_name,
    passed_env,
    seat_command,
    seat_env,
)

log = logging.getLogger(__name__)

HOST_KEY_FILE = "ssh-host-key"
DEFAULT_SSH_PORT = 2222
NO_PTY = N_(
    "wizard-tui needs a terminal: connect with a plain `ssh -p PORT NAME@HOST` "
    "(without -T, and not with a command)."
)
FULL = N_("this table takes {sessions} SSH players at most, and has them: try again later")
NAME_TAKEN = N_("{name} is at the table already: connect under another name")


def visitor_words(visitor: Mapping[str, str], message: str, **fields: object) -> bytes:
    """``message`` in the visitor's own language (the ``LANG``, ``LC_*``, ``LANGUAGE`` their
    ``ssh`` sent, as their seat would speak it; English without them), a terminal's line.
    The server speaks to many visitors at once, so it asks their catalog, not the process's."""
    words = translation_for(choose(environ=passed_env(visitor, None))).gettext(message)
    return (words.format(**fields) + "\r\n").encode()


def load_or_create_host_key(folder: Path | None = None) -> asyncssh.SSHKey:
    """The SSH host key (ed25519, OpenSSH format, mode 0600), made on first use."""
    folder = folder or data_dir()
    path = folder / HOST_KEY_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        key = asyncssh.generate_private_key("ssh-ed25519")
        with contextlib.suppress(FileExistsError):  # another host made one meanwhile
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(key.export_private_key())
    return asyncssh.read_private_key(str(path))


class SeatServer(asyncssh.SSHServer):
    """Authentication: none without a room password; with one, it is the SSH password."""

    def __init__(self, password: str | None) -> None:
        self._password = password

    def begin_auth(self, username: str) -> bool:
        return self._password is not None

    def password_auth_supported(self) -> bool:
        return self._password is not None

    def validate_password(self, username: str, password: str) -> bool:
        assert self._password is not None
        return hmac.compare_digest(password.encode(), self._password.encode())


class SshSeats:
    """The sessions: at most ``max_sessions`` at once, each one seat process."""

    def __init__(
        self, *, game_port: int, host_key: bytes | None, password: str | None, max_sessions: int
    ) -> None:
        self.game_port = game_port
        self.host_key = host_key
        self.password = password
        self.max_sessions = max_sessions
        self.seats: set[PtySeat] = set()
        # Each name's keys, kept for a friend who drops and connects again (seat.SeatHome).
        self.homes = data_dir() / VISITING_SEATS

    async def handle(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        try:
            await self._handle(process)
        except Exception:  # one visitor's failure never ends the server
            log.exception("SSH session failed")
        finally:
            with contextlib.suppress(Exception):
                process.close()

    async def _handle(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        term = process.get_terminal_type()
        visitor = dict(process.env)
        if term is None or process.command is not None or process.subsystem is not None:
            process.stderr.write(visitor_words(visitor, NO_PTY))
            process.exit(1)
            return
        if len(self.seats) >= self.max_sessions:
            process.stderr.write(visitor_words(visitor, FULL, sessions=self.max_sessions))
            process.exit(1)
            return
        user = process.get_extra_info("username") or ""
        name = marked_name(str(user), "ssh")
        width, height, _, _ = process.get_terminal_size()
        try:
            home = SeatHome(self.game_port, self.host_key, kept_for=name, root=self.homes)
        except SeatTaken:
            process.stderr.write(visitor_words(visitor, NAME_TAKEN, name=name))
            process.exit(1)
            return
        env = seat_env(visitor=visitor, term=term, home=home, via="ssh", password=self.password)
        seat = PtySeat(seat_command(self.game_port, name), env, width, height)
        self.seats.add(seat)
        try:
            await seat.start()
            status = await seat.serve(process.stdin, process.stdout)
            process.exit(status)
        finally:
            await seat.stop()
            self.seats.discard(seat)
            home.remove()

    async def close(self) -> None:
        await asyncio.gather(*(seat.stop() for seat in list(self.seats)), return_exceptions=True)
        forget_kept_homes(self.homes, self.game_port)


async def serve(args: argparse.Namespace) -> int:
    key = load_or_create_host_key(args.key_dir)
    password = os.environ.get(PASSWORD_ENV) or None
    seats = SshSeats(
        game_port=args.game_port,
        host_key=bytes.fromhex(args.host_key) if args.host_key else None,
        password=password,
        max_sessions=args.max_sessions,
    )
    acceptor = await asyncssh.listen(
        args.bind,
        args.port,
        server_factory=lambda: SeatServer(password),
        server_host_keys=[key],
        process_factory=seats.handle,
        encoding=None,  # bytes both ways: the PTY's, untouched
        line_editor=False,  # the table reads keys itself; asyncssh's editor would eat them
        agent_forwarding=False,
        allow_scp=False,
        keepalive_interval=15,  # a vanished client ends its seat within a minute
        keepalive_count_max=4,
        login_timeout=60,
    )
    port = acceptor.get_port()
    print(f"ready {port} {key.get_fingerprint('sha256')}", flush=True)
    os.dup2(2, 1)  # nobody reads the pipe after the ready line: anything else to the log
    try:
        await _until_stdin_closes()
    finally:
        acceptor.close()
        await seats.close()
        with contextlib.suppress(Exception):
            await acceptor.wait_closed()
    return 0


async def _until_stdin_closes() -> None:
    """Return when the host closes our standard input (or dies: the pipe closes too).
    A reader on the loop, not a thread: a thread blocked in read() would hold up exit."""
    loop = asyncio.get_running_loop()
    closed: asyncio.Future[None] = loop.create_future()
    fd = sys.stdin.fileno()

    def readable() -> None:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data and not closed.done():
            closed.set_result(None)

    loop.add_reader(fd, readable)
    try:
        await closed
    finally:
        loop.remove_reader(fd)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m wizard_tui.reach.ssh")
    parser.add_argument("--bind", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=DEFAULT_SSH_PORT)
    parser.add_argument("--game-port", type=int, required=True)
    parser.add_argument("--host-key", default=None, help="the game host's public key, hex")
    parser.add_argument("--max-sessions", type=int, default=6)
    parser.add_argument("--key-dir", type=Path, default=None)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="ssh: %(levelname)s %(message)s")
    args = parse_args(argv)
    try:
        return asyncio.run(serve(args))
    except OSError as exc:
        print(f"error cannot listen on {args.bind}:{args.port}: {exc}", flush=True)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

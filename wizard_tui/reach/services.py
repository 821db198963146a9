"""The host's side of the ways in: the SSH and web servers as child processes.

Each server runs in a process of its own (``python -m wizard_tui.reach.ssh`` or
``.web``), so a visitor's trouble never reaches the game host or the host's own table. A
child reports ``ready <port> [detail]`` on its first line and stops when its standard
input closes, which also happens when the host dies, so nothing outlives the host.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

from ..i18n import N_, _
from ..net.protocol import PROTOCOL, VERSION
from ..paths import data_dir
from ..phrase import recognise
from .discovery import announcing, announcing_allowed, instance_name, txt_record
from .seat import PASSWORD_ENV

# What a child that cannot listen prints after ``error`` (ssh.py, web.py); the system's
# reason in it stays as the system gave it.
LISTEN_FAILED = N_("cannot listen on {address}:{port}: {error}")

READY_TIMEOUT = 30.0
STOP_TIMEOUT = 8.0


class ReachError(OSError):
    """A way in could not start (port taken, extra not installed...)."""


@dataclass
class Reach:
    """What the lobby shows about the ways in, and the ports they listen on."""

    lines: list[str] = field(default_factory=list)
    ssh_port: int | None = None
    ssh_fingerprint: str | None = None
    web_url: str | None = None

    def qr_code(self) -> str | None:
        """The browser URL as a terminal QR code (for phones), when segno is installed."""
        if self.web_url is None:
            return None
        try:
            import segno
        except ImportError:
            return None
        out = io.StringIO()
        segno.make(self.web_url, error="l").terminal(out=out, compact=True, border=1)
        return out.getvalue()


@dataclass
class ReachSettings:
    ssh_port: int | None = None
    web_port: int | None = None
    max_sessions: int = 6
    bind: str = "0.0.0.0"
    announce: bool = True


@dataclass
class Announce:
    """What the LAN announcement says (discovery.py): who hosts, the host key's
    fingerprint, and how many seats are taken out of how many, asked afresh as they fill."""

    player: str
    fingerprint: str
    seats: Callable[[], tuple[int, int]]


def settings_from_args(args: argparse.Namespace, bind: str) -> ReachSettings:
    """The ways in ``args`` asks for, for a game host bound to ``bind`` (the servers bind
    there too, and a loopback host announces nothing)."""
    return ReachSettings(
        ssh_port=getattr(args, "ssh", None),
        web_port=getattr(args, "web", None),
        max_sessions=getattr(args, "ssh_sessions", None) or 6,
        bind=bind,
        announce=not getattr(args, "no_announce", False),
    )


class Child:
    """One server process: started, read until ready, stopped by closing its stdin."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> list[str]:
        log_path = data_dir() / f"{self.name}.log"
        log_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with open(log_path, "ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,  # never onto the host's own table
                env=self.env,
            )
        assert self.process.stdout is not None
        try:
            line = await asyncio.wait_for(self.process.stdout.readline(), READY_TIMEOUT)
        except TimeoutError:
            line = b""
        words = line.decode(errors="replace").split()
        if not words or words[0] != "ready":
            await self.stop()
            started = _("it did not start (see {log})").format(log=log_path)
            why = " ".join(words[1:]) if words else started
            found = recognise(why, (LISTEN_FAILED,))  # the child's words, in English
            why = found.shown() if found is not None else why
            raise ReachError(f"{self.name}: {why}")
        return words[1:]

    async def stop(self) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), STOP_TIMEOUT)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


def _child_env(password: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != PASSWORD_ENV}
    if password is not None:
        env[PASSWORD_ENV] = password
    return env


def _shown(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def _ssh_command(settings: ReachSettings, game_port: int, host_key: bytes | None) -> list[str]:
    assert settings.ssh_port is not None
    command = [sys.executable, "-m", "wizard_tui.reach.ssh", "--bind", settings.bind]
    command += ["--port", str(settings.ssh_port), "--game-port", str(game_port)]
    command += ["--max-sessions", str(settings.max_sessions)]
    if host_key is not None:
        command += ["--host-key", host_key.hex()]
    return command


def _web_command(
    settings: ReachSettings, game_port: int, host_key: bytes | None, address: str, password: bool
) -> list[str]:
    assert settings.web_port is not None
    command = [sys.executable, "-m", "wizard_tui.reach.web", "--bind", settings.bind]
    command += ["--port", str(settings.web_port), "--game-port", str(game_port)]
    command += ["--max-sessions", str(settings.max_sessions), "--address", address]
    if password:
        command.append("--need-password")  # the visitor types it: it never reaches the page
    if host_key is not None:
        command += ["--host-key", host_key.hex()]
    return command


@contextlib.asynccontextmanager
async def serving(
    settings: ReachSettings,
    *,
    game_port: int,
    host_key: bytes | None,
    password: str | None,
    addresses: Sequence[str],
    announce: Announce | None = None,
) -> AsyncIterator[Reach]:
    """Run the ways in ``settings`` asks for while the block runs; stop them after.
    ``announce``: also announce the table on the LAN (unless settings or the bind say no)."""
    reach = Reach()
    children: list[Child] = []
    env = _child_env(password)
    address = addresses[0] if addresses else "127.0.0.1"
    try:
        if settings.ssh_port is not None:
            child = Child("ssh", _ssh_command(settings, game_port, host_key), env)
            children.append(child)
            port_text, fingerprint = (await child.start())[:2]
            reach.ssh_port, reach.ssh_fingerprint = int(port_text), fingerprint
            port_part = "" if reach.ssh_port == 22 else f" -p {reach.ssh_port}"
            user = _("YOURNAME")  # what the friend types: their name at the table
            command_line = f"ssh{port_part} {user}@{_shown(address)}"
            reach.lines.append(command_line + "  " + _("(nothing to install)"))
            reach.lines.append(_("SSH host key {fingerprint}").format(fingerprint=fingerprint))
        if settings.web_port is not None:
            command = _web_command(settings, game_port, host_key, address, password is not None)
            child = Child("web", command, _child_env(None))
            children.append(child)
            port_text = (await child.start())[0]
            reach.web_url = f"http://{_shown(address)}:{int(port_text)}/"
            reach.lines.append(_("browser: {url}").format(url=reach.web_url))
        async with contextlib.AsyncExitStack() as stack:
            if announce is not None and settings.announce and announcing_allowed(settings.bind):
                line = await stack.enter_async_context(
                    announcing(
                        instance=instance_name(announce.player, announce.fingerprint),
                        port=game_port,
                        addresses=tuple(addresses),
                        bind=settings.bind,
                        txt=lambda: txt_record(
                            protocol=PROTOCOL,
                            version=VERSION,
                            seats=announce.seats(),
                            password=password is not None,
                            fingerprint=announce.fingerprint,
                        ),
                    )
                )
                if line:
                    reach.lines.append(line)
            yield reach
    finally:
        await asyncio.gather(*(child.stop() for child in children), return_exceptions=True)


def seats_taken(host: object) -> Callable[[], tuple[int, int]]:
    """Seats taken and total of a ``WizardHost`` (its public ``seats`` list), for the TXT."""

    def count() -> tuple[int, int]:
        seats = list(getattr(host, "seats", ()))
        return sum(seat is not None for seat in seats), len(seats)

    return count

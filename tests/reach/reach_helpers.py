"""Real processes for the ways-in tests: a headless host with ``--ssh``/``--web`` on
127.0.0.1, tmux on a server socket of the test's own, and a look at /proc for leftovers."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Host:
    process: subprocess.Popen[str]
    game_port: int
    lines: list[str] = field(default_factory=list)

    def line_with(self, text: str) -> str:
        return next(line for line in self.lines if text in line)


def processes_mentioning(text: str) -> list[int]:
    """Pids whose command line contains ``text`` (this host's game port, say)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if text in cmdline and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


def wait_until(condition, what: str, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.1)


@contextmanager
def headless_host(
    data_home: Path,
    *extra: str,
    until: str,
    players: int = 3,
    bots: int = 2,
    password: str | None = None,
) -> Iterator[Host]:
    """``wizard-tui host --headless`` on 127.0.0.1 with the given ways in; on exit it is
    stopped and the test checks that none of its processes (servers, seats) is left.
    ``until``: the text of the last start-up line to read."""
    env = dict(os.environ, XDG_DATA_HOME=str(data_home), XDG_CONFIG_HOME=str(data_home))
    command = [sys.executable, "-m", "wizard_tui", "host", "--headless", "--bind", "127.0.0.1"]
    command += ["--port", "0", "--players", str(players), "--bots", str(bots)]
    command += ["--bot-delay", "0", "--no-announce", *extra]
    if password is not None:
        command += ["--password", password]
    process = subprocess.Popen(
        command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True
    )
    host = Host(process, 0)
    try:
        assert process.stdout is not None
        for line in process.stdout:
            host.lines.append(line.rstrip("\n"))
            if match := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
                host.game_port = int(match.group(1))
            if until in line:
                break
        assert host.game_port, f"the host did not start: {host.lines}"
        yield host
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
        marker = f"127.0.0.1:{host.game_port}" if host.game_port else "\0"
        wait_until(
            lambda: (
                not processes_mentioning(f"--game-port {host.game_port}")
                and not processes_mentioning(marker)
            ),
            "every server and seat of the host ended with it",
            timeout=20,
        )


class Tmux:
    """tmux on a server socket of this test's own, killed at the end."""

    def __init__(self) -> None:
        self.socket = f"wizard-reach-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=check
        )

    def new(self, name: str, command: str, width: int = 80, height: int = 24) -> None:
        self.run("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), command)

    def screen(self, name: str) -> str:
        result = self.run("capture-pane", "-p", "-t", name, check=False)
        return result.stdout

    def alive(self, name: str) -> bool:
        return self.run("has-session", "-t", name, check=False).returncode == 0

    def wait_for(self, name: str, text: str, timeout: float = 40.0) -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.screen(name)
            if text in screen:
                return screen
            assert time.monotonic() < end, f"{text!r} never appeared:\n{screen}"
            time.sleep(0.1)

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", name, *keys)

    def kill(self) -> None:
        self.run("kill-server", check=False)
        folder = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}"
        (folder / self.socket).unlink(missing_ok=True)  # tmux may leave the socket file

"""One seat played through the host's machine: its name, environment and command.

The SSH and web servers both start ``wizard-tui join 127.0.0.1:<port>`` for each visitor.
What they share lives here: turning free text (an SSH user name) into a player's name,
the whitelist of the visitor's environment, and a private home for the seat's keys.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sys
import tempfile
import unicodedata
from collections.abc import Mapping
from pathlib import Path

from netplay import KnownHosts
from netplay.identity import host_label

# How the host learns a seat is played on its own machine (docs/fairness.md).
VIA_ENV = "WIZARD_TUI_VIA"
# The room password reaches the seat's process here, never in its argv (ps shows argv).
PASSWORD_ENV = "WIZARD_TUI_PASSWORD"
NAME_LIMIT = 24
VISITING_SEATS = "visiting-seats"  # in the host's data directory: the kept seat homes
_NAME_PUNCTUATION = frozenset(" ._-'")
# Only these of the visitor's variables reach the seat: LD_PRELOAD, PYTHONPATH and the
# like must never come from a stranger.
_PASSED_EXACT = frozenset({"LANG", "LANGUAGE", "NO_COLOR", "COLORTERM", "TERM"})


def sanitise_name(text: str, fallback: str = "guest") -> str:
    """A player's name from free text: letters, digits and a little punctuation, at most
    ``NAME_LIMIT`` characters; ``fallback`` when nothing usable is left."""
    kept = []
    for ch in unicodedata.normalize("NFC", text):
        if unicodedata.category(ch)[0] in "LN" or ch in _NAME_PUNCTUATION:
            kept.append(ch)
        elif ch.isspace():
            kept.append(" ")
    name = " ".join("".join(kept).split()).strip("._-' ")
    return name[:NAME_LIMIT].rstrip() or fallback


# A seat played on the host's machine carries this mark in its name ("ann@ssh"), so the
# lobby, every seat line and the record show it (docs/fairness.md); the base name is kept
# short enough for the mark to survive the seat line's width.
MARKED_BASE_LIMIT = 12


def marked_name(text: str, via: str) -> str:
    """The name of a seat played through the host's machine: ``ann@ssh``, ``bob@web``."""
    return f"{sanitise_name(text)[:MARKED_BASE_LIMIT].rstrip()}@{via}"


def passed_env(visitor: Mapping[str, str], term: str | None) -> dict[str, str]:
    """The visitor's variables a seat may see: ``LANG``, ``LC_*``, ``NO_COLOR``,
    ``COLORTERM``, and ``TERM`` (from the session's terminal type when it has one)."""
    out: dict[str, str] = {}
    for key, value in visitor.items():
        if not isinstance(key, str) or not isinstance(value, str):
            continue
        if (key in _PASSED_EXACT or key.startswith("LC_")) and "\0" not in value:
            out[key] = value[:256]
    if term:
        out["TERM"] = term
    out.setdefault("TERM", "xterm-256color")
    return out


class SeatTaken(Exception):
    """Another session plays under this name right now."""


class SeatHome:
    """A private data directory for one visiting seat.

    The seat gets keys of its own (not the host's, not another visitor's) and finds the
    host's key already pinned, so nothing is trusted on first use over loopback.

    ``kept_for=NAME``: the directory is the same for every session under that name at this
    table (in ``root``), and stays after the session, so a friend whose connection dropped
    connects again under the same name and takes the seat back (the host knows the seat by
    its key). A lock on it keeps two sessions from playing one seat at once. Without a
    name it is a fresh temporary directory, removed when the session ends.
    """

    def __init__(
        self,
        game_port: int,
        host_key: bytes | None,
        *,
        kept_for: str | None = None,
        root: Path | None = None,
    ) -> None:
        self.kept = kept_for is not None
        if kept_for is None:
            self.path = Path(tempfile.mkdtemp(prefix="wizard-tui-seat-"))
        else:
            assert root is not None
            root.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.path = root / f"{game_port}-{kept_for.encode().hex()}"
            self.path.mkdir(exist_ok=True, mode=0o700)
        self._lock = os.open(self.path / ".lock", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._lock)
            raise SeatTaken(kept_for) from None
        data = self.path / "share" / "wizard-tui"  # platformdirs' data dir under it
        data.mkdir(parents=True, exist_ok=True, mode=0o700)
        if host_key is not None:
            KnownHosts.in_directory(data).pin(host_label("127.0.0.1", game_port), host_key)

    def env(self) -> dict[str, str]:
        return {
            "HOME": str(self.path),
            "XDG_DATA_HOME": str(self.path / "share"),
            "XDG_CONFIG_HOME": str(self.path / "config"),
            "XDG_CACHE_HOME": str(self.path / "cache"),
        }

    def remove(self) -> None:
        """End the session's hold; a temporary home goes, a kept one stays for a return."""
        with contextlib.suppress(OSError):
            os.close(self._lock)
        if not self.kept:
            shutil.rmtree(self.path, ignore_errors=True)


def forget_kept_homes(root: Path, game_port: int) -> None:
    """Remove the kept homes of a table that ended cleanly (its server is stopping)."""
    for path in root.glob(f"{game_port}-*") if root.exists() else []:
        shutil.rmtree(path, ignore_errors=True)


def seat_command(game_port: int, name: str | None) -> list[str]:
    """``wizard-tui join`` for a visiting seat: its record stays in memory (the host's
    record has the game), the name from the visitor."""
    command = [sys.executable, "-m", "wizard_tui", "join", f"127.0.0.1:{game_port}"]
    if name is not None:
        command += ["--name", name]
    return [*command, "--no-records"]


def seat_env(
    *,
    visitor: Mapping[str, str],
    term: str | None,
    home: SeatHome,
    via: str,
    password: str | None,
) -> dict[str, str]:
    """The whole environment of a seat's process: nothing of the server's own but PATH."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    env.update(home.env())
    env.update(passed_env(visitor, term))
    env[VIA_ENV] = via
    if password is not None:
        env[PASSWORD_ENV] = password
    return env

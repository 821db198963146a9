"""The client in a real terminal emulator (tmux, 80x24): what its incremental repaints leave
on screen must equal a full repaint of the same state. Skipped where tmux is missing."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

SCRIPT = Path(__file__).with_name("tmux_table.py")


# Each test its own tmux server: two starting the default server at once (two test workers)
# race, and one of them fails to start its session.
SOCKET = f"wizard-ui-{uuid.uuid4().hex[:8]}"


def tmux(*args: str) -> str:
    command = ["tmux", "-L", SOCKET, *args]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def capture(session: str) -> str:
    return tmux("capture-pane", "-p", "-t", session)


def wait_for(session: str, text: str, timeout: float = 20.0) -> str:
    end = time.monotonic() + timeout
    while True:
        screen = capture(session)
        if text in screen:
            return screen
        assert time.monotonic() < end, f"{text!r} never appeared:\n{screen}"
        time.sleep(0.1)


def settle(session: str, quiet: float = 2.5, timeout: float = 20.0) -> str:
    """The screen once it has stopped changing for ``quiet`` seconds (holds run out)."""
    end = time.monotonic() + timeout
    last, since = capture(session), time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < end, "the screen never settled"
        time.sleep(0.2)
        now = capture(session)
        if now != last:
            last, since = now, time.monotonic()
    return last


@pytest.mark.parametrize("ascii_only", [False, True], ids=["unicode", "ascii"])
def test_incremental_repaints_match_a_full_repaint(ascii_only: bool) -> None:
    session = f"wizard-ui-{uuid.uuid4().hex[:8]}"
    command = f"{sys.executable} {SCRIPT}" + (" --ascii" if ascii_only else "")
    tmux(
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        "80",
        "-y",
        "24",
        "-e",
        "TERM=tmux-256color",
        command,
    )
    try:
        wait_for(session, "Choose trump")  # seed 3: we deal round 1 and a Wizard turns up
        tmux("send-keys", "-t", session, "h")  # hearts
        wait_for(session, "Your bid")
        tmux("send-keys", "-t", session, "Enter")
        wait_for(session, "play a card")
        tmux("send-keys", "-t", session, "Left", "Right", "Enter")
        wait_for(session, "Round 2")
        incremental = settle(session)
        # Resize away and back: the app repaints everything from scratch.
        tmux("resize-window", "-t", session, "-x", "81", "-y", "24")
        time.sleep(0.5)
        tmux("resize-window", "-t", session, "-x", "80", "-y", "24")
        full = settle(session)
        assert incremental == full
        assert ("Quit" in full.splitlines()[-1]) and "Hck" not in full
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-session", "-t", session], capture_output=True)

"""``wizard-tui play`` in a real terminal (tmux, 80x24), driven by keys alone: a whole game.

This is the Textual issue's done-criterion as a test: the real command (host and bots on
loopback, the same path as a LAN game), every bid, trump choice and card sent as key
presses, the standings read off the screen at the end, then ``q`` quits with status 0 and
the game's record passes ``wizard-tui verify``. Its own tmux server (``-L``) keeps it apart
from any other tmux on the machine. Skipped where tmux is missing.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from wizard_tui.game import rounds_for

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

GAME_TIMEOUT = 120.0
PLACES = {
    f"{place}." for place in range(1, 7)
}  # a 4-player game with --bot-delay 0 takes a few seconds here


class Terminal:
    """One tmux session on a private server, 80x24."""

    def __init__(self, command: str, env: dict[str, str]) -> None:
        self.socket = f"wizard-play-{uuid.uuid4().hex[:8]}"
        self._tmux(
            "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
            *(a for k, v in env.items() for a in ("-e", f"{k}={v}")),
            command,
        )  # fmt: skip

    def _tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        ).stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "t", *keys)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


class Player:
    """Answers the prompts on one terminal, one look at the screen per ``step``.

    Bids: Enter (the highlighted bid is always allowed). Trump: ``h``. Cards: Enter on the
    selected card; a dimmed one is refused and the screen stays as it was, so after a
    moment without change, move right and try again.
    """

    def __init__(self, term: Terminal) -> None:
        self.term = term
        self.last = ""
        self.unchanged = 0
        self.sent = 0  # key presses
        self.refusals: list[str] = []  # screens that showed a refusal from the host

    def step(self) -> bool:
        """Look once and answer; True once the final standings show."""
        screen = self.term.screen()
        if "Game over." in screen and "Rematch" in screen:
            self.last = screen
            return True
        self.unchanged = self.unchanged + 1 if screen == self.last else 0
        self.last = screen
        prompt = next((line for line in screen.splitlines() if "Your turn" in line), "")
        if "Enter goes on" in screen and self.unchanged == 0:
            self.send("Enter")  # the end-of-round summary
        elif "Choose trump" in screen and self.unchanged == 0:
            self.send("h")
        elif "bid" in prompt and self.unchanged == 0:
            self.send("Enter")
        elif "play a card" in prompt:
            if self.unchanged == 0:
                self.send("Enter")
            elif self.unchanged % 4 == 0:
                self.send("Right", "Enter")
        elif refused(screen, "Refused:"):
            self.saw_refusal(screen)
        return False

    def saw_refusal(self, screen: str) -> None:
        """The host refused one of our intents: the table sent one it knew was stale (a
        second bid for an Enter pressed twice was refused with wrong_phase once the
        bidding had ended). Nothing here asks for a refused move, so each one is kept for
        the test to fail on; a move clears it (as a player would), so that the game and
        the other checks go on."""
        if self.unchanged == 0:
            self.refusals.append(screen)
        elif self.unchanged % 4 == 3:
            self.send("Right")

    def send(self, *keys: str) -> None:
        self.term.keys(*keys)
        self.sent += len(keys)


def refused(screen: str, word: str) -> bool:
    """The prompt line shows a refusal (it hides "Your turn" until a key is pressed)."""
    return any(line.strip().startswith(word) for line in screen.splitlines())


def play_by_keys(*players: Player) -> None:
    """Step every player until each one's terminal shows the final standings."""
    end = time.monotonic() + GAME_TIMEOUT
    done = [False] * len(players)
    while not all(done):
        for i, player in enumerate(players):
            done[i] = done[i] or player.step()
        assert time.monotonic() < end, "the game did not end in time:\n" + "\n".join(
            p.last for p in players
        )
        time.sleep(0.05)


def wait_for(term: Terminal, text: str, timeout: float = 30.0) -> str:
    end = time.monotonic() + timeout
    while text not in (screen := term.screen()):
        assert time.monotonic() < end, f"{text!r} never showed:\n{screen}"
        time.sleep(0.1)
    return screen


def ranked(standings: str) -> list[str]:
    """The standings' lines, first place first."""
    lines = (line.split("▏")[0] for line in standings.splitlines())  # not the chart beside
    return [line.strip() for line in lines if line.strip()[:2] in PLACES]


def same_standings(screen: str) -> list[str]:
    """The standings as everyone sees them: without the "(you)" mark and its padding."""
    return [" ".join(line.replace("(you)", "").split()) for line in ranked(screen)]


def unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def quit_with_status_0(term: Terminal) -> None:
    term.keys("q")
    assert "EXIT-STATUS=0" in wait_for(term, "EXIT-STATUS=", timeout=20)


def verify(record: Path) -> None:
    verified = subprocess.run(
        [sys.executable, "-m", "wizard_tui", "verify", str(record)],
        capture_output=True,
        text=True,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "OK" in verified.stdout


def user_env(home: Path) -> dict[str, str]:
    """A user of their own: keys, pinned hosts and records under ``home``."""
    return {
        "TERM": "tmux-256color",
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "PATH": os.environ.get("PATH", ""),
    }


def command(args: str) -> str:
    # The shell line stays after the program ends, so its exit status can be read.
    return f"{sys.executable} -m wizard_tui {args}; echo EXIT-STATUS=$?; sleep 30"


def test_a_whole_game_of_play_by_keyboard_in_80x24(tmp_path: Path) -> None:
    args = "play --players 4 --bot-level random --bot-delay 0 --name Ann"
    term = Terminal(command(args), user_env(tmp_path))
    try:
        player = Player(term)
        play_by_keys(player)
        # Four players: 15 rounds, so 15 bids and 120 cards of ours, at the least.
        assert player.sent >= 135
        places = ranked(player.last)
        assert len(places) == 4, player.last
        assert any("Ann (you)" in line for line in places) and "winner" in places[0]
        assert player.refusals == [], player.refusals
        pad = read_score_pad(term, rounds_for(4))
        quit_with_status_0(term)
    finally:
        term.close()
    records = list((tmp_path / "data").rglob("records/*.json"))
    assert len(records) == 1
    verify(records[0])
    # The final score pad, row by row, against the record and the standings.
    record = json.loads(records[0].read_text())
    rounds = record["rounds"]
    assert sorted(pad) == [r["round"] for r in rounds] == list(range(1, 16))
    for r in rounds:
        assert pad[r["round"]] == list(
            zip(r["bids"], r["tricks_won"], r["points"], r["totals"], strict=True)
        ), r["round"]
    names = [p["name"] for p in record["players"]]
    final = dict(zip(names, rounds[-1]["totals"], strict=True))
    for line in places:
        name, total = standing(line)
        assert final[name] == total, line


def standing(line: str) -> tuple[str, int]:
    """``1. Ann (you)   120  winner`` -> ("Ann", 120)."""
    words = line.replace("(you)", "").replace("winner", "").split()
    return " ".join(words[1:-1]), int(words[-1])


PAD_ROW = re.compile(r"(\d+)/(\d+)\s+([+-]\d+)")
PAD_HEAD = re.compile(r"^\W*(\d+)\S*\s")


def read_score_pad(term: Terminal, rounds: int) -> dict[int, list[tuple[int, int, int, int]]]:
    """Open the score pad on the final standings and read its ``rounds`` rows off the
    screen: {round: [(bid, won, points, total) per seat]}.

    The app draws and scrolls when it gets to it, and a capture can catch a frame half
    written, so nothing here waits a set time: a frame is read once two captures in a
    row agree, a key is pressed only towards rows not read yet (Page Up above the first
    one shown, Page Down below), and after each the next frame is awaited. It stops with
    every row read, or when a key no longer moves the pad (the assertions then say which
    rows are missing)."""
    term.keys("s")
    wait_for(term, "Score pad")
    read: dict[int, list[tuple[int, int, int, int]]] = {}
    screen = still_frame(term)
    for _ in range(4 * rounds):
        shown = pad_rows(screen)
        read.update(shown)
        missing = [r for r in range(1, rounds + 1) if r not in read]
        if not missing:
            break
        if shown:  # (else it is not laid out yet: its next frame will be)
            term.keys("PageUp" if missing[0] < min(shown) else "PageDown")
        moved = next_frame(term, screen)
        if moved == screen:
            break  # the pad is at its end that way: those rows are not on it
        screen = moved
    term.keys("s")
    return read


def pad_rows(screen: str) -> dict[int, list[tuple[int, int, int, int]]]:
    """The score pad's rows in one frame: a round's line (bid/won and points for each
    seat) and, below it, its totals."""
    lines = [line.strip("│| ") for line in screen.splitlines()]
    rows = {}
    for line, below in itertools.pairwise(lines):
        head = PAD_HEAD.match(line)
        cells = PAD_ROW.findall(line)
        totals = [int(t) for t in re.findall(r"-?\d+", below)]
        if head and len(cells) == 4 and len(totals) == 4:
            rows[int(head.group(1))] = [
                (int(b), int(w), int(p), t) for (b, w, p), t in zip(cells, totals, strict=True)
            ]
    return rows


def still_frame(term: Terminal, timeout: float = 30.0) -> str:
    """The screen once two captures in a row agree (no frame half written)."""
    end = time.monotonic() + timeout
    screen = term.screen()
    while (again := term.screen()) != screen and time.monotonic() < end:
        screen = again
        time.sleep(0.05)
    return again


def next_frame(term: Terminal, before: str, timeout: float = 30.0) -> str:
    """The first still frame that differs from ``before``; ``before`` if none comes."""
    end = time.monotonic() + timeout
    while (screen := still_frame(term)) == before and time.monotonic() < end:
        time.sleep(0.05)
    return screen


def test_host_and_join_in_two_terminals_play_each_other(tmp_path: Path) -> None:
    """``host`` in one terminal, ``join 127.0.0.1:PORT`` in another, four bots: a whole game."""
    free_port = unused_port()
    host_args = (
        f"host --bind 127.0.0.1 --port {free_port} --players 6 --bots 4 --bot-level random "
        "--bot-delay 0 --name Hana"
    )
    host = Terminal(command(host_args), user_env(tmp_path / "hana"))
    guest = None
    try:
        wait_for(host, f"wizard-tui join 127.0.0.1:{free_port}")
        guest = Terminal(
            command(f"join 127.0.0.1:{free_port} --name Gus"), user_env(tmp_path / "gus")
        )
        lobby = wait_for(guest, "Waiting for the host to start")
        assert f"wizard-tui join 127.0.0.1:{free_port}" in lobby  # the port, not the default
        lobby = wait_for(host, "6 of 6 taken")
        assert "Gus" in lobby
        host.keys("Enter")  # start the game
        hana, gus = Player(host), Player(guest)
        play_by_keys(hana, gus)
        # Six players: 10 rounds, so 10 bids and 55 cards each, at the least.
        assert hana.sent >= 65 and gus.sent >= 65
        assert hana.refusals == gus.refusals == [], hana.refusals + gus.refusals
        assert same_standings(hana.last) == same_standings(gus.last)
        for player, me in ((hana, "Hana (you)"), (gus, "Gus (you)")):
            places = ranked(player.last)
            assert len(places) == 6 and any(me in line for line in places), player.last
        quit_with_status_0(guest)
        quit_with_status_0(host)
    finally:
        host.close()
        if guest is not None:
            guest.close()
    records = list((tmp_path / "hana" / "data").rglob("records/*.json"))
    assert len(records) == 1
    verify(records[0])

"""The Textual client's costs: start-up, memory, and bytes sent to the terminal per card.

python benchmarks/tui.py [--runs 5] [--rounds 5]

1. Start-up: seconds from process start to the first painted table (80x24, headless), and
   the process's peak RSS, each in a fresh subprocess, beside a minimal Textual app
   (one Static, exits after its first paint) measured the same way in the same run.
   Goal: within 1.5x of the minimal app on both.
2. Bandwidth: the client runs under a pty (80x24, TERM=xterm-256color, the real Linux
   driver) and plays ``--rounds`` rounds of a 4-player game by keys against paced bots
   (one update per 0.12 s, as a host pacing its bots would send them). Every byte the app
   writes to the terminal between the first painted table and the end is counted and
   divided by the cards played at the table. Goal: under 2 KB per card on average. Then
   the table sits idle for a few seconds: it should send nothing.

The game is in-process (``tests/ui/sessions.py``'s ``LocalSession``): no network.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import fcntl
import json
import os
import pty
import resource
import select
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

BOT_PACE = 0.12  # seconds between two updates caused by bots
IDLE_SECONDS = 3.0


# ---------------------------------------------------------------------------- children


def _peak_rss_mib() -> float:
    # VmHWM, not getrusage's ru_maxrss: Linux carries ru_maxrss across fork and exec, so a
    # child would report at least the parent's size at fork (this script's, with its
    # fixtures loaded), hiding the difference between the two apps.
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # not Linux


def child_minimal(t0: float) -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Minimal(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("Hello")

        def on_mount(self) -> None:
            self.call_after_refresh(self._painted)

        def _painted(self) -> None:
            self.painted_at = time.time()
            self.exit()

    app = Minimal()
    app.run(headless=True, size=(80, 24))
    print(json.dumps({"first_paint": app.painted_at - t0, "rss_mib": _peak_rss_mib()}))


def child_table(t0: float, fixture: str) -> None:
    import pickle

    from ui.sessions import StaticSession

    from wizard_tui.ui import WizardApp
    from wizard_tui.ui.screens.table import TableScreen

    # The updates a host would send (tests/ui/tables.py's mid-trick table), made by the
    # parent: building them plays four rounds of bots, which is no part of starting up.
    with open(fixture, "rb") as f:
        updates = pickle.load(f)
    painted: list[float] = []

    class Timed(WizardApp):
        def on_table_changed(self, message) -> None:
            # Runs before WizardApp's own handler (subclass first); check after the refresh.
            if message.update == updates[-1]:
                self.call_after_refresh(self._paint_check)

        def _paint_check(self) -> None:
            if isinstance(self.screen, TableScreen) and self.screen.is_mounted:
                if not painted:
                    painted.append(time.time())
                    self.exit()
            else:
                self.call_after_refresh(self._paint_check)

    app = Timed(StaticSession(updates))
    app.run(headless=True, size=(80, 24))
    print(json.dumps({"first_paint": painted[0] - t0, "rss_mib": _peak_rss_mib()}))


class PacedSession:
    """Delays each update that bots caused, so each reaches the screen on its own."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    async def updates(self):
        from wizard_tui.session import TableUpdate

        async for update in self.inner.updates():
            if isinstance(update, TableUpdate) and update.events and not update.view.my_turn:
                await asyncio.sleep(BOT_PACE)
            yield update


def child_bandwidth(report_fd: int, rounds: int) -> None:
    from ui.sessions import LocalSession

    from wizard_tui.game import Phase
    from wizard_tui.ui import WizardApp
    from wizard_tui.ui.screens.table import TableScreen

    local = LocalSession(4, seed=3)
    app = WizardApp(PacedSession(local))

    def report(**fields) -> None:
        os.write(report_fd, (json.dumps(fields) + "\n").encode())

    def cards_played() -> int:
        game = local.game
        done = sum(len(r.tricks) * game.players for r in game.results)
        return done + sum(len(t.cards) for t in game.tricks) + len(game.trick)

    async def autopilot(pilot) -> None:
        while not isinstance(app.screen, TableScreen):
            await asyncio.sleep(0.05)
        await pilot.pause(0.5)
        report(event="start", cards=cards_played())
        mine = 0
        while local.game.round <= rounds and local.game.phase is not Phase.GAME_OVER:
            view = local.view
            screen = app.screen
            synced = app.table is not None and app.table.view == view
            if isinstance(screen, TableScreen) and screen.check_action("go_on", ()):
                await pilot.press("enter")  # the round's summary: a player goes on
            elif isinstance(screen, TableScreen) and screen.open_panel is not None:
                await pilot.press("enter")
            elif synced and isinstance(screen, TableScreen) and view.my_turn:
                await pilot.press("right", "left", "enter")  # a look along the hand, play
                mine += view.phase is Phase.PLAY
            await asyncio.sleep(0.05)
        # Wait for our next turn (the bots have nothing left to do), then for the last
        # trick's hold to expire.
        while not (app.table is not None and app.table.view == local.view and local.view.my_turn):
            await asyncio.sleep(0.05)
        await asyncio.sleep(2.0)
        report(event="end", cards=cards_played(), mine=mine)
        await asyncio.sleep(IDLE_SECONDS)  # nobody acts: an idle table should send nothing
        report(event="idle")
        app.exit()

    app.run(auto_pilot=autopilot)


# ---------------------------------------------------------------------------- parent


def run_child(kind: str, fixture: str) -> dict:
    t0 = time.time()
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--t0", repr(t0), "--fixture", fixture],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def startup(runs: int) -> dict[str, dict[str, float]]:
    import pickle
    import tempfile

    from ui import tables

    # An installed wizard-tui has its bytecode compiled at install time (pip does that, as it
    # did for Textual in .venv); a source checkout run with PYTHONDONTWRITEBYTECODE=1 would
    # instead compile every module of ours in every run, and measure the compiler.
    for package in ("wizard_tui", "netplay", "tests/ui"):
        compileall.compile_dir(ROOT / package, quiet=1)
    samples: dict[str, list[dict]] = {"minimal": [], "table": []}
    with tempfile.NamedTemporaryFile(suffix=".pickle") as fixture:
        pickle.dump(tables.mid_trick(), fixture)
        fixture.flush()
        for _ in range(runs):
            for kind in samples:  # alternate, so drift on a shared machine hits both alike
                samples[kind].append(run_child(kind, fixture.name))
    return {
        kind: {
            "first_paint": statistics.median(s["first_paint"] for s in runs_),
            "rss_mib": statistics.median(s["rss_mib"] for s in runs_),
        }
        for kind, runs_ in samples.items()
    }


def bandwidth(rounds: int, term: str = "xterm-256color") -> dict[str, float]:
    report_r, report_w = os.pipe()
    pid, master = pty.fork()
    if pid == 0:  # the child: the app on the pty's slave side
        os.close(report_r)
        os.environ["TERM"] = term
        os.environ.pop("COLORTERM", None)
        os.environ.pop("NO_COLOR", None)
        try:
            child_bandwidth(report_w, rounds)
        finally:
            os._exit(0)
    os.close(report_w)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    total = 0
    marks: dict[str, dict] = {}
    pending = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master, report_r], [], [], 1.0)
        if master in ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            total += len(data)
        if report_r in ready:
            chunk = os.read(report_r, 4096)
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                fields = json.loads(line)
                fields["bytes"] = total
                marks[fields["event"]] = fields
            if not chunk and "idle" in marks:
                break
    os.waitpid(pid, 0)
    start, end, idle = marks["start"], marks["end"], marks["idle"]
    cards = end["cards"] - start["cards"]
    sent = end["bytes"] - start["bytes"]
    return {
        "first_paint_bytes": start["bytes"],
        "bytes": sent,
        "cards": cards,
        "mine": end["mine"],
        "per_card": sent / cards,
        "per_my_card": sent / max(1, end["mine"]),
        "idle_bytes": idle["bytes"] - end["bytes"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", choices=("minimal", "table"))
    parser.add_argument("--t0", type=float)
    parser.add_argument("--fixture")
    args = parser.parse_args()
    if args.child == "minimal":
        return child_minimal(args.t0)
    if args.child == "table":
        return child_table(args.t0, args.fixture)

    s = startup(args.runs)
    m, t = s["minimal"], s["table"]
    print(f"start-up, median of {args.runs} runs each (80x24, headless):")
    print(
        f"  minimal Textual app  first paint {m['first_paint'] * 1000:6.0f} ms   "
        f"peak RSS {m['rss_mib']:5.1f} MiB"
    )
    print(
        f"  wizard-tui table     first paint {t['first_paint'] * 1000:6.0f} ms   "
        f"peak RSS {t['rss_mib']:5.1f} MiB"
    )
    print(
        f"  ratio                time {t['first_paint'] / m['first_paint']:.2f}x"
        f"   memory {t['rss_mib'] / m['rss_mib']:.2f}x   (goal: <= 1.5x each)"
    )
    b = bandwidth(args.rounds)
    print(
        f"terminal output, {args.rounds} rounds of 4 players played by keys under a pty "
        f"(80x24, 256 colours):"
    )
    print(
        f"  first paint {b['first_paint_bytes']:,} B; then {b['bytes']:,} B for "
        f"{b['cards']} cards ({b['mine']} of them ours)"
    )
    print(
        f"  {b['per_card']:,.0f} B per card played   {b['per_my_card']:,.0f} B per card we "
        f"played   (goal: < 2048 B per card)"
    )
    print(f"  then an idle table for {IDLE_SECONDS:.0f} s: {b['idle_bytes']} B")


if __name__ == "__main__":
    main()

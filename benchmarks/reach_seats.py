"""Seats played through the host's machine (``host --ssh`` / ``--web``): what each costs,
and whether a game stays responsive while many are open.

python benchmarks/reach_seats.py [--seats 6] [--loads 0,6,12,18] [--probes 25] [--rate 2]
                                 [--load-way ssh|web] [--skip-startup]

1. Start-up and memory: ``--seats`` SSH sessions (asyncssh's client, PTY 80x24) open at once
   against a 6-seat headless host; each one's seconds from connecting to its lobby drawn,
   and each seat process's RSS once all are in. Then the same for browser seats: textual-
   serve's websocket driven directly (no browser), the name typed on the entry screen.
   A single SSH seat started alone is the baseline, measured in the same run.
2. Responsiveness: a 6-seat game (5 bots, no delay) with one SSH seat of ours; the seat
   opens and closes the score pad (``s``) ``--probes`` times and we time key to screen.
   Meanwhile ``--loads`` other SSH (or, ``--load-way web``, browser) seats play at other
   full tables on this machine (6 a table, their games started), each a busy player
   pressing ``s`` ``--rate`` times a second (a full repaint of the pad each time). The
   median and 95th percentile per load, beside load 0 measured in the same run.

Real processes on 127.0.0.1 only; every host is stopped at the end (its servers and seats
go with it). Needs the ``ssh`` and ``web`` extras.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
import asyncssh

LOBBY = b"Wizard lobby"
PAD_OPEN = b"back to the table"
TABLE_BACK = b"Scores"


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def seat_pids(game_port: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                ours = f"127.0.0.1:{game_port}" in cmd or f"--game-port {game_port} " in cmd
                if ours and ("join" in cmd or "web_seat" in cmd):
                    found.append(int(entry.name))  # (a web seat: its shell and its python)
    return found


class Host:
    def __init__(self, home: Path, *, players: int, bots: int, way: str) -> None:
        command = [sys.executable, "-m", "wizard_tui", "host", "--headless", "--no-announce"]
        command += ["--bind", "127.0.0.1", "--port", "0", "--players", str(players)]
        command += ["--bots", str(bots), "--bot-delay", "0", f"--{way}", "0"]
        env = dict(os.environ, XDG_DATA_HOME=str(home), XDG_CONFIG_HOME=str(home))
        self.process = subprocess.Popen(
            command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True
        )
        self.game_port = self.way_port = 0
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if m := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
                self.game_port = int(m.group(1))
            if m := re.search(r"ssh -p (\d+)", line):
                self.way_port = int(m.group(1))
                break
            if m := re.search(r"browser: http://127\.0\.0\.1:(\d+)/", line):
                self.way_port = int(m.group(1))
                break

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


class Terminal:
    """Everything a seat wrote, and a way to wait for text to show up after an offset."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.changed = asyncio.Event()

    def feed(self, chunk: bytes) -> None:
        self.data += chunk
        self.changed.set()

    async def wait_for(self, marker: bytes, start: int = 0, timeout: float = 120) -> float:
        end = time.perf_counter() + timeout
        while self.data.find(marker, start) < 0:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, end - time.perf_counter()))
        return time.perf_counter()

    async def quiet(self, seconds: float = 0.25) -> None:
        while True:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), seconds)
            except TimeoutError:
                return


async def ssh_seat(port: int, user: str) -> tuple[float, Terminal, object]:
    t0 = time.perf_counter()
    conn = await asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None)
    process = await conn.create_process(
        term_type="xterm-256color", term_size=(80, 24), encoding=None
    )
    screen = Terminal()

    async def pump() -> None:
        while chunk := await process.stdout.read(65536):
            screen.feed(chunk)

    task = asyncio.create_task(pump())
    t1 = await screen.wait_for(LOBBY)
    return t1 - t0, screen, (conn, process, task)


async def web_seat(port: int, name: str, http: aiohttp.ClientSession) -> tuple[float, object]:
    t0 = time.perf_counter()
    ws = await http.ws_connect(f"ws://127.0.0.1:{port}/ws?width=80&height=24")
    screen = Terminal()

    async def pump() -> None:
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                screen.feed(message.data)

    task = asyncio.create_task(pump())
    await screen.wait_for(b"Take a seat")
    await ws.send_json(["stdin", f"{name}\r"])
    t1 = await screen.wait_for(LOBBY)
    return t1 - t0, (ws, task, screen)


def summary(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return f"median {statistics.median(values) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms"


async def startup_and_memory(tmp: Path, seats: int) -> None:
    alone = Host(tmp / "alone", players=6, bots=0, way="ssh")
    try:
        dt, _, keep = await ssh_seat(alone.way_port, "solo")
        print(f"1 SSH seat alone: start-up {dt:.2f} s (baseline)")
        conn = keep[0]  # type: ignore[index]
        conn.close()  # type: ignore[attr-defined]
    finally:
        alone.stop()

    host = Host(tmp / "ssh", players=6, bots=0, way="ssh")
    try:
        results = await asyncio.gather(*(ssh_seat(host.way_port, f"p{i}") for i in range(seats)))
        times = [r[0] for r in results]
        await asyncio.sleep(1.0)
        mem = [rss_mb(pid) for pid in seat_pids(host.game_port)]
        ssh_server = _pids_with(f"reach.ssh --bind 127.0.0.1 --port 0 --game-port {host.game_port}")
        print(
            f"{seats} SSH seats at once: start-up {min(times):.2f}-{max(times):.2f} s "
            f"(mean {statistics.mean(times):.2f}); RSS per seat {sum(mem) / seats:.0f} MB "
            f"({len(mem)} processes), the SSH server {sum(map(rss_mb, ssh_server)):.0f} MB"
        )
        for _, _, (conn, _, _) in results:  # type: ignore[misc]
            conn.close()
    finally:
        host.stop()

    web = Host(tmp / "web", players=6, bots=0, way="web")
    try:
        async with aiohttp.ClientSession() as http:
            results2 = await asyncio.gather(
                *(web_seat(web.way_port, f"w{i}", http) for i in range(seats))
            )
            times = [r[0] for r in results2]
            await asyncio.sleep(1.0)
            mem = [rss_mb(pid) for pid in seat_pids(web.game_port)]
            print(
                f"{seats} browser seats at once: start-up {min(times):.2f}-{max(times):.2f} s "
                f"(mean {statistics.mean(times):.2f}, name typed at once); RSS per seat "
                f"{sum(mem) / seats:.0f} MB ({len(mem)} processes: a shell and a python each)"
            )
            for _, (ws, _, _) in results2:  # type: ignore[misc]
                await ws.close()
    finally:
        web.stop()


def _pids_with(text: str) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if text in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode():
                    out.append(int(entry.name))
    return out


async def keep_pressing(press: Callable[[], Awaitable[None]], rate: float) -> None:
    """A busy player: the score pad opened or closed ``rate`` times a second."""
    while True:
        await press()
        await asyncio.sleep(1 / rate)


async def load_seat(
    way: str, port: int, name: str, http: aiohttp.ClientSession
) -> tuple[Terminal, Callable[[], Awaitable[None]], Callable[[], Awaitable[None]]]:
    """A load seat of ``way``: its screen, a key press, and how to close it."""
    if way == "ssh":
        _, screen, (conn, process, _) = await ssh_seat(port, name)  # type: ignore[misc]

        async def press() -> None:
            process.stdin.write(b"s")

        async def close() -> None:
            conn.close()

        return screen, press, close
    _, (ws, _, screen) = await web_seat(port, name, http)  # type: ignore[misc]

    async def press_web() -> None:
        await ws.send_json(["stdin", "s"])

    return screen, press_web, ws.close


async def responsiveness(tmp: Path, loads: list[int], probes: int, rate: float, way: str) -> None:
    baseline: float | None = None
    for load in loads:
        extra_hosts = [
            Host(tmp / f"load{load}-{i}", players=6, bots=0, way=way)
            for i in range((load + 5) // 6)
        ]
        game = Host(tmp / f"game{load}", players=6, bots=5, way="ssh")
        opened: list[object] = []
        closers: list[Callable[[], Awaitable[None]]] = []
        pressing: list[asyncio.Task[None]] = []
        http = aiohttp.ClientSession()
        try:
            loaders = await asyncio.gather(
                *(
                    load_seat(way, extra_hosts[n // 6].way_port, f"load{n}", http)
                    for n in range(load)
                )
            )
            for screen, press, close in loaders:
                closers.append(close)
                await screen.wait_for(b"Round 1")  # a full table: its game has started
                pressing.append(asyncio.create_task(keep_pressing(press, rate)))
            _, screen, keep = await ssh_seat(game.way_port, "probe")
            opened.append(keep)
            process = keep[1]  # type: ignore[index]
            await screen.quiet(1.0)
            if b"name the trump suit" in screen.data:
                # Dealer under a Wizard: "s" would name spades here, not open the pad.
                process.stdin.write(b"h")  # type: ignore[attr-defined]
                await screen.quiet(1.0)
            latencies: list[float] = []
            misses = 0
            while len(latencies) < probes and misses < probes:
                start = len(screen.data)
                t0 = time.perf_counter()
                process.stdin.write(b"s")  # type: ignore[attr-defined]
                try:
                    latencies.append(await screen.wait_for(PAD_OPEN, start, timeout=15) - t0)
                except TimeoutError:
                    # The key did something else (a trump to name, a pad left open):
                    # counted, and the next key tried afresh.
                    misses += 1
                    await screen.quiet(0.5)
                    continue
                closing = len(screen.data)
                process.stdin.write(b"s")  # type: ignore[attr-defined]
                # The table's key bar again ("s Scores"), so the next key opens the pad
                # rather than landing in the same frame as this close.
                await screen.wait_for(TABLE_BACK, closing)
                await screen.quiet(0.2)
            median = statistics.median(latencies)
            baseline = baseline if baseline is not None else median
            print(
                f"6-seat game, {load:2d} other {way} seats busy: score pad key-to-screen "
                f"{summary(latencies)} ({median / baseline:.2f}x load 0; {misses} missed)"
            )
        finally:
            for task in pressing:
                task.cancel()
            for close in closers:
                with contextlib.suppress(Exception):
                    await close()
            for conn, _, _ in opened:  # type: ignore[misc]
                conn.close()
            await http.close()
            for host in [game, *extra_hosts]:
                host.stop()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--loads", default="0,6,12,18")
    parser.add_argument("--probes", type=int, default=25)
    parser.add_argument("--rate", type=float, default=2.0, help="keys a second per load seat")
    parser.add_argument("--load-way", choices=("ssh", "web"), default="ssh")
    parser.add_argument("--skip-startup", action="store_true", help="part 2 only")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_startup:
            await startup_and_memory(Path(tmp), args.seats)
        loads = [int(x) for x in args.loads.split(",")]
        if any(load % 6 for load in loads):
            parser.error("--loads: multiples of 6 (full tables, whose games have started)")
        await responsiveness(Path(tmp), loads, args.probes, args.rate, args.load_way)


if __name__ == "__main__":
    asyncio.run(main())

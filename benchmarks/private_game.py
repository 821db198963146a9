"""Whole network games through the real host: how long the host's event loop stalls at a
round's end, and the time per round, for the private deal beside commit-reveal.

    .venv/bin/python benchmarks/private_game.py [--games 2]

Tables: 4 seats (2 network clients + 2 bots of the host's) and 6 seats (1 client + 5 host
bots), bots at level ``random`` with no delay. The host runs in this process, as in
``wizard-tui host``/``play``; the network clients run in a child process, so that their
own round-end checks do not count as the host's.

* round-end stall: the longest synchronous run of the call that completes a round's
  reveals at the host (the relay's verification, the bots, scoring, the record), the
  figure a table in the host's process freezes for at every round end;
* loop stall: the longest lateness of a 1 ms timer over the whole game (any cause);
* per round: the game's wall time over its rounds.

``before`` rows reproduce the host as it was: every bot of the host re-auditing the round
at its end, and the next round's deal started in the same call (``--no-before``: skip).
The 2 cores are shared: compare rows of one run, and the CPU column (this thread's time
in the round-end call, which other processes do not inflate).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from netplay import Server  # noqa: E402
from wizard_tui.bots import make_bot  # noqa: E402
from wizard_tui.net import protocol as p  # noqa: E402
from wizard_tui.net.bot_player import play_as_bot  # noqa: E402
from wizard_tui.net.client import NetworkSession  # noqa: E402
from wizard_tui.net.deals.private.host import PrivateDealing  # noqa: E402
from wizard_tui.net.host import HostOptions  # noqa: E402
from wizard_tui.net.host_adapter import WizardHost  # noqa: E402
from wizard_tui.net.host_runtime import LoopRuntime  # noqa: E402

LOOPBACK = "127.0.0.1"
# Bots with no delay act faster than people: lift the host's rate limit, not its checks.
LIMITS = dataclasses.replace(p.LIMITS, linger=0.2, rate=1000.0, burst=1000)
TABLES = ((4, 2), (6, 1))  # (seats, network clients)


class RoundEndTimer:
    """Wraps the private host's entry points: the duration of each call during which a
    round's verdict arrived (the round-end stall)."""

    def __init__(self) -> None:
        self.stalls: list[float] = []
        self.cpu: list[float] = []
        self.depth = 0  # on_deal calls _step: time the outer call only

    def install(self) -> None:
        for name in ("on_deal", "_step"):
            original = getattr(PrivateDealing, name)
            setattr(PrivateDealing, name, self._timed(original))

    def _timed(self, original: Any) -> Any:
        timer = self

        def call(game: PrivateDealing, *args: Any) -> Any:
            deal = game.deal
            before = deal.verdict if deal is not None else None
            start, cpu = time.perf_counter(), time.thread_time()
            timer.depth += 1
            try:
                return original(game, *args)
            finally:
                timer.depth -= 1
                done = deal is not None and before is None and deal.verdict is not None
                if done and timer.depth == 0:
                    timer.stalls.append(time.perf_counter() - start)
                    timer.cpu.append(time.thread_time() - cpu)

        return call


async def _lateness(samples: list[float]) -> None:
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(0.001)
        samples.append(loop.time() - start - 0.001)


def _clients(port: int, count: int) -> None:
    async def run() -> None:
        sessions = []
        for i in range(count):
            session = NetworkSession(LOOPBACK, port, name=f"net{i}", limits=LIMITS)
            await session.connect()
            sessions.append(session)
        codes = await asyncio.gather(
            *(
                play_as_bot(s, make_bot("random", random.Random(i)), quiet=True)
                for i, s in enumerate(sessions)
            )
        )
        if any(codes):
            raise SystemExit(f"a client failed: {codes}")

    asyncio.run(run())


async def one_game(seats: int, clients: int, deal: str, records: Path) -> dict[str, float]:
    options = HostOptions(
        players=seats, bots=seats - clients, bot_level="random", records_dir=records, deal=deal
    )
    host = WizardHost(options, rng=random.Random(1), runtime=_RUNTIME[0])
    server = Server(
        host, protocol=p.PROTOCOL, version=p.VERSION, host=LOOPBACK, port=0, limits=LIMITS
    )
    host.server = server
    await server.start()
    child = multiprocessing.get_context("spawn").Process(
        target=_clients, args=(server.port, clients)
    )
    lateness: list[float] = []
    monitor = asyncio.ensure_future(_lateness(lateness))
    try:
        child.start()
        await asyncio.to_thread(_wait_seated, host, seats)
        start = time.perf_counter()
        await host.finished.wait()
        elapsed = time.perf_counter() - start
        await asyncio.to_thread(child.join, 30)
    finally:
        monitor.cancel()
        await host.close()
        await server.close()
    if host.failed is not None or child.exitcode != 0:
        raise SystemExit(f"game failed: {host.failed} (clients exit {child.exitcode})")
    return {"per_round": elapsed / (60 // seats), "loop_stall": max(lateness)}


def _wait_seated(host: WizardHost, seats: int) -> None:
    while host.table is None:
        time.sleep(0.001)


class _SameCall(LoopRuntime):
    """The old host's runtime: a timer of no delay (the next round's deal) runs at once."""

    def call_later(self, delay: float, fire: Any) -> Any:
        if delay <= 0:
            fire()
            return asyncio.get_running_loop().call_soon(lambda: None)
        return super().call_later(delay, fire)


_RUNTIME: list[LoopRuntime] = [LoopRuntime()]


def as_before(before: bool) -> None:
    """Switch the host between its old round end (``before``) and the current one."""
    from netplay.mental import DealPlayer
    from wizard_tui.net import private_relay

    def auditing(*args: Any, **kwargs: Any) -> DealPlayer:
        return DealPlayer(*args, **{**kwargs, "audit": True})

    private_relay.DealPlayer = auditing if before else DealPlayer  # type: ignore[attr-defined,assignment]
    _RUNTIME[0] = _SameCall() if before else LoopRuntime()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per table and deal")
    parser.add_argument("--no-before", action="store_true", help="skip the old host's rows")
    args = parser.parse_args()
    timer = RoundEndTimer()
    timer.install()
    runs = [("private, before", True), ("private", False), (p.DEAL_COMMIT_REVEAL, False)]
    if args.no_before:
        runs = runs[1:]
    print(
        "| seats | deal | round-end stall max (median) | its CPU median | loop stall max "
        "| per round |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for seats, clients in TABLES:
            for label, before in runs:
                as_before(before)
                deal = p.DEAL_COMMIT_REVEAL if label == p.DEAL_COMMIT_REVEAL else p.DEAL_PRIVATE
                timer.stalls, timer.cpu = [], []
                results = [
                    await one_game(seats, clients, deal, Path(tmp)) for _ in range(args.games)
                ]
                per_round = statistics.median(r["per_round"] for r in results) * 1000
                loop_stall = max(r["loop_stall"] for r in results) * 1000
                stall, cpu = "-", "-"
                if timer.stalls:
                    worst, median = max(timer.stalls), statistics.median(timer.stalls)
                    stall = f"{worst * 1000:.1f} ({median * 1000:.1f})"
                    cpu = f"{statistics.median(timer.cpu) * 1000:.1f}"
                table = f"{seats} ({clients} client{'s' if clients > 1 else ''})"
                print(
                    f"| {table} | {label} | {stall} | {cpu} | {loop_stall:.1f} | {per_round:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    asyncio.run(main())

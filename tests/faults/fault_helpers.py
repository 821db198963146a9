"""Whole games of real ``wizard-tui`` processes on 127.0.0.1 with faults put in: each
"machine" is a data directory of its own (``XDG_DATA_HOME``), as on separate computers.

``Table`` starts a headless host and ``join --bot`` players, waits for lines of their output
(each process writes to a file of its own), and kills, stops or restarts them. ``records``
checks every record every participant wrote: each passes ``verify`` on its own, is complete,
and holds the host's game.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

from wizard_tui.record import GameRecord, RecordedRound
from wizard_tui.verify import verify_path

CLI = [sys.executable, "-m", "wizard_tui"]
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Proc:
    """One process and the file its output goes to."""

    name: str
    process: asyncio.subprocess.Process
    out: Path

    def text(self) -> str:
        return self.out.read_text(errors="replace")

    async def line(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """The first line of its output matching ``pattern``, once it is written."""
        async with asyncio.timeout(timeout):
            while True:
                found = re.search(pattern, self.text(), re.MULTILINE)
                if found:
                    return found
                if self.process.returncode is not None:
                    raise AssertionError(f"{self.name} ended without {pattern!r}:\n{self.text()}")
                await asyncio.sleep(0.05)

    async def rounds_done(self, n: int, timeout: float = 60.0) -> None:
        """Until it has reported on ``n`` finished rounds."""
        await self.line(rf"^round {n}: ", timeout)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)

    async def wait(self, timeout: float = 120.0) -> int:
        async with asyncio.timeout(timeout):
            return await self.process.wait()


@dataclass
class Table:
    """A headless host and its players, each with a data directory of its own."""

    root: Path
    procs: list[Proc] = field(default_factory=list)
    port: int = 0

    def env(self, machine: str) -> dict[str, str]:
        home = self.root / machine
        home.mkdir(parents=True, exist_ok=True)
        return {
            **os.environ,
            "XDG_DATA_HOME": str(home),
            "HOME": str(home),
            "PYTHONPATH": str(ROOT),
        }

    async def start(self, name: str, machine: str, *args: str) -> Proc:
        out = self.root / f"{name}.{len(self.procs)}.out"
        with out.open("wb") as sink:
            process = await asyncio.create_subprocess_exec(
                *CLI,
                *args,
                env=self.env(machine),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=sink,
                stderr=asyncio.subprocess.STDOUT,
            )
        proc = Proc(name, process, out)
        self.procs.append(proc)
        return proc

    async def host(self, *args: str, machine: str = "host") -> Proc:
        host = await self.start(
            "host",
            machine,
            "host",
            "--headless",
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--records",
            str(self.root / "host-records"),
            *args,
        )
        found = await host.line(r"listening on 127\.0\.0\.1:(\d+)", 30)
        self.port = int(found[1])
        return host

    async def join(self, name: str, machine: str | None = None) -> Proc:
        return await self.start(
            name,
            machine or name,
            "join",
            f"127.0.0.1:{self.port}",
            "--bot",
            "random",
            "--name",
            name,
        )

    def stop(self, proc: Proc) -> None:
        proc.process.send_signal(signal.SIGSTOP)

    def cont(self, proc: Proc) -> None:
        proc.process.send_signal(signal.SIGCONT)

    async def close(self) -> None:
        """Kill whatever still runs (a failed test), so nothing is left behind."""
        for proc in self.procs:
            if proc.process.returncode is None:
                proc.process.send_signal(signal.SIGCONT)
                proc.kill()
                await proc.process.wait()

    def joined_records(self, machine: str) -> list[Path]:
        return sorted((self.root / machine / "wizard-tui" / "joined").glob("*.json"))


def _facts(rnd: RecordedRound) -> tuple[object, ...]:
    deal = rnd.private_deal
    private = None if deal is None else (deal.setup, frozenset(deal.envelopes))
    dealt = (rnd.commitments, rnd.seeds) if deal is None else private
    return (rnd.round, rnd.hands, rnd.trump_card, rnd.bids, rnd.tricks, rnd.totals, dealt)


def check_records(table: Table, machines: list[str], seats: int) -> GameRecord:
    """The host's record and every record the players' programs wrote (``seats`` of them
    in all, one per seat a player held) verify, are complete, and are the host's game."""
    [host_file] = sorted((table.root / "host-records").glob("*.json"))
    verdict = verify_path(host_file)
    assert verdict.ok, verdict.line()
    host = verdict.record
    assert host is not None and host.complete
    files = [path for machine in machines for path in table.joined_records(machine)]
    assert len(files) == seats, files
    for path in files:
        mine = verify_path(path)
        assert mine.ok, mine.line()
        record = mine.record
        assert record is not None and record.complete, path
        assert record.game_id == host.game_id and record.signing_keys == host.signing_keys
        assert [_facts(r) for r in record.rounds] == [_facts(r) for r in host.rounds], path
        assert [(d.round, d.attempt) for d in record.redeals] == [
            (d.round, d.attempt) for d in host.redeals
        ], path
        assert record.stand_ins == host.stand_ins, path
    return host

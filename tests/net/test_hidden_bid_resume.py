"""A host killed with SIGKILL in the middle of hidden bidding resumes it losing nothing.

A real ``wizard-tui host --headless --hidden-bids`` process with one bot, and two in-process
players whose programs take their time to seal and to open (so the journal's last entry is
a seal or an opening when the host is killed). After each kill the host resumes
(``--resume``); the players' programs reconnect by themselves, are told where the bidding
is (who has sealed, the seals once all are in) and carry on: sending again the seal or the
opening the host lost. At the end the game is complete, every client verified every round,
the host's record and each player's own record pass ``verify``, and every seal the journal
held at a kill is the one the final record holds.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

from net_helpers import LIMITS, LOOPBACK, CapturingSession, play_bots

from wizard_tui.net.journal import read_journal
from wizard_tui.net.sealed_seat import SealedSeat
from wizard_tui.record import read_record
from wizard_tui.verify import verify_path, verify_record

CLI = [sys.executable, "-m", "wizard_tui"]


class SlowSealer(CapturingSession):
    """A player whose program sends its seal and its opening only after ``delay`` seconds."""

    def __init__(self, *args: Any, delay: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.delay = delay
        self.sealed_bids = SealedSeat(self._later)

    def _later(self, msg: dict[str, Any]) -> None:
        asyncio.get_running_loop().call_later(self.delay, self.client.send, msg)


async def start_host(env: dict[str, str], log: Path, *args: str) -> asyncio.subprocess.Process:
    with log.open("ab") as err:
        proc = await asyncio.create_subprocess_exec(
            *CLI,
            "host",
            "--headless",
            *args,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
        )
    assert proc.stdout is not None
    while True:
        line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
        assert line, f"the host ended before listening; see {log}"
        if line.startswith("wizard-tui host: listening on"):
            proc.port = int(line.rsplit(":", 1)[1])  # type: ignore[attr-defined]
            break
    asyncio.get_running_loop().create_task(_drain(proc))
    return proc


async def _drain(proc: asyncio.subprocess.Process) -> None:
    assert proc.stdout is not None
    while await proc.stdout.readline():
        pass


# The journal's last entry at each kill: a seal, then an opening, then a seal again.
TARGETS = ("bid_seal", "bid_open", "bid_seal")


async def test_host_killed_during_hidden_bidding_resumes_it(tmp_path: Path) -> None:
    home = tmp_path / "host"
    env = {**os.environ, "XDG_DATA_HOME": str(home), "WIZARD_TUI_NO_ANNOUNCE": "1"}
    records = tmp_path / "records"
    log = tmp_path / "host.log"
    proc = await start_host(
        env,
        log,
        *("--deal", "commit-reveal", "--hidden-bids", "--bind", LOOPBACK, "--port", "0"),
        *("--players", "3", "--bots", "1", "--bot-level", "random", "--records", str(records)),
    )
    port = proc.port  # type: ignore[attr-defined]
    sessions = [
        SlowSealer(
            LOOPBACK, port, name=f"net{i}", limits=LIMITS, delay=0.25 * (i + 1),
            records_dir=tmp_path / f"joined{i}",
        )
        for i in range(2)
    ]  # fmt: skip
    for session in sessions:
        await session.connect()
    players = asyncio.get_running_loop().create_task(play_bots(sessions, "random", 5))
    games = home / "wizard-tui" / "games"
    killed: list[tuple[dict[str, Any], ...]] = []
    try:
        async with asyncio.timeout(150):
            while not (games.exists() and any(games.iterdir())):
                await asyncio.sleep(0.01)
            path = next(games.iterdir())
            rounds_hit: set[int] = set()
            for target in TARGETS:
                while True:
                    entries = read_journal(path).entries
                    last = entries[-1]
                    if last["t"] == target and last["round"] not in rounds_hit:
                        break
                    await asyncio.sleep(0.005)
                proc.send_signal(signal.SIGKILL)
                await proc.wait()
                entries = read_journal(path).entries
                killed.append(entries)
                rounds_hit.add(entries[-1]["round"])
                proc = await start_host(env, log, "--resume")
                assert proc.port == port  # type: ignore[attr-defined]
            codes = await players
            failures = [v.detail for s in sessions for v in s.verifications if not v.ok]
            assert codes == [0, 0], (codes, failures)
            assert await proc.wait() == 0, log.read_text()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        for session in sessions:
            await session.close()
    # Killed with a seal, an opening and a seal as the journal's last entry (SIGKILL may
    # come a little after the entry the test saw; it is still in the bidding).
    assert all(k[-1]["t"] in ("bid_seal", "bid_open") or k[-1].get("a") == "bid" for k in killed)
    assert any(k[-1]["t"] == "bid_open" for k in killed)
    for session in sessions:  # back, each was told where the bidding was, with its snapshot
        kinds = [m["t"] for m in session.received]
        told = [
            i for i, t in enumerate(kinds[:-1]) if t == "snapshot" and kinds[i + 1] == "bid_sealed"
        ]
        assert len(told) >= 1, (session.name, kinds.count("snapshot"))
    record_path = records / path.name.replace(".journal", ".json")
    verdict = verify_path(record_path)
    assert verdict.ok, verdict.line()
    record = read_record(record_path)
    assert record.complete and record.rules.hidden_bids
    for entries in killed:  # every seal the host had accepted is the recorded one
        for e in entries:
            if e["t"] == "bid_seal":
                recorded = record.rounds[e["round"] - 1].extra["bid_seals"][e["seat"]]
                assert bytes.fromhex(recorded["seal"]) == e["seal"], (e["round"], e["seat"])
    for session in sessions:  # each player's own record, as its program wrote it
        assert session.recorder is not None
        verify_record(session.recorder.record())
        assert session.record_path is not None
        own = verify_path(session.record_path)
        assert own.ok, own.line()
        assert session.recorder.record().rounds == record.rounds

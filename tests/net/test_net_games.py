"""Whole games over real sockets on 127.0.0.1: network bot clients and host bots mixed.

Every client must verify every round itself, and the host's record must pass ``verify``.
One test runs the real command-line programs, as a person would on a LAN.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
import sys
from pathlib import Path

import pytest
from net_helpers import assert_game_verified, play_bots, running_host, seat_sessions

from wizard_tui.game import RestrictLastBid, TableRules
from wizard_tui.net.host import HostOptions
from wizard_tui.record import RecordedRound
from wizard_tui.verify import verify_path


@pytest.mark.parametrize(
    ("players", "host_bots", "level", "restrict"),
    [
        (3, 1, "random", RestrictLastBid.NEVER),
        (4, 1, "random", RestrictLastBid.ALWAYS),
        (5, 2, "random", RestrictLastBid.AFTER_ROUND_1),
        (6, 2, "random", RestrictLastBid.NEVER),
    ],
)
async def test_full_game_verifies(
    tmp_path: Path, players: int, host_bots: int, level: str, restrict: RestrictLastBid
) -> None:
    options = HostOptions(
        players=players,
        bots=host_bots,
        bot_level=level,
        rules=TableRules(restrict),
        records_dir=tmp_path,
    )
    async with asyncio.timeout(20), running_host(options) as host:
        sessions = await seat_sessions(options.port, players - host_bots)
        assert [s.seat for s in sessions] == list(range(players - host_bots))
        codes = await play_bots(sessions, level, seed=players)
        await host.finished.wait()
        assert codes == [0] * len(sessions)
        assert_game_verified(host, sessions)
        assert [pl.kind for pl in host.table.recorder.players].count("bot") == host_bots


async def _output_line(stream: asyncio.StreamReader, pattern: str) -> re.Match[str]:
    lines = []
    while line := (await stream.readline()).decode():
        lines.append(line)
        if match := re.search(pattern, line):
            return match
    raise AssertionError(f"no line matching {pattern!r} in {lines!r}")


def _machine(home: Path) -> dict[str, str]:
    """The environment of one program as if on its own computer: its own data directory
    (keys, known hosts, records), so nothing lands in the tester's."""
    return {**os.environ, "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home)}


def _public(r: RecordedRound) -> tuple[object, ...]:
    """A recorded round as two copies of one game must agree on it: everything, but that a
    private deal's envelopes are in the order each program saw them (any order verifies)."""
    if r.private_deal is None:
        return (r,)
    envelopes = sorted((e.sender, e.seq, e.body, e.sig) for e in r.private_deal.envelopes)
    return (dataclasses.replace(r, private_deal=None), r.private_deal.setup, envelopes)


@pytest.mark.parametrize("deal", [None, "commit-reveal"])
async def test_cli_host_and_three_joins(tmp_path: Path, deal: str | None) -> None:
    """The issue's done-criterion: a headless host with a bot and three ``join --bot``
    processes play a whole game, all exit 0, and the record verifies. ``None``: the default
    deal, the private one; the commit-reveal deal stays available."""
    cli = [sys.executable, "-m", "wizard_tui"]
    records = tmp_path / "records"
    procs: list[asyncio.subprocess.Process] = []
    try:
        async with asyncio.timeout(45):
            host_args = "host --headless --bind 127.0.0.1 --port 0 --players 4 --bots 1"
            host = await asyncio.create_subprocess_exec(
                *cli,
                *host_args.split(),
                *("--bot-level", "random", "--records", str(records)),
                *(() if deal is None else ("--deal", deal)),
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=_machine(tmp_path / "host"),
            )
            procs.append(host)
            assert host.stdout is not None
            port = int((await _output_line(host.stdout, r"listening on 127\.0\.0\.1:(\d+)"))[1])
            for i in range(3):
                procs.append(
                    await asyncio.create_subprocess_exec(
                        *cli,
                        *("join", f"127.0.0.1:{port}", "--bot", "random", "--name", f"p{i}"),
                        stdout=asyncio.subprocess.PIPE,
                        stderr=asyncio.subprocess.PIPE,
                        env=_machine(tmp_path / f"player{i}"),
                    )
                )
            outputs = await asyncio.gather(*(proc.communicate() for proc in procs))
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, (out.decode(), err.decode())
    for _, (out, _) in zip(range(3), outputs[1:], strict=False):
        text = out.decode()
        assert text.count("deal verified") == 15, text
        assert "VERIFICATION FAILED" not in text
    files = sorted(records.glob("*.json"))
    assert len(files) == 1
    verdict = verify_path(files[0])
    assert verdict.ok, verdict.line()
    assert verdict.record is not None and verdict.record.complete
    expected = "commit-reveal-v1" if deal == "commit-reveal" else "private-sra-x25519-v1"
    assert verdict.record.protocol == expected
    assert sorted(pl.name for pl in verdict.record.players if pl.kind == "human") == [
        "p0",
        "p1",
        "p2",
    ]
    # Each player's program kept its own record of the game, in its own data directory:
    # the same game as the host's, and it verifies on its own.
    for i, (out, _) in enumerate(outputs[1:]):
        [own] = (tmp_path / f"player{i}" / "data" / "wizard-tui" / "joined").glob("*.json")
        assert f"your record of the game: {own}" in out.decode()
        mine = verify_path(own)
        assert mine.ok, mine.line()
        assert mine.record is not None and mine.record.complete
        assert mine.record.game_id == verdict.record.game_id
        assert [_public(r) for r in mine.record.rounds] == [
            _public(r) for r in verdict.record.rounds
        ]

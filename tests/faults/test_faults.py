"""Fault tests of whole games (issue 12): real ``wizard-tui`` processes on 127.0.0.1, each
with a data directory of its own, 6 seats (10 rounds) privately dealt, 4 of them the host's
bots and 2 ``join --bot`` players. Joiners are killed and restarted before, during and
after a takeover, stopped (a laptop asleep) past the host's deal-step wait, the host is
killed and resumed, and two players play from one account. Each test asserts that the game
finishes, that every process exits as documented (the host 0; every ``join --bot`` that
saw the end 0: every round it verified, or was told it could not check), and that every
record every participant wrote verifies, is complete, and is the host's game.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fault_helpers import Table, check_records

pytestmark = pytest.mark.asyncio

# Small and quick: 10 rounds, the host's bots without a pause.
GAME = ("--players", "6", "--bots", "4", "--bot-delay", "0")


async def _game(tmp_path: Path, *host_args: str) -> Table:
    table = Table(tmp_path)
    await table.host(*GAME, *host_args)
    return table


async def test_joiner_killed_and_restarted_before_its_takeover(tmp_path: Path) -> None:
    """Back within a second, before any bot took the seat: the new run takes its seat back
    by its key, carries on its own record file, and the rounds the last run checked stay
    checked (never "played while you were away")."""
    table = await _game(tmp_path, "--takeover-after", "30")
    try:
        ann, ben = await table.join("ann"), await table.join("ben")
        await ben.rounds_done(2)
        ben.kill()
        assert await ben.wait() == -9
        again = await table.join("ben")  # the same machine: its keys and its record
        assert await again.wait() == 0, again.text()
        assert await ann.wait() == 0, ann.text()
        assert await table.procs[0].wait() == 0, table.procs[0].text()
        text = again.text()
        assert "round 1: checked by an earlier run of this program" in text
        assert "away" not in text and "VERIFICATION FAILED" not in text
        check_records(table, ["ann", "ben"], seats=2)
    finally:
        await table.close()


@pytest.mark.parametrize("away_rounds", [0, 2])
async def test_joiner_killed_and_back_during_or_after_a_takeover(
    tmp_path: Path, away_rounds: int
) -> None:
    """A bot of the host takes the seat after 0.5 s (the attempt in progress is void and
    dealt again); the player's new run comes back while the bot plays (``away_rounds``
    0) or after the bot played whole rounds for it (2): what it missed is the host's
    record of it, marked so, and its record is complete."""
    table = await _game(tmp_path, "--takeover-after", "0.5")
    try:
        ann, ben = await table.join("ann"), await table.join("ben")
        await ben.rounds_done(2)
        ben.kill()
        await ben.wait()
        await table.procs[0].line(r"", 1)  # (the host is still up)
        await asyncio.sleep(1.0)  # the bot has the seat now
        if away_rounds:
            done = ann.text().count("\nround ")
            await ann.rounds_done(min(done + away_rounds, 9))
        again = await table.join("ben")
        assert await again.wait() == 0, again.text()
        assert await ann.wait() == 0, ann.text()
        assert await table.procs[0].wait() == 0, table.procs[0].text()
        host = check_records(table, ["ann", "ben"], seats=2)
        assert host.stand_ins  # the bot did play the seat
    finally:
        await table.close()


async def test_joiner_asleep_past_the_deal_step_wait(tmp_path: Path) -> None:
    """A laptop put to sleep (SIGSTOP) for longer than the host waits for its deal steps:
    the host disconnects it and a bot takes the seat; when it wakes it reconnects (or, told
    it was disconnected, exits 1 and is run again) and plays on; every record is whole."""
    # The host's bots wait 0.05 s a move (the stand-in for ben too), so the 8 rounds left
    # take some 13 s of waiting at the least: without it, on a loaded machine the game
    # could end before ben's second run was up, which then found no host to reach.
    table = await _game(
        tmp_path, "--takeover-after", "0.5", "--deal-step-timeout", "1", "--bot-delay", "0.05"
    )
    try:
        ann, ben = await table.join("ann"), await table.join("ben")
        await ben.rounds_done(2)
        table.stop(ben)
        await asyncio.sleep(4.0)
        table.cont(ben)
        code = await ben.wait()
        if code != 0:  # documented: the host cut it off; the player starts it again
            assert code == 1 and "disconnected" in ben.text(), ben.text()
            again = await table.join("ben")
            assert await again.wait() == 0, again.text()
        assert await ann.wait() == 0, ann.text()
        assert await table.procs[0].wait() == 0, table.procs[0].text()
        check_records(table, ["ann", "ben"], seats=2)
    finally:
        await table.close()


async def test_host_killed_and_resumed_with_two_players_of_one_account(tmp_path: Path) -> None:
    """The host is SIGKILLed mid-game and resumed (``host --resume``, which keeps the game's
    takeover and pacing); its two players are two programs of one account on one machine:
    each has a player identity of its own (its own seat, keys and record file), and both
    reconnect by themselves and finish."""
    table = await _game(tmp_path, "--takeover-after", "30")
    try:
        ann, ben = await table.join("ann", "shared"), await table.join("ben", "shared")
        await ann.rounds_done(2)
        host = table.procs[0]
        host.kill()
        assert await host.wait() == -9
        resumed = await table.start(
            "host", "host", "host", "--headless", "--resume", "--port", str(table.port)
        )
        found = await resumed.line(r"resumed game \w+ in round (\d+)", 30)
        assert await resumed.wait() == 0, resumed.text()
        assert await ann.wait() == 0, ann.text()
        assert await ben.wait() == 0, ben.text()
        record = check_records(table, ["shared"], seats=2)
        # The round it named is the only one dealt again: its first attempt was lost with
        # the host. Unless the kill came while the step that starts that attempt was still
        # at work: its journal entries are written when the step ends, before anything of it
        # is sent, so then no attempt of that round existed and the resumed host deals it
        # for the first time.
        lost = [d.round for d in record.redeals if d.fault == "lost_keys"]
        assert lost in ([], [int(found[1])]), (found[1], lost)
        assert ann.text().count("joined 127") == ben.text().count("joined 127") == 1
        seats = {ann.text().split("(seat ")[1][0], ben.text().split("(seat ")[1][0]}
        assert len(seats) == 2  # two players, two seats
    finally:
        await table.close()

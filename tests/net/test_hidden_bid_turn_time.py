"""Hidden bids with a turn time (docs/rules.md, "Hidden bids"): the clock counts for the
first seat in bidding order that has not sealed; a player who never bids is marked away and
the host's bot seals for it; the game finishes and its record verifies."""

from __future__ import annotations

import asyncio
from pathlib import Path

from net_helpers import LIMITS, LOOPBACK, CapturingSession, play_bots, running_host

from wizard_tui.game import TableRules
from wizard_tui.net.host import HostOptions
from wizard_tui.verify import verify_path


async def test_a_player_who_never_bids_is_sealed_for_once_away(tmp_path: Path) -> None:
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        rules=TableRules(hidden_bids=True),
        records_dir=tmp_path,
        deal="commit-reveal",
        turn_time=0.3,
    )
    async with asyncio.timeout(120), running_host(options) as host:
        idle = CapturingSession(LOOPBACK, options.port, name="idle", limits=LIMITS)
        await idle.connect()  # never bids nor plays: the turn time marks it away
        plays = CapturingSession(LOOPBACK, options.port, name="plays", limits=LIMITS)
        await plays.connect()
        assert await play_bots([plays], "random", seed=2) == [0]
        await host.finished.wait()
        await idle.close()
    table = host.table
    assert table is not None and table.finished and table.record_path is not None
    verdict = verify_path(table.record_path)
    assert verdict.ok and verdict.record is not None and verdict.record.complete
    sealed_for_idle = [
        m for m in plays.received if m["t"] == "bid_sealed" and m["round"] == 1 and 0 in m["sealed"]
    ]
    assert sealed_for_idle  # the host's bot sealed for the away seat

"""Hidden bids when a player leaves (docs/rules.md, "Hidden bids"): its seal is published,
it never opens it, and once a bot takes the seat over the bot's blind bid replaces it; from
then on the bot seals for the seat like the host's own bots. The game finishes, and the host's
record and the remaining player's own record verify."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from net_helpers import LIMITS, LOOPBACK, CapturingSession, play_bots, running_host

from wizard_tui.game import TableRules
from wizard_tui.net.host import HostOptions
from wizard_tui.net.sealed_seat import SealedSeat
from wizard_tui.verify import verify_path, verify_record

LEAVES_IN = 2


class Leaver(CapturingSession):
    """Seals round 2's bid, then leaves instead of opening it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sealed_bids = SealedSeat(self._send_or_leave)

    def _send_or_leave(self, msg: dict[str, Any]) -> None:
        if msg["t"] == "bid_open" and msg["round"] == LEAVES_IN:
            asyncio.get_running_loop().create_task(self.close())
            return
        self.client.send(msg)


async def test_a_seal_left_unopened_is_replaced_by_the_takeover_bot(tmp_path: Path) -> None:
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        rules=TableRules(hidden_bids=True),
        records_dir=tmp_path,
        deal="commit-reveal",
        takeover_after=0.2,
    )
    async with asyncio.timeout(90), running_host(options) as host:
        leaver = Leaver(LOOPBACK, options.port, name="leaver", limits=LIMITS)
        await leaver.connect()
        stays = CapturingSession(
            LOOPBACK, options.port, name="stays", limits=LIMITS, records_dir=tmp_path / "own"
        )
        await stays.connect()
        codes = await play_bots([leaver, stays], "random", seed=8)
        await host.finished.wait()
    assert codes[1] == 0
    reveals = {m["round"]: m for m in stays.received if m["t"] == "bids_open"}
    assert reveals[LEAVES_IN]["replaced"] == [0]
    assert all(m["replaced"] == [] for r, m in reveals.items() if r != LEAVES_IN)
    table = host.table
    assert table is not None and table.finished and table.record_path is not None
    verdict = verify_path(table.record_path)
    assert verdict.ok, verdict.line()
    assert verdict.record is not None and verdict.record.complete
    assert stays.all_verified and stays.recorder is not None
    verify_record(stays.recorder.record())
    assert stays.recorder.record().rounds == table.recorder.record().rounds

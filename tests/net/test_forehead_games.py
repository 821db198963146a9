"""Games with the forehead round (docs/rules.md, "The forehead round") over real sockets on
127.0.0.1, between network bots and host bots, with both deals: the host's record and every
joiner's own record verify, and no seat is ever shown its own card before it plays it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from net_helpers import assert_game_verified, play_bots, running_host, seat_sessions

from wizard_tui.game import RestrictLastBid, TableRules
from wizard_tui.net.host import HostOptions


@pytest.mark.parametrize(
    ("players", "host_bots", "level", "restrict", "length"),
    [
        (3, 1, "normal", RestrictLastBid.ALWAYS, "full"),
        (4, 2, "easy", RestrictLastBid.NEVER, "full"),
        (5, 1, "random", RestrictLastBid.AFTER_ROUND_1, "full"),
    ],
)
async def test_commit_reveal_forehead_game_verifies(
    tmp_path: Path,
    players: int,
    host_bots: int,
    level: str,
    restrict: RestrictLastBid,
    length: str,
) -> None:
    options = HostOptions(
        players=players,
        bots=host_bots,
        bot_level=level,
        rules=TableRules(restrict, forehead=True),
        length=length,
        records_dir=tmp_path,
        deal="commit-reveal",
    )
    async with asyncio.timeout(30), running_host(options) as host:
        sessions = await seat_sessions(options.port, players - host_bots)
        codes = await play_bots(sessions, level, seed=players)
        await host.finished.wait()
        assert codes == [0] * len(sessions)
        assert_game_verified(host, sessions)
        assert host.table.recorder.record().rules.forehead

"""Games with the forehead round (docs/rules.md, "The forehead round") over real sockets on
127.0.0.1, between network bots and host bots, with both deals: the host's record and every
joiner's own record verify, and no seat is ever shown its own card before it plays it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from net_helpers import assert_game_verified, play_bots, running_host, seat_sessions
from private_helpers import assert_private_game_verified

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


@pytest.mark.parametrize(
    ("players", "host_bots", "level", "restrict"),
    [
        (3, 1, "normal", RestrictLastBid.ALWAYS),
        (4, 2, "easy", RestrictLastBid.AFTER_ROUND_1),
    ],
)
async def test_private_forehead_game_verifies(
    tmp_path: Path, players: int, host_bots: int, level: str, restrict: RestrictLastBid
) -> None:
    """The private deal veils each forehead card from its holder (docs/private-deal.md
    section 15): network bots and host bots play it blind, every record verifies."""
    options = HostOptions(
        players=players,
        bots=host_bots,
        bot_level=level,
        rules=TableRules(restrict, forehead=True),
        records_dir=tmp_path,
        deal="private",
    )
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(options.port, players - host_bots)
        codes = await play_bots(sessions, level, seed=players)
        await host.finished.wait()
        assert codes == [0] * len(sessions)
        assert_private_game_verified(host, sessions)
        record = host.table.recorder.record()
        assert record.rules.forehead
        owners = record.rounds[0].private_deal.setup.owners
        assert all(o & 0x80 for o in owners[:players])  # every round-1 card veiled

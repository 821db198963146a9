"""Whole privately dealt games (docs/private-deal.md) over real sockets on 127.0.0.1.

Network bot clients and the host's bots take part in every shuffle and lock pass; the host
only relays. Every client must verify every round itself, and the host's record (and each
client's own) must pass ``verify``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from net_helpers import play_bots, running_host, seat_sessions
from private_helpers import assert_private_game_verified

from wizard_tui.game import RestrictLastBid
from wizard_tui.net.host import HostOptions


@pytest.mark.parametrize(
    ("players", "host_bots", "restrict"),
    [
        (4, 2, RestrictLastBid.ALWAYS),
        (3, 1, RestrictLastBid.NEVER),
        (6, 3, RestrictLastBid.AFTER_ROUND_1),
    ],
)
async def test_private_game_verifies(
    tmp_path: Path, players: int, host_bots: int, restrict: RestrictLastBid
) -> None:
    options = HostOptions(
        players=players,
        bots=host_bots,
        bot_level="random",
        restrict_last_bid=restrict,
        records_dir=tmp_path,
        deal="private",
    )
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(options.port, players - host_bots)
        codes = await play_bots(sessions, "random", seed=players)
        await host.finished.wait()
        assert codes == [0] * len(sessions)
        assert_private_game_verified(host, sessions)

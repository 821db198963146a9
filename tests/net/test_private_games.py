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

from netplay.mental import DealSetup, chain_from, deal_round_robin
from netplay.signing import SigningKey
from wizard_tui.game import RestrictLastBid, TableRules
from wizard_tui.net.host import HostOptions
from wizard_tui.net.private_relay import HostDeal


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
        rules=TableRules(restrict),
        records_dir=tmp_path,
        deal="private",
    )
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(options.port, players - host_bots)
        codes = await play_bots(sessions, "random", seed=players)
        await host.finished.wait()
        assert codes == [0] * len(sessions)
        assert_private_game_verified(host, sessions)


def test_the_host_bots_leave_the_round_end_audit_to_the_relay() -> None:
    """In-host bots do not re-audit their own relay's round (it stalled the host's loop, and a
    table in its process, at every round end); the relay's view still does."""
    keys = [SigningKey.generate() for _ in range(3)]
    setup = DealSetup(
        bytes(16),
        1,
        0,
        chain_from(1, 3),
        deal_round_robin(3, 1, 1, 60),
        tuple(k.public_key for k in keys),
    )
    deal = HostDeal(setup, {1: keys[1], 2: keys[2]})
    assert deal.relay.view.audit
    assert not any(bot.view.audit for bot in deal.bots.values())

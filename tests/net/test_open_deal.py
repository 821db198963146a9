"""A new kind of deal is one package plus one registry line (issue 15): the test-only open
deal (``open_deal/``) plays a whole networked game through the real host and clients, with
no line of wizard_tui changed for it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from net_helpers import play_bots, running_host, seat_sessions
from open_deal import KIND, OpenDealHost, OpenDealSeat

from wizard_tui.game import rounds_for
from wizard_tui.net.deals import deal_names, register_deal_kind, unregister_deal_kind
from wizard_tui.net.host import HostOptions


@pytest.fixture
def open_deal() -> Iterator[None]:
    register_deal_kind(KIND)
    try:
        yield
    finally:
        unregister_deal_kind(KIND.name)


async def test_an_open_deal_plays_a_whole_networked_game(open_deal: None) -> None:
    assert KIND.name in deal_names()
    options = HostOptions(players=3, bots=1, bot_level="random", deal=KIND.name)
    async with running_host(options) as host:
        sessions = await seat_sessions(host.server.port, 2)
        try:
            assert await asyncio.wait_for(play_bots(sessions), 120) == [0, 0]
        finally:
            for s in sessions:
                await s.close()
        assert isinstance(host.deal_half, OpenDealHost)
        table = host.table
        assert table is not None and table.finished
        assert len(table.game.results) == rounds_for(3)
        for s in sessions:
            assert isinstance(s.seat_half, OpenDealSeat)
            # Every round checked by the kind's own seat half, against the announced seed.
            assert [v.round for v in s.verifications] == list(range(1, rounds_for(3) + 1))
            assert all(v.ok for v in s.verifications), [v.detail for v in s.verifications]


def test_it_is_gone_once_unregistered() -> None:
    assert KIND.name not in deal_names()

"""A friend who comes when every seat is taken is told how to watch (and ``join`` offers it
on a terminal): the refusal names ``join --watch``, and watching then works."""

from __future__ import annotations

import pytest
from net_helpers import LIMITS, LOOPBACK, running_host, seat_sessions

from wizard_tui.cli import UserError
from wizard_tui.launch import TableFull, connect_session
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions


async def test_a_full_table_points_a_late_friend_to_watching() -> None:
    options = HostOptions(players=3, bots=2, bot_level="random")
    async with running_host(options) as host:
        (seated,) = await seat_sessions(host.server.port, 1)
        late = NetworkSession(LOOPBACK, host.server.port, name="late", limits=LIMITS)
        with pytest.raises(TableFull) as refused:
            await connect_session(late, LOOPBACK, host.server.port)
        assert isinstance(refused.value, UserError)
        assert f"wizard-tui join {LOOPBACK}:{host.server.port} --watch" in str(refused.value)
        watcher = NetworkSession(LOOPBACK, host.server.port, name="late", limits=LIMITS, watch=True)
        await connect_session(watcher, LOOPBACK, host.server.port)
        assert watcher.seat is None
        for s in (seated, watcher):
            await s.close()


async def test_other_refusals_stay_as_they_were() -> None:
    options = HostOptions(players=3, bots=1, bot_level="random", password="right horse")
    async with running_host(options) as host:
        wrong = NetworkSession(
            LOOPBACK, host.server.port, name="x", limits=LIMITS, password="wrong horse"
        )
        with pytest.raises(UserError) as refused:
            await connect_session(wrong, LOOPBACK, host.server.port)
        assert not isinstance(refused.value, TableFull)

"""The lobby that runs the evening, through the real host on 127.0.0.1 (Pilot, 80x24):
bots in and out, their level, 3 to 6 seats, the last-bid rule, "Table full", the lobby's
keys on ``?``, and a game that starts with what the lobby said."""

from __future__ import annotations

from pathlib import Path

import pytest

from wizard_tui.game import RestrictLastBid
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions
from wizard_tui.net.hosting import hosting
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.lobby import LobbyScreen
from wizard_tui.ui.screens.overlays import HelpScreen

from .helpers import screen_text, until

WAIT = 15.0


def seated(app: WizardApp) -> list[str]:
    lobby = app.lobby
    assert lobby is not None
    return ["-" if s is None else s.kind for s in lobby.seats]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_host_runs_the_table_from_the_lobby(tmp_path: Path, size) -> None:
    options = HostOptions(
        players=4,
        bots=0,
        bot_level="easy",
        records_dir=tmp_path,
        auto_start=False,
        deal=p.DEAL_COMMIT_REVEAL,
    )
    async with hosting(options, bind="127.0.0.1", port=0) as host:
        assert host.server is not None
        session = NetworkSession(
            "127.0.0.1",
            options.port,
            name="Ann",
            host_key=host.host_key,
            server_key=host.server.identity.public_key,
        )
        await session.connect()
        app = WizardApp(session, hosting=True)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.lobby.is_host, WAIT)
            assert isinstance(app.screen, LobbyScreen)
            assert seated(app) == ["human", "-", "-", "-"]
            await pilot.press("a", "a", "a")
            await until(pilot, lambda: seated(app) == ["human", "bot", "bot", "bot"], WAIT)
            assert "Table full" in screen_text(app)
            assert app.lobby.levels[1:] == ("easy",) * 3
            # Keys in quick succession build on each other, not on a stale lobby.
            await pilot.press("l", "r")  # bots easy -> normal; the last-bid rule never -> always
            await until(pilot, lambda: app.lobby.restrict_last_bid == "always", WAIT)
            assert app.lobby.bot_level == "normal"
            assert app.lobby.levels[1:] == ("normal",) * 3
            await pilot.press("plus")
            await until(pilot, lambda: len(app.lobby.seats) == 5, WAIT)
            assert "Table full" not in screen_text(app)
            await pilot.press("down", "down", "x")  # the bot in seat 3
            await until(pilot, lambda: seated(app) == ["human", "bot", "-", "bot", "-"], WAIT)
            await pilot.press("minus", "minus")  # the empty seats go first
            await until(pilot, lambda: len(app.lobby.seats) == 3, WAIT)
            assert seated(app) == ["human", "bot", "bot"]
            await pilot.press("minus")  # 3 is the least
            await pilot.pause(0.2)
            assert len(app.lobby.seats) == 3
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            help_text = screen_text(app)
            assert "Lobby" in help_text and "bots' level" in help_text
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("enter")
            await until(pilot, lambda: app.table is not None, WAIT)
            view = app.table.view
            assert view.players == 3
            assert view.restrict_last_bid is RestrictLastBid.ALWAYS
        await session.close()


async def test_a_guest_cannot_change_the_table(tmp_path: Path) -> None:
    options = HostOptions(players=4, bots=1, records_dir=tmp_path, auto_start=False)
    async with hosting(options, bind="127.0.0.1", port=0) as host:
        assert host.server is not None
        session = NetworkSession(
            "127.0.0.1", options.port, name="Bob", server_key=host.server.identity.public_key
        )
        await session.connect()
        app = WizardApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None, WAIT)
            before = app.lobby
            await pilot.press("a", "x", "l", "r", "plus")
            await pilot.pause(0.3)
            assert app.lobby.seats == before.seats
            assert "Waiting for the host" in screen_text(app)
        await session.close()

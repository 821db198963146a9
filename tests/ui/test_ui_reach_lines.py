"""The lobby lists the other ways in (``host --ssh`` / ``--web``) under the join command."""

from __future__ import annotations

from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.lobby import LobbyScreen, LobbyView

from .helpers import until
from .sessions import LocalSession

LINES = (
    "ssh -p 2222 YOURNAME@192.168.1.23  (nothing to install)",
    "SSH host key SHA256:upfS1RtKDPNReGxoY1QKKwYKD6AoFduleBo5kRT/OSo",
    "browser: http://192.168.1.23:8060/",
)


async def test_the_lobby_shows_the_ssh_and_browser_lines() -> None:
    app = WizardApp(LocalSession(3, lobby=True))
    app.reach_lines = LINES
    async with app.run_test(size=(80, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await until(pilot, lambda: app.lobby is not None)
        text = app.screen.query_one(LobbyView).render().plain
        join = text.index("Friends join with:")
        for line in LINES:
            assert line in text and text.index(line) > join


async def test_without_them_the_lobby_is_as_before() -> None:
    app = WizardApp(LocalSession(3, lobby=True))
    async with app.run_test(size=(80, 30)) as pilot:
        await until(pilot, lambda: app.lobby is not None)
        text = app.screen.query_one(LobbyView).render().plain
        assert "ssh" not in text and "browser" not in text

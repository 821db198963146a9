"""host --web: the lobby's b shows the browser address as a QR code a phone can scan."""

from __future__ import annotations

import segno

from wizard_tui.reach.qr import QUIET_ZONE, qr_lines
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.lobby import LobbyScreen, LobbyView
from wizard_tui.ui.screens.qr import QrScreen

from .helpers import until
from .sessions import LocalSession

URL = "http://192.168.1.23:8060/"


def modules_of(lines: list[str]) -> list[list[bool]]:
    """Undo the half blocks: two rows of modules a line, dark where the glyph is drawn."""
    top = {" ": False, "▀": True, "▄": False, "█": True}
    bottom = {" ": False, "▀": False, "▄": True, "█": True}
    rows: list[list[bool]] = []
    for line in lines:
        rows.append([top[c] for c in line])
        rows.append([bottom[c] for c in line])
    return rows


def test_the_lines_draw_exactly_the_code_segno_makes() -> None:
    lines = qr_lines(URL)
    assert lines is not None
    want = [
        [bool(m) for m in row] for row in segno.make(URL, error="l").matrix_iter(border=QUIET_ZONE)
    ]
    got = modules_of(lines)
    assert got[: len(want)] == want
    assert all(not any(row) for row in got[len(want) :])  # an odd last row pads with white


async def test_b_in_the_lobby_opens_the_code_and_closes_it() -> None:
    app = WizardApp(LocalSession(3, lobby=True), web_url=URL)
    async with app.run_test(size=(60, 20)) as pilot:
        await until(pilot, lambda: app.lobby is not None)
        assert (
            "b shows the browser address as a QR code"
            in app.screen.query_one(LobbyView).render().plain
        )
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, QrScreen))
        screen = app.screen
        assert isinstance(screen, QrScreen)
        assert list(screen.code) == qr_lines(URL)
        sheet = screen.query_one("#qr-sheet")
        assert sheet.region.height <= 20 and sheet.region.width <= 60  # whole at 60x20
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_without_a_browser_seat_b_does_nothing() -> None:
    app = WizardApp(LocalSession(3, lobby=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None)
        assert "QR code" not in app.screen.query_one(LobbyView).render().plain
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)

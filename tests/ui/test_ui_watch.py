"""A watcher's table (``join --watch``) against the real host on loopback (Pilot): the game
with no hand and no prompt of its own, the score pad filling in, chat sent, and no key press
sending anything but chat. Every socket is on 127.0.0.1."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from textual.pilot import Pilot

from wizard_tui.bots import make_bot
from wizard_tui.net.bot_player import play_as_bot
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions
from wizard_tui.net.hosting import hosting
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.overlays import ScoreScreen
from wizard_tui.ui.screens.table import TableScreen
from wizard_tui.ui.widgets.scorepad import ScorePad

from .helpers import screen_text, until
from .test_ui_network import WAIT, spy_on_sends
from .test_ui_play import summary_open

SIZE = (80, 24)


async def watching_screen(pilot: Pilot, app: WizardApp) -> str:
    """The screen once it shows a watcher's prompt (a round's summary, which waits for
    Enter as a seat's does, is closed on the way)."""
    end = asyncio.get_running_loop().time() + WAIT
    while asyncio.get_running_loop().time() < end:
        if summary_open(app):
            await pilot.press("enter")
        text = screen_text(app)
        if "Watching: " in text:
            return text
        await pilot.pause(0.02)
    raise AssertionError("no watcher's prompt: " + screen_text(app))


async def test_a_watchers_table_shows_the_game_and_takes_no_move(tmp_path: Path) -> None:
    options = HostOptions(
        players=3, bots=2, bot_level="random", records_dir=tmp_path, bot_delay=0.05
    )
    async with hosting(options, bind="127.0.0.1", port=0) as host:
        assert host.server is not None
        session = NetworkSession(
            "127.0.0.1",
            options.port,
            name="Lou",
            server_key=host.server.identity.public_key,
            watch=True,
        )
        await session.connect()
        sent = spy_on_sends(session)
        app = WizardApp(session)
        async with app.run_test(size=SIZE) as pilot:
            # The last seat is a bot-played client: its join starts the game.
            seat = NetworkSession("127.0.0.1", options.port, name="Ann")
            await seat.connect()
            player = asyncio.create_task(
                play_as_bot(seat, make_bot("random", random.Random(1)), quiet=True)
            )
            await until(pilot, lambda: isinstance(app.screen, TableScreen), timeout=WAIT)
            await until(
                pilot, lambda: session.view is not None and session.view.round >= 2, timeout=WAIT
            )
            text = await watching_screen(pilot, app)
            assert "(no cards)" in text and "Your turn" not in text
            for key in ("b", "enter", "left", "0", "1"):
                await pilot.press(key)
            await pilot.press("c")
            await pilot.press(*"hi")
            await pilot.press("enter")
            await until(pilot, lambda: any(m["t"] == "chat" for m in sent))
            assert [m["t"] for m in sent] == ["chat"]  # keys sent nothing but the chat
            await pilot.press("escape")
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, ScoreScreen))
            pad = app.screen.query_one(ScorePad)
            assert "Merlin" in screen_text(app) and pad is not None
            player.cancel()
        await session.close()
        await seat.close()

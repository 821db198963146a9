"""The Textual client against the real host on loopback (Pilot): the path ``play`` takes.

A host from ``hosting`` (as ``wizard-tui play`` and ``host`` run it) on 127.0.0.1 with two
bots, our seat a ``NetworkSession``, the table driven by key presses: bids, legal cards,
tricks resolving, the score pad filling in, and an illegal card refused without a word to
the host. Every socket is on 127.0.0.1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from wizard_tui.game import Phase, rounds_for
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions
from wizard_tui.net.hosting import hosting
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.overlays import ScoreScreen
from wizard_tui.ui.screens.table import TableScreen
from wizard_tui.ui.widgets.hand import HandView
from wizard_tui.ui.widgets.scorepad import ScorePad
from wizard_tui.ui.widgets.status import PromptLine

from .helpers import until
from .test_ui_play import journal_text, open_panel, summary_open

SIZE = (80, 24)
# A private round's deal runs through every seat in turn: on a loaded 2-core machine
# that can take seconds, so the waits are generous (they end as soon as the UI is there).
WAIT = 30.0
ROUNDS = 3  # played in full by keys; more if no illegal card has turned up by then


def ui_view(app: WizardApp) -> object:
    """The view the table screen last drew from, if any."""
    return None if app.table is None else app.table.view


def spy_on_sends(session: NetworkSession) -> list[dict[str, Any]]:
    """Every message the client sends the host, in order."""
    sent: list[dict[str, Any]] = []
    send = session.client.send

    def recording(msg: dict[str, Any]) -> None:
        sent.append(msg)
        send(msg)

    session.client.send = recording  # type: ignore[method-assign]
    return sent


@pytest.mark.parametrize("deal", [p.DEAL_COMMIT_REVEAL, p.DEAL_PRIVATE])
async def test_rounds_by_keys_through_the_real_host(tmp_path: Path, deal: str) -> None:
    options = HostOptions(
        players=3, bots=2, bot_level="random", records_dir=tmp_path, auto_start=True, deal=deal
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
        sent = spy_on_sends(session)
        app = WizardApp(session)
        refused_locally = False
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: session.view is not None, timeout=WAIT)
            while True:
                view = session.view
                assert view is not None
                if view.round > ROUNDS and refused_locally:
                    break
                assert view.round < rounds_for(3), "no illegal card in a whole game"
                screen = app.screen
                if summary_open(app):
                    await pilot.press("enter")
                elif panel := open_panel(app):
                    await pilot.press("enter")
                    await until(
                        pilot, lambda p=panel: not p.is_open or p.view != session.view, timeout=WAIT
                    )
                elif view.phase is Phase.PLAY and view.my_turn and isinstance(screen, TableScreen):
                    # Keys go to the table as the UI has it: wait until it has drawn this
                    # view (the session can be an update ahead of the screen).
                    await until(pilot, lambda v=view: ui_view(app) == v, timeout=WAIT)
                    hand = screen.query_one(HandView)
                    await until(
                        pilot,
                        lambda h=hand, v=view: h.playable == frozenset(v.legal_cards),
                        timeout=WAIT,
                    )
                    illegal = [i for i, c in enumerate(hand.cards) if c not in hand.playable]
                    if illegal and not refused_locally:
                        # Walk the cursor onto a dimmed card: Enter says why, sends nothing.
                        while hand.cursor != illegal[0]:
                            await pilot.press("left" if hand.cursor > illegal[0] else "right")
                        before = len(sent)
                        await pilot.press("enter")
                        await pilot.pause()
                        assert len(sent) == before
                        assert screen.query_one(PromptLine).error.startswith("You must follow")
                        assert session.view == view
                        refused_locally = True
                        # Back onto a playable card (one step aside may be dimmed too).
                        legal = next(i for i, c in enumerate(hand.cards) if c in hand.playable)
                        while hand.cursor != legal:
                            await pilot.press("left" if hand.cursor > legal else "right")
                        continue
                    count, chosen = len(sent), hand.selected
                    await pilot.press("enter")
                    await until(pilot, lambda n=count: len(sent) > n, timeout=WAIT)
                    plays = [m for m in sent[count:] if m["t"] == "play"]
                    assert [m["card"] for m in plays] == [chosen]
                    assert chosen in view.legal_cards
                await pilot.pause(0.01)
            log = journal_text(app)
            assert "takes it" in log and "Round 1 scored" in log and "Round 2 scored" in log
            if open_panel(app):
                await pilot.press("x")
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, ScoreScreen))
            pad = app.screen.query_one(ScorePad)
            played = session.view.history
            assert len(played) >= ROUNDS and pad.history == played
            assert [r.round for r in pad.history] == list(range(1, len(played) + 1))
        await session.close()

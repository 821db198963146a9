"""The forehead round drawn at the table (issue 18): the others' cards by their names, your
own face down, and Enter plays it unseen. Pilot, at 80x24 and 60x20, Unicode and ASCII."""

from __future__ import annotations

import pytest

from wizard_tui.game import Phase, TableRules
from wizard_tui.ui import WizardApp
from wizard_tui.ui.glyphs import glyphs_for
from wizard_tui.ui.screens.table import TableScreen

from .helpers import screen_text, until
from .sessions import NAMES, LocalSession
from .test_ui_play import open_panel


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("ascii", [False, True])
async def test_the_forehead_round_shows_the_others_cards_and_plays_yours_blind(
    size: tuple[int, int], ascii: bool
) -> None:
    session = LocalSession(4, seed=2, restrict=TableRules(forehead=True))  # type: ignore[arg-type]
    app = WizardApp(session, ascii=ascii)
    glyphs = glyphs_for(ascii)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.table is not None)
        game = session.game
        mine = game.hand(0)[0]
        text = screen_text(app)
        lines = text.splitlines()
        for seat in range(1, 4):
            row = next(line for line in lines if NAMES[seat] in line and "bot" in line)
            assert glyphs.card(game.hand(seat)[0]) in row, row  # its card, by its name
        me = next(line for line in lines if NAMES[0] in line)
        assert glyphs.face_down in me
        assert "forehead round" in text
        # Bid (the panel's first choice), then play: Enter plays the card nobody showed us.
        while not (session.view.phase is Phase.PLAY and session.view.my_turn):
            if open_panel(app):
                await pilot.press("enter")
            await pilot.pause(0.02)
        await until(pilot, lambda: "Enter plays your card" in screen_text(app))
        assert session.view.hand == ()
        await pilot.press("enter")
        await until(pilot, lambda: game.round > 1 or (0, mine) in game.trick)
        assert all(0 <= card < 60 for _, card in game.trick) and not session.refusals

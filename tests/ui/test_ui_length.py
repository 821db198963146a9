"""The table in a game of another length (docs/rules.md, "Game length"): the status line
says "Round r of R" and the round's cards where they differ from r, the tricks and bids
count by the cards, and the score pad keeps every round of a 39-round game reachable."""

from __future__ import annotations

import re

import pytest

from wizard_tui.game import Phase, TableRules, length_rounds
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.overlays import ScoreScreen
from wizard_tui.ui.widgets.status import cards_each

from .helpers import screen_text, until
from .sessions import LocalSession
from .test_ui_play import open_panel, summary_open

SIZES = [(80, 24), (60, 20), (120, 40)]
UP_AND_DOWN = TableRules(rounds=length_rounds("up-and-down", 3))


def test_the_cards_are_said_only_where_they_differ_from_the_round() -> None:
    assert cards_each(3, 3) == ""
    assert cards_each(22, 18) == "18 cards"
    assert cards_each(39, 1) == "1 card"
    assert cards_each(1, 5) == "5 cards"


@pytest.mark.parametrize("size", SIZES)
async def test_the_status_line_names_the_round_of_the_length_and_its_cards(size) -> None:
    session = LocalSession(3, seed=2, from_round=22, rules=UP_AND_DOWN)
    app = WizardApp(session)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.table is not None and open_panel(app) is not None)
        view = session.view
        assert (view.round, view.hand_size, view.phase) == (22, 18, Phase.BID)
        top = screen_text(app).splitlines()[0]
        assert top.lstrip().startswith("Round 22 of 39 · 18 cards"), top
        panel = open_panel(app)
        assert panel is not None and "round 22 of 39 · 18 cards" in str(panel.border_title)


async def test_the_trump_s_name_gives_way_before_the_bids() -> None:
    """With the last round's verification on the right, "Round 22 of 39 · 18 cards · Trump
    13♥ (hearts) · bids 13/18" is too long for 80 columns: the suit's name goes (the turned
    card beside the hand names it), and the bids stay."""
    session = LocalSession(3, seed=2, from_round=21, rules=UP_AND_DOWN)
    app = WizardApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        while not (session.view.round == 22 and open_panel(app) is not None):
            if summary_open(app) or open_panel(app) or session.view.my_turn:
                await pilot.press("enter")
            await pilot.pause(0.02)
        await until(pilot, lambda: "r21 verified" in screen_text(app).splitlines()[0])
        top = screen_text(app).splitlines()[0]
        assert re.search(r"Round 22 of 39 · 18 cards · Trump 13♥ · bids \d+/18 ", top), top
        assert "(hearts)" not in top, top


async def test_a_full_game_says_no_cards() -> None:
    session = LocalSession(3, seed=2, from_round=3)
    app = WizardApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.table is not None and open_panel(app) is not None)
        top = screen_text(app).splitlines()[0]
        assert "Round 3 of 20" in top and "cards" not in top, top


@pytest.mark.parametrize("size", SIZES)
async def test_the_score_pad_scrolls_through_39_rounds(size) -> None:
    session = LocalSession(3, seed=5, from_round=39, rules=UP_AND_DOWN)
    app = WizardApp(session)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.table is not None and app.table.view.round == 39, 20)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, ScoreScreen))
        await pilot.pause()
        text = screen_text(app)
        # It opens on the latest rounds, the names and captions on top.
        assert "Rd Cds" in text, text
        assert "38  2" in text and "39  1" in text, text  # round 38 deals 2, round 39 one
        assert " 1  1 " not in text, text
        await pilot.press("home")
        await pilot.pause()
        text = screen_text(app)
        assert "Rd Cds" in text and " 1  1 " in text and " 2  2 " in text, text
        assert "39  1" not in text, text
        await pilot.press("end")
        await pilot.pause()
        assert "39  1" in screen_text(app)

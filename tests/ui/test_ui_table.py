"""What makes it a table (issue: "The table as friends play it"): the end-of-round moment,
trump you cannot miss, bid against tricks at a glance, fewer words. Pilot, 80x24 and 60x20."""

from __future__ import annotations

import pytest

from wizard_tui.game import Phase
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.table import TableScreen
from wizard_tui.ui.widgets import summary as summary_module
from wizard_tui.ui.widgets.decisions import BidPanel

from .helpers import FirstLegalBot, screen_text, until
from .sessions import LocalSession
from .test_ui_play import open_panel, summary_open

SIZES = [(80, 24), (60, 20)]


async def _play_until_summary(pilot, app: WizardApp, session: LocalSession) -> None:
    while not summary_open(app):
        view = session.view
        if open_panel(app) or (
            view.phase is Phase.PLAY and view.my_turn and isinstance(app.screen, TableScreen)
        ):
            await pilot.press("enter")
        await pilot.pause(0.02)


@pytest.mark.parametrize("size", SIZES)
async def test_a_scored_round_is_summed_up_before_the_next_bid(size) -> None:
    # Seat 0 bids 0 (first legal) and plays its lowest card; the bots do the same.
    bots = {1: FirstLegalBot(), 2: FirstLegalBot(), 3: FirstLegalBot()}
    session = LocalSession(4, seed=3, bots=bots, first_dealer=3)
    app = WizardApp(session)
    async with app.run_test(size=size) as pilot:
        await _play_until_summary(pilot, app, session)
        result = session.game.results[0]
        text = screen_text(app)
        assert "Round 1 of 15 scored" in text
        for seat, name in enumerate(("Ann", "Bob", "Cid", "Dee")):
            row = next(r for r in text.splitlines() if f"{name}" in r and "took" in r)
            bid, won = result.bids[seat], result.tricks_won[seat]
            assert f"bid  {bid} took  {won}" in row
            words = (
                "made it" if bid == won else f"{abs(bid - won)} {'over' if won > bid else 'under'}"
            )
            assert words in row
            cells = row.strip("│ ").split()
            assert cells[-2:] == [f"{result.points[seat]:+d}", str(result.totals[seat])], row
        best = max(result.totals)
        assert f"with {best}" in text and "lead" in text
        # Our bid for round 2 waits behind the summary; Enter goes on to it.
        assert session.view.my_turn and session.view.phase is Phase.BID
        assert open_panel(app) is None
        await pilot.press("enter")
        await until(pilot, lambda: open_panel(app, BidPanel))
        assert "scored" not in screen_text(app).split("\n", 7)[6]


async def test_the_summary_goes_by_itself_after_a_few_seconds(monkeypatch) -> None:
    monkeypatch.setattr(summary_module, "HOLD_SECONDS", 0.2)
    session = LocalSession(3, seed=5)
    app = WizardApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await _play_until_summary(pilot, app, session)
        await until(pilot, lambda: not summary_open(app))


def _on_table(app: WizardApp) -> bool:
    return app.table is not None and isinstance(app.screen, TableScreen)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("ascii", [False, True])
async def test_trump_is_drawn_as_a_card_and_trumps_lead_the_hand(size, ascii) -> None:
    from wizard_tui.game import hand_order, is_trump
    from wizard_tui.ui.widgets.hand import HandView

    from . import tables
    from .sessions import StaticSession

    updates = tables.bidding()
    app = WizardApp(StaticSession(updates), ascii=ascii)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: _on_table(app) and app.table == updates[-1])
        await pilot.press("x")
        await pilot.pause()
        view = app.table.view
        assert view.trump_suit is not None and view.trump_card is not None
        hand = app.screen.query_one(HandView)
        # The order and the trumps come from the game module, not the UI.
        assert list(hand.cards) == sorted(view.hand, key=hand_order(view.trump_suit))
        trumps = [c for c in hand.cards if is_trump(c, view.trump_suit)]
        assert len(trumps) >= 2 and hand.cards.index(trumps[0]) <= 1
        rows = screen_text(app).splitlines()
        side = "|" if ascii else "│"
        name = app.glyphs.card(view.trump_card)
        boxed = [r for r in rows if f"{side} {name} {side}" in r or f"{side}  {name} {side}" in r]
        assert boxed and view.trump_suit.label in boxed[0]
        assert any(f"{view.trump_suit.letter} trump" in r for r in rows)


@pytest.mark.parametrize("size", SIZES)
async def test_each_seat_shows_its_tricks_against_its_bid(size) -> None:
    from . import tables
    from .sessions import StaticSession

    app = WizardApp(StaticSession(tables.mid_trick()))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: _on_table(app))
        await pilot.pause()
        view = app.table.view
        short = size[0] < 80
        for seat, name in enumerate(("Ann", "Bob", "Cid", "Dee")):
            row = next(r for r in screen_text(app).splitlines()[1:7] if name in r)
            bid, won = view.bids[seat], view.tricks_won[seat]
            need = bid - won
            assert f"{won}/{bid}" in row
            assert (f"-{need}" if short else f"need {need}") in row, row


def test_the_words_for_bid_against_tricks() -> None:
    from wizard_tui.ui.widgets.seats import SeatsPanel

    assert SeatsPanel.need_text(2, 0, short=False) == "need 2"
    assert SeatsPanel.need_text(2, 2, short=False) == "on bid"
    assert SeatsPanel.need_text(1, 3, short=False) == "over 2"
    assert SeatsPanel.need_text(1, 3, short=True) == "+2"
    assert SeatsPanel.need_text(None, 0, short=False) == ""


@pytest.mark.parametrize(("solo", "hosting"), [(True, True), (False, True), (False, False)])
async def test_a_solo_game_has_no_fingerprint_notice_or_connection_line(solo, hosting) -> None:
    """Solo (and the host's own table, whose lobby shows the fingerprint): no notice, no
    connection line; a joiner keeps both."""
    from wizard_tui.session import ChatLine, LinkChanged

    from . import tables
    from .sessions import StaticSession

    updates = [
        LinkChanged("connected", "secure link"),
        ChatLine(None, "host key", "host fingerprint ABCD-EFGH: players who join must see it"),
        *tables.mid_trick(),
    ]
    app = WizardApp(StaticSession(updates), solo=solo, hosting=hosting)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: _on_table(app) and app.table == updates[-1])
        await pilot.pause()
        text = screen_text(app)
        assert ("fingerprint" in text) is not hosting
        assert ("Connected to the table" in text) is not hosting
        assert "Round 4: deal verified" in text  # said once, not "verified: round 4: ..."


def test_the_chart_puts_each_letter_where_its_total_stands() -> None:
    from wizard_tui.game import RoundResult
    from wizard_tui.ui.widgets.chart import TotalsChart, seat_letters

    def result(number: int, totals: tuple[int, ...]) -> RoundResult:
        n = len(totals)
        zeros = (0,) * n
        return RoundResult(number, 0, ((),) * n, None, None, zeros, (), zeros, zeros, totals)

    chart = TotalsChart()
    chart.names = ("Ann", "Bob", "Cid")
    chart.history = (result(1, (20, -10, 0)), result(2, (40, 30, -10)))
    grid = chart.plot(width=5, height=6)  # totals -10..40: 10 points a row
    assert grid[0][4] == "A"  # Ann's 40 after round 2, top right
    assert grid[1][4] == "B"  # Bob's 30
    assert grid[5][4] == "C" and grid[5][0] == "B"  # the lowest row: -10
    assert grid[2][0] == "A"  # Ann's 20 after round 1
    assert grid[4][0] == "C"  # Cid's 0 sits on the zero line
    assert set(grid[4]) <= {"C", "."}
    assert seat_letters(("Ann", "Amy", "Bob")) == ("A", "B", "C")  # initials clash


@pytest.mark.parametrize("size", SIZES)
async def test_the_final_screen_charts_every_total_by_round(size) -> None:
    from wizard_tui.ui.screens.final import FinalScreen

    session = LocalSession(3, seed=4, from_round=20)
    app = WizardApp(session)
    async with app.run_test(size=size) as pilot:
        while not isinstance(app.screen, FinalScreen):
            view = session.view
            playing = view.my_turn and view.phase is Phase.PLAY
            if summary_open(app) or open_panel(app) or (playing and _on_table(app)):
                await pilot.press("enter")
            await pilot.pause(0.02)
        await pilot.pause()
        text = screen_text(app)
        assert "A Ann" in text and "B Bob" in text and "C Cid" in text
        assert "round" in text and "20" in text
        history = session.game.results
        high = max(0, *(max(r.totals) for r in history))
        best = {"ABC"[s] for r in history for s, t in enumerate(r.totals) if t == high}
        top = next(r for r in text.splitlines() if f" {high} " in r and "round" not in r)
        assert best & set(top.split(f" {high} ", 1)[1]), top  # the highest total's letter

"""SVG snapshots of the key screens at 80x24 and 120x40; the lobby, the bid, a trick, the
round summary, the score pad and the final chart at 80x24 in colour, with NO_COLOR=1 and
with --ascii.

Plain ``def`` tests (``snap_compare`` runs the app itself). The content is fixed: a
``StaticSession`` replays updates built from seeded games; nothing blinks or animates.
Regenerate with ``pytest tests/ui/test_ui_snapshots.py --snapshot-update`` and look at them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from wizard_tui.session import SessionUpdate
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.final import FinalScreen
from wizard_tui.ui.screens.lobby import LobbyScreen
from wizard_tui.ui.screens.table import TableScreen
from wizard_tui.ui.widgets import summary as summary_module
from wizard_tui.ui.widgets import trick as trick_module
from wizard_tui.ui.widgets.decisions import BidPanel, TrumpPanel
from wizard_tui.ui.widgets.journal import RecentLog
from wizard_tui.ui.widgets.summary import RoundSummary

from . import tables
from .helpers import until
from .sessions import StaticSession

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
WIDE = {"120x40": (120, 40)}  # 80x24: test_screens_at_80x24


def shoot(
    snap_compare,
    updates: Sequence[SessionUpdate],
    size: tuple[int, int],
    ready: Callable[[WizardApp], object],
    press: Sequence[str] = (),
    **options,
) -> bool:
    app = WizardApp(StaticSession(updates), name="Ann", **options)
    final = updates[-1]

    async def run_before(pilot) -> None:
        await until(pilot, lambda: app.table == final or app.lobby == final or ready(app))
        await until(pilot, lambda: ready(app))
        await pilot.pause()

    return snap_compare(app, terminal_size=size, run_before=run_before, press=press)


def on_table(app: WizardApp) -> bool:
    return app.table is not None and isinstance(app.screen, TableScreen)


def log_covered(app: WizardApp) -> bool:
    """The log has moved its lines below the open panel (a moment after it opened)."""
    return app.screen.query_one("#journal", RecentLog).covered_rows > 0


def panel_open(kind: type) -> Callable[[WizardApp], bool]:
    return lambda app: (
        on_table(app) and isinstance(app.screen.open_panel, kind) and log_covered(app)
    )


@pytest.mark.parametrize("size", WIDE)
def test_lobby(snap_compare, size: str) -> None:
    ready = lambda app: isinstance(app.screen, LobbyScreen) and app.journal  # noqa: E731
    assert shoot(snap_compare, tables.lobby(), SIZES[size], ready)


@pytest.mark.parametrize("size", WIDE)
def test_table_mid_trick(snap_compare, size: str) -> None:
    assert shoot(snap_compare, tables.mid_trick(), SIZES[size], on_table)


@pytest.mark.parametrize("size", WIDE)
def test_bid_dialog(snap_compare, size: str) -> None:
    assert shoot(snap_compare, tables.bidding(), SIZES[size], panel_open(BidPanel))


@pytest.mark.parametrize("size", SIZES)
def test_trump_choice(snap_compare, size: str) -> None:
    assert shoot(snap_compare, tables.choosing_trump(), SIZES[size], panel_open(TrumpPanel))


@pytest.mark.parametrize("size", WIDE)
def test_score_pad(snap_compare, size: str) -> None:
    assert shoot(snap_compare, tables.mid_trick(), SIZES[size], on_table, press=["s"])


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, size: str) -> None:
    assert shoot(snap_compare, tables.mid_trick(), SIZES[size], on_table, press=["question_mark"])


def summary_open(app: WizardApp) -> bool:
    return (
        on_table(app)
        and any(s.is_open for s in app.screen.query(RoundSummary))
        and log_covered(app)
    )


def final_shown(app: WizardApp) -> bool:
    return isinstance(app.screen, FinalScreen)


def lobby_shown(app: WizardApp) -> bool:
    return isinstance(app.screen, LobbyScreen) and bool(app.journal)


# name: (the table, ready when, keys, options)
SCREENS: dict[str, tuple] = {
    "lobby": (tables.lobby, lobby_shown, (), {}),
    "bid": (tables.bidding, panel_open(BidPanel), (), {}),
    "trick": (tables.mid_trick, on_table, (), {}),
    "round_summary": (tables.round_scored, summary_open, (), {}),
    "score_pad": (tables.mid_trick, on_table, ("s",), {}),
    "final_chart": (tables.game_over, final_shown, (), {"hosting": True}),
}
MODES = ("colour", "no_color", "ascii")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("screen", SCREENS)
def test_screens_at_80x24(
    snap_compare, monkeypatch: pytest.MonkeyPatch, screen: str, mode: str
) -> None:
    make, ready, press, options = SCREENS[screen]
    # Nothing moves on by itself while the snapshot is taken.
    monkeypatch.setattr(trick_module, "HOLD_SECONDS", 3600.0)
    monkeypatch.setattr(summary_module, "HOLD_SECONDS", 3600.0)
    if mode == "no_color":
        monkeypatch.setenv("NO_COLOR", "1")
    extra = {"ascii": True} if mode == "ascii" else {}
    assert shoot(snap_compare, make(), (80, 24), ready, press=press, **options, **extra)

"""Every screen at 80x24 in every language: no line overflows its widget, none is cut short
(no ellipsis, no key dropped from the key bar), nothing is left in English where a
translation exists; and one SVG snapshot of the table per language.

The language is the process's (``i18n.setup``), as in a real client; each test puts English
back. Several screens share one app run (a table, then its overlays one after another) to
keep the suite quick.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import pytest
from rich.cells import cell_len
from textual.screen import Screen
from textual.widget import Widget

from wizard_tui import i18n
from wizard_tui.session import SessionUpdate
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.final import FinalScreen
from wizard_tui.ui.screens.lobby import LobbyScreen
from wizard_tui.ui.screens.overlays import (
    ChatScreen,
    HelpScreen,
    LastTrickScreen,
    LogScreen,
    QuitScreen,
    ScoreScreen,
)
from wizard_tui.ui.screens.table import TableScreen
from wizard_tui.ui.widgets import summary as summary_module
from wizard_tui.ui.widgets import trick as trick_module
from wizard_tui.ui.widgets.decisions import BidPanel, TrumpPanel
from wizard_tui.ui.widgets.keybar import KeyBar
from wizard_tui.ui.widgets.lines import LinesWidget
from wizard_tui.ui.widgets.summary import RoundSummary

from . import tables
from .helpers import screen_text, until
from .sessions import StaticSession
from .test_ui_snapshots import on_table, panel_open, shoot

SIZE = (80, 24)
LANGUAGES = i18n.LANGUAGES


@pytest.fixture
def speak(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., str]]:
    # Nothing moves on by itself while a screen is read.
    monkeypatch.setattr(trick_module, "HOLD_SECONDS", 3600.0)
    monkeypatch.setattr(summary_module, "HOLD_SECONDS", 3600.0)
    yield i18n.setup
    i18n.setup("en")


def problems(app: WizardApp) -> list[str]:
    """What is wrong with the screen as drawn now: cut text, overflowing lines, keys
    dropped from the key bar."""
    found = []
    for row in screen_text(app).splitlines():
        if "…" in row:  # fit(), Rich's ellipsis overflow and Textual's border titles
            found.append(f"cut: {row.rstrip()!r}")
    screen = app.screen
    for widget in screen.walk_children(with_self=False):
        if not isinstance(widget, Widget) or not widget.display or not widget.is_mounted:
            continue
        if isinstance(widget, LinesWidget) and widget.content_size.width > 0:
            width = widget.content_size.width
            for line in widget.build(width):
                if cell_len(line.plain) > width:
                    found.append(f"overflow in {type(widget).__name__}: {line.plain!r}")
        if isinstance(widget, KeyBar):
            shown, wanted = len(widget.spans), len(keys_to_show(screen))
            if shown < wanted:
                found.append(f"key bar shows {shown} of {wanted} keys: {screen_text(app)[-80:]!r}")
    return found


def keys_to_show(screen: Screen) -> set[tuple[int, str]]:
    """The actions the key bar should show now (one per node and action, as it draws)."""
    return {
        (id(node), binding.action)
        for node, binding, _enabled, _tip in screen.active_bindings.values()
        if binding.show
    }


async def look(
    pilot, app: WizardApp, where: str, ready: Callable[[], object], seen: dict[str, list[str]]
) -> None:
    await until(pilot, ready)
    await pilot.pause()
    seen[where] = problems(app)


def screen_is(app: WizardApp, kind: type[Screen]) -> Callable[[], bool]:
    return lambda: isinstance(app.screen, kind)


async def run(
    updates: Sequence[SessionUpdate],
    ready: Callable[[WizardApp], object],
    steps: Sequence[tuple[str, Sequence[str], type[Screen] | None]] = (),
    **options: object,
) -> dict[str, list[str]]:
    """Open the app on ``updates``, read the first screen, then for each step press its
    keys, wait for its screen and read it."""
    app = WizardApp(StaticSession(updates), name="Ann", **options)  # type: ignore[arg-type]
    seen: dict[str, list[str]] = {}
    async with app.run_test(size=SIZE) as pilot:
        await look(pilot, app, "first", lambda: ready(app), seen)
        for where, keys, kind in steps:
            for key in keys:
                await pilot.press(key)
            wanted = kind or type(app.screen)
            await look(pilot, app, where, screen_is(app, wanted), seen)
    return {where: found for where, found in seen.items() if found}


def lobby_shown(app: WizardApp) -> bool:
    return isinstance(app.screen, LobbyScreen) and bool(app.journal)


def summary_open(app: WizardApp) -> bool:
    return on_table(app) and any(s.is_open for s in app.screen.query(RoundSummary))


TABLE_OVERLAYS = (
    ("score pad", ("s",), ScoreScreen),
    ("back", ("escape",), TableScreen),
    ("last trick", ("t",), LastTrickScreen),
    ("back", ("escape",), TableScreen),
    ("log", ("v",), LogScreen),
    ("back", ("escape",), TableScreen),
    ("help", ("question_mark",), HelpScreen),
    ("back", ("escape",), TableScreen),
    ("quit dialog", ("q",), QuitScreen),
    ("back", ("n",), TableScreen),
    ("chat", ("c",), ChatScreen),
)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_table_and_its_overlays(lang: str, speak) -> None:
    speak(lang)
    assert await run(tables.mid_trick(), on_table, TABLE_OVERLAYS) == {}


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_lobby_and_its_help(lang: str, speak) -> None:
    speak(lang)
    steps = (("lobby help", ("question_mark",), HelpScreen),)
    assert await run(tables.lobby(), lobby_shown, steps) == {}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("moment", ["bid", "trump", "round summary", "final"])
async def test_decisions_summary_and_final(lang: str, moment: str, speak) -> None:
    speak(lang)
    made, ready, options = {
        "bid": (tables.bidding, panel_open(BidPanel), {}),
        "trump": (tables.choosing_trump, panel_open(TrumpPanel), {}),
        "round summary": (tables.round_scored, summary_open, {}),
        "final": (
            tables.game_over,
            lambda app: isinstance(app.screen, FinalScreen),
            {"hosting": True},
        ),
    }[moment]
    assert await run(made(), ready, (), **options) == {}


# A sentence of each screen's that must show translated (so a screen that stayed English
# fails, not only one that is cut).
@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
async def test_the_table_speaks_the_language(lang: str, speak) -> None:
    speak(lang)
    app = WizardApp(StaticSession(tables.mid_trick()), name="Ann")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: on_table(app))
        await pilot.pause()
        text = screen_text(app)
        for english in ("Trick", "Player", "Score", "Help", "Trump"):
            assert i18n._(english) != english, (lang, english)
            assert i18n._(english) in text, (lang, english)
        assert "Player" not in text and "Trump " not in text


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_table_snapshot_per_language(snap_compare, lang: str, speak) -> None:
    speak(lang)
    assert shoot(snap_compare, tables.mid_trick(), SIZE, on_table)

"""The table's defects found by playing it (issue: "The table as friends play it"), one test
each, at 80x24 and 60x20: each of these failed on the code before its fix."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from wizard_tui.bots import make_bot
from wizard_tui.game import Phase
from wizard_tui.net import addresses
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions
from wizard_tui.net.hosting import hosting
from wizard_tui.session import (
    ChatLine,
    GameFinished,
    LinkChanged,
    SeatInfo,
    SessionUpdate,
    TableUpdate,
)
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.final import FinalScreen
from wizard_tui.ui.screens.lobby import LobbyScreen
from wizard_tui.ui.screens.overlays import HelpScreen, QuitScreen, ScoreScreen
from wizard_tui.ui.screens.table import TableScreen
from wizard_tui.ui.widgets.decisions import BidPanel, TrumpPanel
from wizard_tui.ui.widgets.hand import HandView
from wizard_tui.ui.widgets.scorepad import ScorePad

from . import tables
from .helpers import screen_styles, screen_text, until
from .sessions import LocalSession, StaticSession
from .test_ui_play import open_panel

SIZES = [(80, 24), (60, 20)]
WAIT = 30.0


def on_table(app: WizardApp) -> bool:
    return app.table is not None and isinstance(app.screen, TableScreen)


# ---------------------------------------------------------------- 1. the final score pad


class BotSeat:
    """A ``NetworkSession`` whose seat a bot plays: the table only shows what happens."""

    def __init__(self, session: NetworkSession) -> None:
        self.session = session
        self.bot = make_bot("random", __import__("random").Random(3))
        self.answered: object = None

    async def updates(self) -> AsyncIterator[SessionUpdate]:
        async for update in self.session.updates():
            if isinstance(update, TableUpdate):
                view = update.view
                key = (view.round, view.phase, view.bids, len(view.tricks), len(view.trick))
                acting = view.phase in (Phase.BID, Phase.PLAY, Phase.CHOOSE_TRUMP)
                if view.my_turn and acting and key != self.answered:
                    self.answered = key
                    action = self.bot.decide(view)
                    kind = type(action).__name__
                    if kind == "Bid":
                        self.session.bid(action.bid)
                    elif kind == "Play":
                        self.session.play(action.card)
                    else:
                        self.session.choose_trump(action.suit)
            yield update

    def __getattr__(self, name: str):
        return getattr(self.session, name)


async def test_1_final_score_pad_has_every_round_and_opens_at_its_header(tmp_path: Path) -> None:
    options = HostOptions(
        players=3,
        bots=2,
        bot_level="random",
        records_dir=tmp_path,
        auto_start=True,
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
        app = WizardApp(BotSeat(session))  # type: ignore[arg-type]
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, FinalScreen), timeout=120)
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, ScoreScreen))
            await pilot.pause()
            pad = app.screen.query_one(ScorePad)
            finished = app.finished
            assert finished is not None
            assert [r.round for r in pad.history] == list(range(1, 21))
            assert pad.history[-1].totals == finished.totals
            text = screen_text(app)
            assert "Rnd" in text and "Ann" in text  # the header is on screen
            assert "20" in text.split("Rnd", 1)[1]  # ... and so is the last round
        await session.close()


# ---------------------------------------------------------------- 2. the log under the bid panel


@pytest.mark.parametrize("size", SIZES)
async def test_2_new_log_lines_show_while_the_bid_panel_is_open(size) -> None:
    session = LocalSession(4, seed=3)
    app = WizardApp(session)
    for n in range(30):  # enough lines to fill the log, so it has dropped older ones
        session.push(ChatLine(2, "Cid", f"filler {n}"))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: open_panel(app))
        if open_panel(app, TrumpPanel):
            await pilot.press("c")
        await until(pilot, lambda: open_panel(app, BidPanel))
        session.push(ChatLine(1, "Bob", "psst over here"))
        await until(pilot, lambda: "psst" in "".join(t for _, ln in app.journal for t, _ in ln))
        await pilot.pause()
        assert "psst over here" in screen_text(app)
        await pilot.press("c")
        await pilot.press(*"mine", "space", *"too", "enter")
        await until(pilot, lambda: ("chat", "mine too") in session.sent)
        await pilot.pause()
        assert "mine too" in screen_text(app)
        await pilot.press("x")
        await pilot.pause()
        rows = screen_text(app).splitlines()
        last = max(i for i, r in enumerate(rows) if "mine too" in r)
        # The newest line sits at the bottom of the log, not above a gap of empty rows.
        assert "Your turn" in rows[last + 1], "\n".join(rows)


# ---------------------------------------------------------------- 3. the takeover countdown


def _takeover_table(seconds: float) -> list[SessionUpdate]:
    updates = tables.mid_trick()
    last = updates[-1]
    assert isinstance(last, TableUpdate)
    seats = (*last.seats[:3], SeatInfo("Dee", "human", connected=False, takeover_in=seconds))
    return [*updates[:-1], dataclasses.replace(last, seats=seats)]


@pytest.mark.parametrize("size", SIZES)
async def test_3_the_takeover_countdown_can_be_read(size) -> None:
    app = WizardApp(StaticSession(_takeover_table(45)))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: on_table(app))
        await pilot.pause()
        row = next(r for r in screen_text(app).splitlines() if "Dee" in r)
        # "bot in 45s" (at 60 columns "bot 45s"), not "bot in …".
        assert re.search(r"bot (in )?4[45]s", row), row


# ---------------------------------------------------------------- 4. whose record


class WithOwnRecord(StaticSession):
    record_path = Path("/home/ann/.local/share/wizard-tui/joined/game.json")


async def test_4_a_joiner_is_shown_its_own_record_not_the_hosts() -> None:
    updates = [*tables.mid_trick(), GameFinished((10, 20, 30, 40), (3,), "/srv/host/rec.json")]
    app = WizardApp(WithOwnRecord(updates))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FinalScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "/srv/host" not in text
        left = "".join(line.split("▏")[0].strip() for line in text.splitlines())  # not the chart
        assert "joined/game.json" in left


# ---------------------------------------------------------------- 5. the host's quit dialog


async def test_5_the_host_is_told_leaving_stops_the_game_and_how_to_resume() -> None:
    app = WizardApp(StaticSession(tables.mid_trick()), hosting=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: on_table(app))
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen))
        text = screen_text(app)
        assert "goes on without you" not in text
        assert "stops the game for everyone" in text
        assert "--resume" in text
        await pilot.press("y")
        await until(pilot, lambda: app.return_code is not None)
    assert "--resume" in (app.farewell or "")


async def test_5_a_joiner_is_told_the_game_goes_on() -> None:
    app = WizardApp(StaticSession(tables.mid_trick()))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: on_table(app))
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen))
        assert "goes on without you" in screen_text(app)


# ---------------------------------------------------------------- 6. right after --resume


async def test_6_between_rounds_the_header_names_no_stale_trump_or_dealer() -> None:
    game = tables.game_before_round(5, first_dealer=1)
    from wizard_tui.game import seat_view

    view = dataclasses.replace(seat_view(game, 0), trump_card=None, trump_suit=None)
    assert view.phase is Phase.DEAL and view.round == 4
    updates = [LinkChanged("connected"), TableUpdate(view=view, seats=tables.SEATS)]
    app = WizardApp(StaticSession(updates))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: on_table(app))
        await pilot.pause()
        rows = screen_text(app).splitlines()
        assert "all cards dealt" not in rows[0] and "Trump none" not in rows[0]
        assert "Round 5" in rows[0]
        seat_rows = [r for r in rows[1:7] if any(n in r for n in ("Ann", "Bob", "Cid", "Dee"))]
        assert not any(" D " in r for r in seat_rows)


# ---------------------------------------------------------------- 7. --ascii is ASCII


def _non_ascii(text: str) -> set[str]:
    return {ch for ch in text if ord(ch) > 0x7F}


@pytest.mark.parametrize("size", SIZES)
async def test_7_ascii_screens_hold_no_character_above_7f(size) -> None:
    app = WizardApp(StaticSession(tables.bidding()), ascii=True)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: open_panel(app))
        await pilot.pause()
        assert _non_ascii(screen_text(app)) == set()
        await pilot.press("x")
        await pilot.pause()
        assert _non_ascii(screen_text(app)) == set()
        for key, kind in (("s", ScoreScreen), ("question_mark", HelpScreen)):
            await pilot.press(key)
            await until(pilot, lambda k=kind: isinstance(app.screen, k))
            await pilot.pause()
            assert _non_ascii(screen_text(app)) == set(), key
            await pilot.press("escape")
            await until(pilot, lambda: on_table(app))
    app = WizardApp(StaticSession(tables.lobby()), ascii=True)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        assert _non_ascii(screen_text(app)) == set()


# ---------------------------------------------------------------- 8. the header's right side


@pytest.mark.parametrize("size", SIZES)
async def test_8_the_header_keeps_verification_and_link_when_narrow(size) -> None:
    app = WizardApp(StaticSession(tables.mid_trick()))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: on_table(app))
        await pilot.pause()
        header = screen_text(app).splitlines()[0]
        assert "r4" in header and "online" in header


# ---------------------------------------------------------------- 9. 60x20 and too small


async def test_9_at_60x20_the_trick_and_quit_fit() -> None:
    app = WizardApp(StaticSession(tables.mid_trick()))
    async with app.run_test(size=(60, 20)) as pilot:
        await until(pilot, lambda: on_table(app))
        await pilot.pause()
        rows = screen_text(app).splitlines()
        assert "Quit" in rows[-1]
        assert any("winning" in r for r in rows), "\n".join(rows)
        assert any(re.search(r"Trick 1(/| of )5 . . hearts", r) for r in rows), "\n".join(rows)


@pytest.mark.parametrize("size", [(59, 20), (80, 19), (40, 12)])
async def test_9_a_terminal_too_small_says_so(size) -> None:
    app = WizardApp(StaticSession(tables.mid_trick()))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: on_table(app))
        await pilot.pause()
        assert "too small" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "too small" not in screen_text(app)


# ---------------------------------------------------------------- 10. NO_COLOR


async def test_10_without_colour_illegal_cards_differ_by_more_than_colour(monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = WizardApp(StaticSession(tables.mid_trick()))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: on_table(app))
        await pilot.pause()
        hand = app.screen.query_one(HandView)
        assert hand.playable and len(hand.playable) < len(hand.cards)
        rows = screen_styles(app)
        row_y = hand.region.y + 1  # the card row
        row = rows[row_y]
        text = "".join(ch for ch, _ in row)

        def attrs(name: str) -> tuple:
            x = text.index(name)
            style = row[x][1]
            return (style.bold, style.dim, style.italic, style.strike, style.underline)

        names = {c: app.glyphs.card(c) for c in hand.cards}
        legal = next(names[c] for c in hand.cards if c in hand.playable and c != hand.selected)
        illegal = [names[c] for c in hand.cards if c not in hand.playable]
        for name in illegal:
            a, b = attrs(name), attrs(legal)
            # Not just dimmer: another attribute (or a mark) tells them apart.
            assert a[3] != b[3] or a[4] != b[4] or a[2] != b[2], (name, a, legal, b)


# ---------------------------------------------------------------- 11. the lobby's addresses


def test_11_addresses_come_from_the_interfaces_not_the_host_name(monkeypatch) -> None:
    monkeypatch.setattr(
        addresses.socket,
        "getaddrinfo",
        lambda *a, **k: [(2, 1, 6, "", ("127.0.1.1", 0))],
    )
    monkeypatch.setattr(
        addresses,
        "interface_addresses",
        lambda: ["127.0.0.1", "::1", "192.168.1.23", "fe80::1%eth0", "10.0.0.5"],
    )
    shown = addresses.lan_addresses("0.0.0.0")
    assert shown == ["10.0.0.5", "192.168.1.23"]
    assert "127.0.0.1" not in addresses.lan_addresses("")


def test_11_loopback_only_when_nothing_else_exists(monkeypatch) -> None:
    monkeypatch.setattr(addresses, "interface_addresses", lambda: ["127.0.0.1"])
    monkeypatch.setattr(addresses.socket, "getaddrinfo", lambda *a, **k: [])
    assert addresses.lan_addresses("0.0.0.0") == ["127.0.0.1"]


def test_11_the_real_interfaces_are_read() -> None:
    found = addresses.interface_addresses()
    assert "127.0.0.1" in found  # every machine has its loopback interface

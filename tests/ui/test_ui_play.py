"""Playing through the Textual client with Pilot, against an in-process game (no network)."""

from __future__ import annotations

from textual import events
from textual.containers import VerticalScroll

from wizard_tui.game import Phase, RestrictLastBid, Suit, card_name
from wizard_tui.session import (
    ActionRefused,
    GameFinished,
    LinkChanged,
    RoundVerified,
    TableUpdate,
)
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.final import FinalScreen
from wizard_tui.ui.screens.lobby import LobbyScreen
from wizard_tui.ui.screens.overlays import ChatScreen, QuitScreen, ScoreScreen
from wizard_tui.ui.screens.table import TableScreen
from wizard_tui.ui.widgets.banner import Banner
from wizard_tui.ui.widgets.choices import ChoiceStrip
from wizard_tui.ui.widgets.decisions import BidPanel, DecisionPanel, TrumpPanel
from wizard_tui.ui.widgets.hand import HandView
from wizard_tui.ui.widgets.scorepad import ScorePad
from wizard_tui.ui.widgets.status import PromptLine
from wizard_tui.ui.widgets.summary import RoundSummary
from wizard_tui.ui.widgets.trick import TrickView

from . import tables
from .helpers import FirstLegalBot, card, decks, until
from .sessions import LocalSession, StaticSession

SIZE = (80, 24)


def open_panel(app: WizardApp, kind: type[DecisionPanel] = DecisionPanel) -> DecisionPanel | None:
    """The bid or trump panel open on the table, if any (and if the table is on top)."""
    screen = app.screen
    if isinstance(screen, TableScreen) and isinstance(screen.open_panel, kind):
        return screen.open_panel
    return None


def summary_open(app: WizardApp) -> bool:
    """The end-of-round summary is showing on the table (Enter goes on)."""
    screen = app.screen
    return isinstance(screen, TableScreen) and any(s.is_open for s in screen.query(RoundSummary))


def journal_text(app: WizardApp) -> str:
    return "\n".join("".join(text for text, _ in line) for _, line in app.journal)


async def test_bid_and_play_whole_rounds_by_keys(monkeypatch) -> None:
    """Bid, play only legal cards through two rounds; tricks resolve; the score pad fills in."""
    holds: list[int | None] = []
    real_hold = TrickView.hold

    def spy(self: TrickView, done, seconds: float = 1.5) -> None:
        holds.append(done.winner)
        real_hold(self, done, seconds)

    monkeypatch.setattr(TrickView, "hold", spy)
    session = LocalSession(3, seed=7)
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: open_panel(app))
        while session.game.round < 3:
            screen = app.screen
            view = session.view
            if summary_open(app):
                await pilot.press("enter")
            elif panel := open_panel(app):
                await pilot.press("enter")
                await until(pilot, lambda p=panel: not p.is_open or p.view != session.view)
            elif view.phase is Phase.PLAY and view.my_turn and isinstance(screen, TableScreen):
                hand = screen.query_one(HandView)
                await until(pilot, lambda h=hand, v=view: h.playable == frozenset(v.legal_cards))
                sent = len(session.sent)
                await pilot.press("enter")
                await until(pilot, lambda n=sent: len(session.sent) > n)
            await pilot.pause(0.01)
        plays = [s for s in session.sent if s[0] == "play"]
        assert len(plays) == 1 + 2  # one card in round 1, two in round 2
        assert session.refusals == []
        await until(pilot, lambda: "Round 2 scored" in journal_text(app))
        assert journal_text(app).count("takes it") == 3
        assert len(holds) == 3  # every completed trick was held on the table for a moment
        await until(pilot, lambda: app.table is not None and app.table.view == session.view)
        await pilot.pause()
        if open_panel(app):
            await pilot.press("x")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, ScoreScreen))
        pad = app.screen.query_one(ScorePad)
        assert [r.round for r in pad.history] == [1, 2]
        assert pad.history == session.view.history[:2]
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))


def _follow_suit_session() -> LocalSession:
    # Round 2, dealer seat 0: seat 1 leads hearts; seat 0 (us) holds 9 of hearts and 2 of clubs.
    return LocalSession(
        3,
        first_dealer=2,
        bots={1: FirstLegalBot(), 2: FirstLegalBot()},
        deck_for=decks({2: ("H5", "D3", "H9", "H6", "D4", "C2", "S10")}),
    )


async def _reach_round_2_play(pilot, app: WizardApp, session: LocalSession) -> HandView:
    def arrived() -> bool:
        view = session.view
        return view.round == 2 and view.my_turn and view.phase is Phase.PLAY

    while not arrived():
        if summary_open(app) or open_panel(app, BidPanel):
            await pilot.press("enter")
        elif session.view.my_turn and session.view.phase is Phase.PLAY:
            await pilot.press("enter")
            await until(pilot, lambda: not session.view.my_turn or session.view.round == 2)
        await pilot.pause(0.01)
    screen = app.screen_stack[1]
    assert isinstance(screen, TableScreen)
    hand = screen.query_one(HandView)
    await until(pilot, lambda: hand.playable == frozenset(session.view.legal_cards))
    return hand


async def test_an_illegal_card_cannot_be_played_and_says_why() -> None:
    session = _follow_suit_session()
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        hand = await _reach_round_2_play(pilot, app, session)
        assert session.view.led_suit is Suit.HEARTS
        assert session.view.legal_cards == (card("H9"),)
        assert hand.cards == (card("C2"), card("H9"))
        assert hand.selected == card("H9")  # the cursor starts on a playable card
        await pilot.press("left")
        assert hand.selected == card("C2")
        sent = list(session.sent)
        await pilot.press("enter")
        await pilot.pause()
        assert session.sent == sent  # nothing was sent
        prompt = app.screen.query_one(PromptLine)
        assert "You must follow hearts" in prompt.error
        await pilot.press("space")  # Space is Enter's twin: still refused
        assert session.sent == sent
        await pilot.press("l", "enter")
        await until(pilot, lambda: ("play", card("H9")) in session.sent)
        assert session.refusals == []


async def test_clicking_selects_then_plays_a_card() -> None:
    session = _follow_suit_session()
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        hand = await _reach_round_2_play(pilot, app, session)
        sent = list(session.sent)
        # The card row is the second row of the hand; slot 0 is the 2 of clubs (illegal).
        await pilot.click(HandView, offset=(2, 1))
        assert hand.selected == card("C2")
        await pilot.click(HandView, offset=(2, 1))
        assert session.sent == sent
        await pilot.click(HandView, offset=(6, 1))
        assert hand.selected == card("H9")
        await pilot.click(HandView, offset=(6, 1))
        await until(pilot, lambda: ("play", card("H9")) in session.sent)


async def test_bid_dialog_offers_only_legal_bids_and_explains_the_forbidden_one() -> None:
    # We deal round 1 and bid last; both bots bid 0, so bidding 1 would make the total 1.
    session = LocalSession(
        3,
        first_dealer=0,
        restrict=RestrictLastBid.ALWAYS,
        bots={1: FirstLegalBot(), 2: FirstLegalBot()},
    )
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: open_panel(app, BidPanel))
        dialog = open_panel(app, BidPanel)
        view = session.view
        assert view.legal_bids == (0,) and view.forbidden_bid == 1
        strip = dialog.query_one(ChoiceStrip)
        offered = [int(c.label) for c in strip.choices if c.enabled]
        assert offered == list(view.legal_bids)
        why = str(dialog.query_one("#why").render())
        assert "You may not bid 1: the bids would add up to 1, the number of tricks" in why
        await pilot.press("1", "enter")
        await pilot.pause()
        assert session.sent == [] and dialog.is_open
        assert dialog.query_one("#why").has_class("-refused")
        await pilot.press("right", "enter")  # the arrows skip the forbidden bid
        await pilot.pause()
        assert session.sent == [] and dialog.is_open
        await pilot.press("0", "enter")
        await until(pilot, lambda: session.sent == [("bid", 0)])
        await until(pilot, lambda: not dialog.is_open)


async def test_two_digit_bids_and_putting_the_dialog_aside() -> None:
    session = LocalSession(3, first_dealer=2, bots={1: FirstLegalBot(), 2: FirstLegalBot()})
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: open_panel(app, BidPanel))
        await pilot.press("x")
        await until(pilot, lambda: not open_panel(app))
        await pilot.pause(0.05)
        assert not open_panel(app)  # it stays aside until asked for
        await pilot.press("b")
        await until(pilot, lambda: open_panel(app, BidPanel))
        dialog = open_panel(app, BidPanel)
        await pilot.press("1")
        assert dialog.choice == 1
        await pilot.press("1")  # 11 is not a bid in round 1: starts over at 1
        assert dialog.choice == 1
        await pilot.press("backspace", "0", "enter")
        await until(pilot, lambda: session.sent == [("bid", 0)])


async def test_trump_choice_by_letter() -> None:
    # We deal round 1 and a Wizard is turned up (the fourth card with three players).
    session = LocalSession(3, first_dealer=0, deck_for=decks({1: ("C1", "C2", "C3", "W")}))
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: open_panel(app, TrumpPanel))
        await pilot.press("h")
        await until(pilot, lambda: session.sent == [("choose_trump", Suit.HEARTS)])
        await until(pilot, lambda: app.table and app.table.view.trump_suit is Suit.HEARTS)


async def test_trump_choice_by_arrows() -> None:
    session = LocalSession(3, first_dealer=0, deck_for=decks({1: ("C1", "C2", "C3", "W")}))
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: open_panel(app, TrumpPanel))
        await pilot.press("right", "right", "right", "left", "enter")
        await until(pilot, lambda: session.sent == [("choose_trump", Suit.HEARTS)])


async def test_a_key_pressed_twice_sends_one_bid_and_one_trump() -> None:
    # Two presses that reach the panel before the first one's decision has closed it (a
    # busy machine reads them together): one intent each, never a second one that the
    # host would refuse once the bidding ended (the wrong_phase seen in the tmux games).
    # We deal round 1 with a Wizard turned up, name trump, and bid last (the dealer).
    session = LocalSession(3, first_dealer=0, deck_for=decks({1: ("C1", "C2", "C3", "W")}))
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: open_panel(app, TrumpPanel))
        app.post_message(events.Key("h", "h"))
        app.post_message(events.Key("h", "h"))
        await until(pilot, lambda: open_panel(app, BidPanel))
        app.post_message(events.Key("enter", "\r"))
        app.post_message(events.Key("enter", "\r"))
        # Our bid ends the bidding: the cards are being played.
        await until(pilot, lambda: app.table and app.table.view.phase is Phase.PLAY)
        await pilot.pause()
        assert session.sent == [("choose_trump", Suit.HEARTS), ("bid", 0)]
        assert session.refusals == []


async def test_quit_asks_first_during_a_game() -> None:
    session = LocalSession(3, seed=2)
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.press("n")
        await until(pilot, lambda: not isinstance(app.screen, QuitScreen))
        assert app.is_running and not session.closed
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.press("y")
        await until(pilot, lambda: session.closed and not app.is_running)
    assert app.return_code == 0


async def test_chat_sends_a_line() -> None:
    session = LocalSession(3, seed=2)
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        if open_panel(app):
            await pilot.press("x")
            await until(pilot, lambda: not open_panel(app))
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ChatScreen))
        chat_input = app.screen.query_one("Input")
        assert chat_input.cursor_blink is False and chat_input.has_focus
        await pilot.press(*"hi q")  # a q typed here is text, not quit
        await pilot.press("enter")
        await until(pilot, lambda: ("chat", "hi q") in session.sent)
        await until(pilot, lambda: "<Ann> hi q" in journal_text(app))
        assert app.is_running


async def test_lobby_host_adds_a_bot_and_starts() -> None:
    session = LocalSession(3, lobby=True)
    session.infos = session.infos[:2]
    session.requeue_lobby()
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert app.screen.check_action("start", ()) is None  # two seats: not yet
        await pilot.press("enter")
        assert ("start_game",) not in session.sent
        await pilot.press("a")
        await until(pilot, lambda: app.lobby is not None and app.lobby.can_start)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen_stack[1], TableScreen))
        assert session.sent == [("add_bot",), ("start_game",)]


async def test_disconnect_banner_comes_and_goes() -> None:
    session = LocalSession(3, seed=2)
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        banner = app.screen_stack[1].query_one(Banner)
        assert not banner.display or banner.has_class("-hidden")
        session.push(LinkChanged("reconnecting", "host not answering"))
        await until(pilot, lambda: not banner.has_class("-hidden"))
        assert "Reconnecting" in str(banner.render())
        assert app.screen_stack[1].check_action("play", ()) in (False, None)
        session.push(LinkChanged("connected"))
        await until(pilot, lambda: banner.has_class("-hidden"))


async def test_verification_alarm_is_red_and_names_the_failure() -> None:
    session = LocalSession(3, seed=2)
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        session.push(RoundVerified(1, False, "round 1: Bob's seed does not match his commitment"))
        banner = app.screen_stack[1].query_one(Banner)
        await until(pilot, lambda: not banner.has_class("-hidden"))
        assert "Bob's seed does not match" in str(banner.render())
        assert "ALARM, round 1" in journal_text(app)
        assert app.checks == {1: False}


async def test_the_score_pad_follows_its_end_until_the_player_scrolls_it() -> None:
    # Opened, the pad shows its last rounds and keeps them in sight as rounds are added;
    # scrolled to the top, it stays there while the table moves on (a check, a new round).
    # It used to scroll to its end at every update, a moment after opening too: the Home
    # of the tmux test's reader was undone and it missed round 1.
    updates = [u for u in tables.game_over(from_round=13) if not isinstance(u, GameFinished)]
    at = next(i for i, u in enumerate(updates) if _history(u) == 13) + 1
    session = StaticSession(updates[:at])
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None and len(app.table.view.history) == 13)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, ScoreScreen))
        scroll = app.screen.query_one("#pad-scroll", VerticalScroll)
        pad = app.screen.query_one("#pad-scroll ScorePad", ScorePad)

        def at_end() -> bool:
            return scroll.max_scroll_y > 0 and scroll.scroll_y == scroll.max_scroll_y

        await until(pilot, at_end)
        end = scroll.max_scroll_y
        rest = iter(updates[at:])
        while len(pad.history) < 14:  # round 14 is scored: the pad grows, still at its end
            session.push(next(rest))
            await pilot.pause()
        await until(pilot, lambda: scroll.max_scroll_y > end and at_end())
        await pilot.press("home")
        await until(pilot, lambda: scroll.scroll_y == 0)
        session.push(RoundVerified(14, True, "round 14: deal verified"))
        await until(pilot, lambda: pad.checks.get(14) is True)
        for update in rest:  # round 15, to its end
            session.push(update)
        await until(pilot, lambda: len(pad.history) == 15)
        await pilot.pause()
        await pilot.pause()
        assert scroll.scroll_y == 0


def _history(update: object) -> int:
    return len(update.view.history) if isinstance(update, TableUpdate) else -1


async def test_a_round_not_checked_gets_no_mark_on_the_score_pad() -> None:
    session = LocalSession(3, seed=2)
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        session.push(RoundVerified(1, True, "round 1: played by a stand-in", checked=False))
        session.push(RoundVerified(2, True, "round 2: deal verified"))
        await until(pilot, lambda: len(app.verifications) == 2)
        assert app.checks == {2: True}


async def test_refusal_is_shown() -> None:
    session = LocalSession(3, seed=2)
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        session.push(ActionRefused("not_your_turn", "it is seat 1's turn, not seat 0's"))
        prompt = app.screen_stack[1].query_one(PromptLine)
        await until(pilot, lambda: "it is not your turn" in prompt.error)


async def test_bell_rings_when_the_turn_comes(monkeypatch) -> None:
    rings: list[int] = []
    session = LocalSession(3, seed=2)
    app = WizardApp(session, bell=True)
    monkeypatch.setattr(app, "bell", lambda: rings.append(1))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: rings)
        assert session.view.my_turn


async def test_no_bell_unless_asked(monkeypatch) -> None:
    rings: list[int] = []
    session = LocalSession(3, seed=2)
    app = WizardApp(session)
    monkeypatch.setattr(app, "bell", lambda: rings.append(1))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None and session.view.my_turn)
        await pilot.pause(0.05)
        assert rings == []


async def test_last_round_to_final_standings_and_rematch() -> None:
    # Six players play ten rounds; bots play ours until the last, which we play by keys.
    session = LocalSession(6, seed=11, from_round=10)
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        while not isinstance(app.screen, FinalScreen):
            view = session.view
            if summary_open(app):
                await pilot.press("enter")
            elif open_panel(app):
                await pilot.press("enter")
                await pilot.pause(0.01)
            elif isinstance(app.screen, TableScreen) and view.my_turn and view.phase is Phase.PLAY:
                await pilot.press("enter")
                await until(
                    pilot,
                    lambda v=view: (
                        session.view.phase is Phase.GAME_OVER
                        or not session.view.my_turn
                        or session.view.round != v.round
                        or len(session.view.tricks) != len(v.tricks)
                    ),
                )
            else:
                await pilot.pause(0.01)
        assert session.refusals == []
        assert session.game.round == 10
        totals = str(app.screen.query_one("#standings").render())
        assert "Game over" in totals
        for seat, total in enumerate(session.game.totals):
            assert f"{total:>6}" in totals, (seat, total)
        await pilot.press("r")
        await until(pilot, lambda: ("rematch",) in session.sent)


def test_card_names_in_the_hand_come_from_the_cards_module() -> None:
    assert card_name(card("H9")) == "9♥" and card_name(card("C2"), ascii_only=True) == "2C"


async def test_overlays_open_and_close_by_their_keys_and_the_key_bar_clicks() -> None:
    from wizard_tui.ui.screens.overlays import HelpScreen, LastTrickScreen, LogScreen
    from wizard_tui.ui.widgets.fulllog import FullLog
    from wizard_tui.ui.widgets.keybar import KeyBar

    session = _follow_suit_session()
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await _reach_round_2_play(pilot, app, session)
        table = app.screen
        for key, screen_type in (("t", LastTrickScreen), ("v", LogScreen), ("s", ScoreScreen)):
            await pilot.press(key)
            await until(pilot, lambda t=screen_type: isinstance(app.screen, t))
            if screen_type is LogScreen:
                log = app.screen.query_one(FullLog)
                await until(pilot, lambda log=log: len(log.lines) >= 3)
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is table)
        bar = table.query_one(KeyBar)
        span = next(s for s in bar.spans if s[2] == "question_mark")
        await pilot.click(KeyBar, offset=(span[0] + 1, 0))
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("question_mark")
        await until(pilot, lambda: app.screen is table)

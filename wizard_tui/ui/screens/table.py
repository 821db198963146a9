"""The table: seats, the trick, the log (under the bid/trump panel), the prompt and the hand.

The screen reads the App's ``table`` (the latest ``TableUpdate``) and hands each widget its
part. Everything about legality comes from the view: ``legal_cards`` for the hand,
``legal_bids`` for the bid panel. Intents go up as messages; the App sends them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen

from ...game import BLIND_CARD, GameOver, Phase, RoundScored, SeatView, Suit, TrickWon, left_of
from ...game.actions import TrickBombed
from ...i18n import N_, _
from ...session import ActionRefused, TableUpdate
from ..glyphs import clean, suit_name
from ..messages import (
    AdjustBidIntent,
    DeclareIntent,
    Intent,
    MakeBid,
    NameTrumpIntent,
    PassCardIntent,
    PickTrump,
    PlayCard,
    SwapIntent,
)
from ..refusals import refusal_text
from ..widgets.banner import Banner
from ..widgets.decisions import (
    AdjustBidPanel,
    BidPanel,
    DecisionPanel,
    DeclarePanel,
    LetterPanel,
    NameTrumpPanel,
    SwapPanel,
    TrumpPanel,
)
from ..widgets.hand import HandView
from ..widgets.journal import RecentLog
from ..widgets.keybar import KeyBar
from ..widgets.scorepad import ScorePad
from ..widgets.seats import SeatsPanel
from ..widgets.status import PromptLine, StatusLine
from ..widgets.summary import RoundSummary
from ..widgets.trick import TrickState, TrickView, trick_declarations
from .common import last_trick, scorepad_data

if TYPE_CHECKING:
    from textual import getters

    from ..table_app import TableApp

# What the player on turn is waiting to do, in the prompt ("Waiting for Ann to bid").
_WAITING = {
    Phase.BID: N_("Waiting for {name} to bid"),
    Phase.PLAY: N_("Waiting for {name} to play"),
    Phase.CHOOSE_TRUMP: N_("Waiting for {name} to name trump"),
    # The special cards (docs/rules.md): the Werewolf, a declaration, the Cloud, the
    # Juggler's pass, the Witch's swap.
    Phase.NAME_TRUMP: N_("Waiting for {name} to name trump"),
    Phase.DECLARE: N_("Waiting for {name} to declare"),
    Phase.ADJUST_BID: N_("Waiting for {name} to change the bid"),
    Phase.PASS: N_("Waiting for {name} to pass a card"),
    Phase.SWAP: N_("Waiting for {name} to swap or not"),
}
# The phases whose decision a panel asks (the Juggler's pass is made in the hand).
PANELS: dict[Phase, type[DecisionPanel]] = {
    Phase.BID: BidPanel,
    Phase.CHOOSE_TRUMP: TrumpPanel,
    Phase.NAME_TRUMP: NameTrumpPanel,
    Phase.DECLARE: DeclarePanel,
    Phase.ADJUST_BID: AdjustBidPanel,
    Phase.SWAP: SwapPanel,
}
PANEL_IDS: dict[type[DecisionPanel], str] = {
    BidPanel: "bid-panel",
    TrumpPanel: "trump-panel",
    NameTrumpPanel: "name-trump-panel",
    DeclarePanel: "declare-panel",
    AdjustBidPanel: "adjust-bid-panel",
    SwapPanel: "swap-panel",
}
# After a trick, while its effects are asked for, the trick stays on the table.
AFTER_TRICK = (Phase.ADJUST_BID, Phase.PASS, Phase.SWAP)


# What the panels of the special cards ask, in the prompt.
SPECIAL_PROMPTS = {
    Phase.NAME_TRUMP: N_("Your turn: the Werewolf names trump"),
    Phase.DECLARE: N_("Your turn: declare your card"),
    Phase.ADJUST_BID: N_("Your turn: the Cloud changes your bid"),
    Phase.SWAP: N_("Your turn: the Witch may swap a card"),
}


class SidePanel(VerticalScroll, can_focus=False):
    """Holds the side score pad; never takes the focus (the arrows belong to the hand)."""


def decision_key(view: SeatView) -> tuple[int, ...]:
    """Identifies the moment a decision is asked for: it changes once anyone acts."""
    return (
        view.round,
        list(Phase).index(view.phase),
        view.turn,
        sum(b is not None for b in view.bids),
        len(view.tricks),
        len(view.trick),
        # Two of the Juggler's passes in a row (a Vampire copying it) ask the same seat
        # twice in the same phase: the first one's cards have moved by the second.
        hash(tuple(sorted(view.hand))),
        hash(view.last_pass),
        # A Cloud's change of bid changes the bids, not their number.
        hash(view.bids),
    )


class TableScreen(Screen, inherit_bindings=False):
    if TYPE_CHECKING:  # the app it runs in (``WizardApp``), typed as Textual does its own
        app = getters.app(TableApp)

    # While a bid/trump panel is open, check_action routes the keys to it (it is modal);
    # bindings sharing a key are told apart by check_action, the first enabled one wins.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", N_("Card"), key_display="←→"),
        Binding("right", "move(1)", N_("Card"), show=False),
        # The Witch's panel: up and down change rows (before "step": the first enabled wins).
        Binding("up,tab", "row(-1)", show=False),
        Binding("down", "row(1)", show=False),
        # A declaration: w and j declare a Wizard and a Jester (j steps otherwise).
        Binding("w", "letter('w')", show=False),
        Binding("j", "letter('j')", show=False),
        Binding("n", "letter('n')", show=False),
        Binding("left,down,j,minus", "step(-1)", N_("Change"), key_display="←→"),
        Binding("right,up,k,plus", "step(1)", N_("Change"), show=False),
        # h and l move too, except in the trump panel, where h names hearts.
        Binding("h", "nudge(-1)", show=False),
        Binding("l", "nudge(1)", show=False),
        Binding("enter,space,x,escape", "go_on", N_("Go on"), key_display="⏎"),
        Binding("enter,space", "play", N_("Play"), key_display="⏎"),
        Binding("enter,space", "pass_card", N_("Pass"), key_display="⏎"),  # the Juggler
        Binding("enter,space", "submit", N_("Choose"), key_display="⏎"),
        Binding("x,escape", "aside", N_("Hide"), key_display="x"),
        Binding("b", "decide", N_("Decide")),
        Binding("t", "last_trick", N_("Trick")),
        Binding("s", "scores", N_("Scores")),
        Binding("v,f2", "log", N_("Log"), show=False),
        Binding("c", "chat", N_("Chat")),
        Binding("question_mark,f1", "app.help", N_("Help"), key_display="?"),
        Binding("backspace", "clear", show=False),
        *(Binding(str(d), f"digit({d})", show=False) for d in range(10)),
        *(Binding(s.letter.lower(), f"pick({int(s)})", show=False) for s in Suit),
    ]

    AUTO_FOCUS = None  # nothing on the table takes the focus; the screen has the keys

    # Textual annotates it ``ClassVar[...] | None``, which mypy takes for an instance variable.
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [  # type: ignore[misc]
        (0, "-narrow"),
        (80, "-normal"),
        (120, "-wide"),
        (160, "-wider"),
    ]

    _GATED = ("move", "play", "pass_card", "decide", "last_trick", "step", "chat", "go_on")

    def __init__(self) -> None:
        super().__init__()
        self._pending: tuple[int, ...] | None = None  # decision we already answered
        self._put_aside: tuple[int, ...] | None = None  # decision whose panel was hidden
        self._key_state: tuple[bool | None, ...] = ()
        # The widgets, made here and kept: queries walk the DOM, and check_action runs for
        # every binding whenever the footer redraws.
        self._status_line = StatusLine(id="status")
        self._seats_panel = SeatsPanel(id="seats")
        self._trick_view = TrickView(id="trick")
        # The decision panels, made when first needed (most tables use two of them).
        self._panels: dict[type[DecisionPanel], DecisionPanel] = {}
        self._log = RecentLog(id="journal")
        self._summary = RoundSummary(id="summary", classes="decision")
        self._summary.on_close = self._summary_closed
        self._prompt = PromptLine(id="prompt")
        self._hand = HandView(id="hand")
        self._center = Vertical(id="center")
        self._side = SidePanel(id="side")
        self._side_pad = ScorePad(id="side-pad")

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Banner()
        with Horizontal(id="columns"):
            with Vertical(id="main"):
                yield self._status_line
                with Horizontal(id="middle"):
                    yield self._seats_panel
                    yield self._trick_view
                with self._center:
                    # The bid/trump panels are mounted here, before the log, when first
                    # needed (fewer widgets to style at start-up). They are drawn over the top
                    # of the log (absolute, on a higher layer), so opening and closing one
                    # repaints only the rows it covers; with the log last, its place in the
                    # compositor does not depend on them.
                    yield self._log
                yield self._prompt
                yield self._hand
            # The side score pad is mounted once the screen is wide enough to show it.
            self._side.border_title = _("Score pad")
            yield self._side
        yield KeyBar()

    def on_mount(self) -> None:
        self.watch(self.app, "table", self._show_table)
        self.watch(self.app, "link", self._show_link)
        self.watch(self.app, "verifications", self._show_checks)
        self.watch(self.app, "refusal", self._show_refusal, init=False)

    # ------------------------------------------------------------------ state from the App

    @property
    def table_update(self) -> TableUpdate | None:
        return self.app.table

    @property
    def view(self) -> SeatView | None:
        update = self.app.table
        return update.view if update is not None else None

    @property
    def names(self) -> tuple[str, ...]:
        update = self.app.table
        return tuple(s.name for s in update.seats) if update is not None else ()

    def _seat_name(self, seat: int) -> str:
        names = self.names
        return clean(names[seat], 24) if 0 <= seat < len(names) else "?"

    def _show_table(self, update: TableUpdate | None) -> None:
        if update is None:
            return
        view = update.view
        if self._pending != decision_key(view):
            self._pending = None
        names = tuple(s.name for s in update.seats)
        between = view.phase in (Phase.DEAL, Phase.GAME_OVER)
        self._seats_panel.show(
            update.seats,
            me=view.seat,
            turn=view.turn,
            # Between rounds the view still names the last round's dealer: no mark then.
            dealer=-1 if between else view.dealer,
            # ... nor the last round's bids and tricks (the summary and the pad have them).
            bids=() if between else view.bids,
            won=() if between else view.tricks_won,
            totals=view.totals,
            sealed=update.sealed,
            foreheads=view.foreheads,
            face_down=view.blind_cards > 0,
        )
        self._status_line.show(view=view)
        trick = self._trick_view
        trick.show(self._live_trick(view, names))
        won = [e for e in update.events if isinstance(e, TrickWon | TrickBombed)]
        if won:
            last = won[-1]
            bombed = isinstance(last, TrickBombed)
            trick.hold(
                TrickState(
                    players=view.players,
                    phase=Phase.PLAY,
                    number=last.trick + 1,
                    of=max(view.hand_size, 1),
                    plays=last.plays,
                    winner=last.leader if isinstance(last, TrickBombed) else last.winner,
                    led=None,
                    turn=-1,
                    names=names,
                    done=True,
                    declared=trick_declarations(view.declared, last.trick),
                    bombed=bombed,
                )
            )
        scored = [e for e in update.events if isinstance(e, RoundScored)]
        if scored and not any(isinstance(e, GameOver) for e in update.events):
            self._open_summary(scored[-1], names, view)
        # The hand chooses a card to play, and the Juggler's card to pass.
        choosing = view.phase in (Phase.PLAY, Phase.PASS) and view.my_turn
        if choosing and view.trick:
            trick.release()  # this player must see the live trick to choose a card
        self._hand.turned_up.show(
            view.trump_card,
            view.trump_suit,
            view.phase,
            turned=view.turned_card,
            vampire_copies=view.vampire_copies,
        )
        # A forehead round: your own card is face down (``BLIND_CARD``), "play your card".
        held = view.hand or (BLIND_CARD,) * view.blind_cards
        self._hand.show(held, frozenset(view.legal_cards) if choosing else None, view.trump_suit)
        self._fill_side()
        self._show_prompt()
        self._sync_panels()
        self._refresh_keys()

    def _live_trick(self, view: SeatView, names: tuple[str, ...]) -> TrickState:
        """The trick in progress; after a trick, while its effects are asked for (the
        Cloud, the Juggler, the Witch), the trick just completed, as it lies now."""
        if view.phase in AFTER_TRICK and not view.trick and view.tricks:
            done = view.tricks[-1]
            return TrickState(
                players=view.players,
                phase=Phase.PLAY,
                number=len(view.tricks),
                of=max(view.hand_size, 1),
                plays=done.plays,
                winner=done.winner,
                led=None,
                turn=-1,
                names=names,
                done=True,
                declared=trick_declarations(view.declared, len(view.tricks) - 1),
                bombed=done.bombed,
            )
        return TrickState(
            players=view.players,
            phase=view.phase,
            number=len(view.tricks) + 1,
            of=view.hand_size,  # a round has a trick per card each
            plays=view.trick,
            winner=view.trick_winner,
            led=view.led_suit,
            turn=view.turn,
            names=names,
            declared=trick_declarations(view.declared, len(view.tricks)),
        )

    def _fill_side(self) -> None:
        """The side score pad (from 120 columns) is filled only while it is showing."""
        side = self._side
        if not side.display:
            return
        scorepad_data(self._side_pad, self.app.table, self.app.checks)
        if self._side_pad.parent is None:
            side.mount(self._side_pad)
        else:
            side.scroll_end(animate=False)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fill_side)

    def _show_link(self, link: str) -> None:
        self._status_line.show(link=link)
        if link == "connected":
            self._pending = None  # the host resends the state; ask again if still our turn
        self._show_prompt()
        self._sync_panels()
        self._refresh_keys()

    def _show_checks(self) -> None:
        verifications = self.app.verifications
        self._status_line.show(verified=verifications[-1] if verifications else None)
        self._side_pad.checks = self.app.checks

    def _show_refusal(self, refusal: ActionRefused | None) -> None:
        if refusal is None:
            return
        self._pending = None
        self._sync_panels()  # (it says the prompt afresh: the warning comes after)
        led = self.view.led_suit if self.view is not None else None
        self._prompt.warn(_("Refused: {reason}").format(reason=refusal_text(refusal, led)))
        self._refresh_keys()

    def _show_prompt(self, keep_error: bool = False) -> None:
        """Say what to do now; ``keep_error``: unless a refusal or warning is showing (the
        panels only change the hint, which must not wipe out why a key did nothing)."""
        prompt = self._prompt
        if keep_error and prompt.error:
            return
        view = self.view
        if self.app.link != "connected":
            prompt.say(_("Not connected: waiting for the host"))
            return
        if view is None:
            prompt.say(_("Waiting for the deal"))
            return
        g = self.app.glyphs
        mine = view.my_turn and view.phase in _WAITING
        if self._summary.is_open:
            said = _("Round scored: Enter goes on; then your bid") if mine else ""
            prompt.say(said or _("Round scored: Enter goes on"), urgent=mine)
        elif mine and self._pending is not None:
            prompt.say(_("Sent; waiting for the host"))
        elif mine and view.phase is Phase.PLAY and view.forehead:
            prompt.say(_("Your turn: Enter plays your card, unseen"), urgent=True)
        elif mine and view.phase is Phase.PLAY:
            said = _("Your turn: play a card ({arrows} choose, Enter plays)")
            prompt.say(said.format(arrows=g.arrows), urgent=True)
        elif mine and view.phase is Phase.BID and view.rules.hidden_bids:
            said = (
                _("Your turn: bid, hidden until every bid is in")
                if self.open_panel
                else _("Your turn: bid, hidden until every bid is in (b opens the panel)")
            )
            prompt.say(said, urgent=True)
        elif mine and view.phase is Phase.BID:
            said = (
                _("Your turn: bid")
                if self.open_panel
                else _("Your turn: bid (b opens the bid panel)")
            )
            prompt.say(said, urgent=True)
        elif mine and view.phase is Phase.PASS:
            said = _("Juggler: pass a card to {name} ({arrows} choose, Enter passes)")
            left = self._seat_name(left_of(view.seat, view.players))
            prompt.say(said.format(name=left, arrows=g.arrows), urgent=True)
        elif mine and view.phase in SPECIAL_PROMPTS:
            said = _(SPECIAL_PROMPTS[view.phase])
            if not self.open_panel:
                said = _("{what} (b opens the panel)").format(what=said)
            prompt.say(said, urgent=True)
        elif view.phase is Phase.BID and view.rules.hidden_bids and view.bid is not None:
            said = _("Your bid of {bid} is sealed until every bid is in")
            prompt.say(said.format(bid=view.bid))
        elif mine:
            said = (
                _("Your turn: name trump")
                if self.open_panel
                else _("Your turn: name trump (b opens the panel)")
            )
            prompt.say(said, urgent=True)
        elif view.phase in _WAITING and view.turn >= 0:
            said = _(_WAITING[view.phase]).format(name=self._seat_name(view.turn))
            prompt.say(_watching(said) if view.seat < 0 else said)
        elif view.phase is Phase.GAME_OVER:
            prompt.say(_("The game is over"))
        else:
            said = _("Waiting for the next deal")
            prompt.say(_watching(said) if view.seat < 0 else said)

    # ------------------------------------------------------------------ the round summary

    def _open_summary(self, scored: RoundScored, names: tuple[str, ...], view: SeatView) -> None:
        summary = self._summary
        if summary.parent is None:
            self._center.mount(summary, before=self._log)
        summary.open(scored, names, view.seat, view.num_rounds)
        # Its height is known now (a row per player, the leader, the border): cover the log
        # at once, so the lines that follow land below it.
        self._log.cover(len(scored.totals) + 3)
        self.call_after_refresh(self._cover_log)

    def _summary_closed(self) -> None:
        self._sync_panels()
        self._show_prompt()

    def action_go_on(self) -> None:
        self._summary.close()

    # ------------------------------------------------------------------ the decision panels

    def _wanted_panel(self) -> type[DecisionPanel] | None:
        view = self.view
        if view is None or not view.my_turn or self.app.link != "connected":
            return None
        if self._summary.is_open:
            return None  # the round's summary first: the next bid waits for it
        if self._pending is not None:
            return None
        return PANELS.get(view.phase)

    def _panel(self, kind: type[DecisionPanel]) -> DecisionPanel:
        panel = self._panels.get(kind)
        if panel is None:
            panel = self._panels[kind] = kind(id=PANEL_IDS[kind], classes="decision")
        return panel

    @property
    def open_panel(self) -> DecisionPanel | None:
        for panel in self._panels.values():
            if panel.is_open:
                return panel
        return None

    def _sync_panels(self, *, explicit: bool = False) -> None:
        """Open the bid/trump panel when this seat must decide; close it when it need not."""
        view = self.view
        wanted = self._wanted_panel()
        if view is None or (not explicit and self._put_aside == decision_key(view)):
            wanted = None
        current = next((p for p in self._panels.values() if p.display), None)
        if current is not None:
            keep = (
                type(current) is wanted
                and current.view is not None
                and view is not None
                and decision_key(current.view) == decision_key(view)
            )
            if not keep:
                current.close()
        if wanted is not None and not (current is not None and current.display):
            assert view is not None
            panel = self._panel(wanted)
            if panel.parent is None:
                self._center.mount(panel, before=self._log)
            panel.open(view, self.names)
        self.call_after_refresh(self._cover_log)
        self._show_prompt(keep_error=True)
        self._refresh_keys()

    def _cover_log(self) -> None:
        """The log shows its newest lines below the open panel, never behind it."""
        shown = (self._summary, *self._panels.values())
        panel = next((p for p in shown if p.display), None)
        self._log.cover(panel.outer_size.height if panel is not None else 0)

    @on(DecisionPanel.Decided)
    def _decided(self, event: DecisionPanel.Decided) -> None:
        view = self.view
        if view is None or event.panel.view is None:
            return
        if decision_key(event.panel.view) != decision_key(view):
            return  # a stale panel: the moment has passed
        if self._pending == decision_key(view):
            # Sent already for this very decision: a second Enter (or suit key) reached the
            # panel before the first one's Decided closed it. Sent too, it would reach the
            # host after our first answer and be refused (wrong_phase once the bidding ended).
            return
        self._pending = decision_key(view)
        self.post_message(self._intent(event.panel, event.value))
        self._sync_panels()
        self._show_prompt()
        self._refresh_keys()

    @staticmethod
    def _intent(panel: DecisionPanel, value: object) -> Intent:
        """What a panel's choice asks of the table, by the panel that made it."""
        if isinstance(panel, NameTrumpPanel):
            assert value is None or isinstance(value, Suit)
            return NameTrumpIntent(value)
        if isinstance(panel, DeclarePanel):
            assert isinstance(value, int)
            return DeclareIntent(value)
        if isinstance(panel, AdjustBidPanel):
            assert isinstance(value, int)
            return AdjustBidIntent(value)
        if isinstance(panel, SwapPanel):
            assert isinstance(value, tuple)
            give, take = value
            return SwapIntent(give, take)
        if isinstance(panel, TrumpPanel):
            assert isinstance(value, Suit)
            return PickTrump(value)
        assert isinstance(value, int)
        return MakeBid(value)

    @on(DecisionPanel.Opened)
    def _panel_ready(self, event: DecisionPanel.Opened) -> None:
        self.call_after_refresh(self._cover_log)
        self._show_prompt(keep_error=True)
        self._refresh_keys()

    @on(DecisionPanel.PutAside)
    def _put_panel_aside(self, event: DecisionPanel.PutAside) -> None:
        if event.panel.view is not None:
            self._put_aside = decision_key(event.panel.view)
        self._sync_panels()

    # ------------------------------------------------------------------ keys

    def _refresh_keys(self) -> None:
        """Refresh the footer only when an action's state changed: it rebuilds itself."""
        state = tuple(self.check_action(action, ()) for action in self._GATED)
        if state != self._key_state:
            self._key_state = state
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self.view
        if action == "go_on":
            return self._summary.is_open
        if self._summary.is_open and action in ("play", "pass_card", "decide", "move", "nudge"):
            return False  # Enter goes on from the summary first
        panel = self.open_panel
        lettered = isinstance(panel, TrumpPanel | LetterPanel)
        if action in ("step", "submit", "clear", "aside"):
            return panel is not None
        if action == "row":
            return isinstance(panel, SwapPanel)
        if action == "letter":  # w, j, n: only where the panel offers them
            return (
                isinstance(panel, LetterPanel)
                and bool(parameters)
                and panel.accepts(str(parameters[0]))
            )
        if action == "nudge":
            return not lettered and bool(panel or (view and view.hand))
        if action == "digit":
            return isinstance(panel, BidPanel)
        if action == "pick":
            if isinstance(panel, LetterPanel):
                return not parameters or panel.accepts(Suit(int(str(parameters[0]))).letter.lower())
            return isinstance(panel, TrumpPanel)
        if panel is not None and action in ("move", "play", "pass_card", "decide"):
            return False  # the panel has the arrows and Enter
        if lettered and action in ("chat", "scores"):
            return False  # c and s name clubs and spades
        online = self.app.link == "connected"
        mine = view is not None and view.my_turn and online and self._pending is None
        if action == "move":
            return bool(view and view.hand)
        if action == "play":
            # Enabled for the whole play phase, so the footer stays still as turns pass;
            # out of turn, the key says whose turn it is. (The Juggler's pass too.)
            return view is not None and view.phase is Phase.PLAY
        if action == "pass_card":  # the Juggler's pass: the hand's Enter, named "Pass"
            return view is not None and view.phase is Phase.PASS and view.my_turn
        if action == "decide":
            return bool(mine and view is not None and view.phase in PANELS)
        if action == "last_trick":
            update = self.table_update
            return True if update is not None and last_trick(update) else None
        return True

    def action_move(self, delta: int) -> None:
        self._hand.move(delta)
        prompt = self._prompt
        if prompt.error:
            prompt.warn("")

    def action_nudge(self, delta: int) -> None:
        if self.open_panel is not None:
            self.action_step(delta)
        else:
            self.action_move(delta)

    def action_step(self, delta: int) -> None:
        if panel := self.open_panel:
            panel.step(delta)

    def action_submit(self) -> None:
        if panel := self.open_panel:
            panel.submit()

    def action_clear(self) -> None:
        if isinstance(panel := self.open_panel, BidPanel):
            panel.clear()

    def action_aside(self) -> None:
        if panel := self.open_panel:
            panel.put_aside()

    def action_digit(self, digit: int) -> None:
        if isinstance(panel := self.open_panel, BidPanel):
            panel.digit(digit)

    def action_pick(self, suit: int) -> None:
        if isinstance(panel := self.open_panel, TrumpPanel):
            panel.pick(suit)
        elif isinstance(panel, LetterPanel):
            panel.pick_letter(Suit(suit).letter.lower())

    def action_letter(self, letter: str) -> None:
        if isinstance(panel := self.open_panel, LetterPanel):
            panel.pick_letter(letter)

    def action_row(self, delta: int) -> None:
        if isinstance(panel := self.open_panel, SwapPanel):
            panel.change_row(delta)

    def action_play(self) -> None:
        self._play(self._hand.selected)

    def action_pass_card(self) -> None:
        view = self.view
        if view is not None and view.phase is Phase.PASS:
            self._pass(self._hand.selected, view)

    def _play(self, card: int | None) -> None:
        view = self.view
        prompt = self._prompt
        if view is not None and view.phase is Phase.PASS:
            self._pass(card, view)
            return
        if view is None or card is None or view.phase is not Phase.PLAY:
            return
        if self.app.link != "connected":
            prompt.warn(_("Not connected: the card cannot be sent now"))
            return
        if not view.my_turn:
            said = _("Not your turn: {name} is to play")
            prompt.warn(said.format(name=self._seat_name(view.turn)))
            return
        # Sent already for this very decision. (Compared with the view, not just "is set":
        # the watcher that clears it for a new state can run a moment after a key press.)
        if self._pending == decision_key(view):
            return
        if card not in view.legal_cards:
            prompt.warn(self._why_not(card, view))
            self.app.bell()
            return
        self._pending = decision_key(view)
        self._trick_view.release()
        self.post_message(PlayCard(card))
        self._show_prompt()
        self._refresh_keys()

    def _pass(self, card: int | None, view: SeatView) -> None:
        """The Juggler: pass the selected card to the left."""
        if card is None or not view.my_turn or self._pending == decision_key(view):
            return
        if self.app.link != "connected":
            self._prompt.warn(_("Not connected: the card cannot be sent now"))
            return
        if card not in view.legal_cards:
            self._prompt.warn(_("{card} cannot be passed.").format(card=self.app.glyphs.card(card)))
            self.app.bell()
            return
        self._pending = decision_key(view)
        self.post_message(PassCardIntent(card))
        self._show_prompt()
        self._refresh_keys()

    def _why_not(self, card: int, view: SeatView) -> str:
        name = self.app.glyphs.card(card)
        if view.led_suit is not None:
            said = _("You must follow {suit}: play {suit}, a Wizard or a Jester, not {card}.")
            return said.format(suit=suit_name(view.led_suit), card=name)
        return _("{card} cannot be played now.").format(card=name)

    def action_decide(self) -> None:
        self._put_aside = None
        self._sync_panels(explicit=True)

    def action_last_trick(self) -> None:
        update = self.table_update
        if update is not None and last_trick(update):
            from .overlays import LastTrickScreen

            self.app.push_screen(LastTrickScreen(update))

    def action_scores(self) -> None:
        from .overlays import ScoreScreen

        self.app.push_screen(ScoreScreen())

    def action_chat(self) -> None:
        self.app.action_chat()

    def action_log(self) -> None:
        from .overlays import LogScreen

        self.app.push_screen(LogScreen())

    @on(HandView.CardClicked)
    def _card_clicked(self, event: HandView.CardClicked) -> None:
        hand = self._hand
        if hand.cursor == event.index:
            self._play(hand.selected)
        else:
            hand.select(event.index)


def _watching(said: str) -> str:
    """The prompt of a spectator's table (``join --watch``: no seat, so never its turn)."""
    return _("Watching: {what}").format(what=said)

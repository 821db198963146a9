"""The panels for this seat's decisions: the bid and the trump suit.

A panel opens in the middle of the table (in place of the log) when the view says it is
this seat's turn to decide. It is modal: while it is open the table screen sends the
arrows, digits and Enter to the panel, not to the hand (``TableScreen.check_action``).
It offers exactly what the view allows (``legal_bids``; any of the four suits for trump)
and posts ``Decided``; the table screen sends the intent. x or Esc puts it aside; b
brings it back.

These are panels inside the table screen rather than modal screens on top of it, and they
never take the focus: a new screen repaints the whole terminal when it opens and again
when it closes, and a focus change restyles every ancestor, each costing kilobytes per
round over SSH.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

from ...game import SUITS, SeatView, Suit
from ...i18n import _
from ..glyphs import UNICODE, Glyphs, clean
from .choices import Choice, ChoiceStrip
from .status import cards_each


def forbidden_reason(view: SeatView) -> str:
    """Why the restricted last bid rules out ``view.forbidden_bid`` (empty if nothing is)."""
    if view.forbidden_bid is None:
        return ""
    said = _("You may not bid {bid}: the bids would add up to {n}, the number of tricks.")
    return said.format(bid=view.forbidden_bid, n=view.hand_size)


class DecisionPanel(Vertical):
    """Shared behaviour: open for a view, close, report the choice or being put aside."""

    @dataclass
    class Decided(Message):
        panel: DecisionPanel
        value: object

    @dataclass
    class PutAside(Message):
        panel: DecisionPanel

    @dataclass
    class Opened(Message):
        """Ready for keys after being mounted late (the table refreshes its key bar)."""

        panel: DecisionPanel

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view: SeatView | None = None
        self.names: tuple[str, ...] = ()
        self.display = False
        self._ready = False  # filled for ``view``: keys may act on it

    @property
    def glyphs(self) -> Glyphs:
        return getattr(self.app, "glyphs", UNICODE)

    @property
    def is_open(self) -> bool:
        return bool(self.display) and self._ready

    def open(self, view: SeatView, names: tuple[str, ...]) -> None:
        self.view, self.names = view, names
        self.display = True
        self._ready = self.is_mounted
        if self._ready:
            self.fill(view)
        # else: on_mount fills it (a panel is mounted when first needed)

    def on_mount(self) -> None:
        if self.view is not None and self.display:
            self.fill(self.view)
            self._ready = True
            self.post_message(self.Opened(self))

    def close(self) -> None:
        self.display = False
        self._ready = False

    def fill(self, view: SeatView) -> None:
        raise NotImplementedError

    def put_aside(self) -> None:
        self.post_message(self.PutAside(self))

    def step(self, delta: int) -> None:
        self.query_one(ChoiceStrip).step(delta)

    def submit(self) -> None:
        raise NotImplementedError


class BidPanel(DecisionPanel):
    """Digits (then Enter) or the arrows choose a bid; only ``view.legal_bids`` can be sent."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.values: tuple[int, ...] = ()
        self.typed = ""

    def compose(self) -> ComposeResult:
        with Horizontal(classes="choice-row"):
            yield Static(_("Tricks you will take:"), classes="label")
            yield ChoiceStrip(id="bids")
        yield Static(id="so-far")
        yield Static(id="why")

    def fill(self, view: SeatView) -> None:
        g = self.glyphs
        self.border_title = _("Your bid {dot} round {round} of {rounds}").format(
            dot=g.dot, round=view.round, rounds=view.num_rounds
        )
        cards = cards_each(view.round, view.hand_size)  # a game of another length
        if cards:
            self.border_title += f" {g.dot} {cards}"
        self.border_subtitle = _("0-9 or {arrows} choose {dot} Enter bid {dot} x hide").format(
            arrows=g.arrows, dot=g.dot
        )
        self.typed = ""
        legal = set(view.legal_bids)
        shown = legal | ({view.forbidden_bid} if view.forbidden_bid is not None else set())
        self.values = tuple(sorted(shown))
        first = next((i for i, b in enumerate(self.values) if b in legal), 0)
        self.query_one(ChoiceStrip).offer(
            tuple(Choice(str(b), b in legal) for b in self.values), first
        )
        self.query_one("#so-far", Static).update(self._bids_so_far(view))
        self._explain()

    def _bids_so_far(self, view: SeatView) -> str:
        made = [(s, b) for s, b in enumerate(view.bids) if b is not None]
        if view.rules.hidden_bids:
            return _("The bids are hidden: everyone bids at once, all shown when all are in.")
        if not made:
            return _("You bid first.")
        parts = ", ".join(
            f"{clean(self.names[s], 14) if s < len(self.names) else s} {b}" for s, b in made
        )
        total = sum(b for _, b in made)
        return _("Bids so far: {bids} (total {total} of {n})").format(
            bids=parts, total=total, n=view.hand_size
        )

    def _explain(self, refused: bool = False) -> None:
        why = self.query_one("#why", Static)
        reason = forbidden_reason(self.view) if self.view is not None else ""
        why.update(Text(reason))
        why.set_class(refused, "-refused")
        why.display = bool(reason)

    @property
    def choice(self) -> int | None:
        strip = self.query_one(ChoiceStrip)
        return self.values[strip.selected] if 0 <= strip.selected < len(self.values) else None

    def digit(self, digit: int) -> None:
        typed = self.typed + str(digit)
        if len(typed) > 2 or int(typed) not in self.values:
            typed = str(digit)
        self.typed = typed
        if int(typed) in self.values:
            self.query_one(ChoiceStrip).select(self.values.index(int(typed)))
        self._explain()

    def step(self, delta: int) -> None:
        self.typed = ""
        self.query_one(ChoiceStrip).step(delta)
        self._explain()

    def clear(self) -> None:
        self.typed = ""

    def submit(self) -> None:
        choice = self.choice
        if self.view is None or choice is None or choice not in self.view.legal_bids:
            self._explain(refused=True)
            self.app.bell()
            return
        self.post_message(self.Decided(self, choice))

    @on(ChoiceStrip.Clicked)
    def _clicked(self, event: ChoiceStrip.Clicked) -> None:
        event.stop()
        strip = self.query_one(ChoiceStrip)
        if strip.selected == event.index:
            self.submit()
        else:
            strip.select(event.index)
            self._explain()


class TrumpPanel(DecisionPanel):
    """The dealer turned up a Wizard: name trump with c/d/h/s, or the arrows and Enter."""

    def compose(self) -> ComposeResult:
        yield Static(
            _("A Wizard was turned up and you are the dealer: name the trump suit."),
            id="question",
        )
        yield ChoiceStrip(id="suits")

    def fill(self, view: SeatView) -> None:
        g = self.glyphs
        self.border_title = _("Choose trump {dot} round {round}").format(
            dot=g.dot, round=view.round
        )
        self.border_subtitle = _("c d h s choose {dot} {arrows} then Enter {dot} x hide").format(
            dot=g.dot, arrows=g.arrows
        )
        self.query_one(ChoiceStrip).offer(
            tuple(Choice(g.suit(s), True, f"card--{s.label}") for s in SUITS), 0
        )

    def pick(self, suit: int) -> None:
        self.post_message(self.Decided(self, Suit(suit)))

    def submit(self) -> None:
        self.post_message(self.Decided(self, SUITS[self.query_one(ChoiceStrip).selected]))

    @on(ChoiceStrip.Clicked)
    def _clicked(self, event: ChoiceStrip.Clicked) -> None:
        event.stop()
        strip = self.query_one(ChoiceStrip)
        if strip.selected == event.index:
            self.submit()
        else:
            strip.select(event.index)

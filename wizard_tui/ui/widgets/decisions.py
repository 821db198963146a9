"""The panels for this seat's decisions: the bid and the trump suit, and with the special
cards the Werewolf's trump, a declaration, the Cloud's change of bid and the Witch's swap.

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

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

from ...game import SUITS, SeatView, Suit, hand_order
from ...game.specials import FORM_DECLARATIONS, SUIT_DECLARATIONS, Declaration
from ...i18n import _
from ..glyphs import UNICODE, Glyphs, clean
from ..specials import declaration_class, declaration_label
from .base import card_class
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
        legal = set(self.legal(view))
        shown = legal | ({view.forbidden_bid} if view.forbidden_bid is not None else set())
        self.values = tuple(sorted(shown))
        first = next((i for i, b in enumerate(self.values) if b in legal), 0)
        self.query_one(ChoiceStrip).offer(
            tuple(Choice(str(b), b in legal) for b in self.values), first
        )
        self.query_one("#so-far", Static).update(self._bids_so_far(view))
        self._explain()

    def legal(self, view: SeatView) -> tuple[int, ...]:
        """The bids that may be sent (the Cloud's panel: the new bids)."""
        return view.legal_bids

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
        if self.view is None or choice is None or choice not in self.legal(self.view):
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


# ---------------------------------------------------------------------- the special cards


def my_played_card(view: SeatView) -> int | None:
    """The card this seat put in the trick in progress (the one it declares)."""
    return next((card for seat, card in reversed(view.trick) if seat == view.seat), None)


class LetterPanel(DecisionPanel):
    """A row of choices, each also chosen by a letter at once (``pick``): the Werewolf's
    trump (``c d h s``, ``n`` no trump) and a declaration (``c d h s``, ``w`` ``j``).
    ``values[i]`` is what choosing ``choices[i]`` sends; ``letters[i]`` its key."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.values: tuple[object, ...] = ()
        self.letters: tuple[str, ...] = ()

    def compose(self) -> ComposeResult:
        yield Static(id="question")
        yield ChoiceStrip()

    def offer(
        self,
        question: str,
        choices: tuple[Choice, ...],
        values: Sequence[object],
        letters: Sequence[str],
    ) -> None:
        self.values, self.letters = tuple(values), tuple(letters)
        self.query_one("#question", Static).update(Text(question))
        self.query_one(ChoiceStrip).offer(choices, 0)
        keys = " ".join(self.letters)
        self.border_subtitle = _("{keys} choose {dot} {arrows} then Enter {dot} x hide").format(
            keys=keys, dot=self.glyphs.dot, arrows=self.glyphs.arrows
        )

    def accepts(self, letter: str) -> bool:
        return letter in self.letters

    def pick_letter(self, letter: str) -> None:
        if letter in self.letters:
            self.post_message(self.Decided(self, self.values[self.letters.index(letter)]))

    def submit(self) -> None:
        selected = self.query_one(ChoiceStrip).selected
        if 0 <= selected < len(self.values):
            self.post_message(self.Decided(self, self.values[selected]))

    @on(ChoiceStrip.Clicked)
    def _clicked(self, event: ChoiceStrip.Clicked) -> None:
        event.stop()
        strip = self.query_one(ChoiceStrip)
        if strip.selected == event.index:
            self.submit()
        else:
            strip.select(event.index)


NO_TRUMP = -1  # in ``legal_choices`` of the Werewolf's trump: no trump


class NameTrumpPanel(LetterPanel):
    """The Werewolf: its holder takes the turned-up card and names trump, or no trump.
    Sends a ``Suit`` or None."""

    def fill(self, view: SeatView) -> None:
        g = self.glyphs
        self.border_title = _("The Werewolf {dot} round {round}").format(
            dot=g.dot, round=view.round
        )
        turned = view.turned_card if view.turned_card is not None else view.trump_card
        taken = g.card(turned) if turned is not None else g.dash
        question = _("You hold the Werewolf: you take {card}; name trump.").format(card=taken)
        choices: list[Choice] = []
        values: list[Suit | None] = []
        letters: list[str] = []
        for choice in view.legal_choices:
            if choice == NO_TRUMP:
                choices.append(Choice(_("no trump")))
                values.append(None)
                letters.append("n")
            elif choice in range(len(SUITS)):
                suit = Suit(choice)
                choices.append(Choice(g.suit(suit), True, f"card--{suit.label}"))
                values.append(suit)
                letters.append(suit.letter.lower())
        self.offer(question, tuple(choices), values, letters)


class DeclarePanel(LetterPanel):
    """A Juggler or a Cloud names a suit; a Shapeshifter is declared a Wizard or a Jester
    (and a Vampire copying one of them likewise). Sends the ``Declaration`` value."""

    def fill(self, view: SeatView) -> None:
        g = self.glyphs
        card = my_played_card(view)
        name = g.card(card) if card is not None else "?"
        self.border_title = _("Declare {card}").format(card=name)
        forms = all(c in FORM_DECLARATIONS for c in view.legal_choices)
        question = (
            _("Play {card} as a Wizard or as a Jester?")
            if forms
            else _("Name the suit {card} belongs to.")
        ).format(card=name)
        choices: list[Choice] = []
        values: list[int] = []
        letters: list[str] = []
        for choice in view.legal_choices:
            if choice in SUIT_DECLARATIONS:
                suit = Suit(choice)
                choices.append(Choice(g.suit(suit), True, f"card--{suit.label}"))
                letters.append(suit.letter.lower())
            elif choice in FORM_DECLARATIONS:
                label = declaration_label(choice, g)
                choices.append(Choice(label, True, declaration_class(choice)))
                letters.append("w" if choice == Declaration.WIZARD else "j")
            else:
                continue
            values.append(int(choice))
        self.offer(question, tuple(choices), values, letters)


class AdjustBidPanel(BidPanel):
    """The Cloud: the seat that took its trick changes its bid by one, up or down; only
    the new bids ``view.legal_choices`` allows can be sent."""

    def legal(self, view: SeatView) -> tuple[int, ...]:
        return view.legal_choices

    def fill(self, view: SeatView) -> None:
        super().fill(view)
        g = self.glyphs
        self.border_title = _("The Cloud {dot} change your bid").format(dot=g.dot)
        self.border_subtitle = _("{arrows} or - + choose {dot} Enter {dot} x hide").format(
            arrows=g.arrows, dot=g.dot
        )
        self.query_one(".label", Static).update(_("Your new bid:"))

    def _bids_so_far(self, view: SeatView) -> str:
        bid = view.bid if view.bid is not None else 0
        said = _("You took the Cloud's trick: your bid of {bid} goes one up or down.")
        return said.format(bid=bid)


class SwapPanel(DecisionPanel):
    """The Witch: give one card of the hand and take one of the trick (not the Witch), or
    keep the hand. Two rows: what to take (first "keep my hand") and what to give; the
    arrows move along the row in use, up/down (Tab) change rows. Sends (give, take), or
    (None, None) to keep the hand."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.takes: tuple[int | None, ...] = ()
        self.gives: tuple[int, ...] = ()
        self.row = 0  # 0: the take row, 1: the give row

    def compose(self) -> ComposeResult:
        yield Static(id="question")
        with Horizontal(classes="choice-row"):
            yield Static(id="take-label", classes="label")
            yield ChoiceStrip(id="takes")
        with Horizontal(classes="choice-row"):
            yield Static(id="give-label", classes="label")
            yield ChoiceStrip(id="gives")

    def fill(self, view: SeatView) -> None:
        g = self.glyphs
        self.border_title = _("The Witch {dot} swap a card").format(dot=g.dot)
        self.border_subtitle = _(
            "{arrows} choose {dot} up/down row {dot} Enter {dot} x hide"
        ).format(arrows=g.arrows, dot=g.dot)
        self.query_one("#question", Static).update(
            Text(_("Take a card of the trick for one of your hand, or keep your hand."))
        )
        self.query_one("#take-label", Static).update(_("Take:"))
        self.query_one("#give-label", Static).update(_("Give:"))
        self.takes = (None, *view.swap_takes)
        self.gives = tuple(sorted(view.legal_cards, key=hand_order(view.trump_suit)))  # as held
        keep = Choice(_("keep my hand"))
        cards = tuple(Choice(g.card(c), True, card_class(c)) for c in view.swap_takes)
        self.query_one("#takes", ChoiceStrip).offer((keep, *cards), 0)
        self.query_one("#gives", ChoiceStrip).offer(
            tuple(Choice(g.card(c), True, card_class(c)) for c in self.gives), 0
        )
        self.row = 0
        self._mark_row()

    def _mark_row(self) -> None:
        """The row in use is the one the arrows move; the give row is dimmed while the
        hand is kept (nothing is given)."""
        keeping = self.query_one("#takes", ChoiceStrip).selected == 0
        self.query_one("#take-label", Static).set_class(self.row == 0, "-active")
        self.query_one("#give-label", Static).set_class(self.row == 1, "-active")
        self.query_one("#gives", ChoiceStrip).set_class(keeping, "-idle")

    def change_row(self, delta: int) -> None:
        self.row = (self.row + delta) % 2
        self._mark_row()

    def step(self, delta: int) -> None:
        strip = self.query_one("#gives" if self.row else "#takes", ChoiceStrip)
        strip.step(delta)
        self._mark_row()

    @property
    def choice(self) -> tuple[int | None, int | None]:
        take_at = self.query_one("#takes", ChoiceStrip).selected
        give_at = self.query_one("#gives", ChoiceStrip).selected
        take = self.takes[take_at] if 0 <= take_at < len(self.takes) else None
        if take is None or not 0 <= give_at < len(self.gives):
            return None, None
        return self.gives[give_at], take

    def submit(self) -> None:
        self.post_message(self.Decided(self, self.choice))

    @on(ChoiceStrip.Clicked)
    def _clicked(self, event: ChoiceStrip.Clicked) -> None:
        event.stop()
        strip = event.strip
        self.row = 1 if strip.id == "gives" else 0
        if strip.selected == event.index and self.row == 0:
            self.submit()
        else:
            strip.select(event.index)
        self._mark_row()

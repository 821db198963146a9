"""This seat's hand as one widget: a cursor row, the cards, and a row naming each suit group.

The parent decides which cards are playable (straight from ``SeatView.legal_cards``) and
hands them down; this widget only draws them bright and the rest dim.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message

from ...game import BLIND_CARD, Suit, hand_order, is_trump, suit_of
from ...i18n import _
from .lines import LinesWidget
from .trumpcard import WIDTH as TRUMP_WIDTH
from .trumpcard import TrumpCard

SLOT = 4  # cells per card: a name of at most three cells and a gap
ROWS_PER_LINE = 3  # cursor row, card row, suit-group row


class HandView(LinesWidget):
    """The cards, sorted; ``playable`` is None when this seat is not choosing a card."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.cards: tuple[int, ...] = ()
        self.playable: frozenset[int] | None = None
        self.cursor = 0
        self.trump: Suit | None = None
        self.turned_up = TrumpCard()  # drawn at the right end of the first three rows

    @dataclass
    class CardClicked(Message):
        """A card was clicked: select it, or play it if it was already selected."""

        hand: HandView
        index: int

    # ---------------------------------------------------------------- state from the parent

    def show(
        self,
        cards: tuple[int, ...],
        playable: frozenset[int] | None,
        trump: Suit | None = None,
    ) -> None:
        """New hand (any order), playable set and trump suit (the view's): trumps first
        after the Wizards, and marked; keeps the cursor on the same card if it can."""
        old = self.selected
        self.trump = trump
        # Face-down cards (a forehead round: ``BLIND_CARD``) have no order to sort by.
        blind = BLIND_CARD in cards
        ordered = cards if blind else tuple(sorted(cards, key=hand_order(trump)))
        cursor = ordered.index(old) if old in ordered else min(self.cursor, len(ordered) - 1)
        cursor = max(cursor, 0)
        if playable and self.playable is None and ordered and ordered[cursor] not in playable:
            # The turn has just started: put the cursor on a card that can be played.
            after = [i for i in range(cursor, len(ordered)) if ordered[i] in playable]
            before = [i for i in range(cursor) if ordered[i] in playable]
            cursor = (after or before or [cursor])[0]
        self.cards = ordered
        self.playable = playable
        self.cursor = cursor
        self.redraw()

    @property
    def selected(self) -> int | None:
        if 0 <= self.cursor < len(self.cards):
            return self.cards[self.cursor]
        return None

    def move(self, delta: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + delta) % len(self.cards)
            self.redraw()

    def select(self, index: int) -> None:
        if 0 <= index < len(self.cards):
            self.cursor = index
            self.redraw()

    # ---------------------------------------------------------------- layout

    def _cards_width(self, width: int) -> int:
        """Room for the cards: the turned-up card takes the right end when it fits."""
        return width - TRUMP_WIDTH - 1 if width >= 30 + TRUMP_WIDTH else width

    def _per_line(self, width: int) -> int:
        return max(1, (self._cards_width(width) + 1) // SLOT)

    def index_at(self, x: int, y: int) -> int | None:
        """The card drawn at content offset (x, y), if any."""
        per_line = self._per_line(self.content_size.width)
        line, slot = y // ROWS_PER_LINE, x // SLOT
        if slot >= per_line or x % SLOT == SLOT - 1:
            return None
        index = line * per_line + slot
        return index if 0 <= index < len(self.cards) else None

    # ---------------------------------------------------------------- drawing

    def build(self, width: int) -> list[Text]:
        lines = self._card_rows(width)
        if self._cards_width(width) < width:
            boxed = self.turned_up.rows(self)
            lines += [Text() for _row in range(len(boxed) - len(lines))]
            for row, box in zip(lines, boxed, strict=False):
                row.pad_right(self._cards_width(width) + 1 - row.cell_len)
                row.append_text(box)
        return lines

    def _card_rows(self, width: int) -> list[Text]:
        g = self.glyphs
        if not self.cards:
            return [Text(), Text(_("(no cards)"), self.style("text--muted")), Text()]
        if BLIND_CARD in self.cards:
            return self._face_down_rows(self._cards_width(width))
        per_line = self._per_line(width)
        muted = self.style("text--muted")
        lines: list[Text] = []
        for start in range(0, len(self.cards), per_line):
            chunk = self.cards[start : start + per_line]
            marks, row, groups = Text(), Text(), Text()
            for offset, card in enumerate(chunk):
                index = start + offset
                gap = " " if offset else ""
                extra: list[str] = []
                if self.playable is not None and card not in self.playable:
                    extra.append("card--illegal")
                if is_trump(card, self.trump):
                    extra.append("card--trump")
                if index == self.cursor:
                    extra.append("card--cursor")
                    marks.append(gap + " " + g.cursor + " ", self.style("text--accent"))
                else:
                    marks.append(gap + "   ")
                row.append(gap)
                row.append_text(self.card_text(card, *extra, width=SLOT - 1))
                groups.append_text(self._group_cell(chunk, offset, muted))
            lines += [marks, row, groups]
        return lines

    def _face_down_rows(self, width: int) -> list[Text]:
        """Your own card in a forehead round: face down, and what to do with it."""
        playable = bool(self.playable)
        marks = Text(" " + self.glyphs.cursor + " " if playable else "", self.style("text--accent"))
        row = self.card_text(BLIND_CARD, *(("card--cursor",) if playable else ()), width=SLOT - 1)
        said = (
            _("Enter plays your card, unseen")
            if playable
            else _("your card: only the others see it")
        )
        row.append("  " + self.fit(said, max(0, width - SLOT - 1)))
        note = Text(self.fit(_("forehead round"), width), self.style("text--muted"))
        return [marks, row, note]

    def _group_cell(self, chunk: tuple[int, ...], offset: int, style: Style) -> Text:
        """Under a run of one suit: its letter under the first card, a rule across the rest
        (including the gap before each later card of the run)."""
        g = self.glyphs
        suit = suit_of(chunk[offset])
        same_as_before = offset > 0 and suit is not None and suit_of(chunk[offset - 1]) == suit
        trump = suit is not None and suit is self.trump
        rule = g.trump_rule if trump else g.rule
        gap = "" if offset == 0 else (rule if same_as_before else " ")
        if suit is None:
            return Text(gap + "   ", style)
        if trump:
            # The trump group says so in words ("H trump") under two cards or more.
            run = [i for i in range(len(chunk)) if suit_of(chunk[i]) == suit]
            span = SLOT * len(run) - 1
            word = f"{suit.letter} " + _("trump") if len(run) > 1 else suit.letter
            label = (word + rule * span)[:span]
            k = offset - run[0]
            cell = (
                (" " + label[:3])
                if k == 0 and offset
                else label[max(0, SLOT * k - 1) : SLOT * k + 3]
            )
            return Text(cell, self.style("text--accent"))
        head = g.rule if same_as_before else suit.letter
        return Text(gap + head + g.rule * (SLOT - 2), style)

    # ---------------------------------------------------------------- mouse

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.index_at(offset.x, offset.y)
        if index is not None:
            self.post_message(self.CardClicked(self, index))

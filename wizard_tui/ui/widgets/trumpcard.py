"""The turned-up card, drawn as a card beside the hand, with what it makes trump.

Drawn by the hand widget at its right end (one widget fewer to style at start-up)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from ...game import Phase, Suit, is_jester, is_wizard
from ...i18n import _
from ..glyphs import suit_name
from .base import CardWidget

BOX_INNER = 5  # " 10♦ ": a card name of at most three cells, a space each side
WIDTH = 21  # the box, a space, and "♦ diamonds" or "cards dealt"


class TrumpCard:
    """What the turned-up card shows; ``rows(widget)`` draws it in ``widget``'s styles."""

    def __init__(self) -> None:
        self.card: int | None = None
        self.suit: Suit | None = None
        self.dealt = False  # a round is on: draw the card (or "no trump card")

    def show(self, card: int | None, suit: Suit | None, phase: Phase) -> None:
        self.card, self.suit = card, suit
        self.dealt = phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)

    def _box(self, w: CardWidget) -> tuple[str, str, str]:
        g = w.glyphs
        if g.ascii:
            top = bottom = "+" + "-" * BOX_INNER + "+"
            side = "|"
        else:
            top, bottom, side = "╭" + "─" * BOX_INNER + "╮", "╰" + "─" * BOX_INNER + "╯", "│"
        return top, side, bottom

    def _words(self, w: CardWidget) -> tuple[Text, Text, Text]:
        muted = w.style("text--muted")
        card, suit = self.card, self.suit
        # TRANSLATORS: three short lines beside the turned-up card (13 cells at most each).
        trump = Text(_("Trump"), muted)
        if card is None:
            return trump, Text(_("none: all")), Text(_("cards dealt"), muted)
        if is_jester(card):
            return trump, Text(_("none")), Text(_("(a Jester)"), muted)
        if suit is None:
            return trump, Text(_("the dealer")), Text(_("names it"), muted)
        shown = suit.letter if w.glyphs.ascii else suit.symbol
        named = Text(f"{shown} {suit_name(suit)}", w.style(f"card--{suit.label}", "seat--me"))
        note = Text(_("dealer's pick"), muted) if is_wizard(card) else Text()
        return trump, named, note

    def rows(self, w: CardWidget) -> list[Text]:
        if not self.dealt:
            return [Text(), Text(), Text()]
        top, side, bottom = self._box(w)
        frame = w.style("text--muted")
        middle = Text(side, frame)
        if self.card is None:
            middle.append(" " * BOX_INNER)
        else:
            name = w.glyphs.card(self.card)
            pad = BOX_INNER - cell_len(name)
            middle.append(" " * (pad - pad // 2))
            middle.append_text(w.card_text(self.card))
            middle.append(" " * (pad // 2))
        middle.append(side, frame)
        rows = [Text(top, frame), middle, Text(bottom, frame)]
        for row, words in zip(rows, self._words(w), strict=True):
            row.append(" ")
            words.truncate(WIDTH - BOX_INNER - 3)  # a longer translation is cut, not wrapped
            row.append_text(words)
        return rows

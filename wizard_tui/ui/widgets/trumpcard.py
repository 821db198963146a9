"""The turned-up card, drawn as a card beside the hand, with what it makes trump."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from ...game import Phase, Suit, is_jester, is_wizard
from .lines import LinesWidget

BOX_INNER = 5  # " 10♦ ": a card name of at most three cells, a space each side


class TrumpCard(LinesWidget):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.card: int | None = None
        self.suit: Suit | None = None
        self.dealt = False  # a round is on: draw the card (or "no trump card")

    def show(self, card: int | None, suit: Suit | None, phase: Phase) -> None:
        self.card, self.suit = card, suit
        self.dealt = phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)
        self.redraw()

    def _box(self) -> tuple[str, str, str]:
        g = self.glyphs
        if g.ascii:
            top = bottom = "+" + "-" * BOX_INNER + "+"
            side = "|"
        else:
            top, bottom, side = "╭" + "─" * BOX_INNER + "╮", "╰" + "─" * BOX_INNER + "╯", "│"
        return top, side, bottom

    def _words(self) -> tuple[Text, Text, Text]:
        muted = self.style("text--muted")
        card, suit = self.card, self.suit
        if card is None:
            return Text("Trump", muted), Text("none: all"), Text("cards dealt", muted)
        if is_jester(card):
            return Text("Trump", muted), Text("none"), Text("(a Jester)", muted)
        if suit is None:
            return Text("Trump", muted), Text("the dealer"), Text("names it", muted)
        shown = suit.letter if self.glyphs.ascii else suit.symbol
        named = Text(f"{shown} {suit.label}", self.style(f"card--{suit.label}", "seat--me"))
        note = Text("dealer's pick", muted) if is_wizard(card) else Text()
        return Text("Trump", muted), named, note

    def build(self, width: int) -> list[Text]:
        if not self.dealt:
            return [Text(), Text(), Text()]
        top, side, bottom = self._box()
        frame = self.style("text--muted")
        middle = Text(side, frame)
        if self.card is None:
            middle.append(" " * BOX_INNER)
        else:
            name = self.glyphs.card(self.card)
            pad = BOX_INNER - cell_len(name)
            middle.append(" " * (pad - pad // 2))
            middle.append_text(self.card_text(self.card))
            middle.append(" " * (pad // 2))
        middle.append(side, frame)
        rows = [Text(top, frame), middle, Text(bottom, frame)]
        for row, words in zip(rows, self._words(), strict=True):
            row.append(" ")
            row.append_text(words)
        return rows

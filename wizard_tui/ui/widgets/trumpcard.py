"""The turned-up card, drawn as a card beside the hand, with what it makes trump.

Drawn by the hand widget at its right end (one widget fewer to style at start-up).
With the special cards (docs/rules.md): after a Werewolf's swap the Werewolf lies there and
the words name the card it took; with the Vampire in the deck a fourth row says what the
Vampire copies (the view's ``vampire_copies``: the engine decides it, this only draws it)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from ...game import Phase, Suit, is_jester, is_wizard
from ...game.specials import Special, is_special
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
        self.phase = Phase.DEAL
        self.turned: int | None = None  # the card turned up at the deal (special games)
        self.vampire_copies: int | None = None  # what the Vampire plays as (None: no Vampire)

    def show(
        self,
        card: int | None,
        suit: Suit | None,
        phase: Phase,
        turned: int | None = None,
        vampire_copies: int | None = None,
    ) -> None:
        self.card, self.suit, self.phase = card, suit, phase
        self.turned, self.vampire_copies = turned, vampire_copies
        self.dealt = phase not in (Phase.DEAL, Phase.GAME_OVER)

    @property
    def swapped(self) -> int | None:
        """The card a Werewolf took from the trump card's place, if it did."""
        if self.card == Special.WEREWOLF and self.turned is not None and self.turned != self.card:
            return self.turned
        return None

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
        if self.phase is Phase.NAME_TRUMP:  # a Werewolf's holder is about to name it
            return trump, Text(_("the Werewolf")), Text(_("names it"), muted)
        taken = self.swapped
        if taken is not None:
            note = Text(_("took") + " ", muted)
            note.append_text(w.card_text(taken))
            return trump, self._named(w) if suit is not None else Text(_("none")), note
        if is_special(card):
            if suit is None and self.phase is Phase.CHOOSE_TRUMP:
                return trump, Text(_("the dealer")), Text(_("names it"), muted)
            if suit is None:
                return trump, Text(_("none")), Text()
            return trump, self._named(w), Text(_("dealer's pick"), muted)
        if is_jester(card):
            return trump, Text(_("none")), Text(_("(a Jester)"), muted)
        if suit is None:
            return trump, Text(_("the dealer")), Text(_("names it"), muted)
        note = Text(_("dealer's pick"), muted) if is_wizard(card) else Text()
        return trump, self._named(w), note

    def _named(self, w: CardWidget) -> Text:
        suit = self.suit
        assert suit is not None
        shown = suit.letter if w.glyphs.ascii else suit.symbol
        return Text(f"{shown} {suit_name(suit)}", w.style(f"card--{suit.label}", "seat--me"))

    def vampire_row(self, w: CardWidget) -> Text | None:
        """``VMP copies 7♥``, below the card, while the Vampire is in the deck."""
        copied = self.vampire_copies if self.dealt else None
        if copied is None:
            return None
        row = Text(_("{vampire} copies").format(vampire=Special.VAMPIRE.short_name) + " ")
        row.stylize(w.style("text--muted"))
        row.append_text(w.card_text(copied))
        row.truncate(WIDTH)
        return row

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
        vampire = self.vampire_row(w)
        if vampire is not None:
            rows.append(vampire)
        return rows

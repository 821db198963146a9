"""Shared drawing for widgets that show cards: suit colours come from CSS component classes
(theme variables in ``wizard.tcss``), shapes from the active ``Glyphs`` table."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ...game import BLIND_CARD, Suit, is_jester, is_wizard, suit_of
from ...game.specials import is_special
from ..glyphs import UNICODE, Glyphs

SUIT_CLASS = {suit: f"card--{suit.label}" for suit in Suit}


class Palette(Widget):
    """The one place the client's colours are resolved: a hidden widget whose component
    classes (styled in ``wizard.tcss`` with theme variables, ``App:nocolor`` aware) every
    drawing widget borrows. Textual styles each component class of each widget as a
    virtual node on every restyle, so one palette instead of a dozen widgets with the
    same classes keeps screen changes and start-up quick."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "card--clubs",
        "card--diamonds",
        "card--hearts",
        "card--spades",
        "card--wizard",
        "card--jester",
        "card--special",  # a special card (docs/rules.md): its own letters, and this style
        "card--illegal",  # a card in hand that may not be played now
        "card--trump",  # a card of the trump suit in hand
        "card--cursor",  # the selected card
        "card--winning",  # the card winning the trick
        "seat--turn",  # the seat on turn
        "seat--me",
        "text--muted",
        "text--accent",
        "text--error",
        "text--ok",
        "choice--disabled",
        "keybar--key",
        "keybar--disabled",
    }

    DEFAULT_CSS = "Palette { display: none; }"

    def __init__(self) -> None:
        super().__init__(id="palette")
        self._styles: dict[str, Style] = {}

    def style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(name, partial=True)
        return style

    def refresh(self, *regions, repaint: bool = True, layout: bool = False, recompose=False):
        # Called when the component styles change (a new theme): redraw everything.
        if self._styles:
            self._styles.clear()
            if self.is_mounted:
                self.app.call_later(self._repaint_all)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _repaint_all(self) -> None:
        for screen in self.app.screen_stack:
            for widget in screen.query(CardWidget):
                rebuild = getattr(widget, "rebuild", None)
                if rebuild is not None:
                    rebuild()
                else:
                    widget.refresh()


class CardWidget(Widget):
    """A widget drawn with ``render()`` that shows cards and seat names."""

    @property
    def glyphs(self) -> Glyphs:
        return getattr(self.app, "glyphs", UNICODE)

    def style(self, *names: str) -> Style:
        """The CSS of one or more palette classes, combined in order."""
        palette: Palette | None = getattr(self.app, "palette", None)
        combined = Style()
        if palette is not None:
            for name in names:
                combined += palette.style(name)
        return combined

    def card_class(self, card: int) -> str:
        if card == BLIND_CARD:  # face down: your own card in a forehead round
            return "text--accent"
        return card_class(card)

    def card_text(self, card: int, *extra: str, width: int = 0) -> Text:
        """A card's short name in its suit's style, right-aligned to ``width`` cells."""
        name = self.glyphs.card(card)
        pad = max(0, width - cell_len(name))
        text = Text(" " * pad)
        text.append(name, self.style(self.card_class(card), *extra))
        return text

    def suit_text(self, suit: Suit) -> Text:
        return Text(self.glyphs.suit(suit), self.style(SUIT_CLASS[suit]))

    def fit(self, text: str, width: int) -> str:
        return fit(text, width, self.glyphs.more)


def card_class(card: int) -> str:
    """The palette class a card is drawn in: its suit's, the Wizard's, the Jester's, or the
    special cards' (checked first: their ids lie past the Jesters')."""
    if is_special(card):
        return "card--special"
    if is_wizard(card):
        return "card--wizard"
    if is_jester(card):
        return "card--jester"
    suit = suit_of(card)
    assert suit is not None
    return SUIT_CLASS[suit]


def fit(text: str, width: int, more: str = "…") -> str:
    """``text`` cut or padded to exactly ``width`` cells (wide characters counted as two)."""
    if width <= 0:
        return ""
    if cell_len(text) > width:
        return set_cell_size(text, width - 1) + more
    return set_cell_size(text, width)


def rjust(text: str, width: int) -> str:
    """``text`` right-aligned to ``width`` cells (``str.rjust`` counts characters, and a
    translated word may hold a wide or combining one); longer text is left as it is."""
    return " " * max(0, width - cell_len(text)) + text

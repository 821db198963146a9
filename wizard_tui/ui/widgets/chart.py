"""After the game: every player's running total by round, drawn in text.

Each player's points are drawn with their own letter (the legend names them), so the lines
are told apart by shape, not colour alone; it works with NO_COLOR and ``--ascii``. Pure
``rich.Text``: nothing to import when the game ends.
"""

from __future__ import annotations

from rich.text import Text

from ...game import RoundResult
from ...i18n import _
from ..glyphs import clean
from .base import CardWidget, fit

SEAT_STYLES = (
    "card--clubs",
    "card--diamonds",
    "card--hearts",
    "card--wizard",
    "card--jester",
    "text--ok",
)


def seat_letters(names: tuple[str, ...]) -> tuple[str, ...]:
    """One letter per seat: the name's initial where those are all different, else A, B, C."""
    initials = tuple((clean(n, 24)[:1] or "?").upper() for n in names)
    if len(set(initials)) == len(initials) and all(i.isascii() and i.isalpha() for i in initials):
        return initials
    return tuple("ABCDEF"[: len(names)])


class TotalsChart(CardWidget):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.names: tuple[str, ...] = ()
        self.history: tuple[RoundResult, ...] = ()

    def show(self, names: tuple[str, ...], history: tuple[RoundResult, ...]) -> None:
        self.names, self.history = names, history
        self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(6, container.height) if self.history else 1

    def plot(self, width: int, height: int) -> list[list[str]]:
        """The plot area as rows of cells, top row first: each seat's letter where its total
        stands after each round, ``*`` where two or more meet, ``.`` on the zero line."""
        rounds = len(self.history)
        letters = seat_letters(self.names)
        grid = [[" "] * width for _row in range(height)]
        if not rounds or width < 2 or height < 2:
            return grid
        totals = [r.totals for r in self.history]
        low = min(0, *(min(t) for t in totals))
        high = max(0, *(max(t) for t in totals))
        span = max(1, high - low)

        def row_of(value: int) -> int:
            return round((high - value) * (height - 1) / span)

        def col_of(index: int) -> int:
            return round(index * (width - 1) / max(1, rounds - 1))

        zero = row_of(0)
        for x in range(width):
            grid[zero][x] = "."
        for i, round_totals in enumerate(totals):
            x = col_of(i)
            for seat, total in enumerate(round_totals):
                y = row_of(total)
                cell = grid[y][x]
                grid[y][x] = letters[seat] if cell in (" ", ".") else "*"
        return grid

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="crop", end="")
        if not self.history:
            out.append(_("No rounds to chart."), self.style("text--muted"))
            return out
        width, height = self.content_size.width, max(6, self.content_size.height)
        label_width = 6
        plot_height = height - 3  # the round axis, its labels, the legend
        totals = [r.totals for r in self.history]
        low = min(0, *(min(t) for t in totals))
        high = max(0, *(max(t) for t in totals))
        grid = self.plot(max(2, width - label_width), max(2, plot_height))
        letters = seat_letters(self.names)
        style_of = {letter: SEAT_STYLES[i % len(SEAT_STYLES)] for i, letter in enumerate(letters)}
        muted = self.style("text--muted")
        g = self.glyphs
        for y, row in enumerate(grid):
            label = str(high) if y == 0 else str(low) if y == len(grid) - 1 else ""
            out.append(f"{label:>{label_width - 1}} ", muted)
            for cell in row:
                style = style_of.get(cell)
                out.append(cell, self.style(style) if style else muted)
            out.append("\n")
        axis = g.rule * (width - label_width)
        out.append(" " * label_width + axis + "\n", muted)
        last = str(len(self.history))
        inner = max(0, width - label_width - 1 - len(last))
        out.append(
            " " * label_width + "1" + fit(_("round").center(inner), inner, "") + last + "\n", muted
        )
        for i, (letter, name) in enumerate(zip(letters, self.names, strict=True)):
            if i:
                out.append("  ")
            out.append(letter, self.style(style_of[letter]) if style_of[letter] else "")
            out.append(f" {clean(name, 12)}")
        return out

"""Widgets drawn as a list of lines that repaint only the cells that changed.

Textual sends every cell of a refreshed region to the terminal, so a widget that redraws
itself whole on each game update costs a few hundred bytes a line over SSH. A
``LinesWidget`` rebuilds its lines, compares them with what is on screen, and refreshes
only the changed span of each changed line: moving the turn marker or the hand's cursor
sends tens of bytes, not the whole table.
"""

from __future__ import annotations

from rich.cells import get_character_cell_size
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size

from .base import CardWidget

Cell = tuple[str, Style | None]
_BLANK: Cell = (" ", None)


def changed_span(old: list[Cell], new: list[Cell], width: int) -> tuple[int, int] | None:
    """The columns ``[start, end)`` to repaint so a row showing ``old`` shows ``new``.

    Cells are compared at the same columns, both rows padded to the full width as they are
    on screen: a shorter new row must blank the old row's tail, not leave it behind.
    """
    size = max(width, len(old), len(new))
    a = old + [_BLANK] * (size - len(old))
    b = new + [_BLANK] * (size - len(new))
    start = 0
    while start < size and a[start] == b[start]:
        start += 1
    end = size
    while end > start and a[end - 1] == b[end - 1]:
        end -= 1
    end = min(width, end)
    return (start, end) if end > start else None


class LinesWidget(CardWidget):
    """Subclasses implement ``build(width)``; state changes call ``redraw()``."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: list[Text] = []  # what the terminal shows (or will, once painted)
        self._shown_for = (0, 0)  # the content size ``_shown`` was built for

    def build(self, width: int) -> list[Text]:
        raise NotImplementedError

    def _built(self, width: int) -> list[Text]:
        """``build``, each line cropped to the width: Textual would otherwise wrap a long
        line onto the next row, where the cell diff no longer knows what is on screen."""
        lines = self.build(width)
        for line in lines:
            if line.cell_len > width:
                line.truncate(width, overflow="crop")
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.build(width))

    def render(self) -> Text:
        # Paint what the last redraw() decided, so every dirty region agrees with the diff
        # that made it; build afresh only when there is nothing yet or the size changed.
        size = (self.content_size.width, self.content_size.height)
        if not self._shown or size != self._shown_for:
            self._shown = self._built(size[0])
            self._shown_for = size
        out = Text(no_wrap=True, overflow="crop", end="")
        for i, line in enumerate(self._shown):
            if i:
                out.append("\n")
            out.append_text(line)
        return out

    def _cells(self, line: Text) -> list[Cell]:
        cells: list[Cell] = []
        for segment in line.render(self.app.console):
            for ch in segment.text:
                cells.append((ch, segment.style))
                if get_character_cell_size(ch) == 2:
                    cells.append(("", segment.style))
        return cells

    def rebuild(self) -> None:
        """Draw everything afresh (after a theme change, say)."""
        self._shown = []
        self.refresh(layout=True)

    def redraw(self) -> None:
        """Repaint what changed since the last paint (everything, if the height changed)."""
        width = self.content_size.width
        if not self.is_mounted or width <= 0 or not self._shown:
            self.rebuild()
            return
        new = self._built(width)
        old = self._shown
        if len(new) != len(old):
            self.rebuild()
            return
        regions = []
        for y, (before, after) in enumerate(zip(old, new, strict=True)):
            if before != after:
                span = changed_span(self._cells(before), self._cells(after), width)
                if span is not None:
                    regions.append(Region(span[0], y, span[1] - span[0], 1))
        self._shown = new
        if regions:
            self.refresh(*regions)

"""The log of game events, chat and notices.

``RecentLog`` is the pane on the table: the newest lines, top to bottom. When it fills up
it drops its older two thirds at once, rather than scrolling one line at a time: a scroll
repaints every row over the network, while appending repaints one. ``FullLog``
(``fulllog.py``) shows the whole history on request (``v``). Neither takes the focus, so the
arrow keys always reach the hand.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ..narrate import Line
from .base import Palette
from .lines import LinesWidget

KEEP_ENTRIES = 200


def line_text(widget: Widget, line: Line) -> Text:
    palette: Palette | None = getattr(widget.app, "palette", None)
    text = Text()
    for chunk, cls in line:
        style = palette.style(cls) if cls and palette is not None else Style()
        text.append(chunk, style)
    return text


class RecentLog(LinesWidget, can_focus=False):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._entries: list[Line] = []
        self._rows: list[Text] = []
        self._last_seq = -1
        self._laid_out_for: tuple[int, int, int] = (0, 0, 0)
        self._covered = 0  # top rows hidden under the bid/trump panel
        self._top = 0  # the row ``_rows`` start at (below a panel, after it moved them)

    def cover(self, rows: int) -> None:
        """A panel is drawn over the top ``rows``: the newest lines must show below it.
        Lines move only when the newest would be hidden (a move repaints the log); when
        the panel closes, a log that moved fills from the top again."""
        rows = max(0, rows)
        if rows == self._covered:
            return
        self._covered = rows
        height = self.content_size.height
        if rows and self._top + len(self._rows) <= rows:
            self._top = min(rows, height)
            self._rows = self._rows[-max(0, height - self._top) :] if height > self._top else []
            self.redraw()
        elif not rows and self._top:
            self._relayout(force=True)
            self.redraw()

    @property
    def covered_rows(self) -> int:
        """Rows at the top hidden under the bid or trump panel."""
        return self._covered

    @property
    def _capacity(self) -> int:
        return max(0, self.content_size.height - self._covered)

    def on_mount(self) -> None:
        self.watch(self.app, "journal", self._sync)

    def _sync(self, entries: tuple[tuple[int, Line], ...]) -> None:
        new = [line for seq, line in entries if seq > self._last_seq]
        if not new:
            return
        self._last_seq = entries[-1][0]
        self._entries = (self._entries + new)[-KEEP_ENTRIES:]
        width, height = self.content_size.width, self._capacity
        if width <= 0 or height <= 0:
            return  # laid out later: on_resize fills the rows
        added = [row for line in new for row in self._wrap(line, width)]
        self._rows += added
        if self._top + len(self._rows) > self.content_size.height:
            # Drop the older two thirds in one repaint (more, if more than that just arrived),
            # the rest starting just below an open panel.
            self._rows = self._rows[-max(min(len(added), height), height // 3, 1) :]
            self._top = self._covered
        self.redraw()

    def _wrap(self, line: Line, width: int) -> list[Text]:
        return list(line_text(self, line).wrap(self.app.console, width))

    def on_resize(self) -> None:
        if self._relayout():
            self.rebuild()

    def _relayout(self, force: bool = False) -> bool:
        """Fill the visible rows afresh from the newest entries; False if nothing changed."""
        width, height = self.content_size.width, self._capacity
        if (width, height, self._covered) == self._laid_out_for and not force:
            return False
        self._laid_out_for = (width, height, self._covered)
        self._top = self._covered
        rows: list[Text] = []
        for line in reversed(self._entries):
            rows = self._wrap(line, max(1, width)) + rows
            if len(rows) >= height:
                break
        self._rows = rows[-height:] if height > 0 else []
        return True

    def build(self, width: int) -> list[Text]:
        height = max(1, self.content_size.height)
        top = min(self._top, height)
        rows = self._rows[-(height - top) :] if height > top else []
        return (
            [Text() for _ in range(top)] + rows + [Text() for _ in range(height - top - len(rows))]
        )

"""The whole log, scrollable, for the log screen (``v``); loaded when first opened."""

from __future__ import annotations

from textual.widgets import RichLog

from ..narrate import Line
from .journal import line_text


class FullLog(RichLog, can_focus=False):
    """The whole history (the App keeps the last few hundred lines)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(max_lines=1000, wrap=True, markup=False, min_width=20, **kwargs)
        self._last_seq = -1

    def on_mount(self) -> None:
        self.watch(self.app, "journal", self._sync)

    def _sync(self, entries: tuple[tuple[int, Line], ...]) -> None:
        for seq, line in entries:
            if seq > self._last_seq:
                self.write(line_text(self, line))
                self._last_seq = seq

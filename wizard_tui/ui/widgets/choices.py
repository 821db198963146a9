"""A row of choices drawn as one widget (bids 0..r, the four suits): keys move the selection,
a click selects, a click on the selection chooses it. Disabled choices are drawn struck out."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message

from .lines import LinesWidget


@dataclass(frozen=True, slots=True)
class Choice:
    label: str
    enabled: bool = True
    style: str = ""  # an extra component class, e.g. a suit's colour


class ChoiceStrip(LinesWidget):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.choices: tuple[Choice, ...] = ()
        self.selected = 0

    def offer(self, choices: tuple[Choice, ...], selected: int = 0) -> None:
        self.choices = choices
        self.selected = selected
        self.redraw()

    def select(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            self.selected = index
            self.redraw()

    @dataclass
    class Clicked(Message):
        strip: ChoiceStrip
        index: int

    def _slot(self) -> int:
        return max((cell_len(c.label) for c in self.choices), default=1) + 3

    def _per_line(self, width: int) -> int:
        return max(1, width // self._slot())

    def step(self, delta: int) -> None:
        """Move to the next enabled choice in direction ``delta``."""
        n = len(self.choices)
        for k in range(1, n + 1):
            i = self.selected + delta * k
            if 0 <= i < n and self.choices[i].enabled:
                self.select(i)
                return

    def build(self, width: int) -> list[Text]:
        slot = self._slot()
        per_line = self._per_line(width)
        lines: list[Text] = []
        for i, choice in enumerate(self.choices):
            if i % per_line == 0:
                lines.append(Text())
            style = self.style(choice.style) if choice.style else Style()
            if not choice.enabled:
                style += self.style("choice--disabled")
            if i == self.selected:
                style += self.style("card--cursor")
            label = f" {choice.label} "
            lines[-1].append(label, style)
            lines[-1].append(" " * (slot - cell_len(label)))
        return lines or [Text()]

    def index_at(self, x: int, y: int) -> int | None:
        slot = self._slot()
        per_line = self._per_line(self.content_size.width)
        if x // slot >= per_line or x % slot == slot - 1:
            return None
        index = y * per_line + x // slot
        return index if 0 <= index < len(self.choices) else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.index_at(offset.x, offset.y)
        if index is not None:
            self.post_message(self.Clicked(self, index))

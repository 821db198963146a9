"""A one-line footer of the keys that work now, drawn as one widget.

It reads the screen's active bindings (so ``check_action`` hides or greys keys, as with
Textual's ``Footer``) but repaints only the keys that changed: the stock footer rebuilds
all its key widgets whenever bindings are refreshed, several hundred bytes each time over
SSH. A click on a key presses it.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.screen import Screen

from ...i18n import _
from .lines import LinesWidget


class KeyBar(LinesWidget):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._spans: list[tuple[int, int, str]] = []  # (start, end, key) for clicks

    @property
    def spans(self) -> tuple[tuple[int, int, str], ...]:
        """Where each key shown is: (start column, end column, key)."""
        return tuple(self._spans)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        if screen is self.screen:
            self.call_after_refresh(self.redraw)

    def _items(self) -> list[tuple[str, str, str, bool]]:
        """(key, shown key, description, enabled), one per action, in binding order."""
        seen: set[tuple[int, str]] = set()
        items = []
        for node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not binding.show:
                continue
            ident = (id(node), binding.action)
            if ident in seen:
                continue
            seen.add(ident)
            items.append(
                # The description was marked with N_ (BINDINGS are made at import time).
                (binding.key, self.app.get_key_display(binding), _(binding.description), enabled)
            )
        return items

    def build(self, width: int) -> list[Text]:
        line = Text()
        spans = []
        items = self._items()

        # Too narrow for all: drop keys before the last two (help and quit always show).
        def size(item: tuple[str, str, str, bool]) -> int:
            return cell_len(item[1]) + cell_len(item[2]) + 3

        while len(items) > 2 and sum(map(size, items)) > width:
            del items[-3]
        for key, shown, description, enabled in items:
            item = Text(" ")
            item.append(shown, self.style("keybar--key"))
            item.append(f" {description} ")
            if not enabled:
                item.stylize(self.style("keybar--disabled"))
            start = cell_len(line.plain)
            if start + cell_len(item.plain) > width:
                break
            line.append_text(item)
            spans.append((start, cell_len(line.plain), key))
        self._spans = spans
        return [line]

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for start, end, key in self._spans:
            if start <= offset.x < end:
                self.app.simulate_key(key)
                return

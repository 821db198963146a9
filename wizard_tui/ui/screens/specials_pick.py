"""The host's lobby, key p: which special cards the game plays (docs/rules.md, "Special
cards"). Each row's digit turns its cards on or off at once (the Dragon and the Fairy go
together), ``a`` takes them all, ``0`` none; every change is asked of the host, and the
list shows what the host's lobby says back. Enter or Esc closes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ...game.specials import PAIRED, SPECIALS, Special
from ...i18n import N_, _
from ..specials import special_name

# The rows of the picker: the Dragon and the Fairy are one row (only together).
ROWS: tuple[tuple[Special, ...], ...] = (
    tuple(sorted(PAIRED)),
    *((card,) for card in SPECIALS if card not in PAIRED),
)


def toggled(chosen: frozenset[Special], row: int) -> frozenset[Special]:
    """``chosen`` with row ``row``'s cards turned on, or off if all were on."""
    cards = frozenset(ROWS[row])
    return chosen - cards if cards <= chosen else chosen | cards


class SpecialsScreen(ModalScreen[None]):
    """Reads the lobby's special cards from ``current()`` and asks for a change with
    ``change(new set)``; redrawn by ``refresh_rows`` when the host's lobby comes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape,p", "close", N_("Close"), key_display="p"),
        Binding("a", "all", N_("All")),
        Binding("0", "none", N_("None")),
        *(Binding(str(i + 1), f"flip({i})", show=False) for i in range(len(ROWS))),
    ]

    def __init__(
        self,
        current: Callable[[], frozenset[Special]],
        change: Callable[[frozenset[Special]], None],
    ) -> None:
        super().__init__()
        self._current = current
        self._change = change

    def compose(self) -> ComposeResult:
        with Vertical(id="specials-box") as box:
            box.border_title = _("Special cards")
            yield Static(id="specials-rows")
            yield Static(_("1-8 on/off, a all, 0 none; Enter or Esc: back"), classes="hint")

    def on_mount(self) -> None:
        self.watch(self.app, "lobby", self.refresh_rows)

    def refresh_rows(self) -> None:
        chosen = self._current()
        out = Text()
        for i, row in enumerate(ROWS):
            on = all(card in chosen for card in row)
            out.append(f"{i + 1} ", "bold")
            out.append("[x] " if on else "[ ] ")
            out.append(" ".join(card.short_name for card in row), "bold" if on else "")
            out.append("  ")
            out.append(" + ".join(special_name(card) for card in row))
            if i < len(ROWS) - 1:
                out.append("\n")
        self.query_one("#specials-rows", Static).update(out)

    def action_flip(self, row: int) -> None:
        if 0 <= row < len(ROWS):
            self._change(toggled(self._current(), row))

    def action_all(self) -> None:
        self._change(frozenset(SPECIALS))

    def action_none(self) -> None:
        self._change(frozenset())

    def action_close(self) -> None:
        self.dismiss(None)

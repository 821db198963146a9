"""The host's lobby, key e: type the game's rounds as the cards dealt in each (``1,2,4,11``),
or a length's name. A length the table cannot deal is refused in words and the line stays
open to be mended; Enter on an empty line or Esc leaves the length as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...i18n import N_, _


def tidy_length(typed: str) -> str:
    """What the player typed, as the host is sent it: ``1, 2,4`` is ``1,2,4``."""
    return "".join(typed.split()).lower()


class RoundsScreen(ModalScreen[str | None]):
    """Dismissed with the length typed (tidied), or None to keep the one in force."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, typed: str, problem: Callable[[str], str | None]) -> None:
        super().__init__()
        self._typed = typed
        self._problem = problem  # why a length cannot be dealt, in words; None if it can

    def compose(self) -> ComposeResult:
        rounds = Input(
            value=self._typed,
            placeholder=_("Cards in each round, such as 1,2,4,11"),
            max_length=64,  # the protocol's limit for a length
            compact=True,
        )
        rounds.cursor_blink = False
        with Vertical(id="rounds-box"):
            yield Static(
                _(
                    "The rounds of the game: the cards each player is dealt in each, "
                    "such as 1,2,4,11 (or full, short, up-and-down). "
                    "Enter sets them, Esc keeps the length as it is."
                ),
                classes="hint",
            )
            yield rounds
            yield Static("", id="rounds-problem")

    @on(Input.Submitted)
    def _chosen(self, event: Input.Submitted) -> None:
        length = tidy_length(event.value)
        if not length:
            self.dismiss(None)
            return
        problem = self._problem(length)
        if problem is not None:
            self.query_one("#rounds-problem", Static).update(problem)
            return
        self.dismiss(length)

    def action_cancel(self) -> None:
        self.dismiss(None)

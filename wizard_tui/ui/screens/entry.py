"""Who is sitting down: the name (and the room password) a browser seat asks for first.

A seat served to a browser (``wizard-tui host --web``) runs the same command for every
tab, so the player's name cannot come from the command line: this screen asks for it.
``dismiss`` gives ``(name, password or None)``.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...i18n import N_, _


class EntryScreen(ModalScreen[tuple[str, str | None]]):
    DEFAULT_CSS = """
    EntryScreen { align: center middle; }
    EntryScreen > #dialog {
        width: 60; height: auto; max-width: 100%;
        border: round $accent; padding: 0 1; background: $surface;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "app.quit", N_("Quit"), show=False),
    ]

    def __init__(self, *, need_password: bool, error: str = "", name: str = "") -> None:
        super().__init__()
        self.need_password = need_password
        self.error = error
        self.initial_name = name
        self._answered = False  # a second Enter before the screen is gone must not dismiss twice

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as box:
            box.border_title = _("Take a seat")
            yield Static(_("Your name at the table:"))
            yield Input(value=self.initial_name, max_length=24, id="entry-name")
            if self.need_password:
                yield Static(_("Room password:"))
                yield Input(password=True, max_length=128, id="entry-password")
            if self.error:
                yield Static(self.error, classes="hint", id="entry-error")
            yield Static(_("Enter: sit down"), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#entry-name", Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        if self._answered:
            return
        name = self.query_one("#entry-name", Input).value.strip()
        if not name:
            self.query_one("#entry-name", Input).focus()
            return
        password: str | None = None
        if self.need_password:
            field = self.query_one("#entry-password", Input)
            if event.input.id == "entry-name" or not field.value:
                field.focus()
                return
            password = field.value
        self._answered = True
        self.dismiss((name, password))

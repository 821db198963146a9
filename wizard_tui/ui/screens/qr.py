"""The browser address as a QR code, opened from the lobby with ``b`` (``host --web``): a
friend points a phone at the host's screen instead of typing the URL."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ...i18n import N_, _


class QrScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b,enter,escape", "close", N_("Close"), key_display="b"),
        Binding("q", "app.request_quit", N_("Quit"), show=False),
    ]

    def __init__(self, url: str, code: Sequence[str]) -> None:
        super().__init__()
        self.url = url
        self.code = tuple(code)

    def compose(self) -> ComposeResult:
        with Vertical(id="qr-sheet") as box:
            box.border_title = _("Join in a browser")
            # Black on white whatever the theme: a scanner wants dark modules on light.
            yield Static(Text("\n".join(self.code), style="#000000 on #ffffff"), id="qr-code")
            yield Static(Text(self.url), id="qr-url")
            yield Static(_("b, Enter or Esc: back"), classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["QrScreen"]

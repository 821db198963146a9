"""A bar across the top that appears only when something is wrong: the link to the host is
down or being re-established, or a round's deal failed this client's own verification."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ...i18n import _
from ..glyphs import clean
from .base import CardWidget

if TYPE_CHECKING:
    from textual import getters

    from ..table_app import TableApp

MIN_SIZE = (60, 20)  # the smallest terminal the table is laid out for


class Banner(CardWidget):
    """Reads the App's ``link``, ``link_detail``, ``alarm`` and ``ended``.

    Hidden (class ``-hidden``) when all is well."""

    if TYPE_CHECKING:  # the app it runs in (``WizardApp``), typed as Textual does its own
        app = getters.app(TableApp)

    def on_mount(self) -> None:
        for name in ("link", "link_detail", "alarm", "ended", "too_small"):
            self.watch(self.app, name, self._changed)

    def _changed(self) -> None:
        small = bool(getattr(self.app, "too_small", False))
        self.set_class(small, "-too-small")
        self.set_class(not self._lines(), "-hidden")
        self.set_class(self.app.link != "connected" or bool(self.app.ended), "-link")
        self.refresh(layout=True)

    def _lines(self) -> list[str]:
        app = self.app
        lines = []
        g = self.glyphs
        if getattr(app, "too_small", False):
            width, height = app.size
            need_w, need_h = MIN_SIZE
            return [
                _("The terminal is too small: {width}x{height}.").format(
                    width=width, height=height
                ),
                _("The table needs at least {width}x{height}; please make it larger.").format(
                    width=need_w, height=need_h
                ),
            ]
        detail = f": {clean(app.link_detail, 100)}" if app.link_detail else ""
        if app.ended is not None:
            said = _("The session has ended{detail}. Press q to quit.").format(detail=app.ended)
            lines.append(f"{g.offline} {said}")
        elif app.link == "reconnecting":
            said = _("Connection lost{detail}. Reconnecting...").format(detail=detail)
            lines.append(f"{g.offline} {said}")
        elif app.link == "closed":
            said = _("Disconnected from the table{detail}. Press q to quit.").format(detail=detail)
            lines.append(f"{g.offline} {said}")
        if app.alarm:
            # Room for a translated detail (longer than its English) over three lines.
            said = _("VERIFICATION ALARM: {what}").format(what=clean(app.alarm, 320))
            lines.append(f"{g.alarm} {said}")
        return lines

    def render(self) -> Text:
        return Text("\n".join(self._lines()), no_wrap=False)

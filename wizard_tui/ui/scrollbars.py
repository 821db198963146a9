"""Scroll bars without block characters for ``--ascii``.

Textual draws a thumb's fractional ends with block elements (U+2581...); an ASCII table
draws whole cells only. The renderer is chosen per app when the bar is drawn, so a
Unicode table in the same process keeps Textual's own.
"""

from __future__ import annotations

from typing import ClassVar

from textual._context import active_app
from textual.scrollbar import ScrollBar, ScrollBarRender


class _AsciiBars(ScrollBarRender):
    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


class TableScrollBars(ScrollBarRender):
    @classmethod
    def render_bar(cls, *args, **kwargs):
        app = active_app.get(None)
        glyphs = getattr(app, "glyphs", None)
        if glyphs is not None and glyphs.ascii:
            return _AsciiBars.render_bar(*args, **kwargs)
        return ScrollBarRender.render_bar(*args, **kwargs)


def install() -> None:
    ScrollBar.renderer = TableScrollBars

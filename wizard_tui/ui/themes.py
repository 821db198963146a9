"""The Textual themes a table can use (for the settings file's ``theme``)."""

from __future__ import annotations

from textual.theme import BUILTIN_THEMES


def theme_names() -> frozenset[str]:
    return frozenset(BUILTIN_THEMES)

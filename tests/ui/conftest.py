"""UI tests run with no user theme or animation settings leaking in from the environment."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_COLOR", "TEXTUAL_THEME", "TEXTUAL_ANIMATIONS", "TEXTUAL_COLOR_SYSTEM"):
        monkeypatch.delenv(name, raising=False)

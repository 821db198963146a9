"""Fixtures for the abuse suite; the arena and the hostile inputs live in abuse_helpers.py and
abuse_inputs.py. The project root goes first on ``sys.path`` (see tests/net/conftest.py), then
the helper folders of tests/net and tests/netplay, whose helpers the arena builds on."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
for path in (TESTS / "netplay", TESTS / "net", TESTS.parent):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

"""Fixtures for the Wizard network tests; the helpers live in net_helpers.py.

``tests/game`` and friends are packages, so pytest puts ``tests/`` at the front of
``sys.path``, where ``tests/netplay`` (a folder without ``__init__.py``) would shadow the real
``netplay`` as a namespace package. Putting the project root on the path first lets the real,
regular package win wherever it is scanned.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

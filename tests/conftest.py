"""For the whole test suite: no host started by a test announces itself on the LAN.

Hosts bound to a loopback address never announce anyway; this covers the rest (a test
binding 0.0.0.0, a subprocess that inherits the environment). Only the discovery tests
undo it, inside a network namespace they created (tests/reach/test_discovery.py)."""

from __future__ import annotations

import os

os.environ["WIZARD_TUI_NO_ANNOUNCE"] = "1"

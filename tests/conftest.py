"""For the whole test suite: no host started by a test announces itself on the LAN, and no
user's settings file or ``WIZARD_TUI_*`` setting reaches a test.

Hosts bound to a loopback address never announce anyway; ``WIZARD_TUI_NO_ANNOUNCE`` covers
the rest (a test binding 0.0.0.0, a subprocess that inherits the environment). Only the
discovery tests undo it, inside a network namespace they created
(tests/reach/test_discovery.py)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

for _key in [k for k in os.environ if k.startswith("WIZARD_TUI_")]:
    del os.environ[_key]
os.environ["WIZARD_TUI_NO_ANNOUNCE"] = "1"
# A settings file that does not exist: the tests see the built-in defaults.
os.environ["WIZARD_TUI_CONFIG"] = str(Path(tempfile.mkdtemp()) / "no-config.toml")
# The tests read English: the player's language (LANG, LC_*) is left out; LANGUAGE comes
# first in wizard_tui.i18n's order and changes nothing else (not the encoding). The language
# tests set their own (tests/ui/test_ui_tmux_czech.py empties it).
os.environ["LANGUAGE"] = "en"

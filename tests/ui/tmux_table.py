"""Run the client on a fixed in-process game, for the tmux test (``test_ui_tmux.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ui.sessions import LocalSession
from wizard_tui.ui import run_table

if __name__ == "__main__":
    sys.exit(run_table(LocalSession(4, seed=3), name="Ann", ascii="--ascii" in sys.argv))

"""Where wizard-tui keeps its files: the user's data directory (records, later journals)."""

from __future__ import annotations

import getpass
from pathlib import Path

from platformdirs import user_data_path

APP_NAME = "wizard-tui"


def data_dir() -> Path:
    return user_data_path(APP_NAME, appauthor=False)


def default_records_dir() -> Path:
    return data_dir() / "records"


def default_joined_records_dir() -> Path:
    """Where ``join`` keeps each player's own record of the games it joined (apart from
    the records of games this installation hosted, which the host writes)."""
    return data_dir() / "joined"


def login_name() -> str:
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        name = ""
    return (name or "player")[:32]

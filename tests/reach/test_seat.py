"""What a seat played through the host's machine gets: its name, its environment, its home."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from wizard_tui.reach.seat import (
    PASSWORD_ENV,
    VIA_ENV,
    SeatHome,
    SeatTaken,
    forget_kept_homes,
    marked_name,
    passed_env,
    sanitise_name,
    seat_command,
    seat_env,
)


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("ann", "ann"),
        ("Zoë*+%1", "Zoë1"),
        ("  bob   the\tbuilder ", "bob the builder"),
        ("\x1b[31mred\x1b[0m", "31mred0m"),  # no escape reaches a terminal
        ("", "guest"),
        ("$(rm -rf /);", "rm -rf"),
        ("x" * 100, "x" * 24),
        ("Ｅｖｅ", "Ｅｖｅ"),
    ],
)
def test_names_are_sanitised(raw: str, name: str) -> None:
    assert sanitise_name(raw) == name


def test_a_marked_name_keeps_its_mark_within_the_seat_line() -> None:
    assert marked_name("ann", "ssh") == "ann@ssh"
    assert marked_name("Alexandrina Maximiliane", "web") == "Alexandrina@web"
    assert marked_name("@@@", "ssh") == "guest@ssh"


def test_only_whitelisted_variables_pass() -> None:
    visitor = {
        "LANG": "cs_CZ.UTF-8",
        "LC_ALL": "de_DE.UTF-8",
        "NO_COLOR": "1",
        "COLORTERM": "truecolor",
        "TERM": "evil",
        "LD_PRELOAD": "/tmp/x.so",
        "PYTHONPATH": "/tmp",
        "PATH": "/tmp",
        "HOME": "/tmp",
        VIA_ENV: "bogus",
        PASSWORD_ENV: "guess",
        "LC_BAD": "a\0b",
    }
    assert passed_env(visitor, "xterm-kitty") == {
        "LANG": "cs_CZ.UTF-8",
        "LC_ALL": "de_DE.UTF-8",
        "NO_COLOR": "1",
        "COLORTERM": "truecolor",
        "TERM": "xterm-kitty",  # the session's terminal type, not the variable
    }


def test_the_seat_environment_is_built_from_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_OF_THE_HOST", "x")
    home = SeatHome(1234, bytes(range(32)))
    try:
        env = seat_env(
            visitor={"LD_PRELOAD": "x", "LANG": "it_IT.UTF-8"},
            term=None,
            home=home,
            via="ssh",
            password="pw",
        )
        assert "SECRET_OF_THE_HOST" not in env and "LD_PRELOAD" not in env
        assert env["LANG"] == "it_IT.UTF-8" and env["TERM"] == "xterm-256color"
        assert env[VIA_ENV] == "ssh" and env[PASSWORD_ENV] == "pw"
        assert env["HOME"] == str(home.path)
        # The host's key is pinned for the loopback address before the seat connects.
        pins = json.loads(
            (Path(env["XDG_DATA_HOME"]) / "wizard-tui" / "known_hosts.json").read_text()
        )
        assert pins["hosts"]["127.0.0.1:1234"]["key"] == bytes(range(32)).hex()
        assert os.stat(home.path).st_mode & 0o077 == 0
    finally:
        home.remove()
    assert not home.path.exists()


def test_the_seat_command_keeps_no_record_and_has_no_password() -> None:
    command = seat_command(4321, "ann@ssh")
    assert command[-5:] == ["join", "127.0.0.1:4321", "--name", "ann@ssh", "--no-records"]
    assert not any("pass" in part for part in command)


def test_a_kept_home_is_one_session_at_a_time_and_stays_for_a_return(tmp_path: Path) -> None:
    root = tmp_path / "visiting"
    first = SeatHome(1234, None, kept_for="ann@ssh", root=root)
    (first.path / "share" / "wizard-tui" / "key").write_text("k")
    with pytest.raises(SeatTaken):
        SeatHome(1234, None, kept_for="ann@ssh", root=root)
    other_table = SeatHome(1235, None, kept_for="ann@ssh", root=root)  # another table
    assert other_table.path != first.path
    first.remove()
    again = SeatHome(1234, None, kept_for="ann@ssh", root=root)
    assert again.path == first.path
    assert (again.path / "share" / "wizard-tui" / "key").read_text() == "k"
    again.remove()
    forget_kept_homes(root, 1234)
    assert not first.path.exists() and other_table.path.exists()
    other_table.remove()

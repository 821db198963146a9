"""The host's side of the ways in: a port that is taken, the QR code, the entry screen."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from wizard_tui.i18n import translation_for
from wizard_tui.reach.services import LISTEN_FAILED, Reach


def test_a_taken_ssh_port_is_one_line_and_status_2(tmp_path: Path) -> None:
    pytest.importorskip("asyncssh", reason="the `ssh` extra is not installed")
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "wizard_tui", "host", "--headless"]
        command += ["--bind", "127.0.0.1", "--port", "0", "--players", "3", "--bots", "2"]
        result = subprocess.run(
            [*command, "--ssh", str(port)],
            env=dict(os.environ, XDG_DATA_HOME=str(tmp_path)),
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
        czech = subprocess.run(
            [*command, "--ssh", str(port), "--lang", "cs"],
            env=dict(os.environ, XDG_DATA_HOME=str(tmp_path)),
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
    assert result.returncode == 2
    assert result.stderr.startswith("wizard-tui: ssh: cannot listen on 127.0.0.1:")
    assert "Traceback" not in result.stderr
    assert czech.returncode == 2
    said = translation_for("cs").gettext(LISTEN_FAILED).split("{", 1)[0]
    assert said and czech.stderr.startswith(f"wizard-tui: ssh: {said}"), czech.stderr


def test_the_browser_url_as_a_qr_code() -> None:
    pytest.importorskip("segno", reason="the `web` extra is not installed")
    code = Reach(web_url="http://192.0.2.2:8060/").qr_code()
    assert code is not None
    rows = code.splitlines()
    assert len(rows) > 10 and len({len(r) for r in rows}) == 1  # a square of half-blocks
    assert set("".join(rows)) <= {"█", "▀", "▄", " "}
    assert Reach().qr_code() is None


async def test_the_entry_screen_asks_name_and_password() -> None:
    from textual.app import App

    from wizard_tui.ui.screens.entry import EntryScreen

    answers: list[tuple[str, str | None]] = []

    class Probe(App[None]):
        def on_mount(self) -> None:
            screen = EntryScreen(need_password=True, error="wrong password")
            self.push_screen(screen, answers.append)

    app = Probe()
    async with app.run_test() as pilot:
        assert "wrong password" in str(app.screen.query_one("#entry-error").render())
        await pilot.press("enter")  # no name yet: nothing happens
        assert answers == []
        await pilot.press(*"Ann", "enter")  # then the password field takes the focus
        assert answers == []
        await pilot.press(*"s3")
        # An impatient Enter twice, both before the screen is gone: one answer, no crash.
        field = app.screen.query_one("#entry-password")
        field.post_message(field.Submitted(field, field.value))  # type: ignore[attr-defined]
        field.post_message(field.Submitted(field, field.value))  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.pause()
        assert app.is_running
    assert answers == [("Ann", "s3")]

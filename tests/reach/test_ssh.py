"""``wizard-tui host --ssh``: an OpenSSH client in tmux plays at the table (real processes,
127.0.0.1 only). OpenSSH's client is part of the machine CI runs on; without it the
tests are skipped with that reason."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest

from wizard_tui.i18n import translation_for

from .reach_helpers import Tmux, headless_host, processes_mentioning, wait_until

pytest.importorskip("asyncssh", reason="the `ssh` extra is not installed: pip install -e '.[ssh]'")
pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs OpenSSH's client and tmux (apt-get install openssh-client tmux)",
)


def ssh_command(port: int, user: str, known_hosts: Path, *extra: str) -> list[str]:
    return [
        "ssh",
        "-F",
        "/dev/null",  # no user or system config: only what the test says
        "-p",
        str(port),
        "-o",
        f"UserKnownHostsFile={known_hosts}",
        "-o",
        "StrictHostKeyChecking=accept-new",
        "-o",
        "SendEnv=LANG",
        "-o",
        "SetEnv=LD_PRELOAD=/nonexistent.so WIZARD_TUI_VIA=bogus LC_TIME=C.UTF-8",
        *extra,
        f"{user}@127.0.0.1",
    ]


def askpass(tmp_path: Path, password: str) -> dict[str, str]:
    """Environment that makes ``ssh`` answer its password prompt with ``password``."""
    script = tmp_path / f"askpass-{password.encode().hex()}.sh"
    script.write_text(f"#!/bin/sh\necho '{password}'\n")
    script.chmod(stat.S_IRWXU)
    return dict(os.environ, SSH_ASKPASS=str(script), SSH_ASKPASS_REQUIRE="force", DISPLAY=":0")


def ssh_port(lines: list[str]) -> int:
    line = next(line for line in lines if "ssh -p" in line)
    return int(line.split("ssh -p", 1)[1].split()[0])


def seat_pids(game_port: int) -> list[int]:
    return processes_mentioning(f"join 127.0.0.1:{game_port}")


def play_round_one(tmux: Tmux, name: str) -> None:
    """Name trump if a Wizard turned up, bid, play the one card; until round 2 shows."""
    end = time.monotonic() + 60
    while "Round 2" not in (screen := tmux.screen(name)):
        assert time.monotonic() < end, f"round 1 never ended:\n{screen}"
        if "Choose trump" in screen:
            tmux.keys(name, "h")
        elif "Your bid" in screen or "play a card" in screen:
            tmux.keys(name, "Enter")
        time.sleep(0.3)


def test_an_ssh_player_plays_resizes_and_quits(tmp_path: Path) -> None:
    tmux = Tmux()
    known = tmp_path / "known_hosts"
    with headless_host(tmp_path / "data", "--ssh", "0", until="SSH host key") as host:
        port = ssh_port(host.lines)
        fingerprint = host.line_with("SSH host key").split()[-1]
        assert fingerprint.startswith("SHA256:")
        command = shlex.join(ssh_command(port, "Zoë*+%1", known))
        try:
            tmux.new("ann", command, 80, 24)
            tmux.wait_for("ann", "Round 1 of")
            # The user name, sanitised and marked as played on the host's machine.
            assert "Zoë1@ssh (you)" in tmux.screen("ann")
            # OpenSSH pinned the same host key the lobby shows.
            listed = subprocess.run(
                ["ssh-keygen", "-l", "-f", str(known)], capture_output=True, text=True
            ).stdout
            assert fingerprint in listed
            [pid] = seat_pids(host.game_port)
            # One session a name: a second "Zoë1" is turned away, the first plays on.
            twin = subprocess.run(
                ssh_command(port, "Zoë*+%1", known, "-tt"),
                capture_output=True,
                text=True,
                stdin=subprocess.DEVNULL,
                timeout=30,
            )
            assert twin.returncode == 1
            assert "Zoë1@ssh is at the table already" in twin.stdout + twin.stderr
            assert seat_pids(host.game_port) == [pid]
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            assert b"LD_PRELOAD=/nonexistent.so" not in environ  # not on the whitelist
            assert b"WIZARD_TUI_VIA=ssh" in environ  # ours, not the visitor's
            assert b"LC_TIME=C.UTF-8" in environ  # the visitor's locale comes along
            assert b"TERM=tmux-256color" in environ or b"TERM=screen" in environ

            play_round_one(tmux, "ann")

            tmux.run("resize-window", "-t", "ann", "-x", "110", "-y", "30")
            wait_until(
                lambda: max(len(line.rstrip()) for line in tmux.screen("ann").splitlines()) > 100,
                "the table redrew at the new width",
            )
            assert len(tmux.screen("ann").splitlines()) == 30

            tmux.keys("ann", "q")
            tmux.wait_for("ann", "Leave the game?")
            tmux.keys("ann", "y")
            wait_until(lambda: not tmux.alive("ann"), "quitting the table ended the SSH session")
            wait_until(lambda: not seat_pids(host.game_port), "the seat's process ended")
        finally:
            tmux.kill()


def test_refusals_password_and_a_killed_client(tmp_path: Path) -> None:
    tmux = Tmux()
    known = tmp_path / "known_hosts"
    with headless_host(
        tmp_path / "data",
        "--ssh",
        "0",
        "--ssh-sessions",
        "1",
        until="SSH host key",
        password="sesame",
    ) as host:
        port = ssh_port(host.lines)
        good, bad = askpass(tmp_path, "sesame"), askpass(tmp_path, "wrong!")

        no_pty = subprocess.run(
            ssh_command(port, "bob", known, "-T"),
            env=good,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=30,
        )
        assert no_pty.returncode == 1, no_pty
        assert "needs a terminal" in no_pty.stderr
        # A visitor whose ssh sends LANG is turned away in their language (its catalog's
        # words, compared to the catalog: the server's own language is English here).
        czech = subprocess.run(
            ssh_command(port, "bob", known, "-T"),
            env={**good, "LANG": "cs_CZ.UTF-8"},
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=30,
        )
        assert czech.returncode == 1, czech
        from wizard_tui.reach.ssh import NO_PTY  # after the importorskip of asyncssh

        said = translation_for("cs").gettext(NO_PTY)
        assert said != NO_PTY and said in czech.stderr, czech.stderr

        refused = subprocess.run(
            [*ssh_command(port, "bob", known, "-T", "-o", "NumberOfPasswordPrompts=1")],
            env=bad,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=30,
        )
        assert refused.returncode == 255
        assert "Permission denied" in refused.stderr

        try:
            env_prefix = " ".join(f"{k}={v}" for k, v in good.items() if k.startswith("SSH_"))
            command = shlex.join(ssh_command(port, "cy", known, "-o", "PubkeyAuthentication=no"))
            tmux.new("cy", f"env {env_prefix} DISPLAY=:0 {command}")
            tmux.wait_for("cy", "Round 1 of")  # the room password let the seat in as well
            [pid] = seat_pids(host.game_port)
            # The cap: one SSH player at a time here, so a second one is turned away.
            second = subprocess.run(
                ssh_command(port, "dee", known, "-tt"),
                env=good,
                capture_output=True,
                text=True,
                stdin=subprocess.DEVNULL,
                timeout=30,
            )
            assert second.returncode == 1
            assert "takes 1 SSH players at most" in second.stdout + second.stderr
            assert seat_pids(host.game_port) == [pid]
            client = processes_mentioning("cy@127.0.0.1")
            assert client
            for c in client:
                os.kill(c, signal.SIGKILL)  # the client vanishes without a word
            wait_until(lambda: not seat_pids(host.game_port), "the dropped session's seat ended")
            wait_until(lambda: not Path(f"/proc/{pid}").exists(), "the seat was reaped")

            # Connecting again under the same name takes the seat back (its kept keys).
            tmux.new("cy-again", f"env {env_prefix} DISPLAY=:0 {command}")
            screen = tmux.wait_for("cy-again", "cy@ssh (you)")
            assert "Merlin" in screen and "Morgana" in screen  # the same table, in play
            assert len(seat_pids(host.game_port)) == 1
        finally:
            tmux.kill()

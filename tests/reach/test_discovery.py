"""LAN discovery (DNS-SD) between real processes inside a network namespace this test makes
(``ip netns add``; multicast works on its ``lo``): nothing is ever sent on a real network.
Without the rights to make a namespace (not root, no iproute2) the tests say so and skip."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from wizard_tui.reach.discovery import (
    NO_ANNOUNCE_ENV,
    announcing_allowed,
    instance_name,
    txt_record,
)

BROWSE = (
    "import asyncio, json, dataclasses\n"
    "from wizard_tui.reach.discovery import browse\n"
    "print(json.dumps([dataclasses.asdict(t) for t in asyncio.run(browse(3.0))]))\n"
)


@pytest.fixture
def netns() -> Iterator[str]:
    if shutil.which("ip") is None:
        pytest.skip("needs iproute2's `ip` to make a network namespace")
    name = f"wizreach{uuid.uuid4().hex[:8]}"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot make a network namespace here: {made.stderr.strip()}")
    try:
        subprocess.run(["ip", "-n", name, "link", "set", "lo", "up"], check=True)
        yield name
    finally:
        pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True)
        for pid in pids.stdout.split():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)
        subprocess.run(["ip", "netns", "delete", name], check=True)


def ns_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != NO_ANNOUNCE_ENV}
    return env | {"XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home)}


def start_host(ns: str, home: Path, name: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """A headless host in ``ns`` bound to every interface there (only ``lo``)."""
    command = ["ip", "netns", "exec", ns, sys.executable, "-m", "wizard_tui", "host"]
    command += ["--headless", "--bind", "0.0.0.0", "--port", "0", "--players", "3"]
    command += ["--bots", "1", "--bot-delay", "0", "--name", name]
    process = subprocess.Popen(
        command, env=ns_env(home), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True
    )
    seen: dict[str, str] = {}
    assert process.stdout is not None
    for line in process.stdout:
        if m := re.search(r"listening on 0\.0\.0\.0:(\d+)", line):
            seen["port"] = m.group(1)
        if "host fingerprint:" in line:
            seen["fingerprint"] = line.split(":", 1)[1].strip()
        if "announced on the LAN as" in line or "not announced" in line:
            seen["announce"] = line.strip()
            break
    assert "announced on the LAN as" in seen.get("announce", ""), seen
    return process, seen


def browse_in(ns: str, home: Path) -> list[dict[str, object]]:
    out = subprocess.run(
        ["ip", "netns", "exec", ns, sys.executable, "-c", BROWSE],
        env=ns_env(home),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(out.stdout)


def join_in(ns: str, home: Path, *args: str) -> subprocess.Popen[str]:
    command = ["ip", "netns", "exec", ns, sys.executable, "-m", "wizard_tui", "join", *args]
    return subprocess.Popen(
        command,
        env=ns_env(home),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop(process: subprocess.Popen[str], sig: int = signal.SIGINT) -> None:
    if process.poll() is None:
        process.send_signal(sig)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def test_tables_are_found_updated_and_withdrawn(netns: str, tmp_path: Path) -> None:
    ann, ann_seen = start_host(netns, tmp_path / "ann", "Ann")
    ann2, ann2_seen = start_host(netns, tmp_path / "ann2", "Ann")  # same name, other key
    bob = None
    try:
        tables = {t["instance"]: t for t in browse_in(netns, tmp_path / "look")}
        assert len(tables) == 2, tables  # unique names: the host name and a key prefix
        mine = next(t for t in tables.values() if t["port"] == int(ann_seen["port"]))
        assert str(mine["instance"]).startswith("Ann's table on ")
        assert mine["fingerprint"] == ann_seen["fingerprint"]
        assert mine["addresses"] == ["127.0.0.1"] and mine["seats"] == "1/3"
        assert mine["password"] is False and mine["version"] == 1

        # A player joins: the announcement follows the seats.
        bob = join_in(netns, tmp_path / "bob", "--bot", "normal", f"127.0.0.1:{ann_seen['port']}")
        assert bob.stdout is not None
        assert "joined" in bob.stdout.readline()
        for _ in range(10):
            seats = {t["port"]: t["seats"] for t in browse_in(netns, tmp_path / "look")}
            if seats.get(int(ann_seen["port"])) == "2/3":
                break
        assert seats[int(ann_seen["port"])] == "2/3"
        assert seats[int(ann2_seen["port"])] == "1/3"

        # Hosts that stop say goodbye: nothing is left to find.
        stop(bob)
        stop(ann)
        stop(ann2)
        lost = join_in(netns, tmp_path / "cy", "--bot", "normal")
        _, err = lost.communicate(timeout=60)
        assert lost.returncode == 2
        assert "no table was found on the LAN" in err and "wizard-tui join 192.168" in err
    finally:
        for process in (bob, ann, ann2):
            if process is not None:
                stop(process)


def test_one_table_is_offered_and_a_crashed_host_fails_cleanly(netns: str, tmp_path: Path) -> None:
    host, seen = start_host(netns, tmp_path / "host", "Dee")
    try:
        # Joining the one table found: the bot plays a seat of the announced table.
        first = join_in(netns, tmp_path / "p1", "--bot", "normal")
        assert first.stdin is not None and first.stdout is not None
        first.stdin.write("y\n")
        first.stdin.flush()
        lines = [first.stdout.readline() for _ in range(3)]
        assert "found Dee's table on" in lines[1]
        assert seen["fingerprint"] in lines[2]
        assert f"joined 127.0.0.1:{seen['port']}" in first.stdout.readline()

        # A second player is offered the table, then the host dies without a goodbye.
        second = join_in(netns, tmp_path / "p2", "--bot", "normal")
        assert second.stdout is not None and second.stdin is not None
        assert "looking for tables" in second.stdout.readline()
        assert "found Dee's table" in second.stdout.readline()
        host.send_signal(signal.SIGKILL)
        host.wait(timeout=10)
        out, err = second.communicate("y\n", timeout=60)
        assert second.returncode == 2, (out, err)
        assert err.startswith("wizard-tui: cannot reach 127.0.0.1:") and "Traceback" not in err
        stop(first, signal.SIGTERM)
    finally:
        stop(host, signal.SIGKILL)


def test_names_and_what_is_announced() -> None:
    assert instance_name("Ann", "ABCD-EFGH", "kitchen.lan") == "Ann's table on kitchen (ABCD)"
    long = instance_name("x" * 80, "ABCD-EFGH", "pc")
    assert len(long.encode()) <= 63 and long.endswith(" on pc (ABCD)")
    assert txt_record(
        protocol="wizard-tui", version=1, seats=(2, 4), password=True, fingerprint="F"
    ) == {"proto": "wizard-tui", "v": "1", "seats": "2/4", "pw": "1", "fp": "F"}


def test_announcing_is_off_for_loopback_and_under_the_test_suite(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert os.environ.get(NO_ANNOUNCE_ENV) == "1"  # tests/conftest.py
    assert not announcing_allowed("0.0.0.0")
    monkeypatch.delenv(NO_ANNOUNCE_ENV)
    assert announcing_allowed("0.0.0.0")
    assert not announcing_allowed("127.0.0.1") and not announcing_allowed("::1")

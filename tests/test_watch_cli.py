"""The command line of spectators: ``join --watch`` (with an address or found on the LAN)
and ``host --no-watchers``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from netplay import StaticIdentity
from wizard_tui.cli import UserError, build_parser
from wizard_tui.commands import find_table, join, resuming
from wizard_tui.commands import host as host_command
from wizard_tui.net.host import HostOptions
from wizard_tui.reach.discovery import Table


def _joined(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    def joined(host: str, port: int, *, args: argparse.Namespace, password: str | None) -> int:
        seen.update(host=host, port=port, watch=args.watch)
        return 0

    monkeypatch.setattr("wizard_tui.launch.run_joined_table", joined)
    return seen


@pytest.mark.parametrize("watch", [True, False])
def test_join_watch_asks_the_table_to_watch(monkeypatch: pytest.MonkeyPatch, watch: bool) -> None:
    seen = _joined(monkeypatch)
    argv = ["join", "127.0.0.1:2345", *(["--watch"] if watch else [])]
    assert join.run(build_parser().parse_args(argv)) == 0
    assert seen == {"host": "127.0.0.1", "port": 2345, "watch": watch}


def test_join_watch_finds_the_table_on_the_lan(monkeypatch: pytest.MonkeyPatch) -> None:
    found = Table("B", ("192.0.2.7",), 2345, "wizard-tui", 1, "3/3", False, "ABCD-EFGH")
    monkeypatch.setattr(find_table, "find_table", lambda: found)
    seen = _joined(monkeypatch)
    assert join.run(build_parser().parse_args(["join", "--watch"])) == 0
    assert seen == {"host": "192.0.2.7", "port": 2345, "watch": True}


def test_join_watch_and_bot_do_not_go_together() -> None:
    args = build_parser().parse_args(["join", "127.0.0.1", "--watch", "--bot", "easy"])
    with pytest.raises(UserError, match="--watch and --bot"):
        join.run(args)


@pytest.mark.parametrize(("flag", "allowed"), [(["--no-watchers"], False), ([], True)])
def test_host_no_watchers_turns_them_away(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, flag: list[str], allowed: bool
) -> None:
    seen: list[HostOptions] = []

    async def headless(options: HostOptions, *rest: Any) -> int:
        seen.append(options)
        return 0

    monkeypatch.setattr(host_command, "_run_headless", headless)
    monkeypatch.setattr(host_command, "load_identity", StaticIdentity.generate)
    monkeypatch.setattr(host_command, "games_dir", lambda: tmp_path / "games")
    monkeypatch.setattr(resuming, "choose_game", lambda *a, **k: None)
    argv = ["host", "--headless", "--bind", "127.0.0.1", "--records", str(tmp_path), *flag]
    assert host_command.run(build_parser().parse_args(argv)) == 0
    assert [o.watchers for o in seen] == [allowed]

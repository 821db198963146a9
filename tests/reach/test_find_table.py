"""``wizard-tui join`` without an address: what it offers from what it found (no network
here: the browsing itself is tested in a namespace, test_discovery.py)."""

from __future__ import annotations

import io

import pytest

from wizard_tui.cli import UserError, build_parser
from wizard_tui.commands import find_table, join
from wizard_tui.reach.discovery import Table


def table(name: str, port: int, password: bool = False) -> Table:
    return Table(name, ("192.0.2.7",), port, "wizard-tui", 1, "2/4", password, "ABCD-EFGH")


def answer(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_none_found_says_how_to_type_an_address() -> None:
    with pytest.raises(UserError, match=r"no table was found.*wizard-tui join 192\.168"):
        find_table.choose([], 3.0)


def test_one_is_offered(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ann = table("Ann's table on pc (ABCD)", 16060)
    answer(monkeypatch, "\n")  # Enter: yes
    assert find_table.choose([ann], 3.0) is ann
    out = capsys.readouterr().out
    assert "found Ann's table on pc (ABCD) at 192.0.2.7:16060 (2/4 seats taken)" in out
    assert "ABCD-EFGH" in out
    answer(monkeypatch, "n\n")
    with pytest.raises(UserError, match="not joined"):
        find_table.choose([ann], 3.0)
    answer(monkeypatch, "")  # end of input
    with pytest.raises(UserError, match="no answer"):
        find_table.choose([ann], 3.0)


def test_several_are_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    found = [table("A", 1), table("B", 2, password=True)]
    answer(monkeypatch, "2\n")
    assert find_table.choose(found, 3.0) is found[1]
    for bad in ("0\n", "3\n", "two\n"):
        answer(monkeypatch, bad)
        with pytest.raises(UserError, match="not a table number"):
            find_table.choose(found, 3.0)


def test_a_table_that_asks_for_a_password_gets_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(find_table, "find_table", lambda: table("B", 2345, password=True))
    seen: dict[str, object] = {}

    def joined(host: str, port: int, *, args: object, password: str | None) -> int:
        seen.update(host=host, port=port, password=password)
        return 0

    monkeypatch.setattr("wizard_tui.launch.run_joined_table", joined)
    answer(monkeypatch, "sesame\n")  # not a terminal: the first line is the password
    args = build_parser().parse_args(["join"])
    assert join.run(args) == 0
    assert seen == {"host": "192.0.2.7", "port": 2345, "password": "sesame"}

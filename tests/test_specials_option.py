"""``--specials`` is one option, defined once (``commands.options.add_specials``): simulate
reads it as host and play do, and its help lists the same cards."""

from __future__ import annotations

import pytest

from wizard_tui.cli import build_parser
from wizard_tui.commands import options
from wizard_tui.game.specials import Special

COMMANDS = ("host", "play", "simulate")


@pytest.mark.parametrize("value", ["all", "none", "dragon,fairy", "witch,vampire,bomb"])
def test_every_command_reads_the_same_cards(value: str) -> None:
    read = {cmd: build_parser().parse_args([cmd, "--specials", value]).specials for cmd in COMMANDS}
    assert len(set(read.values())) == 1, read
    assert read["simulate"] == frozenset(read["host"])


@pytest.mark.parametrize("value", ["unicorn", "dragon,,fairy", "dragon,wizard"])
def test_every_command_refuses_the_same_way(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    said = {}
    for cmd in COMMANDS:
        with pytest.raises(SystemExit):
            build_parser().parse_args([cmd, "--specials", value])
        said[cmd] = capsys.readouterr().err.splitlines()[-1].split(": error: ", 1)[1]
    assert len(set(said.values())) == 1, said


def test_simulates_help_names_the_cards_from_the_one_definition(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(options, "SPECIALS", (Special.BOMB,))
    for cmd in ("simulate", "host"):
        with pytest.raises(SystemExit):
            build_parser().parse_args([cmd, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "a comma-separated list of bomb, or all" in text, cmd

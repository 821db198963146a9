"""The settings file (config.toml): command line over environment over file over defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from wizard_tui.cli import build_parser, main
from wizard_tui.config import ConfigError, defaults
from wizard_tui.net.protocol import DEFAULT_PORT

FILE = """
name = "FromFile"
language = "cs"
ascii = true
bell = true
theme = "nord"
bot_level = "hard"
port = 17000
"""


def parse(argv: list[str], environ: dict[str, str], path: Path):  # type: ignore[no-untyped-def]
    return build_parser(defaults(environ, path)).parse_args(argv)


def test_file_then_environment_then_command_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(FILE)
    args = parse(["host"], {}, path)
    assert (args.name, args.ascii, args.bell, args.theme) == ("FromFile", True, True, "nord")
    assert (args.bot_level, args.default_port, args.language) == ("hard", 17000, "cs")

    env = {"WIZARD_TUI_NAME": "FromEnv", "WIZARD_TUI_BELL": "no", "WIZARD_TUI_PORT": "17001"}
    args = parse(["host"], env, path)
    assert (args.name, args.bell, args.default_port, args.ascii) == ("FromEnv", False, 17001, True)

    cli = ["host", "--name", "FromCli", "--bot-level", "easy", "--theme", "dracula"]
    args = parse(cli, env, path)
    assert (args.name, args.bot_level, args.theme) == ("FromCli", "easy", "dracula")
    assert args.port is None  # --port itself stays unset: a resumed game keeps its own

    args = parse(["join", "10.0.0.1"], {}, path)
    assert (args.name, args.ascii, args.theme) == ("FromFile", True, "nord")
    assert not hasattr(args, "bot_level")  # only the options a subcommand has


def test_without_a_file_the_defaults_stand(tmp_path: Path) -> None:
    args = parse(["host"], {}, tmp_path / "missing.toml")
    assert args.default_port is None and args.theme is None and args.bot_level == "normal"
    assert args.ascii is False and args.bell is False


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("port = 70000", "port must be a port number"),
        ('port = "x"', "port must be a port number"),
        ('bot_level = "godlike"', "bot_level must be one of"),
        ('theme = "no-such-theme"', "theme must be one of"),
        ("ascii = 3", "ascii must be true or false"),
        ('name = ""', "name must be a name"),
        ('language = "../../etc"', "language must be a language code"),
        ("name = [", "config.toml"),  # not TOML at all
    ],
)
def test_bad_settings_are_named(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=said.replace("(", r"\(")):
        defaults({}, path)


def test_a_bad_setting_is_one_line_and_status_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text("port = 0\n")
    monkeypatch.setenv("WIZARD_TUI_CONFIG", str(path))
    assert main(["games"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wizard-tui: ") and "port must be a port number" in err
    monkeypatch.setenv("WIZARD_TUI_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("WIZARD_TUI_BOT_LEVEL", "nope")
    assert main(["games"]) == 2
    assert "WIZARD_TUI_BOT_LEVEL must be one of" in capsys.readouterr().err


def test_unknown_settings_are_ignored_with_a_word(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text('colour = "red"\nname = "Ann"\n')
    assert defaults({}, path) == {"name": "Ann"}
    assert "unknown setting 'colour' ignored" in capsys.readouterr().err


def test_host_uses_the_file_port_unless_told(tmp_path: Path) -> None:
    from wizard_tui.commands.host import chosen_port

    path = tmp_path / "config.toml"
    path.write_text("port = 17002\n")
    assert chosen_port(parse(["host"], {}, path)) == 17002
    assert chosen_port(parse(["host", "--port", "17003"], {}, path)) == 17003
    assert chosen_port(parse(["host"], {}, tmp_path / "none.toml")) == DEFAULT_PORT


def test_a_bad_theme_on_the_command_line_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--theme", "no-such-theme"])
    assert "--theme must be one of" in capsys.readouterr().err

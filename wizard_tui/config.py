"""The user's settings file: ``config.toml`` in the platform's config directory.

    name = "Ann"          # your name at the table
    language = "cs"       # for the translations (LANG otherwise)
    ascii = false         # suits as letters
    bell = true           # ring on your turn
    theme = "nord"        # a Textual theme
    bot_level = "hard"    # how well bots play
    port = 16060          # the port you host on

Each can also come from the environment (``WIZARD_TUI_NAME``, ``WIZARD_TUI_LANGUAGE``,
``WIZARD_TUI_ASCII``, ``WIZARD_TUI_BELL``, ``WIZARD_TUI_THEME``, ``WIZARD_TUI_BOT_LEVEL``,
``WIZARD_TUI_PORT``). The command line wins over the environment, which wins over the file,
which wins over the built-in defaults: the file and the environment only change the
defaults argparse starts from. ``WIZARD_TUI_CONFIG`` names another file.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from platformdirs import user_config_path

from .i18n import _
from .paths import APP_NAME

CONFIG_ENV = "WIZARD_TUI_CONFIG"
ENV_PREFIX = "WIZARD_TUI_"
FILE_NAME = "config.toml"


class ConfigError(ValueError):
    """A setting that cannot be used, said for people (the file or variable, and why)."""


def config_path() -> Path:
    named = os.environ.get(CONFIG_ENV)
    if named:
        return Path(named)
    return user_config_path(APP_NAME, appauthor=False) / FILE_NAME


def _name(value: object) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 32:
        raise ValueError(_("a name of 1 to 32 characters"))
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ValueError(_("a name without control characters"))
    return value.strip()


LANGUAGE = re.compile(r"[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?")
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def _language(value: object) -> str:
    if not isinstance(value, str) or not LANGUAGE.fullmatch(value):
        raise ValueError(_('a language code such as "cs" or "pt_BR"'))
    return value


def _flag(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:
        return value.strip().lower() in TRUE
    raise ValueError(_("true or false"))


def _theme(value: object) -> str:
    from .ui.themes import theme_names  # Textual is loaded only for a theme

    if not isinstance(value, str) or value not in theme_names():
        raise ValueError(_("one of {choices}").format(choices=", ".join(sorted(theme_names()))))
    return value


def _bot_level(value: object) -> str:
    from .bots import LEVELS

    if value not in LEVELS:
        raise ValueError(_("one of {choices}").format(choices=", ".join(LEVELS)))
    return str(value)


def _port(value: object) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 65536:
        raise ValueError(_("a port number 1..65535"))
    return value


# setting -> (argparse dest, check and convert)
SETTINGS: dict[str, tuple[str, Callable[[object], Any]]] = {
    "name": ("name", _name),
    "language": ("language", _language),
    "ascii": ("ascii", _flag),
    "bell": ("bell", _flag),
    "theme": ("theme", _theme),
    "bot_level": ("bot_level", _bot_level),
    # Not --port itself: a resumed game keeps its own port unless --port says otherwise.
    "port": ("default_port", _port),
}


def read_file(path: Path) -> dict[str, object]:
    """The settings in ``path`` (none if it does not exist); ``ConfigError`` if unusable."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    out: dict[str, object] = {}
    for key, value in data.items():
        if key not in SETTINGS:
            said = _("unknown setting {key!r} ignored").format(key=key)
            print(f"wizard-tui: {path}: {said}", file=sys.stderr)
            continue
        out[key] = check(key, value, f"{path}: {key}")
    return out


def read_env(environ: Mapping[str, str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key in SETTINGS:
        variable = ENV_PREFIX + key.upper()
        if variable in environ:
            out[key] = check(key, environ[variable], variable)
    return out


def check(key: str, value: object, where: str) -> object:
    """``value`` for setting ``key``, converted; ``ConfigError`` naming ``where`` if unusable."""
    try:
        return SETTINGS[key][1](value)
    except ValueError as exc:
        said = _("{where} must be {what}, not {value!r}").format(where=where, what=exc, value=value)
        raise ConfigError(said) from None


def defaults(
    environ: Mapping[str, str] | None = None, path: Path | None = None
) -> dict[str, object]:
    """argparse defaults (by dest) from the file, overridden by the environment."""
    environ = os.environ if environ is None else environ
    settings = read_file(path or config_path())
    settings.update(read_env(environ))
    return {SETTINGS[key][0]: value for key, value in settings.items()}

"""The ``wizard-tui`` command: parses arguments and hands off to one subcommand module.

Each subcommand lives in ``wizard_tui.commands.<name>`` and provides
``add_arguments(parser)`` and ``run(args) -> int``. Errors meant for people are
raised as ``UserError`` and printed as one line, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Mapping, Sequence

from . import __version__

# (name, module, one-line help), in the order ``--help`` lists them.
SUBCOMMANDS: tuple[tuple[str, str, str], ...] = (
    ("play", "play", "a solo game against bots in your terminal"),
    ("host", "host", "host a game on your LAN (friends join with wizard-tui join)"),
    ("join", "join", "take a seat at a game someone hosts on your LAN"),
    ("simulate", "simulate", "play whole games between bots in-process and write their records"),
    ("verify", "verify", "re-check game records from scratch: the deal, every play, every score"),
    ("games", "games", "list the games you hosted, finished and unfinished (to resume one)"),
)


class UserError(Exception):
    """A problem the user can fix; printed as ``wizard-tui: <message>``, exit status 2."""


def build_parser(defaults: Mapping[str, object] | None = None) -> argparse.ArgumentParser:
    """The whole command line; ``defaults`` (from ``config.defaults()``: the settings file
    and environment) replace the built-in defaults of the options each subcommand has."""
    parser = argparse.ArgumentParser(
        prog="wizard-tui",
        description="The card game Wizard for friends on a LAN, played from the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"wizard-tui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module_name, help_text in SUBCOMMANDS:
        module = importlib.import_module(f"wizard_tui.commands.{module_name}")
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
        p.set_defaults(run_command=module.run)
        if defaults:
            # The options this subcommand has, and the defaults-only dests (language).
            # (argparse has no public way to list them.)
            dests = {action.dest for action in p._actions} | set(p._defaults)  # noqa: SLF001
            p.set_defaults(**{k: v for k, v in defaults.items() if k in dests})
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from .config import ConfigError, defaults

    try:
        settings = defaults()
    except ConfigError as exc:
        print(f"wizard-tui: {exc}", file=sys.stderr)
        return 2
    parser = build_parser(settings)
    args = parser.parse_args(argv)
    try:
        return int(args.run_command(args) or 0)
    except UserError as exc:
        print(f"wizard-tui: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

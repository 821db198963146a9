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
from .i18n import LANGUAGES, N_, _

# (name, module, one-line help), in the order ``--help`` lists them.
SUBCOMMANDS: tuple[tuple[str, str, str], ...] = (
    ("play", "play", N_("a solo game against bots in your terminal")),
    ("host", "host", N_("host a game on your LAN (friends join with wizard-tui join)")),
    ("join", "join", N_("take a seat at a game someone hosts on your LAN")),
    (
        "simulate",
        "simulate",
        N_("play whole games between bots in-process and write their records"),
    ),
    (
        "verify",
        "verify",
        N_("re-check game records from scratch: the deal, every play, every score"),
    ),
    ("games", "games", N_("list the games you hosted, finished and unfinished (to resume one)")),
)


class UserError(Exception):
    """A problem the user can fix; printed as ``wizard-tui: <message>``, exit status 2."""


def build_parser(defaults: Mapping[str, object] | None = None) -> argparse.ArgumentParser:
    """The whole command line; ``defaults`` (from ``config.defaults()``: the settings file
    and environment) replace the built-in defaults of the options each subcommand has."""
    parser = argparse.ArgumentParser(
        prog="wizard-tui",
        description=_("The card game Wizard for friends on a LAN, played from the terminal."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"wizard-tui {__version__}",
        help=_("show program's version number and exit"),
    )
    add_lang(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module_name, help_text in SUBCOMMANDS:
        module = importlib.import_module(f"wizard_tui.commands.{module_name}")
        p = sub.add_parser(name, help=_(help_text), description=_(help_text))
        module.add_arguments(p)
        add_lang(p)
        p.set_defaults(run_command=module.run)
        if defaults:
            # The options this subcommand has, and the defaults-only dests (language).
            # (argparse has no public way to list them.)
            dests = {action.dest for action in p._actions} | set(p._defaults)  # noqa: SLF001
            p.set_defaults(**{k: v for k, v in defaults.items() if k in dests})
    return parser


def add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        dest="language",
        metavar="LANG",
        default=argparse.SUPPRESS,  # the settings file's, else the environment's
        help=_(
            "the language to speak: {languages} (default: the settings file's "
            "language, else LANGUAGE, LC_ALL, LC_MESSAGES or LANG; English otherwise)"
        ).format(languages=", ".join(LANGUAGES)),
    )


def lang_in(argv: Sequence[str]) -> str | None:
    """``--lang`` from the command line, read before the parser is built (so that its
    ``--help`` is in that language too); the last one given wins, as with argparse."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.split("=", 1)[1]
    return found


def main(argv: Sequence[str] | None = None) -> int:
    from . import i18n
    from .argparse_i18n import install
    from .config import ConfigError, defaults

    argv = sys.argv[1:] if argv is None else list(argv)
    i18n.setup(lang_in(argv))  # for the settings file's own complaints
    try:
        settings = defaults()
    except ConfigError as exc:
        print(f"wizard-tui: {exc}", file=sys.stderr)
        return 2
    # --lang, then the settings file (or WIZARD_TUI_LANGUAGE), then the environment.
    language = settings.get("language")
    i18n.setup(lang_in(argv) or (language if isinstance(language, str) else None))
    install()
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

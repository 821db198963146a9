"""``host`` options for the ways in: ``--ssh``, ``--web``, ``--no-announce``."""

from __future__ import annotations

import argparse

from ..i18n import _

DEFAULT_SSH_PORT = 2222
DEFAULT_WEB_PORT = 8060


def add_host_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("ways in for friends with nothing installed")
    group.add_argument(
        "--ssh",
        type=int,
        nargs="?",
        const=DEFAULT_SSH_PORT,
        default=None,
        metavar="PORT",
        help=_(
            "also let friends play with `ssh -p PORT NAME@HOST`: each "
            "session runs a table on this machine (default port "
            "{DEFAULT_SSH_PORT}; needs the `ssh` extra)"
        ).format(DEFAULT_SSH_PORT=DEFAULT_SSH_PORT),
    )
    group.add_argument(
        "--web",
        type=int,
        nargs="?",
        const=DEFAULT_WEB_PORT,
        default=None,
        metavar="PORT",
        help=_(
            "also serve the table to browsers at http://HOST:PORT/ (default "
            "port {DEFAULT_WEB_PORT}; needs the `web` extra)"
        ).format(DEFAULT_WEB_PORT=DEFAULT_WEB_PORT),
    )
    group.add_argument(
        "--ssh-sessions",
        type=int,
        default=None,
        metavar="N",
        help=_("at most N SSH (and N browser) players at once (default: the table's seats)"),
    )
    group.add_argument(
        "--no-announce",
        action="store_true",
        help=_("do not announce the table on the LAN (DNS-SD); friends type the address"),
    )


def check(args: argparse.Namespace) -> str | None:
    """What is wrong with these options, for a UserError, or None."""
    for flag in ("ssh", "web"):
        port = getattr(args, flag, None)
        if port is not None and not 0 <= port < 65536:
            return _("--{flag} must be a port 0..65535").format(flag=flag)
    sessions = getattr(args, "ssh_sessions", None)
    if sessions is not None and not 1 <= sessions <= 64:
        return _("--ssh-sessions must be 1..64")
    if getattr(args, "ssh", None) is not None:
        try:
            import asyncssh  # noqa: F401
        except ImportError:
            return _("--{flag} needs the `{flag}` extra: pip install 'wizard-tui[{flag}]'").format(
                flag="ssh"
            )
    if getattr(args, "web", None) is not None:
        try:
            import textual_serve  # noqa: F401
        except ImportError:
            return _("--{flag} needs the `{flag}` extra: pip install 'wizard-tui[{flag}]'").format(
                flag="web"
            )
    return None

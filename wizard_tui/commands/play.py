"""``wizard-tui play``: a solo game against bots, over the same host and protocol as a LAN game."""

from __future__ import annotations

import argparse

from ..cli import UserError
from ..i18n import _
from . import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players", type=int, default=4, help=_("seats, you included, 3-6 (default: 4)")
    )
    options.add_bot_level(parser)
    options.add_rules(parser)
    options.add_deal(parser)
    options.add_name(parser)
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        help=_("seconds a bot waits before it acts, so you can follow (default: 0.6)"),
    )
    options.add_table_looks(parser)


def run(args: argparse.Namespace) -> int:
    if not 3 <= args.players <= 6:
        raise UserError(_("a table has 3 to 6 seats: use --players 3..6"))
    options.check_length(args)
    options.check_specials(args)
    from ..launch import run_solo_table

    return run_solo_table(args)

"""Command-line options shared by several subcommands."""

from __future__ import annotations

import argparse

from ..bots import LEVELS
from ..game import RestrictLastBid
from ..paths import login_name


def add_name(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--name", default=login_name(), help="your name at the table (default: your login name)"
    )


def add_rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--restrict-last-bid",
        choices=[m.value for m in RestrictLastBid if m is not RestrictLastBid.NEVER],
        default=None,
        help="the dealer may not make the bids add up to the round's tricks "
        "(always, or from round 2 on); off by default",
    )


def restrict_mode(args: argparse.Namespace) -> RestrictLastBid:
    value = getattr(args, "restrict_last_bid", None)
    return RestrictLastBid(value) if value else RestrictLastBid.NEVER


def add_bot_level(parser: argparse.ArgumentParser, default: str = "normal") -> None:
    parser.add_argument(
        "--bot-level",
        choices=LEVELS,
        default=default,
        help=f"how well bots play (default: {default})",
    )


def add_table_looks(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ascii", action="store_true", help="draw suits as letters (for terminals without ♣♦♥♠)"
    )
    parser.add_argument("--bell", action="store_true", help="ring the terminal bell on your turn")

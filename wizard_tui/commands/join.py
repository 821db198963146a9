"""``wizard-tui join HOST[:PORT]``: take a seat at a friend's table (or let a bot take it)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
from pathlib import Path

from ..bots import LEVELS, make_bot
from ..cli import UserError
from ..i18n import _
from ..net.addresses import parse_target
from ..net.bot_player import play_as_bot
from ..net.client import NetworkSession
from ..net.protocol import DEFAULT_PORT
from ..reach.seat import PASSWORD_ENV
from . import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "target",
        metavar="HOST[:PORT]",
        nargs="?",
        default=None,
        help=_(
            "the host (default port {DEFAULT_PORT}); without it, look for "
            "tables announced on the LAN and offer them"
        ).format(DEFAULT_PORT=DEFAULT_PORT),
    )
    options.add_name(parser)
    parser.add_argument(
        "--bot",
        choices=LEVELS,
        metavar="LEVEL",
        help=_(
            "play headless as a bot ({levels}); exits 0 when the game ends "
            "with every round verified"
        ).format(levels=", ".join(LEVELS)),
    )
    records = parser.add_mutually_exclusive_group()
    records.add_argument(
        "--records",
        type=Path,
        metavar="DIR",
        help=_(
            "where to write your own record of the game, after every round "
            "(default: the user data directory's 'joined' folder)"
        ),
    )
    records.add_argument(
        "--no-records", action="store_true", help=_("keep your record of the game in memory only")
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help=_(
            "watch the game without a seat: public information only (bids, "
            "played cards, tricks, scores, chat), never a hand"
        ),
    )
    options.add_password(parser, host=False)
    options.add_table_looks(parser)


def run(args: argparse.Namespace) -> int:
    if args.watch and args.bot:
        raise UserError(_("--watch and --bot do not go together: a watcher plays no seat"))
    if args.target is None:
        from .find_table import find_table

        table = find_table()
        host, port = table.address, table.port
        if table.password and args.password is None:
            args.password_prompt = True  # it says it asks for one: ask for it now
    else:
        try:
            host, port = parse_target(args.target, DEFAULT_PORT)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    # A seat the host's SSH or web server starts gets the room password this way, not in argv.
    password = options.room_password(args) or os.environ.get(PASSWORD_ENV) or None
    if args.bot:
        return asyncio.run(_run_bot(host, port, args, password))
    from ..launch import run_joined_table

    return run_joined_table(host, port, args=args, password=password)


async def _run_bot(host: str, port: int, args: argparse.Namespace, password: str | None) -> int:
    from ..launch import claim_player, connect_session, joined_records, player_keys, player_signing

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    slot = claim_player()  # keys of this program's own, even beside another of this account
    identity, known_hosts = player_keys(slot)
    signing_key, secret_store = player_signing(slot)
    session = NetworkSession(
        host,
        port,
        name=args.name,
        identity=identity,
        known_hosts=known_hosts,
        password=password,
        signing_key=signing_key,
        secret_store=secret_store,
        records_dir=joined_records(args),
    )
    await connect_session(session, host, port)
    print(
        _("joined {host}:{port} as {name} (seat {seat})").format(
            host=host, port=port, name=args.name, seat=session.seat
        ),
        flush=True,
    )
    print(session.host_key_notice(), flush=True)
    return await play_as_bot(session, make_bot(args.bot, random.Random()))

"""Wiring for the interactive commands: a host and/or a network session, then the table.

``play`` and ``host`` run a Wizard host in this process and connect this player's
table to it over loopback, exactly as a friend's table connects over the LAN: one
path for solo and LAN games. ``join`` connects to someone else's host.
"""

from __future__ import annotations

import argparse
import asyncio

from netplay.errors import ServerError

from .cli import UserError
from .game import RestrictLastBid
from .net.addresses import WILDCARDS
from .net.client import NetworkSession
from .net.host import HostOptions
from .net.hosting import hosting
from .paths import default_records_dir


def _table_options(args: argparse.Namespace) -> dict[str, object]:
    return {"name": args.name, "ascii": args.ascii, "bell": args.bell}


async def _connect(host: str, port: int, name: str, host_key: str | None = None) -> NetworkSession:
    session = NetworkSession(host, port, name=name, host_key=host_key)
    try:
        await session.connect()
    except ServerError as exc:
        raise UserError(f"the host said no: {exc.message}") from None
    except (OSError, TimeoutError) as exc:
        raise UserError(f"cannot reach {host}:{port}: {exc}") from None
    return session


async def _hosted_table(
    options: HostOptions, bind: str, port: int, args: argparse.Namespace
) -> int:
    from .ui.app import run_table_async

    try:
        async with hosting(options, bind=bind, port=port) as host:
            local = "127.0.0.1" if bind in WILDCARDS else bind
            session = await _connect(local, options.port, args.name, host.host_key)
            return await run_table_async(session, **_table_options(args))  # type: ignore[arg-type]
    except OSError as exc:
        raise UserError(str(exc)) from None


def run_solo_table(args: argparse.Namespace) -> int:
    """A game against ``players - 1`` bots on a loopback-only host."""
    options = HostOptions(
        players=args.players,
        bots=args.players - 1,
        bot_level=args.bot_level,
        restrict_last_bid=RestrictLastBid(args.restrict_last_bid or "never"),
        records_dir=default_records_dir(),
        bot_delay=args.bot_delay,
        auto_start=True,
    )
    return asyncio.run(_hosted_table(options, "127.0.0.1", 0, args))


def run_hosted_table(
    options: HostOptions, *, bind: str, port: int, args: argparse.Namespace
) -> int:
    """Host on the LAN and sit at the table; the lobby starts the game."""
    return asyncio.run(_hosted_table(options, bind, port, args))


def run_joined_table(host: str, port: int, *, args: argparse.Namespace) -> int:
    from .ui.app import run_table_async

    async def main() -> int:
        session = await _connect(host, port, args.name)
        return await run_table_async(session, **_table_options(args))  # type: ignore[arg-type]

    return asyncio.run(main())

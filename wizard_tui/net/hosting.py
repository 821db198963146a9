"""Starting a Wizard host: a netplay server on an address, with a ``WizardHost`` behind it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from netplay import Limits, Server

from . import protocol as p
from .addresses import lan_addresses
from .host import HostOptions, WizardHost


@contextlib.asynccontextmanager
async def hosting(
    options: HostOptions, *, bind: str, port: int, limits: Limits = p.LIMITS
) -> AsyncIterator[WizardHost]:
    """Run a host for the duration of the ``async with`` block; it closes cleanly after."""
    host = WizardHost(options)
    server = Server(
        host, protocol=p.PROTOCOL, version=p.VERSION, host=bind, port=port, limits=limits
    )
    host.server = server
    try:
        await server.start()
    except OSError as exc:
        raise OSError(f"cannot listen on {bind or '*'}:{port}: {exc.strerror or exc}") from exc
    options.port = server.port
    if not options.addresses:
        options.addresses = tuple(lan_addresses(bind))
    try:
        yield host
    finally:
        await host.close()
        await server.close()


async def wait_for_game(host: WizardHost, *, give_up_after: float | None = None) -> bool:
    """Wait until the game ends; False if a bot failed or the table stayed broken too long."""
    while True:
        try:
            await asyncio.wait_for(host.finished.wait(), timeout=5.0)
        except TimeoutError:
            if give_up_after is not None and host.stalled_for() > give_up_after:
                host.failed = f"a seat has been disconnected for over {give_up_after:g} s"
                return False
            continue
        return host.failed is None

"""Starting a Wizard host: a netplay server on an address, with a ``WizardHost`` behind it.

Every connection to it is encrypted (Noise XX). ``identity`` is the host's static key,
loaded from the user's data directory by the commands, so players can pin it; its
fingerprint is ``host.server.fingerprint``. ``password`` is the optional room password.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator

from netplay import Limits, Server, StaticIdentity

from ..i18n import _
from . import protocol as p
from .addresses import lan_addresses
from .host import HostOptions
from .host_adapter import WizardHost
from .journal import JournalContents


@contextlib.asynccontextmanager
async def hosting(
    options: HostOptions,
    *,
    bind: str,
    port: int,
    limits: Limits = p.LIMITS,
    identity: StaticIdentity | None = None,
    password: str | None = None,
    resume: JournalContents | None = None,
    rng: random.Random | None = None,
) -> AsyncIterator[WizardHost]:
    """Run a host for the duration of the ``async with`` block; it closes cleanly after.

    ``resume``: a journal to carry on from (``WizardHost.from_journal``) instead of a new lobby.
    ``rng``: the host's randomness (the first dealer, its bots); the system's if None.
    """
    options.bind, options.password = bind, password is not None  # for the journal
    if resume is None:
        host = WizardHost(options, rng=rng)
    else:
        host = WizardHost.from_journal(resume, options, rng=rng)
    server = Server(
        host,
        protocol=p.PROTOCOL,
        version=p.VERSION,
        host=bind,
        port=port,
        limits=limits,
        identity=identity,
        password=password,
    )
    host.server = server
    if resume is not None:
        host.adopt_sessions()  # the players' clients resume as if the host never left
    try:
        await server.start()
    except OSError as exc:
        said = _("cannot listen on {address}:{port}: {error}")
        error = exc.strerror or exc
        raise OSError(said.format(address=bind or "*", port=port, error=error)) from exc
    options.port = server.port
    if not options.addresses:
        options.addresses = tuple(lan_addresses(bind))
    if resume is not None:
        host.resume_play()
    try:
        yield host
    finally:
        # A game stopped before its end can be resumed: players keep reconnecting meanwhile.
        resumable = host.journal is not None and host.table is not None and not host.table.finished
        await server.close(bye=not resumable)
        await host.close()  # after the server's last words: a finished journal is sealed


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
        if host.failed is None:
            await host.farewell()  # players reconnecting to a restarted host hear the end
        return host.failed is None

"""Finding a table on the LAN: DNS-SD (mDNS) through python-zeroconf.

The host announces ``<instance>._wizard-tui._tcp.local.`` with a TXT record (protocol and
version, seats taken/total, whether a room password is asked, the host key's fingerprint);
``wizard-tui join`` without an address browses for a few seconds. What is found is only a
hint: TXT records are not authenticated, so the Noise handshake and the known-hosts pin
still decide who the host is, and a stale entry (a host that crashed without a goodbye)
just fails to connect.

Nothing is announced for a host bound to a loopback address, nor when the environment
has ``WIZARD_TUI_NO_ANNOUNCE=1`` (the test suite sets it: tests never send multicast
outside a network namespace they made).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..i18n import _

if TYPE_CHECKING:  # imported where used: a program that never announces never loads them
    from zeroconf import ServiceInfo
    from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

log = logging.getLogger(__name__)

SERVICE_TYPE = "_wizard-tui._tcp.local."
NO_ANNOUNCE_ENV = "WIZARD_TUI_NO_ANNOUNCE"
DEFAULT_BROWSE_SECONDS = 3.0
SEAT_POLL_SECONDS = 1.0
INSTANCE_LIMIT = 63  # DNS label bytes


@dataclass(frozen=True)
class Table:
    """One announced table, as found: every field is the announcer's say-so."""

    instance: str
    addresses: tuple[str, ...]
    port: int
    protocol: str
    version: int | None
    seats: str
    password: bool
    fingerprint: str

    @property
    def address(self) -> str:
        return self.addresses[0]

    def describe(self) -> str:
        if self.password:
            said = _("{name} at {address}:{port} ({seats} seats taken, room password)")
        else:
            said = _("{name} at {address}:{port} ({seats} seats taken)")
        return said.format(
            name=self.instance, address=self.address, port=self.port, seats=self.seats
        )


def announcing_allowed(bind: str) -> bool:
    if os.environ.get(NO_ANNOUNCE_ENV, "") not in ("", "0"):
        return False
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(bind).is_loopback:
            return False  # nobody on the LAN could reach it anyway
    return True


def instance_name(player: str, fingerprint: str, hostname: str | None = None) -> str:
    """``Ann's table on kitchen-pc (ABCD)``: the host name and a fingerprint prefix keep
    two tables in one house (or on one machine) apart."""
    host = (hostname or socket.gethostname()).split(".")[0] or "host"
    tail = f" on {host} ({fingerprint.replace('-', '')[:4]})"
    head = f"{player}'s table"
    while len((head + tail).encode()) > INSTANCE_LIMIT and head:
        head = head[:-1]
    return (head + tail).replace(".", " ")[:INSTANCE_LIMIT]


def txt_record(
    *, protocol: str, version: int, seats: tuple[int, int], password: bool, fingerprint: str
) -> dict[str, str]:
    return {
        "proto": protocol,
        "v": str(version),
        "seats": f"{seats[0]}/{seats[1]}",
        "pw": "1" if password else "0",
        "fp": fingerprint,
    }


class Announcer:
    """The host's announcement: registered, updated as seats fill, withdrawn at the end."""

    def __init__(self, *, instance: str, port: int, addresses: tuple[str, ...], bind: str) -> None:
        self.instance = instance
        self.port = port
        self.addresses = addresses
        self.bind = bind
        self.aiozc: AsyncZeroconf | None = None
        self.info: AsyncServiceInfo | None = None

    def _info(self, txt: dict[str, str]) -> AsyncServiceInfo:
        from zeroconf.asyncio import AsyncServiceInfo

        return AsyncServiceInfo(
            SERVICE_TYPE,
            f"{self.instance}.{SERVICE_TYPE}",
            port=self.port,
            properties=txt,
            parsed_addresses=list(self.addresses),
            server=f"{socket.gethostname().split('.')[0] or 'wizard-tui'}.local.",
        )

    async def start(self, txt: dict[str, str]) -> None:
        from zeroconf import InterfaceChoice, IPVersion
        from zeroconf.asyncio import AsyncZeroconf

        interfaces = InterfaceChoice.All if self.bind in ("", "0.0.0.0") else [self.bind]
        aiozc = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        self.aiozc = aiozc
        info = self._info(txt)
        # Both awaits: the first queues the registration, the second waits for probing
        # to finish (a single await returns early, and the goodbye is then never sent).
        await (await aiozc.async_register_service(info, allow_name_change=True))
        self.info = info

    async def update(self, txt: dict[str, str]) -> None:
        if self.aiozc is None or self.info is None:
            return
        info = self._info(txt)
        info.name = self.info.name  # after any name change
        await (await self.aiozc.async_update_service(info))
        self.info = info

    async def close(self) -> None:
        aiozc, info = self.aiozc, self.info
        self.aiozc = self.info = None
        if aiozc is None:
            return
        with contextlib.suppress(Exception):
            if info is not None:
                await (await aiozc.async_unregister_service(info))
        with contextlib.suppress(Exception):
            await aiozc.async_close()


@contextlib.asynccontextmanager
async def announcing(
    *,
    instance: str,
    port: int,
    addresses: tuple[str, ...],
    bind: str,
    txt: Callable[[], dict[str, str]],
) -> AsyncIterator[str | None]:
    """Announce while the block runs, re-announcing when ``txt()`` changes. Yields a line
    for the lobby: the instance name, or why the table is not announced. Never raises for
    the network's sake: a table that cannot announce is still joined by its address."""
    announcer = Announcer(instance=instance, port=port, addresses=addresses, bind=bind)
    try:
        current = txt()
        await announcer.start(current)
    except Exception as exc:  # port 5353 taken, no multicast route, a name clash...
        log.warning("not announced on the LAN: %s", exc)
        await announcer.close()
        yield _("not announced on the LAN ({why}): friends type the address").format(
            why=exc.__class__.__name__
        )
        return

    async def follow() -> None:
        nonlocal current
        while True:
            await asyncio.sleep(SEAT_POLL_SECONDS)
            now = txt()
            if now != current:
                current = now
                with contextlib.suppress(Exception):
                    await announcer.update(now)

    assert announcer.info is not None  # start() registered it
    follower = asyncio.create_task(follow())
    try:
        name = announcer.info.name.split("._")[0]
        yield _("announced on the LAN as {name}").format(name=repr(name))
    finally:
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower
        await announcer.close()


def _table_from(info: ServiceInfo) -> Table | None:
    props = {
        (k.decode(errors="replace") if isinstance(k, bytes) else str(k)): (
            v.decode(errors="replace") if isinstance(v, bytes) else ""
        )
        for k, v in (getattr(info, "properties", None) or {}).items()
    }
    addresses = tuple(info.parsed_addresses())
    port = getattr(info, "port", None)
    if not addresses or not isinstance(port, int) or not 0 < port < 65536:
        return None
    name = str(getattr(info, "name", ""))
    version = props.get("v", "")
    return Table(
        instance=name.removesuffix("." + SERVICE_TYPE)[:INSTANCE_LIMIT],
        addresses=addresses,
        port=port,
        protocol=props.get("proto", "")[:32],
        version=int(version) if version.isdigit() else None,
        seats=props.get("seats", "?")[:8],
        password=props.get("pw") == "1",
        fingerprint=props.get("fp", "")[:32],
    )


async def browse(seconds: float = DEFAULT_BROWSE_SECONDS) -> list[Table]:
    """The tables announced on the LAN within ``seconds``, by instance name."""
    from zeroconf import IPVersion, ServiceStateChange
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

    aiozc = AsyncZeroconf(ip_version=IPVersion.V4Only)
    found: dict[str, Table] = {}
    gone: set[str] = set()
    tasks: set[asyncio.Task[None]] = set()

    async def resolve(name: str) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if await info.async_request(aiozc.zeroconf, 1500) and name not in gone:
            table = _table_from(info)
            if table is not None:
                found[name] = table

    def changed(zeroconf: object, service_type: str, name: str, state_change: object) -> None:
        if state_change is ServiceStateChange.Removed:
            gone.add(name)
            found.pop(name, None)
            return
        gone.discard(name)
        task = asyncio.ensure_future(resolve(name))
        tasks.add(task)  # a reference, or the task may be collected mid-flight
        task.add_done_callback(tasks.discard)

    browser = AsyncServiceBrowser(aiozc.zeroconf, [SERVICE_TYPE], handlers=[changed])
    try:
        await asyncio.sleep(seconds)
        if tasks:
            await asyncio.wait(set(tasks), timeout=2.0)
    finally:
        await browser.async_cancel()
        await aiozc.async_close()
    return sorted(found.values(), key=lambda t: t.instance)

"""What friends should type to join: the LAN addresses, found without sending anything."""

from __future__ import annotations

import ipaddress
import socket

from ..i18n import _

WILDCARDS = ("", "0.0.0.0", "::")


def lan_addresses(bind: str) -> list[str]:
    """The addresses a host bound to ``bind`` can be reached at, LAN ones first.

    Only local lookups: no packet leaves the machine to find out.
    """
    if bind not in WILDCARDS:
        return [bind]
    # The interfaces themselves first: the host name often maps to a loopback address
    # (127.0.1.1 in /etc/hosts on Debian and Ubuntu), which no friend can type.
    found: set[str] = set(interface_addresses())
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, proto=socket.IPPROTO_TCP):
            found.add(str(info[4][0]))
    except OSError:
        pass
    usable = []
    for text in found:
        try:
            addr = ipaddress.ip_address(text.split("%")[0])
        except ValueError:
            continue
        if bind == "0.0.0.0" and addr.version != 4:
            continue
        if not (addr.is_loopback or addr.is_link_local or addr.is_unspecified):
            usable.append(text)
    usable.sort(key=lambda a: (":" in a, a))
    return usable or ["127.0.0.1"]


def interface_addresses() -> list[str]:
    """Every address of this machine's network interfaces (read locally, by ``ifaddr``)."""
    try:
        import ifaddr
    except ImportError:  # pragma: no cover - a declared dependency
        return []
    found = []
    try:
        adapters = ifaddr.get_adapters()
    except OSError:
        return []
    for adapter in adapters:
        for ip in adapter.ips:
            if isinstance(ip.ip, tuple):  # IPv6: (address, flowinfo, scope id)
                found.append(str(ip.ip[0]))
            else:
                found.append(str(ip.ip))
    return found


def join_hint(address: str, port: int, default_port: int) -> str:
    shown = f"[{address}]" if ":" in address else address
    return shown if port == default_port else f"{shown}:{port}"


def parse_target(text: str, default_port: int) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT``, ``[v6]`` or ``[v6]:PORT`` into (host, port)."""
    text = text.strip()
    if text.startswith("["):
        host, _bracket, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _colon, port_text = text.partition(":")
    else:
        host, port_text = text, ""
    if not host:
        raise ValueError(_("no host in {text!r}").format(text=text))
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(_("not a port number: {text!r}").format(text=port_text))
    return host, int(port_text)

"""No one can hold the door: a half-open connection does not lock its player out, and one
address cannot hold every handshake slot (issue 12 items 5 and 11).

* A program restarted with the same static key while the server still holds its old
  connection (the peer asleep or killed without a FIN: the old link is open and silent)
  takes its session back: the old connection gets a ping, says nothing within
  ``probe_timeout``, and is replaced. A twin that answers is another running program with
  the same key and joins as a new player, as before.
* Connections still shaking hands are capped per source address
  (``max_handshaking_per_address``): one machine that opens connections and never finishes
  them (a slowloris) leaves the other slots to everyone else. 127.0.0.X are all loopback
  addresses on Linux, so a client socket bound to 127.0.0.2 is "another machine".

Every socket is on the loopback network.
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from netplay_helpers import FAST, PROTOCOL, VERSION, Proxy, RawPeer, RecordingApp, wait_until

import netplay.client
from netplay import Client, Limits, Server, StaticIdentity
from netplay.errors import ProtocolError
from netplay.link import PushReader
from netplay.pake import GuessLimiter

# Long link timeouts: the server must not notice the frozen link by itself (as with a laptop
# that slept for less than the idle timeout), only through the probe.
SLOW_IDLE = dataclasses.replace(
    FAST, idle_timeout=30.0, ping_interval=10.0, probe_timeout=0.3, handshake_timeout=2.0
)


@pytest.fixture
async def slow_server() -> tuple[Server, RecordingApp]:
    app = RecordingApp()
    srv = Server(app, protocol=PROTOCOL, version=VERSION, host="127.0.0.1", limits=SLOW_IDLE)
    app.server = srv
    await srv.start()
    yield srv, app
    await srv.close()


def _client(port: int, name: str, identity: StaticIdentity, **kwargs: object) -> Client:
    return Client(
        "127.0.0.1",
        port,
        protocol=PROTOCOL,
        version=VERSION,
        name=name,
        identity=identity,
        limits=SLOW_IDLE,
        **kwargs,  # type: ignore[arg-type]
    )


async def test_a_restart_takes_over_a_half_open_connection(slow_server) -> None:
    server, app = slow_server
    ann = StaticIdentity.generate()
    proxy = Proxy(server.port)
    port = await proxy.start()
    first = _client(port, "Ann", ann)
    clients = [first]
    try:
        welcome = await first.connect()
        [session] = app.names("join")
        proxy.frozen = True  # the old link stays open and silent both ways (no FIN)
        restarted = _client(server.port, "Ann", ann)  # a new run: same key, no token
        clients.append(restarted)
        async with asyncio.timeout(5):
            back = await restarted.connect()
        assert back["resumed"] is True and back["session"] == welcome["session"]
        assert app.names("resume") == [session] and session.connected
        assert app.names("disconnect") == [session]  # the stale link was let go first
        assert len(app.names("join")) == 1  # never a new player, never refused
    finally:
        for client in clients:
            await client.close()
        await proxy.close()


async def test_a_live_twin_with_the_same_key_still_joins_as_a_new_player(slow_server) -> None:
    server, app = slow_server
    ann = StaticIdentity.generate()
    first = _client(server.port, "Ann", ann)
    twin = _client(server.port, "Ann again", ann)
    try:
        welcome = await first.connect()
        other = await twin.connect()  # the first connection answers the probe
        assert other["resumed"] is False and other["session"] != welcome["session"]
        assert first.state == "connected"
        assert not app.names("disconnect") and not app.names("resume")
    finally:
        await twin.close()
        await first.close()


async def _loopback_peer(port: int, source: str) -> RawPeer:
    return await RawPeer.connect(port, local_addr=(source, 0))


async def test_one_address_cannot_hold_every_handshake_slot() -> None:
    limits = dataclasses.replace(
        FAST, max_handshaking=4, max_handshaking_per_address=2, handshake_timeout=5.0
    )
    app = RecordingApp()
    server = Server(app, protocol=PROTOCOL, version=VERSION, host="127.0.0.1", limits=limits)
    app.server = server
    await server.start()
    peers: list[RawPeer] = []
    try:
        # One machine opens connections and never shakes hands: only two are kept.
        for _ in range(2):
            peers.append(await _loopback_peer(server.port, "127.0.0.2"))
        await wait_until(lambda: server.connections == 2)
        third = await _loopback_peer(server.port, "127.0.0.2")
        peers.append(third)
        async with asyncio.timeout(1.0):  # closed at once, unread
            assert await third.closed_by_peer(timeout=1.0)
        # Everyone else still gets in, well inside the lurkers' handshake deadline.
        async with asyncio.timeout(2.0):
            for name in ("Ann", "Bob"):
                client = Client(
                    "127.0.0.1",
                    server.port,
                    protocol=PROTOCOL,
                    version=VERSION,
                    name=name,
                    limits=limits,
                )
                assert (await client.connect())["resumed"] is False
                await client.close()
        assert [s.name for s in app.names("join")] == ["Ann", "Bob"]
        # And another machine gets the slots the first one could not take.
        for _ in range(2):
            peers.append(await _loopback_peer(server.port, "127.0.0.3"))
        await wait_until(lambda: server.connections >= 4)
    finally:
        for peer in peers:
            await peer.close()
        await server.close()


def test_the_per_address_cap_and_the_probe_are_limits_with_defaults() -> None:
    assert Limits().max_handshaking_per_address == 3 < Limits().max_handshaking
    assert Limits().probe_timeout == 2.0
    with pytest.raises(ValueError):
        Limits(max_handshaking_per_address=0)
    with pytest.raises(ValueError):
        Limits(probe_timeout=0)


# -- issue 21 item 6: password guesses per table as well as per address ----------------------

PASSWORD = "correct horse"


def _connect_from(source: str):
    """``netplay.link.open_connection`` with the client's socket bound to ``source``."""

    async def open_connection(host: str, port: int) -> tuple[PushReader, asyncio.StreamWriter]:
        loop = asyncio.get_running_loop()
        reader = PushReader(loop=loop)
        protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
        transport, _ = await loop.create_connection(
            lambda: protocol, host, port, local_addr=(source, 0)
        )
        return reader, asyncio.StreamWriter(transport, protocol, reader, loop)

    return open_connection


async def _guess(
    monkeypatch: pytest.MonkeyPatch, port: int, source: str, password: str, **kwargs: object
) -> str:
    """One connection from ``source`` with ``password``: "in", or why it failed."""
    monkeypatch.setattr(netplay.client, "open_connection", _connect_from(source))
    client = Client(
        "127.0.0.1",
        port,
        protocol=PROTOCOL,
        version=VERSION,
        name="guess",
        limits=FAST,
        password=password,
        **kwargs,  # type: ignore[arg-type]
    )
    try:
        await client.connect()
        return "in"
    except ProtocolError as exc:
        return exc.code
    except OSError:
        return "closed"  # refused before any password work: closed unanswered
    finally:
        await client.close()


async def _password_server(limiter: GuessLimiter) -> tuple[Server, RecordingApp]:
    app = RecordingApp()
    server = Server(
        app,
        protocol=PROTOCOL,
        version=VERSION,
        host="127.0.0.1",
        limits=FAST,
        password=PASSWORD,
        guess_limiter=limiter,
    )
    app.server = server
    await server.start()
    return server, app


async def test_rotating_source_addresses_meet_the_table_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server, app = await _password_server(GuessLimiter(table_burst=5, table_rate=0.01))
    try:
        outcomes = [
            await _guess(monkeypatch, server.port, f"127.0.0.{i + 2}", "wrong") for i in range(12)
        ]
        assert outcomes[:5] == ["bad_password"] * 5  # one guess per address, the table's 5
        assert outcomes[5:] == ["closed"] * 7  # then nobody new gets another guess
        assert not app.names("join")
    finally:
        await server.close()


async def test_a_shared_address_does_not_lock_the_real_player_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Someone behind the player's address (one machine, one NAT) guesses three times wrong:
    # the player's program, which proved the password before, still gets in at once, and a
    # newcomer there only waits out a short backoff, then gets in with the right password.
    server, app = await _password_server(GuessLimiter(max_failures=3, backoff=0.2))
    player = StaticIdentity.generate()

    async def guess(password: str, **kwargs: object) -> str:
        return await _guess(monkeypatch, server.port, "127.0.0.7", password, **kwargs)

    try:
        assert await guess(PASSWORD, identity=player) == "in"
        for _ in range(3):
            assert await guess("wrong") == "bad_password"
        assert await guess(PASSWORD) == "closed"  # a new key there backs off...
        assert await guess(PASSWORD, identity=player) == "in"  # ...the player's never does
        async with asyncio.timeout(5):
            while await guess(PASSWORD) != "in":  # and the backoff is short, not a lockout
                await asyncio.sleep(0.05)
        assert len(app.names("join")) == 2 and len(app.names("resume")) == 1
    finally:
        await server.close()

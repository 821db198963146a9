"""The client over real loopback sockets: heartbeats, reconnects, resumes, endings."""

from __future__ import annotations

import asyncio
import dataclasses
import socket

import pytest
from netplay_helpers import FAST, PROTOCOL, VERSION, Proxy, wait_until

from netplay import Client, LinkState

pytestmark = pytest.mark.filterwarnings("error")


def states(events) -> list[str]:
    return [s.state for s in events.states()]


async def test_a_cut_link_is_resumed_with_the_same_session_and_seat(
    server, app, proxy, make_client, collect
):
    await make_client("Ann").connect()  # seat 0, directly
    bob = make_client("Bob", port=proxy.port)
    first = await bob.connect()
    events = collect(bob)
    assert first["seat"] == 1

    proxy.cut()
    await wait_until(lambda: len(events.messages("welcome")) == 2)
    await wait_until(lambda: events.messages("snapshot"))
    again = events.messages("welcome")[1]
    assert again["resumed"] is True
    assert (again["session"], again["token"], again["seat"]) == (
        first["session"],
        first["token"],
        1,
    )
    assert states(events)[:3] == ["connected", "reconnecting", "connected"]
    # The snapshot the app sends from on_resume comes right after the welcome.
    items = [e["t"] if isinstance(e, dict) else e.state for e in events.items]
    assert items[-2:] == ["welcome", "snapshot"]
    assert events.messages("snapshot") == [{"t": "snapshot", "seat": 1}]
    [resumed] = app.names("resume")
    assert resumed.id == first["session"] and resumed.seat == 1 and resumed.connected
    assert len(server.sessions) == 2
    bob.send({"t": "echo", "n": 5})
    await wait_until(lambda: events.messages("echoed"))


async def test_a_dead_network_is_noticed_by_both_sides_and_recovered(
    server, app, proxy, make_client, collect
):
    client = make_client("Ann", port=proxy.port)
    await client.connect()
    events = collect(client)
    proxy.frozen = True  # both ends stay open but hear nothing
    await wait_until(lambda: "reconnecting" in states(events))
    assert events.states()[1].code == "idle_timeout"
    await wait_until(lambda: app.names("disconnect"))
    assert app.names("disconnect")[0].reason == "idle_timeout"
    assert client.send({"t": "echo"}) is False  # nothing is kept while the link is down

    proxy.frozen = False
    await wait_until(lambda: states(events)[-1] == "connected")
    assert events.messages("welcome")[-1]["resumed"] is True
    assert len(app.names("resume")) == 1


async def test_the_client_answers_pings_and_stays_connected(server, app, make_client, collect):
    client = make_client()
    await client.connect()
    events = collect(client)
    # Nothing but heartbeats for three idle timeouts: neither side may give up.
    await asyncio.sleep(3 * FAST.idle_timeout)
    assert states(events) == ["connected"]
    assert not app.names("disconnect")
    assert client.state == "connected"


async def test_a_newer_connection_with_the_token_replaces_the_old(
    server, app, make_client, collect
):
    old = make_client("Ann")
    welcome = await old.connect()
    old_events = collect(old)
    # The same player (same static key) on a second connection, with the token.
    new = make_client("Ann again", token=welcome["token"], identity=old.identity)
    again = await new.connect()
    assert again["resumed"] is True and again["session"] == welcome["session"]
    await wait_until(lambda: old_events.ended)
    assert old_events.states()[-1] == LinkState(
        "closed", "your seat was taken over by a newer connection", "replaced"
    )
    [session] = app.names("join")
    assert app.names("disconnect") == [session] and app.names("resume") == [session]
    assert session.connected and session.name == "Ann"


async def test_close_says_bye(server, app, make_client, collect):
    client = make_client()
    await client.connect()
    events = collect(client)
    await client.close()
    await wait_until(lambda: events.ended and app.names("disconnect"))
    assert events.states()[-1] == LinkState("closed", "you left the game")
    assert app.names("disconnect")[0].reason == "bye"
    assert client.send({"t": "echo"}) is False


async def test_server_shutdown_ends_the_client_without_reconnecting(app, collect):
    from netplay import Server

    srv = Server(app, protocol=PROTOCOL, version=VERSION, host="127.0.0.1", limits=FAST)
    app.server = srv
    await srv.start()
    client = Client(
        "127.0.0.1", srv.port, protocol=PROTOCOL, version=VERSION, name="A", limits=FAST
    )
    await client.connect()
    events = collect(client)
    await srv.close()
    await wait_until(lambda: events.ended)
    assert events.states() == [
        LinkState("connected", f"connected to 127.0.0.1:{client.port}"),
        LinkState("closed", "the host closed the game"),
    ]
    await client.close()


async def test_without_reconnect_a_lost_link_ends_the_client(server, proxy, make_client, collect):
    client = make_client(port=proxy.port, reconnect=False)
    await client.connect()
    events = collect(client)
    proxy.cut()
    await wait_until(lambda: events.ended)
    assert states(events) == ["connected", "closed"]
    assert proxy.connections == 1


async def test_the_client_gives_up_on_a_host_that_is_gone(server, app, collect):
    relay = Proxy(server.port)
    port = await relay.start()
    limits = dataclasses.replace(FAST, reconnect_give_up=0.2)
    client = Client("127.0.0.1", port, protocol=PROTOCOL, version=VERSION, name="A", limits=limits)
    await client.connect()
    events = collect(client)
    await relay.close()  # the host's address stops answering altogether
    await wait_until(lambda: events.ended)
    assert states(events) == ["connected", "reconnecting", "closed"]
    assert events.states()[-1].detail.startswith("gave up reconnecting after 0.2 s")
    await client.close()


async def test_connecting_to_nothing_raises():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, never listening: connections are refused
        client = Client("127.0.0.1", port, protocol=PROTOCOL, version=VERSION, name="A")
        with pytest.raises(OSError):
            await client.connect()
    assert client.state == "closed"

"""Fixtures for netplay's tests; the helpers they use live in netplay_helpers.py."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from netplay_helpers import FAST, PROTOCOL, VERSION, Events, Proxy, RawPeer, RecordingApp

from netplay import Client, Server


@pytest.fixture
def app() -> RecordingApp:
    return RecordingApp()


@pytest.fixture
async def server(app: RecordingApp) -> AsyncIterator[Server]:
    srv = Server(app, protocol=PROTOCOL, version=VERSION, host="127.0.0.1", port=0, limits=FAST)
    app.server = srv
    await srv.start()
    yield srv
    await srv.close()


@pytest.fixture
async def make_client(server: Server) -> AsyncIterator[Callable[..., Client]]:
    """A factory of clients of ``server``; every one is closed at the end."""
    clients: list[Client] = []

    def make(name: str = "ann", **kwargs: Any) -> Client:
        kwargs.setdefault("protocol", PROTOCOL)
        kwargs.setdefault("version", VERSION)
        kwargs.setdefault("limits", FAST)
        port = kwargs.pop("port", server.port)
        client = Client("127.0.0.1", port, name=name, **kwargs)
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.close()


@pytest.fixture
async def collect() -> AsyncIterator[Callable[[Client], Events]]:
    made: list[Events] = []

    def start(client: Client) -> Events:
        events = Events(client)
        made.append(events)
        return events

    yield start
    for events in made:
        await events.stop()


@pytest.fixture
async def raw_peers() -> AsyncIterator[list[RawPeer]]:
    """Raw peers opened in a test are appended here and closed at the end."""
    peers: list[RawPeer] = []
    yield peers
    for peer in peers:
        await peer.close()


@pytest.fixture
async def proxy(server: Server) -> AsyncIterator[Proxy]:
    relay = Proxy(server.port)
    relay.port = await relay.start()  # type: ignore[attr-defined]
    yield relay
    await relay.close()

"""The receive and send paths without task hops: frames written at once while the peer
keeps up, the outbox bound per turn of the loop, bytes pushed to the client as they
arrive, and a client that hands its events to a handler instead of a queue."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from netplay_helpers import FAST, wait_until

from netplay import LinkState
from netplay.connection import ClientConnection
from netplay.framing import FrameDecoder
from netplay.link import Link, open_connection

pytestmark = pytest.mark.filterwarnings("error")


# -- a bare link to a peer we read by hand -----------------------------------------------


class Pair:
    """A ``Link`` (plain frames) to a TCP peer whose reading the test controls."""

    def __init__(self) -> None:
        self.link: Link | None = None
        self.peer: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.server: asyncio.Server | None = None

    async def open(self, limits: Any = FAST, *, peer_rcvbuf: int | None = None) -> Link:
        accepted: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.server = await asyncio.start_server(
            lambda r, w: accepted.set_result((r, w)), "127.0.0.1", 0
        )
        port = self.server.sockets[0].getsockname()[1]
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if peer_rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, peer_rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        self.peer = await asyncio.open_connection(sock=sock, limit=1024)
        reader, writer = await accepted
        if peer_rcvbuf is not None:  # and a small send buffer on our side, to fill soon
            writer.get_extra_info("socket").setsockopt(
                socket.SOL_SOCKET, socket.SO_SNDBUF, peer_rcvbuf
            )
        self.link = Link(reader, writer, ClientConnection(limits), limits)
        return self.link

    async def read_all(self, count: int) -> list[dict[str, Any]]:
        assert self.peer is not None
        decoder, messages = FrameDecoder(), []
        async with asyncio.timeout(5.0):
            while len(messages) < count:
                data = await self.peer[0].read(65536)
                assert data, "the link closed early"
                messages += decoder.feed(data)
        return messages

    async def close(self) -> None:
        if self.link is not None:
            await self.link.close()
        if self.peer is not None:
            self.peer[1].close()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


@pytest.fixture
async def pair() -> AsyncIterator[Pair]:
    made = Pair()
    yield made
    await made.close()


def payload(n: int, pad: int = 0) -> bytes:
    from netplay.framing import encode_payload

    return encode_payload({"t": "n", "n": n, "pad": "x" * pad})


async def test_a_peer_that_keeps_up_gets_each_frame_at_once(pair):
    link = await pair.open()
    assert link.send(payload(1))
    # Written in the sender's turn of the loop: nothing waits in the outbox.
    assert link.queued == 0
    assert [m["n"] for m in await pair.read_all(1)] == [1]


async def test_frames_written_at_once_and_queued_keep_their_order(pair):
    link = await pair.open(dataclasses.replace(FAST, send_queue=64), peer_rcvbuf=4096)
    frames = 96
    received = asyncio.create_task(pair.read_all(frames))
    # Small buffers and big frames: some are written at once, the rest wait in the outbox
    # for the writer task, and the peer must get them all in the order they were sent.
    queued = 0
    for n in range(frames):
        sent = link.send(payload(n, pad=4000))
        assert sent, f"cut at frame {n}"
        queued = max(queued, link.queued)
        while link.queued > 16:  # let the peer catch up a little
            await asyncio.sleep(0.001)
    assert queued > 0
    assert [m["n"] for m in await received] == list(range(frames))


async def test_the_frames_after_the_first_of_a_turn_go_out_together(pair):
    link = await pair.open()
    for n in range(4):
        assert link.send(payload(n))
    assert link.queued == 3  # the first went at once; the writer task has the rest
    await asyncio.sleep(0)
    assert link.queued == 0  # taken in one go
    assert [m["n"] for m in await pair.read_all(4)] == [0, 1, 2, 3]


async def test_more_frames_in_one_turn_than_the_outbox_holds_cut_the_link(pair):
    link = await pair.open(dataclasses.replace(FAST, send_queue=8))
    for n in range(8):
        assert link.send(payload(n))  # one written at once, seven queued
    assert link.dropped is None
    await asyncio.sleep(0)  # a new turn: the bound starts again
    for n in range(8):
        assert link.send(payload(n))
    assert link.send(payload(8)) is False  # the ninth of one turn
    assert link.dropped == "send_queue_full"


async def test_a_peer_that_stopped_reading_is_cut_when_the_outbox_is_full(pair):
    link = await pair.open(dataclasses.replace(FAST, send_queue=4), peer_rcvbuf=2048)
    assert pair.peer is not None
    pair.peer[1].transport.pause_reading()
    async with asyncio.timeout(5.0):
        while link.dropped is None:
            link.send(payload(0, pad=4000))
            await asyncio.sleep(0.001)
    assert link.dropped == "send_queue_full"


# -- bytes pushed as they arrive ------------------------------------------------------------


async def test_push_to_hands_over_what_came_before_then_every_chunk_then_the_end():
    got: list[bytes] = []
    peers: asyncio.Queue[asyncio.StreamWriter] = asyncio.Queue()
    server = await asyncio.start_server(lambda r, w: peers.put_nowait(w), "127.0.0.1", 0)
    reader, writer = await open_connection("127.0.0.1", server.sockets[0].getsockname()[1])
    peer = await peers.get()
    try:
        peer.write(b"early")
        await wait_until(lambda: reader._buffer)  # noqa: SLF001  (asyncio has no public peek)
        reader.push_to(got.append)
        assert got == [b"early"]
        peer.write(b"late")
        await wait_until(lambda: got == [b"early", b"late"])
        peer.close()
        await wait_until(lambda: got[-1:] == [b""])  # EOF
    finally:
        writer.close()
        server.close()
        await server.wait_closed()


async def test_push_to_needs_a_push_reader(pair):
    link = await pair.open()
    with pytest.raises(TypeError):
        link.push_to(lambda data: None)


# -- a client with a handler --------------------------------------------------------------


async def test_a_handler_gets_the_events_in_order_as_they_are_decoded(server, make_client):
    client = make_client("Ann")
    seen: list[Any] = []
    client.set_handler(seen.append)
    await client.connect()
    with pytest.raises(RuntimeError):
        await anext(client.events())  # the handler has them
    for n in range(3):
        client.send({"t": "echo", "n": n})
    await wait_until(lambda: len([e for e in seen if isinstance(e, dict)]) == 4)
    kinds = [e["t"] if isinstance(e, dict) else e.state for e in seen]
    assert kinds == ["connected", "welcome", "echoed", "echoed", "echoed"]
    assert [e["n"] for e in seen if isinstance(e, dict) and e["t"] == "echoed"] == [0, 1, 2]
    await client.close()
    assert isinstance(seen[-1], LinkState) and seen[-1].state == "closed"


async def test_a_failing_handler_does_not_take_the_connection_down(server, make_client, caplog):
    client = make_client("Ann")
    seen: list[int] = []

    def handler(event: Any) -> None:
        if isinstance(event, dict) and event["t"] == "echoed":
            seen.append(event["n"])
            if event["n"] == 0:
                raise RuntimeError("a bug in the app")

    client.set_handler(handler)
    await client.connect()
    with caplog.at_level(logging.ERROR, logger="netplay.client"):
        client.send({"t": "echo", "n": 0})
        client.send({"t": "echo", "n": 1})
        await wait_until(lambda: seen == [0, 1])
    assert client.state == "connected"
    assert "the event handler failed" in caplog.text


async def test_a_handler_is_set_before_connecting(server, make_client):
    client = make_client("Ann")
    await client.connect()
    with pytest.raises(RuntimeError):
        client.set_handler(lambda event: None)


async def test_a_client_whose_outbox_overflows_says_so_and_reconnects(server, make_client, collect):
    client = make_client("Ann", limits=dataclasses.replace(FAST, send_queue=4))
    await client.connect()
    events = collect(client)
    for n in range(5):  # in one turn: one written at once, three queued, then too many
        client.send({"t": "echo", "n": n})
    await wait_until(lambda: len(events.states()) >= 2)
    lost = events.states()[1]
    assert (lost.state, lost.detail) == ("reconnecting", "the host is not taking our messages")
    await wait_until(lambda: events.states()[-1].state == "connected")

"""The server over real loopback sockets: handshake, errors, limits, slow and silent peers.

Every connection is encrypted. Abuse comes in two kinds: bytes from a stranger before or
during the Noise handshake (``RawPeer``: the server cannot answer in clear, so it closes),
and bad frames inside an established channel (``SecurePeer``: the server answers with an
encrypted error, then closes).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import socket
import time

import msgpack
import pytest
from netplay_helpers import FAST, PROTOCOL, VERSION, RawPeer, SecurePeer, wait_until

from netplay import MAX_PAYLOAD, Client, Refused, Server, ServerError, StaticIdentity
from netplay.errors import ProtocolError
from netplay.framing import FrameDecoder, encode, encode_payload, frame
from netplay.noise import HandshakeState
from netplay.secure import VERSION as SECURE_VERSION

pytestmark = pytest.mark.filterwarnings("error")


async def test_handshake_welcomes_and_seats_the_player(server, app, make_client):
    client = make_client("Ann")
    welcome = await client.connect()
    assert welcome["t"] == "welcome" and welcome["resumed"] is False
    assert welcome["seat"] == 0 and welcome["players"] == 1  # the app's own field
    [session] = app.names("join")
    assert (session.id, session.token, session.name) == (
        welcome["session"],
        welcome["token"],
        "Ann",
    )
    assert session.connected and client.session == session.id and client.seat == 0


async def test_wrong_version_is_refused_with_a_clear_message(server, make_client):
    client = make_client(version=VERSION + 1)
    with pytest.raises(ServerError) as info:
        await client.connect()
    assert info.value.code == "incompatible_version"
    assert info.value.message == (
        f"this host speaks {PROTOCOL} protocol {VERSION}; you have {VERSION + 1}, newer than "
        "this host: "
        "install the same version as the host"
    )
    assert client.state == "closed"
    assert len(server.sessions) == 0


async def test_wrong_protocol_fails_the_handshake(server, make_client):
    # The protocol name is in the Noise prologue: a client of another game cannot even
    # finish the handshake, and says so in its own words.
    with pytest.raises(ProtocolError) as info:
        await make_client(protocol="chess").connect()
    assert info.value.code == "handshake_failed"
    assert "not a chess host" in info.value.message
    assert len(server.sessions) == 0


async def test_a_hello_naming_another_protocol_inside_the_channel_is_refused(server, raw_peers):
    peer = await SecurePeer.connect(server.port)
    raw_peers.append(peer)
    peer.send({"t": "hello", "protocol": "chess", "version": VERSION, "name": "x", "token": None})
    error = await peer.receive()
    assert (error["code"], error["fatal"]) == ("wrong_protocol", True)
    assert await peer.closed_by_peer()


async def test_the_app_can_refuse_a_join(server, app, make_client):
    app.refuse = Refused("game_started", "the game has already started")
    with pytest.raises(ServerError) as info:
        await make_client().connect()
    assert (info.value.code, info.value.message) == ("game_started", "the game has already started")
    assert len(server.sessions) == 0


async def test_broadcasts_made_during_on_join_follow_the_welcome(server, app, make_client, collect):
    def on_join(session, hello):
        server.broadcast({"t": "lobby", "joined": session.name})
        return {}

    app.on_join = on_join
    first = make_client("Ann")
    await first.connect()
    ann = collect(first)
    second = make_client("Bob")
    bob = collect(second)
    await second.connect()
    await wait_until(lambda: ann.messages("lobby") and bob.messages("lobby"))
    assert [e["t"] for e in bob.items if isinstance(e, dict)] == ["welcome", "lobby"]
    assert ann.messages("lobby")[-1] == {"t": "lobby", "joined": "Bob"}


async def test_unknown_session_token_is_refused(server, make_client):
    with pytest.raises(ServerError) as info:
        await make_client(token="not-a-real-token").connect()
    assert info.value.code == "unknown_session"
    assert "join again" in info.value.message


async def test_server_full(app):
    limits = dataclasses.replace(FAST, max_connections=2)
    srv = Server(app, protocol=PROTOCOL, version=VERSION, host="127.0.0.1", limits=limits)
    await srv.start()
    peers = [await SecurePeer.connect(srv.port) for _ in range(3)]
    try:
        for peer in peers[:2]:
            await peer.hello()
        # The third finished its handshake, so the refusal is said inside the channel.
        error = await peers[2].receive()
        assert (error["code"], error["fatal"]) == ("server_full", True)
        assert await peers[2].closed_by_peer()
    finally:
        for peer in peers:
            await peer.close()
        await srv.close()


def noise_message_1() -> bytes:
    """A genuine first handshake message, from a throwaway initiator."""
    initiator = HandshakeState(True, StaticIdentity.generate().private_key, b"whatever")
    return frame(initiator.write_message(bytes([SECURE_VERSION])))


# Bytes a stranger sends before or during the handshake, and the code the server logs.
BEFORE_HANDSHAKE = {
    "http request": (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "frame_too_large"),
    "oversized handshake frame": ((FAST.handshake_frame + 1).to_bytes(4, "big"), "frame_too_large"),
    "short message 1": (frame(b"\x00" * 10), "handshake_failed"),
    "plain hello": (
        encode(
            {"t": "hello", "protocol": PROTOCOL, "version": VERSION, "name": "x", "token": None}
        ),
        "incompatible_version",  # read as message 1: its clear payload is not the version byte
    ),
    "message 1, then garbage message 3": (noise_message_1() + frame(b"\x07" * 80), None),
}


@pytest.mark.parametrize("case", BEFORE_HANDSHAKE, ids=list(BEFORE_HANDSHAKE))
async def test_garbage_before_or_during_the_handshake_is_cut_off_alone(
    case, server, app, make_client, collect, raw_peers, caplog
):
    caplog.set_level(logging.INFO, "netplay.server")
    data, code = BEFORE_HANDSHAKE[case]
    good = make_client("Good")
    await good.connect()
    events = collect(good)

    bad = await RawPeer.connect(server.port)
    raw_peers.append(bad)
    bad.send_bytes(data)
    if code is None:  # answer message 2 (whatever it says) with garbage as message 3
        header = await bad.reader.readexactly(4)
        await bad.reader.readexactly(int.from_bytes(header, "big"))
        code = "handshake_failed"
    # Nothing is ever said in clear: the server just closes.
    async with asyncio.timeout(3):
        assert await bad.reader.read() == b""
    await wait_until(lambda: f"({code})" in caplog.text)
    assert [s.name for s in app.names("join")] == ["Good"]

    good.send({"t": "echo", "n": 1})
    await wait_until(lambda: events.messages("echoed"))
    assert good.state == "connected"
    assert not app.names("disconnect")


def msgpack_frame(obj) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


# Payloads a peer seals inside an established channel, and the error it gets back.
INSIDE_THE_CHANNEL = {
    "truncated msgpack": (msgpack.packb({"t": "hello", "name": "x"})[:-1], "bad_encoding"),
    "ext type": (msgpack_frame({"t": "hello", "x": msgpack.ExtType(1, b"")}), "bad_encoding"),
    "int keys": (msgpack_frame({"t": "hello", 1: 1}), "bad_encoding"),
    "not a map": (msgpack_frame([1, 2]), "bad_message"),
    "message before hello": (encode_payload({"t": "play", "card": 3}), "unexpected_message"),
    "oversized hello": (b"\x00" * FAST.handshake_frame, "frame_too_large"),
}


@pytest.mark.parametrize("case", INSIDE_THE_CHANNEL, ids=list(INSIDE_THE_CHANNEL))
async def test_a_bad_frame_inside_the_channel_gets_an_encrypted_error(
    case, server, app, make_client, collect, raw_peers
):
    payload, code = INSIDE_THE_CHANNEL[case]
    good = make_client("Good")
    await good.connect()
    events = collect(good)

    bad = await SecurePeer.connect(server.port)
    raw_peers.append(bad)
    bad.send_sealed(payload)
    error = await bad.receive()
    assert error["t"] == "error" and error["code"] == code and error["fatal"] is True
    assert error["message"]
    assert await bad.closed_by_peer()

    good.send({"t": "echo", "n": 1})
    await wait_until(lambda: events.messages("echoed"))
    assert good.state == "connected"
    assert not app.names("disconnect")


TAMPERING = ["modified", "replayed", "reordered", "unencrypted", "dropped"]


@pytest.mark.parametrize("how", TAMPERING)
async def test_a_tampered_frame_closes_the_connection(how, server, app, raw_peers):
    peer = await SecurePeer.connect(server.port)
    raw_peers.append(peer)
    await peer.hello("Ann")
    echo = encode_payload({"t": "echo", "n": 1})
    if how == "modified":
        wire = bytearray(peer.seal(echo))
        wire[-1] ^= 0x01
        peer.send_bytes(bytes(wire))
    elif how == "replayed":
        wire = peer.seal(echo)
        peer.send_bytes(wire)
        assert (await peer.receive_until("echoed"))["n"] == 1
        peer.send_bytes(wire)
    elif how == "reordered":
        first, second = peer.seal(echo), peer.seal(encode_payload({"t": "echo", "n": 2}))
        peer.send_bytes(second + first)
    elif how == "unencrypted":
        peer.send_bytes(encode({"t": "echo", "n": 1}))
    else:  # a frame lost on the way: the next one has the wrong nonce
        peer.seal(echo)
        peer.send_bytes(peer.seal(encode_payload({"t": "echo", "n": 2})))
    error = await peer.receive_until("error")
    assert (error["code"], error["fatal"]) == ("decrypt_failed", True)
    assert await peer.closed_by_peer()
    await wait_until(lambda: app.names("disconnect"))
    [gone] = app.names("disconnect")
    assert gone.reason == "decrypt_failed"
    # Nothing from the tampered frames reached the app.
    assert [m["n"] for _, m in app.names("message")] == ([1] if how == "replayed" else [])


async def test_a_bad_message_after_the_handshake_disconnects_only_that_peer(
    server, app, make_client, collect, raw_peers
):
    good = make_client("Good")
    await good.connect()
    events = collect(good)
    bad = await SecurePeer.connect(server.port)
    raw_peers.append(bad)
    await bad.hello("Bad")
    bad.send_sealed(b"\xc1\xc1")
    error = await bad.receive_until("error")
    assert error["code"] == "bad_encoding"
    assert await bad.closed_by_peer()
    await wait_until(lambda: app.names("disconnect"))
    [gone] = app.names("disconnect")
    assert gone.name == "Bad" and gone.reason == "bad_encoding" and not gone.connected
    server.broadcast({"t": "still", "n": 2})
    await wait_until(lambda: events.messages("still"))


async def test_handshake_deadline_for_a_silent_stranger(server, raw_peers, caplog):
    caplog.set_level(logging.INFO, "netplay.server")
    peer = await RawPeer.connect(server.port)
    raw_peers.append(peer)
    started = time.monotonic()
    async with asyncio.timeout(3):
        assert await peer.reader.read() == b""  # closed, with nothing said in clear
    assert FAST.handshake_timeout * 0.9 <= time.monotonic() - started < FAST.handshake_timeout + 1
    assert "(handshake_timeout)" in caplog.text


async def test_handshake_deadline_covers_the_hello(server, raw_peers):
    # Noise done, no hello: the same deadline, and now the error can be said (encrypted).
    started = time.monotonic()
    peer = await SecurePeer.connect(server.port)
    raw_peers.append(peer)
    error = await peer.receive()
    assert error["code"] == "handshake_timeout"
    assert FAST.handshake_timeout * 0.9 <= time.monotonic() - started < FAST.handshake_timeout + 1
    assert await peer.closed_by_peer()


async def test_a_flood_is_rate_limited(server, app, raw_peers):
    peer = await SecurePeer.connect(server.port)
    raw_peers.append(peer)
    await peer.hello("Flood")
    peer.send_bytes(
        b"".join(peer.seal(encode_payload({"t": "spam"})) for _ in range(FAST.burst + 50))
    )
    error = await peer.receive_until("error")
    assert error["code"] == "rate_limited"
    assert f"{FAST.burst} messages at once" in error["message"]
    assert await peer.closed_by_peer()
    # The app saw at most the burst, never the flood.
    assert 0 < len(app.names("message")) <= FAST.burst


async def test_the_app_may_end_a_connection_from_on_message(server, app, make_client, collect):
    def on_message(session, msg):
        raise ProtocolError("bad_message", "play.card: 99 is outside 0..59")

    app.on_message_hook = on_message
    client = make_client()
    await client.connect()
    events = collect(client)
    client.send({"t": "play", "card": 99})
    await wait_until(lambda: events.ended)
    assert events.states()[-1].state == "closed"
    assert events.states()[-1].code == "bad_message"


async def test_a_crash_in_on_message_is_reported_not_fatal(server, app, make_client, collect):
    def on_message(session, msg):
        raise KeyError("bug")

    app.on_message_hook = on_message
    client = make_client()
    await client.connect()
    events = collect(client)
    client.send({"t": "play"})
    await wait_until(lambda: events.messages("error"))
    assert events.messages("error")[0]["code"] == "internal_error"
    assert client.state == "connected"


async def test_non_fatal_and_fatal_errors_from_the_app(server, app, make_client, collect):
    client = make_client()
    await client.connect()
    events = collect(client)
    [session] = app.names("join")
    server.error(session, "not_your_turn", "wait for Bob to play")
    await wait_until(lambda: events.messages("error"))
    assert events.messages("error")[0] == {
        "t": "error",
        "code": "not_your_turn",
        "message": "wait for Bob to play",
        "fatal": False,
    }
    server.error(session, "kicked", "the host removed you", fatal=True)
    await wait_until(lambda: events.ended)
    assert events.states()[-1].code == "kicked"
    assert [s.state for s in events.states()] == ["connected", "closed"]  # no reconnect loop


async def test_a_client_that_stops_reading_is_dropped_and_others_keep_up(app, collect):
    # Heartbeats would drop the silent reader too; keep them out of this test's way.
    limits = dataclasses.replace(FAST, idle_timeout=30.0, send_queue=8)
    server = Server(app, protocol=PROTOCOL, version=VERSION, host="127.0.0.1", limits=limits)
    app.server = server
    await server.start()
    good = Client("127.0.0.1", server.port, protocol=PROTOCOL, version=VERSION, name="Good")
    await good.connect()
    events = collect(good)

    # A peer that shakes hands, then never reads: tiny kernel and stream buffers.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    slow = await SecurePeer.over(*await asyncio.open_connection(sock=sock, limit=1024))
    try:
        await slow.hello("Slow")
        big = ["x" * 4000] * 14  # 56 KB a message, within every decoder limit
        deadline = time.monotonic() + 5.0
        sent = 0
        while not app.names("disconnect"):
            assert time.monotonic() < deadline, "the silent reader was never dropped"
            server.broadcast({"t": "news", "n": sent, "pad": big})
            sent += 1
            # Each broadcast reaches the good client promptly, slow reader or not.
            await wait_until(lambda n=sent: len(events.messages("news")) == n, timeout=1.0)
        [dropped] = app.names("disconnect")
        assert dropped.name == "Slow" and dropped.reason == "send_queue_full"
        server.broadcast({"t": "news", "n": sent, "pad": ""})
        await wait_until(lambda: len(events.messages("news")) == sent + 1, timeout=1.0)
    finally:
        await slow.close()
        await good.close()
        await server.close()


async def test_the_server_pings_and_drops_a_silent_peer(server, app, raw_peers):
    peer = await SecurePeer.connect(server.port)
    raw_peers.append(peer)
    await peer.hello("Silent")
    assert (await peer.receive())["t"] == "ping"
    # Never answering: the peer is dropped after idle_timeout of silence.
    error = await peer.receive_until("error")
    assert error["code"] == "idle_timeout"
    await wait_until(lambda: app.names("disconnect"))
    assert app.names("disconnect")[0].reason == "idle_timeout"


async def test_a_peer_answering_pings_stays(server, app, raw_peers):
    peer = await SecurePeer.connect(server.port)
    raw_peers.append(peer)
    await peer.hello("Alive")
    end = time.monotonic() + 3 * FAST.idle_timeout
    pings = 0
    while time.monotonic() < end:
        msg = await peer.receive()
        assert msg["t"] == "ping", msg
        pings += 1
        peer.send({"t": "pong"})
    assert pings >= 3 and not app.names("disconnect")


async def test_the_server_answers_a_ping(server, raw_peers):
    peer = await SecurePeer.connect(server.port)
    raw_peers.append(peer)
    await peer.hello()
    peer.send({"t": "ping"})
    await peer.receive_until("pong")


def sized(size: int) -> dict:
    """A message whose msgpack payload is exactly ``size`` bytes, within decoder limits."""
    msg = {"t": "big", "pad": ["x" * 4000] * 16, "fill": ""}
    msg["fill"] = "y" * (size - len(encode_payload(msg)) - 2)  # str8 -> str16 header
    assert len(encode_payload(msg)) == size
    return msg


async def test_oversized_outgoing_messages_are_the_senders_bug(server, app, make_client, collect):
    client = make_client()
    await client.connect()
    events = collect(client)
    [session] = app.names("join")
    # The largest payload an encrypted frame holds goes through...
    assert server.send(session, sized(MAX_PAYLOAD))
    await wait_until(lambda: events.messages("big"))
    # ...one byte more is refused up front, even though it is under max_frame: the tag
    # would push the frame over the Noise limit, and the writer must not die on it.
    assert FAST.max_frame > MAX_PAYLOAD + 1
    for size in (MAX_PAYLOAD + 1, FAST.max_frame + 1):
        with pytest.raises(ValueError):
            server.send(session, sized(size))
        with pytest.raises(ValueError):
            server.broadcast(sized(size))
    with pytest.raises(ValueError):
        client.send(sized(MAX_PAYLOAD + 1))
    # The link is still fine both ways.
    client.send({"t": "echo", "n": 7})
    await wait_until(lambda: events.messages("echoed"))
    assert client.state == "connected" and session.connected


async def test_clean_shutdown_says_bye_and_leaves_no_task(app, raw_peers):
    srv = Server(app, protocol=PROTOCOL, version=VERSION, host="127.0.0.1", limits=FAST)
    app.server = srv
    await srv.start()
    peer = await SecurePeer.connect(srv.port)
    raw_peers.append(peer)
    await peer.hello()
    lurker = await RawPeer.connect(srv.port)  # connected, no handshake yet
    raw_peers.append(lurker)
    await wait_until(lambda: srv.connections == 2)

    port = srv.port
    await srv.close()
    assert (await peer.receive_until("bye")) == {"t": "bye"}
    assert await peer.closed_by_peer()
    assert await lurker.closed_by_peer()
    assert asyncio.all_tasks() == {asyncio.current_task()}
    assert not app.names("disconnect")  # shutting down is not a player leaving
    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", port)


def test_frame_decoder_reads_what_the_server_writes():
    # Guards the helper the socket tests rely on.
    assert FrameDecoder().feed(encode({"t": "bye"})) == [{"t": "bye"}]


async def test_forget_ends_a_session_for_good(server, app, make_client, collect):
    client = make_client()
    welcome = await client.connect()
    events = collect(client)
    [session] = app.names("join")
    server.forget(session)
    await wait_until(lambda: events.ended)
    assert events.states()[-1].code == "refused"
    assert not app.names("disconnect")  # the app asked for it
    assert len(server.sessions) == 0 and not session.connected
    # Even with the right token and the right key.
    with pytest.raises(ServerError) as info:
        await make_client(token=welcome["token"], identity=client.identity).connect()
    assert info.value.code == "unknown_session"


async def test_sending_to_a_disconnected_session_and_excluding_from_broadcasts(
    server, app, make_client, collect
):
    ann, bob = make_client("Ann"), make_client("Bob")
    await ann.connect()
    await bob.connect()
    ann_events, bob_events = collect(ann), collect(bob)
    first, second = app.names("join")
    server.broadcast({"t": "turn", "seat": 0}, exclude=first)
    await wait_until(lambda: bob_events.messages("turn"))
    await bob.close()
    await wait_until(lambda: app.names("disconnect"))
    assert server.send(second, {"t": "hand"}) is False
    assert server.send(first, {"t": "hand"}) is True
    await wait_until(lambda: ann_events.messages("hand"))
    assert not ann_events.messages("turn")

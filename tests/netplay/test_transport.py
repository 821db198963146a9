"""The encrypted transport as wired into Server and Client, over real loopback sockets:
nothing readable on the wire, tampering closes the link, host keys pinned on first use,
the room password, resuming with the static key, and the cap on unfinished handshakes."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets

import pytest
from netplay_helpers import FAST, PROTOCOL, VERSION, Proxy, RawPeer, RecordingApp, wait_until

from netplay import (
    Client,
    GuessLimiter,
    HostKeyChanged,
    KnownHosts,
    Limits,
    PakeError,
    Server,
    ServerError,
    StaticIdentity,
    host_label,
)
from netplay.framing import encode_payload

pytestmark = pytest.mark.filterwarnings("error")

PASSWORD = "opensesame-42"


def states(events) -> list[str]:
    return [s.state for s in events.states()]


@pytest.fixture
async def start_server():
    """Start extra servers (own app, identity, password...); all closed at the end."""
    servers: list[Server] = []

    async def start(**kwargs) -> tuple[Server, RecordingApp]:
        app = RecordingApp()
        kwargs.setdefault("limits", FAST)
        srv = Server(app, protocol=PROTOCOL, version=VERSION, host="127.0.0.1", **kwargs)
        app.server = srv
        await srv.start()
        servers.append(srv)
        return srv, app

    yield start
    for srv in servers:
        await srv.close()


@pytest.fixture
async def relay():
    """Start proxies in front of a port; all closed at the end."""
    proxies: list[Proxy] = []

    async def start(port: int) -> Proxy:
        proxy = Proxy(port)
        proxy.port = await proxy.start()  # type: ignore[attr-defined]
        proxies.append(proxy)
        return proxy

    yield start
    for proxy in proxies:
        await proxy.close()


# -- confidentiality ---------------------------------------------------------------------


async def test_a_sniffer_on_the_wire_reads_nothing(start_server, relay, make_client, collect):
    identity = StaticIdentity.generate()
    server, app = await start_server(identity=identity, password=PASSWORD)
    seed = secrets.token_bytes(32)
    hand = {"t": "hand", "cards": [3, 14, 15, 59, 26, 53], "trump": "wizard"}

    def on_message(session, msg):
        if msg["t"] == "chat":
            server.broadcast({"t": "chat", "name": session.name, "text": msg["text"]})
        elif msg["t"] == "seed":
            server.send(session, {"t": "seed_ack", "seed": msg["seed"]})
            server.send(session, hand)

    app.on_message_hook = on_message
    proxy = await relay(server.port)
    player = StaticIdentity.generate()
    name, chat = "Zebulon Quux", "meet me by the old oak tree at dawn"
    client = make_client(name, port=proxy.port, identity=player, password=PASSWORD)
    welcome = await client.connect()
    events = collect(client)
    client.send({"t": "chat", "text": chat})
    client.send({"t": "seed", "seed": seed})
    await wait_until(lambda: events.messages("hand") and events.messages("chat"))
    assert events.messages("seed_ack") == [{"t": "seed_ack", "seed": seed}]
    assert events.messages("hand") == [hand]  # the plaintext did travel, encrypted
    await client.close()

    wire = bytes(proxy.wire["up"] + proxy.wire["down"])
    assert len(proxy.wire["up"]) > 200 and len(proxy.wire["down"]) > 200
    secrets_on_the_wire = {
        "name": name.encode(),
        "chat": chat.encode(),
        "seed": seed,
        "msgpack of a known message": encode_payload(hand),
        "the hello's type": encode_payload({"t": "hello"})[1:],
        "session token": welcome["token"].encode(),
        "session id": welcome["session"].encode(),
        "room password": PASSWORD.encode(),
        "protocol name": PROTOCOL.encode(),
        "host static key": identity.public_key,
        "player static key": player.public_key,
    }
    leaked = [what for what, needle in secrets_on_the_wire.items() if needle in wire]
    assert leaked == []


async def test_a_tampered_frame_ends_the_client_for_good(server, app, relay, make_client, collect):
    proxy = await relay(server.port)
    client = make_client("Ann", port=proxy.port)
    await client.connect()
    events = collect(client)
    flipped: list[bytes] = []

    def flip_once(data: bytes) -> bytes:
        if flipped:
            return data
        flipped.append(data)
        return data[:-1] + bytes([data[-1] ^ 0x80])  # the last byte of a tag

    proxy.tamper_down = flip_once  # the next frame from the host (a ping, most likely)
    await wait_until(lambda: events.ended)
    assert events.states()[-1].code == "decrypt_failed"
    # Fail closed: no reconnect over a network that alters frames.
    assert states(events) == ["connected", "closed"]
    assert proxy.connections == 1


# -- host keys: pinned on first use, refused loudly when changed ---------------------------


async def test_the_host_key_is_pinned_on_first_use_and_known_after(
    server, app, make_client, tmp_path
):
    known = KnownHosts.in_directory(tmp_path)
    first = make_client("Ann", known_hosts=known)
    await first.connect()
    assert first.pin_status == "new"
    assert first.server_fingerprint == server.fingerprint == server.identity.fingerprint
    label = host_label("127.0.0.1", server.port)
    assert KnownHosts.in_directory(tmp_path).expected(label) == server.identity.public_key

    again = make_client("Bob", known_hosts=KnownHosts.in_directory(tmp_path))
    await again.connect()
    assert again.pin_status == "known"
    unpinned = make_client("Cy")
    await unpinned.connect()
    assert unpinned.pin_status == "unpinned" and unpinned.server_fingerprint == server.fingerprint


async def test_a_changed_host_key_is_refused_loudly(server, app, make_client, tmp_path):
    known = KnownHosts.in_directory(tmp_path)
    label = host_label("127.0.0.1", server.port)
    impostor_pin = StaticIdentity.generate()  # what we met here before
    known.pin(label, impostor_pin.public_key)
    client = make_client("Ann", known_hosts=known)
    with pytest.raises(HostKeyChanged) as info:
        await client.connect()
    message = info.value.message
    assert info.value.code == "host_key_changed"
    assert "HAS CHANGED" in message and label.upper() in message
    assert f"pinned fingerprint:  {impostor_pin.fingerprint}" in message
    assert f"offered fingerprint: {server.fingerprint}" in message
    assert str(known.path) in message  # where to forget the entry, if it checks out
    assert client.state == "closed"
    # Nothing was re-pinned, and the host never let us in.
    assert KnownHosts.in_directory(tmp_path).expected(label) == impostor_pin.public_key
    assert not app.names("join")


async def test_a_reconnect_to_another_key_is_refused_even_without_known_hosts(
    server, app, start_server, relay, make_client, collect
):
    proxy = await relay(server.port)
    client = make_client("Ann", port=proxy.port)
    await client.connect()
    events = collect(client)
    other, other_app = await start_server()  # another machine answering at that address
    proxy.target_port = other.port
    proxy.cut()
    await wait_until(lambda: events.ended)
    assert states(events) == ["connected", "reconnecting", "closed"]
    last = events.states()[-1]
    assert last.code == "host_key_changed"
    assert server.fingerprint in last.detail and other.fingerprint in last.detail
    assert not other_app.names("join")


async def test_a_host_key_given_in_advance_is_checked(server, make_client):
    right = make_client("Ann", server_key=server.identity.public_key)
    await right.connect()
    assert right.pin_status == "known"
    wrong = make_client("Bob", server_key=StaticIdentity.generate().public_key)
    with pytest.raises(HostKeyChanged):
        await wrong.connect()


# -- the room password ---------------------------------------------------------------------


async def test_the_right_password_lets_a_player_in(start_server, make_client):
    server, app = await start_server(password=PASSWORD)
    assert server.has_password
    client = make_client("Ann", port=server.port, password=f"  {PASSWORD} ")  # outer spaces
    welcome = await client.connect()
    assert welcome["seat"] == 0 and [s.name for s in app.names("join")] == ["Ann"]


async def test_a_wrong_password_is_refused_on_both_sides(start_server, relay, make_client, caplog):
    caplog.set_level(logging.INFO, "netplay.server")
    server, app = await start_server(password=PASSWORD)
    proxy = await relay(server.port)
    client = make_client("Ann", port=proxy.port, password="open sesame 42")
    with pytest.raises(PakeError) as info:
        await client.connect()
    assert info.value.code == "bad_password"
    assert "wrong room password" in info.value.message
    await wait_until(lambda: "(bad_password)" in caplog.text)  # the host refused it too
    assert not app.names("join") and len(server.sessions) == 0
    wire = bytes(proxy.wire["up"] + proxy.wire["down"])
    assert b"open sesame" not in wire and PASSWORD.encode() not in wire


@pytest.mark.parametrize(
    ("host_password", "client_password", "code"),
    [(PASSWORD, None, "password_required"), (None, PASSWORD, "password_not_used")],
    ids=["missing", "unasked"],
)
async def test_a_password_mismatch_is_refused_by_the_client(
    start_server, make_client, host_password, client_password, code
):
    server, app = await start_server(password=host_password)
    client = make_client("Ann", port=server.port, password=client_password)
    with pytest.raises(PakeError) as info:
        await client.connect()
    assert info.value.code == code
    assert not app.names("join")


async def test_wrong_passwords_back_the_address_off(start_server, make_client):
    limiter = GuessLimiter(max_failures=2, window=60.0, backoff=60.0)
    server, app = await start_server(password=PASSWORD, guess_limiter=limiter)
    # Leaving without a password is not a guess.
    with pytest.raises(PakeError):
        await make_client("NoPw", port=server.port).connect()
    for _ in range(2):
        with pytest.raises(PakeError):
            await make_client("Guess", port=server.port, password="wrong").connect()
    # Now even the right password from a new key is cut off before any password work.
    with pytest.raises(OSError):
        await make_client("Ann", port=server.port, password=PASSWORD).connect()
    assert not app.names("join")


# -- resume by static key ------------------------------------------------------------------


async def test_resume_needs_the_key_the_session_joined_with(server, app, make_client, collect):
    ann = StaticIdentity.generate()
    first = make_client("Ann", identity=ann)
    welcome = await first.connect()
    first_events = collect(first)

    # A stolen token on another machine (another static key) resumes nothing...
    thief = make_client("Mallory", token=welcome["token"])
    with pytest.raises(ServerError) as info:
        await thief.connect()
    assert info.value.code == "unknown_session"
    [session] = app.names("join")
    assert session.connected and not app.names("resume")
    assert first.state == "connected"

    # ...while the player, with its own key, takes its seat back.
    back = make_client("Ann", identity=ann, token=welcome["token"])
    again = await back.connect()
    assert again["resumed"] is True and again["session"] == welcome["session"]
    assert app.names("resume") == [session] and session.key == ann.public_key
    assert session.fingerprint == ann.fingerprint
    await wait_until(lambda: first_events.ended)
    assert first_events.states()[-1].code == "replaced"


async def test_a_program_that_lost_its_token_comes_back_by_its_key(server, app, make_client):
    ann = StaticIdentity.generate()
    first = make_client("Ann", identity=ann)
    welcome = await first.connect()
    # While that session is connected, another program with the same key is a new player.
    twin = make_client("Ann again", identity=ann)
    other = await twin.connect()
    assert other["resumed"] is False and other["session"] != welcome["session"]
    first_session, twin_session = app.names("join")
    await twin.close()
    await first.close()
    await wait_until(lambda: not first_session.connected and not twin_session.connected)

    # A new run of the player's program has no token, only its key (kept on disk): it takes
    # back its first disconnected session, seat and all, under its old name.
    restarted = make_client("Ann", identity=ann)
    back = await restarted.connect()
    assert back["resumed"] is True and back["session"] == welcome["session"]
    assert app.names("resume") == [first_session] and first_session.connected
    assert first_session.name == "Ann" and not twin_session.connected
    # Another key gets no one's session back: it joins as a new player.
    stranger = make_client("Ann")
    assert (await stranger.connect())["resumed"] is False


# -- the cap on connections still shaking hands --------------------------------------------


async def test_unfinished_handshakes_are_capped(start_server, make_client, raw_peers):
    limits = dataclasses.replace(FAST, max_handshaking=2, handshake_timeout=3.0)
    server, app = await start_server(limits=limits)
    lurkers = [await RawPeer.connect(server.port) for _ in range(2)]
    raw_peers.extend(lurkers)
    await wait_until(lambda: server.connections == 2)

    extra = await RawPeer.connect(server.port)
    raw_peers.append(extra)
    async with asyncio.timeout(1.0):  # at once, not after the handshake deadline
        assert await extra.closed_by_peer(timeout=1.0)
    with pytest.raises(OSError):
        await make_client("Ann", port=server.port, limits=limits).connect()
    assert not app.names("join")

    await lurkers[0].close()
    await wait_until(lambda: server.connections == 1)
    # Welcomed players do not count against the cap.
    for name in ("Ann", "Bob", "Cy"):
        await make_client(name, port=server.port, limits=limits).connect()
    assert [s.name for s in app.names("join")] == ["Ann", "Bob", "Cy"]


def test_the_cap_is_a_limit_with_a_default():
    assert Limits().max_handshaking == 8
    with pytest.raises(ValueError):
        Limits(max_handshaking=0)


def test_an_empty_room_password_is_refused_up_front():
    with pytest.raises(ValueError):
        Server(RecordingApp(), protocol=PROTOCOL, version=VERSION, host="127.0.0.1", password=" ")
    with pytest.raises(ValueError):
        Client("127.0.0.1", 1, protocol=PROTOCOL, version=VERSION, name="a", password="")

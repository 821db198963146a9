"""netplay.secure: the handshake driver (pinning, room password), the fail-closed frame codec,
its fit with netplay's framing, and one run over real loopback sockets."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

import netplay.secure as secure
from netplay.errors import (
    BAD_ENCODING,
    BAD_MESSAGE,
    FRAME_TOO_LARGE,
    INCOMPATIBLE_VERSION,
    ProtocolError,
)
from netplay.framing import FrameDecoder, FrameEncoder, encode_payload, frame
from netplay.identity import HOST_KEY_CHANGED, HostKeyChanged, StaticIdentity
from netplay.noise import DECRYPT_FAILED, HANDSHAKE_FAILED, PROTOCOL_NAME, HandshakeState
from netplay.pake import BAD_PASSWORD, PASSWORD_NOT_USED, PASSWORD_REQUIRED, PakeError
from netplay.secure import (
    MAX_HANDSHAKE_MESSAGE,
    MAX_PAYLOAD,
    PAD_SIZES,
    VERSION,
    HandshakeReader,
    SecureChannel,
    SecureInitiator,
    SecureResponder,
    make_prologue,
    pad,
    padded_size,
)

try:
    from noise.connection import Keypair, NoiseConnection
except ImportError:
    NoiseConnection = None

needs_oracle = pytest.mark.skipif(
    NoiseConnection is None, reason="noiseprotocol (test oracle) is not installed"
)

CLIENT = StaticIdentity.generate()
HOST = StaticIdentity.generate()
PASSWORD = "plum-tree-47"

Transcript = list[tuple[str, bytes]]


def handshake(client: SecureInitiator, host: SecureResponder) -> Transcript:
    """Run a handshake to the end; every message with its direction."""
    message: bytes | None = client.start()
    transcript: Transcript = []
    to_host = True
    while message is not None:
        transcript.append(("to host" if to_host else "to client", message))
        message = host.receive(message) if to_host else client.receive(message)
        to_host = not to_host
    return transcript


def pair(**kwargs: Any) -> tuple[SecureInitiator, SecureResponder]:
    password = kwargs.pop("password", None)
    client = SecureInitiator(CLIENT, password=password, **kwargs)
    host = SecureResponder(HOST, password=password)
    handshake(client, host)
    return client, host


def channels() -> tuple[SecureChannel, SecureChannel]:
    client, host = pair()
    return client.channel, host.channel


# -- the handshake ------------------------------------------------------------------------------


def test_handshake_without_password() -> None:
    client = SecureInitiator(CLIENT, app_data={"name": "ann"})
    host = SecureResponder(HOST, app_data={"game": "wizard", "seats": 6})
    transcript = handshake(client, host)
    assert [d for d, _ in transcript] == ["to host", "to client", "to host"]
    assert transcript[0][1][-1:] == bytes([VERSION]) and len(transcript[0][1]) == 33  # e + version
    assert all(len(m) <= MAX_HANDSHAKE_MESSAGE for _, m in transcript)
    assert client.done and host.done
    assert not client.password_used and not host.password_used
    assert client.remote_static == HOST.public_key
    assert host.remote_static == CLIENT.public_key
    assert client.remote_app_data == {"game": "wizard", "seats": 6}
    assert host.remote_app_data == {"name": "ann"}
    assert client.handshake_hash == host.handshake_hash
    assert host.decrypt(client.encrypt(b"hello")) == b"hello"
    assert client.decrypt(host.encrypt(b"welcome")) == b"welcome"


def test_handshake_with_password() -> None:
    client = SecureInitiator(CLIENT, password=PASSWORD)
    host = SecureResponder(HOST, password=PASSWORD)
    transcript = handshake(client, host)
    assert len(transcript) == 5
    assert all(len(m) <= MAX_HANDSHAKE_MESSAGE for _, m in transcript)
    assert client.done and host.done and client.password_used and host.password_used
    assert host.remote_static == CLIENT.public_key
    assert host.decrypt(client.encrypt(b"hello")) == b"hello"


def test_each_connection_has_its_own_handshake_hash() -> None:
    one, _ = pair()
    two, _ = pair()
    assert one.handshake_hash != two.handshake_hash


def test_the_client_sees_the_host_key_it_pinned() -> None:
    client, host = pair(expected_server_key=HOST.public_key)
    assert client.done and host.done


def test_a_wrong_pinned_key_fails_loudly_before_the_client_reveals_itself() -> None:
    impostor = StaticIdentity.generate()
    client = SecureInitiator(CLIENT, expected_server_key=HOST.public_key, server_label="table:4000")
    host = SecureResponder(impostor)
    message_2 = host.receive(client.start())
    assert message_2 is not None
    with pytest.raises(HostKeyChanged) as err:
        client.receive(message_2)  # no message 3: our key and app data are never sent
    exc = err.value
    assert exc.code == HOST_KEY_CHANGED
    assert HOST.fingerprint in exc.message and impostor.fingerprint in exc.message
    assert "table:4000".upper() in exc.message
    assert not client.done
    with pytest.raises(HostKeyChanged):
        client.receive(message_2)  # fail closed


def test_wrong_password_fails_on_both_sides() -> None:
    client = SecureInitiator(CLIENT, password="plum-tree-48")
    host = SecureResponder(HOST, password=PASSWORD)
    message_4 = host.receive(client.receive(host.receive(client.start())))  # type: ignore[arg-type]
    assert message_4 is not None
    with pytest.raises(PakeError) as client_err:
        client.receive(message_4)
    assert client_err.value.code == BAD_PASSWORD
    assert "password" in client_err.value.message
    assert client_err.value.reply is not None
    with pytest.raises(PakeError) as host_err:
        host.receive(client_err.value.reply)
    assert host_err.value.code == BAD_PASSWORD
    assert not client.done and not host.done
    assert host.password_used  # a GuessLimiter counts this attempt


@pytest.mark.parametrize("client_pw", [PASSWORD, "plum-tree-48"])
def test_the_password_never_crosses_the_wire(client_pw: str) -> None:
    client = SecureInitiator(CLIENT, password=client_pw)
    host = SecureResponder(HOST, password=PASSWORD)
    wire: list[bytes] = []
    message: bytes | None = client.start()
    to_host = True
    try:
        while message is not None:
            wire.append(message)
            message = host.receive(message) if to_host else client.receive(message)
            to_host = not to_host
    except PakeError as exc:
        assert exc.code == BAD_PASSWORD and client_pw != PASSWORD
        assert exc.reply is not None
        wire.append(exc.reply)
    assert len(wire) == 5
    for pw in {client_pw, PASSWORD}:
        for needle in (pw.encode(), pw.encode("utf-16-le"), pw.encode().hex().encode()):
            assert all(needle not in m for m in wire)
    if client.done:  # and neither end keeps it once it is no longer needed
        for end in (client, host):
            assert not holds(end, PASSWORD)


def holds(obj: object, password: str, depth: int = 4) -> bool:
    """True if ``obj`` or anything reachable from its attributes holds ``password``."""
    secrets = (password.encode(), password)
    if isinstance(obj, (str, bytes)):
        return any(type(s) is type(obj) and s in obj for s in secrets)  # type: ignore[operator]
    if depth == 0:
        return False
    if isinstance(obj, dict):
        return any(holds(v, password, depth - 1) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(holds(v, password, depth - 1) for v in obj)
    if hasattr(obj, "__dict__"):
        return any(holds(v, password, depth - 1) for v in vars(obj).values())
    return False


def test_holds_finds_a_kept_password() -> None:
    client = SecureInitiator(CLIENT, password=PASSWORD)
    assert holds(client, PASSWORD)  # before the handshake it must keep it


def test_a_room_password_the_client_lacks() -> None:
    client = SecureInitiator(CLIENT)
    host = SecureResponder(HOST, password=PASSWORD)
    with pytest.raises(PakeError) as err:
        client.receive(host.receive(client.start()))  # type: ignore[arg-type]
    assert err.value.code == PASSWORD_REQUIRED


def test_a_password_for_a_host_without_one_is_refused() -> None:
    """The host could not prove it knows the password, so it may not be the host we meant."""
    client = SecureInitiator(CLIENT, password=PASSWORD)
    host = SecureResponder(HOST)
    with pytest.raises(PakeError) as err:
        client.receive(host.receive(client.start()))  # type: ignore[arg-type]
    assert err.value.code == PASSWORD_NOT_USED


def test_a_man_in_the_middle_without_the_password_fails_both_ways() -> None:
    mallory = StaticIdentity.generate()
    client = SecureInitiator(CLIENT, password=PASSWORD)
    fake_host = SecureResponder(mallory, password="a guess")
    with pytest.raises(PakeError) as err:
        handshake(client, fake_host)
    assert err.value.code == BAD_PASSWORD
    fake_client = SecureInitiator(mallory, password="a guess")
    host = SecureResponder(HOST, password=PASSWORD)
    message_4 = host.receive(fake_client.receive(host.receive(fake_client.start())))  # type: ignore[arg-type]
    with pytest.raises(PakeError) as fake_err:
        fake_client.receive(message_4)  # type: ignore[arg-type]
    with pytest.raises(PakeError) as host_err:
        host.receive(fake_err.value.reply)  # type: ignore[arg-type]
    assert host_err.value.code == BAD_PASSWORD


@pytest.mark.parametrize("with_password", [False, True])
@pytest.mark.parametrize("position", [0, 17, -1])
def test_any_tampered_handshake_message_fails(with_password: bool, position: int) -> None:
    password = PASSWORD if with_password else None
    for target in range(5 if with_password else 3):
        client = SecureInitiator(CLIENT, password=password)
        host = SecureResponder(HOST, password=password)
        message: bytes | None = client.start()
        to_host = True
        with pytest.raises(ProtocolError) as err:
            for index in range(target + 1):
                assert message is not None
                if index == target:
                    tampered = bytearray(message)
                    tampered[position] ^= 0x40
                    message = bytes(tampered)
                message = host.receive(message) if to_host else client.receive(message)
                to_host = not to_host
            if target == 0:  # message 1 is in clear: its tampering shows at message 2
                assert message is not None
                client.receive(message)
        assert err.value.code in (HANDSHAKE_FAILED, DECRYPT_FAILED, INCOMPATIBLE_VERSION)
        assert not (client.done and host.done)


def test_a_different_prologue_fails_the_handshake() -> None:
    client = SecureInitiator(CLIENT, make_prologue("wizard", "lobby-1"))
    host = SecureResponder(HOST, make_prologue("wizard", "lobby-2"))
    with pytest.raises(ProtocolError) as err:
        handshake(client, host)
    assert err.value.code == HANDSHAKE_FAILED


def test_make_prologue_is_unambiguous() -> None:
    assert make_prologue("ab", "c") != make_prologue("a", "bc")
    assert make_prologue() == b"netplay/secure/v1"


def test_an_unknown_transport_version_is_refused() -> None:
    rogue = HandshakeState(True, X25519PrivateKey.generate(), b"netplay/secure/v1")
    host = SecureResponder(HOST)
    with pytest.raises(ProtocolError) as err:
        host.receive(rogue.write_message(bytes([VERSION + 1])))
    assert err.value.code == INCOMPATIBLE_VERSION
    assert "same version" in err.value.message


def rogue_host_message_2(payload: bytes) -> SecureInitiator:
    """A client that has just sent message 1 to a rogue host now sending ``payload``."""
    client = SecureInitiator(CLIENT)
    rogue = HandshakeState(False, HOST.private_key, b"netplay/secure/v1")
    rogue.read_message(client.start())
    client.rogue_message = rogue.write_message(payload)  # type: ignore[attr-defined]
    return client


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (b"\xc1", BAD_ENCODING),  # never-used msgpack byte
        (msgpack.packb([1, 2]), BAD_MESSAGE),
        (msgpack.packb({"v": VERSION, "pake": False}), BAD_MESSAGE),
        (msgpack.packb({"v": VERSION, "pake": False, "app": {}, "x": 1}), BAD_MESSAGE),
        (msgpack.packb({"v": VERSION, "pake": 0, "app": {}}), BAD_MESSAGE),
        (msgpack.packb({"v": VERSION, "pake": False, "app": []}), BAD_MESSAGE),
        (msgpack.packb({"v": VERSION + 1, "pake": False, "app": {}}), INCOMPATIBLE_VERSION),
        (msgpack.packb({"v": True, "pake": False, "app": {}}), INCOMPATIBLE_VERSION),
        (msgpack.packb({"v": VERSION, "pake": False, "app": {1: 2}}), BAD_ENCODING),
    ],
)
def test_a_malformed_host_payload_is_a_named_error(payload: bytes, code: str) -> None:
    client = rogue_host_message_2(payload)
    with pytest.raises(ProtocolError) as err:
        client.receive(client.rogue_message)  # type: ignore[attr-defined]
    assert err.value.code == code


def test_oversized_handshake_messages_are_refused_unread() -> None:
    host = SecureResponder(HOST)
    with pytest.raises(ProtocolError) as err:
        host.receive(bytes(MAX_HANDSHAKE_MESSAGE + 1))
    assert err.value.code == FRAME_TOO_LARGE


def test_app_data_that_cannot_fit_is_refused_up_front() -> None:
    with pytest.raises(ValueError, match="512"):
        SecureInitiator(CLIENT, app_data={"blob": bytes(400)})
    with pytest.raises(TypeError):
        SecureResponder(HOST, app_data={1: "x"})  # type: ignore[dict-item]
    SecureInitiator(CLIENT, app_data={"name": "x" * 32, "key": bytes(32)})


@pytest.mark.parametrize("password", ["", "   ", b""])
def test_an_empty_password_is_refused_up_front(password: str | bytes) -> None:
    with pytest.raises(ValueError):
        SecureInitiator(CLIENT, password=password)
    with pytest.raises(ValueError):
        SecureResponder(HOST, password=password)


def test_no_frames_before_the_handshake_is_done() -> None:
    client = SecureInitiator(CLIENT)
    with pytest.raises(RuntimeError):
        client.encrypt(b"too early")
    with pytest.raises(RuntimeError):
        _ = client.handshake_hash


# -- the frame codec: fail closed -----------------------------------------------------------


payloads = st.lists(st.binary(max_size=300), min_size=1, max_size=8)


@settings(max_examples=40, deadline=None)
@given(up=payloads, down=payloads)
def test_round_trip_both_directions(up: list[bytes], down: list[bytes]) -> None:
    client, host = channels()
    assert [host.decrypt(client.encrypt(p)) for p in up] == up
    assert [client.decrypt(host.encrypt(p)) for p in down] == down


@settings(max_examples=60, deadline=None)
@given(payload=st.binary(max_size=200), data=st.data())
def test_any_single_bit_flip_is_rejected_and_closes(payload: bytes, data: st.DataObject) -> None:
    client, host = channels()
    wire = client.encrypt(payload)
    bit = data.draw(st.integers(0, len(wire) * 8 - 1), label="bit")
    flipped = bytearray(wire)
    flipped[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(ProtocolError) as err:
        host.decrypt(bytes(flipped))
    assert err.value.code == DECRYPT_FAILED
    with pytest.raises(ProtocolError):
        host.decrypt(wire)  # the genuine frame too: never resync after a failure
    notice = encode_payload({"t": "error", "code": err.value.code})
    assert client.decrypt(host.encrypt(notice)) == notice  # but the host can still say why


@settings(max_examples=30, deadline=None)
@given(frames=st.lists(st.binary(max_size=64), min_size=2, max_size=6), data=st.data())
def test_replayed_frames_are_rejected(frames: list[bytes], data: st.DataObject) -> None:
    client, host = channels()
    wires = [client.encrypt(p) for p in frames]
    upto = data.draw(st.integers(0, len(wires) - 1), label="delivered")
    for wire, payload in zip(wires[: upto + 1], frames, strict=False):
        assert host.decrypt(wire) == payload
    replay = data.draw(st.sampled_from(wires[: upto + 1]), label="replayed")
    with pytest.raises(ProtocolError):
        host.decrypt(replay)


@settings(max_examples=30, deadline=None)
@given(frames=st.lists(st.binary(max_size=64), min_size=2, max_size=6), data=st.data())
def test_reordered_or_dropped_frames_are_rejected(frames: list[bytes], data: st.DataObject) -> None:
    client, host = channels()
    wires = [client.encrypt(p) for p in frames]
    skip_to = data.draw(st.integers(1, len(wires) - 1), label="first frame delivered")
    with pytest.raises(ProtocolError):
        host.decrypt(wires[skip_to])
    with pytest.raises(ProtocolError):
        host.decrypt(wires[0])  # closed for good


def test_frames_are_not_accepted_in_the_wrong_direction() -> None:
    client, _ = channels()
    with pytest.raises(ProtocolError):
        client.decrypt(client.encrypt(b"echo"))  # reflected back at its sender


def test_frame_size_limits() -> None:
    client, host = channels()
    biggest = client.encrypt(bytes(MAX_PAYLOAD))
    assert len(biggest) == 65535
    assert host.decrypt(biggest) == bytes(MAX_PAYLOAD)
    with pytest.raises(ValueError):
        client.encrypt(bytes(MAX_PAYLOAD + 1))
    with pytest.raises(ProtocolError) as err:
        host.decrypt(bytes(65536))
    assert err.value.code == FRAME_TOO_LARGE
    _, other = channels()
    with pytest.raises(ProtocolError) as err:
        other.decrypt(bytes(15))
    assert err.value.code == DECRYPT_FAILED


def test_the_driver_is_a_framing_cipher() -> None:
    """netplay's FrameEncoder/FrameDecoder take the driver (or its channel) as their cipher."""
    client, host = pair()
    encoder = FrameEncoder(client)
    decoder = FrameDecoder(cipher=host)
    wire = b"".join(encoder.frame(encode_payload({"t": "chat", "n": n})) for n in range(3))
    assert decoder.feed(wire) == [{"t": "chat", "n": n} for n in range(3)]
    tampered = bytearray(encoder.frame(encode_payload({"t": "play", "card": 7})))
    tampered[-1] ^= 1
    with pytest.raises(ProtocolError) as err:
        decoder.feed(bytes(tampered))
    assert err.value.code == DECRYPT_FAILED


# -- cutting the handshake off the stream ---------------------------------------------------


def test_handshake_reader_splits_frames_and_keeps_the_rest() -> None:
    reader = HandshakeReader()
    stream = frame(b"one") + frame(b"two") + b"\x00\x00\x00\x09rest"
    reader.feed(stream[:2])
    assert reader.next_message() is None
    reader.feed(stream[2:9])
    assert reader.next_message() == b"one"
    assert reader.next_message() is None
    reader.feed(stream[9:])
    assert reader.next_message() == b"two"
    assert reader.rest() == b"\x00\x00\x00\x09rest"
    assert reader.rest() == b""


def test_handshake_reader_refuses_a_large_declared_length_unread() -> None:
    reader = HandshakeReader()
    with pytest.raises(ProtocolError) as err:
        reader.feed((MAX_HANDSHAKE_MESSAGE + 1).to_bytes(4, "big"))
    assert err.value.code == FRAME_TOO_LARGE


# -- interop at the driver level -------------------------------------------------------------


def oracle(initiator: bool, static: StaticIdentity) -> Any:
    from cryptography.hazmat.primitives import serialization

    conn = NoiseConnection.from_name(PROTOCOL_NAME)
    conn.set_as_initiator() if initiator else conn.set_as_responder()
    raw = static.private_key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    conn.set_keypair_from_private_bytes(Keypair.STATIC, raw)
    conn.set_prologue(b"netplay/secure/v1")
    conn.start_handshake()
    return conn


@needs_oracle
def test_our_client_with_a_reference_host() -> None:
    client = SecureInitiator(CLIENT, expected_server_key=HOST.public_key)
    host = oracle(False, HOST)
    assert host.read_message(client.start()) == bytes([VERSION])
    message_2 = host.write_message(msgpack.packb({"v": VERSION, "pake": False, "app": {"k": "v"}}))
    message_3 = client.receive(bytes(message_2))
    assert message_3 is not None and client.done
    assert msgpack.unpackb(host.read_message(message_3)) == {"v": VERSION, "pake": None, "app": {}}
    assert client.handshake_hash == host.get_handshake_hash()
    # Our frames are padded (version 2): the reference sees the padding and sends it back.
    assert host.decrypt(client.encrypt(b"hello")) == pad(b"hello")
    assert client.decrypt(host.encrypt(pad(b"welcome"))) == b"welcome"


@needs_oracle
def test_our_host_with_a_reference_client() -> None:
    host = SecureResponder(HOST, app_data={"game": "wizard"})
    client = oracle(True, CLIENT)
    message_2 = host.receive(bytes(client.write_message(bytes([VERSION]))))
    assert message_2 is not None
    assert msgpack.unpackb(client.read_message(message_2)) == {
        "v": VERSION,
        "pake": False,
        "app": {"game": "wizard"},
    }
    message_3 = client.write_message(msgpack.packb({"v": VERSION, "pake": None, "app": {}}))
    assert host.receive(bytes(message_3)) is None and host.done
    assert host.remote_static == CLIENT.public_key
    assert host.handshake_hash == client.get_handshake_hash()
    assert host.decrypt(client.encrypt(pad(b"hello"))) == b"hello"
    assert client.decrypt(host.encrypt(b"welcome")) == pad(b"welcome")


# -- over real sockets ---------------------------------------------------------------------------


async def test_loopback_handshake_then_encrypted_frames() -> None:
    """The integration in miniature: handshake frames, then the FrameDecoder takes over,
    including a hello the client sent in the same write as its last handshake message."""
    seen: list[Any] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        secure = SecureResponder(HOST, password=PASSWORD)
        frames = HandshakeReader()
        while not secure.done:
            data = await reader.read(4096)
            assert data, "the client hung up during the handshake"
            frames.feed(data)
            while not secure.done and (message := frames.next_message()) is not None:
                reply = secure.receive(message)
                if reply is not None:
                    writer.write(frame(reply))
        decoder = FrameDecoder(cipher=secure)
        decoder.receive_data(frames.rest())
        while not (msgs := decoder.feed(b"")):
            decoder.receive_data(await reader.read(4096))
        seen.extend(msgs)
        seen.append(secure.remote_static)
        writer.write(FrameEncoder(secure).frame(encode_payload({"t": "welcome"})))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with asyncio.timeout(5), server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        secure = SecureInitiator(CLIENT, password=PASSWORD, expected_server_key=HOST.public_key)
        frames = HandshakeReader()
        writer.write(frame(secure.start()))
        while not secure.done:
            data = await reader.read(4096)
            assert data, "the host hung up during the handshake"
            frames.feed(data)
            while not secure.done and (message := frames.next_message()) is not None:
                reply = secure.receive(message)
                if reply is not None:
                    out = frame(reply)
                    if secure.done:  # the first encrypted frame rides along
                        out += FrameEncoder(secure).frame(encode_payload({"t": "hello"}))
                    writer.write(out)
        decoder = FrameDecoder(cipher=secure)
        decoder.receive_data(frames.rest())
        while not (msgs := decoder.feed(b"")):
            decoder.receive_data(await reader.read(4096))
        writer.close()
    assert msgs == [{"t": "welcome"}]
    assert seen == [{"t": "hello"}, CLIENT.public_key]


# -- padding (transport version 2) ----------------------------------------------------------------


@pytest.mark.parametrize("size", [0, 1, 254, 255, 256, 1023, 1024, 4095, 16383, MAX_PAYLOAD])
def test_every_frame_is_padded_to_a_fixed_size(size: int) -> None:
    sender, receiver = channels()
    payload = bytes([0x80]) * size  # payloads may end in the marker's byte, or in zeros
    frame = sender.encrypt(payload)
    assert len(frame) - 16 in PAD_SIZES and len(frame) - 16 == padded_size(size)
    assert receiver.decrypt(frame) == payload
    zeros = bytes(size)
    assert receiver.decrypt(sender.encrypt(zeros)) == zeros


def test_payloads_of_one_class_are_one_size_on_the_wire() -> None:
    sender, _ = channels()
    assert len({len(sender.encrypt(bytes(n))) for n in range(256, 1024)}) == 1


@pytest.mark.parametrize("plaintext", [b"no marker", b"\x80" * 100, bytes(256), b""])
def test_a_frame_padded_otherwise_is_refused_and_breaks_the_channel(
    plaintext: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, host = pair()
    # Sealed by the peer under the right key, as a version-1 peer would: only the padding
    # is wrong.
    with monkeypatch.context() as patch:
        patch.setattr(secure, "pad", lambda payload: payload)
        frame = client.channel.encrypt(plaintext)
    with pytest.raises(ProtocolError) as err:
        host.channel.decrypt(frame)
    assert err.value.code == BAD_ENCODING
    with pytest.raises(ProtocolError):  # and nothing after it is read
        host.channel.decrypt(client.channel.encrypt(b"hello"))

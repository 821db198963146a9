"""netplay.noise: the cacophony vectors, the CipherState rules, failures, and interop with the
``noiseprotocol`` package in both roles (skipped only if that package cannot be imported)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from netplay.errors import ProtocolError
from netplay.noise import (
    DECRYPT_FAILED,
    HANDSHAKE_FAILED,
    MAX_NONCE,
    NONCE_EXHAUSTED,
    PROTOCOL_NAME,
    CipherState,
    HandshakeState,
    NoiseError,
    public_bytes,
)

try:
    from noise.connection import Keypair, NoiseConnection
except ImportError:  # the oracle is a test extra; only its tests skip without it
    NoiseConnection = None

needs_oracle = pytest.mark.skipif(
    NoiseConnection is None, reason="noiseprotocol (test oracle) is not installed"
)

VECTORS = Path(__file__).resolve().parent.parent / "vectors" / "noise" / "cacophony-xx.json"


def load_vectors() -> list[dict[str, Any]]:
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    return data["vectors"]


def key(hex_private: str) -> X25519PrivateKey:
    return X25519PrivateKey.from_private_bytes(bytes.fromhex(hex_private))


def handshake_pair(prologue: bytes = b"p") -> tuple[HandshakeState, HandshakeState]:
    i = HandshakeState(True, X25519PrivateKey.generate(), prologue)
    r = HandshakeState(False, X25519PrivateKey.generate(), prologue)
    return i, r


# -- the published vectors ------------------------------------------------------------------


def test_vector_file_holds_only_our_suite() -> None:
    vectors = load_vectors()
    assert vectors, "no vectors"
    assert {v["protocol_name"] for v in vectors} == {PROTOCOL_NAME.decode()}


@pytest.mark.parametrize("vector", load_vectors(), ids=lambda v: v["protocol_name"])
def test_cacophony_vector(vector: dict[str, Any]) -> None:
    """Every handshake and transport message, byte for byte, and the handshake hash."""
    hx = bytes.fromhex
    init = HandshakeState(
        True,
        key(vector["init_static"]),
        hx(vector["init_prologue"]),
        ephemeral=key(vector["init_ephemeral"]),
    )
    resp = HandshakeState(
        False,
        key(vector["resp_static"]),
        hx(vector["resp_prologue"]),
        ephemeral=key(vector["resp_ephemeral"]),
    )
    messages = vector["messages"]
    assert len(messages) > 3
    for index, message in enumerate(messages[:3]):
        writer, reader = (init, resp) if index % 2 == 0 else (resp, init)
        ciphertext = writer.write_message(hx(message["payload"]))
        assert ciphertext.hex() == message["ciphertext"], f"handshake message {index + 1}"
        assert reader.read_message(ciphertext) == hx(message["payload"])
    assert init.complete and resp.complete
    assert init.handshake_hash.hex() == vector["handshake_hash"]
    assert resp.handshake_hash.hex() == vector["handshake_hash"]
    assert init.remote_static == public_bytes(key(vector["resp_static"]))
    assert resp.remote_static == public_bytes(key(vector["init_static"]))

    init_send, init_recv = init.split()
    resp_send, resp_recv = resp.split()
    # After the handshake the vectors keep alternating: responder, initiator, responder...
    for index, message in enumerate(messages[3:], start=3):
        sender, receiver = (init_send, resp_recv) if index % 2 == 0 else (resp_send, init_recv)
        ciphertext = sender.encrypt_with_ad(b"", hx(message["payload"]))
        assert ciphertext.hex() == message["ciphertext"], f"transport message {index + 1}"
        assert receiver.decrypt_with_ad(b"", ciphertext) == hx(message["payload"])


# -- CipherState ------------------------------------------------------------------------------


def test_nonce_is_four_zero_bytes_then_little_endian_counter() -> None:
    k = bytes(range(32))
    cs = CipherState(k)
    cs.n = 0x0102030405060708
    ours = cs.encrypt_with_ad(b"ad", b"payload")
    nonce = b"\x00" * 4 + bytes([8, 7, 6, 5, 4, 3, 2, 1])
    assert ours == ChaCha20Poly1305(k).encrypt(nonce, b"payload", b"ad")
    assert cs.n == 0x0102030405060709


def test_counter_moves_only_after_a_successful_decrypt() -> None:
    k = bytes(32)
    sender, receiver = CipherState(k), CipherState(k)
    first = sender.encrypt_with_ad(b"", b"one")
    with pytest.raises(NoiseError) as err:
        receiver.decrypt_with_ad(b"", first[:-1] + bytes([first[-1] ^ 1]))
    assert err.value.code == DECRYPT_FAILED
    assert receiver.n == 0
    assert receiver.decrypt_with_ad(b"", first) == b"one"
    assert receiver.n == 1


def test_last_nonce_is_refused_both_ways() -> None:
    k = bytes(32)
    sender, receiver = CipherState(k), CipherState(k)
    sender.n = receiver.n = MAX_NONCE - 1
    last = sender.encrypt_with_ad(b"", b"last one")
    assert receiver.decrypt_with_ad(b"", last) == b"last one"
    assert sender.n == receiver.n == MAX_NONCE
    with pytest.raises(NoiseError) as err:
        sender.encrypt_with_ad(b"", b"one too many")
    assert err.value.code == NONCE_EXHAUSTED
    with pytest.raises(NoiseError):
        receiver.decrypt_with_ad(b"", last)


def test_an_empty_cipherstate_passes_bytes_through() -> None:
    cs = CipherState()
    assert not cs.has_key()
    assert cs.encrypt_with_ad(b"ad", b"clear") == b"clear"
    assert cs.n == 0


# -- handshake failures ----------------------------------------------------------------------


def test_handshake_round_trip_and_split_directions() -> None:
    i, r = handshake_pair()
    r.read_message(i.write_message(b"a"))
    assert i.read_message(r.write_message(b"b")) == b"b"
    assert r.read_message(i.write_message(b"c")) == b"c"
    i_send, i_recv = i.split()
    r_send, r_recv = r.split()
    assert r_recv.decrypt_with_ad(b"", i_send.encrypt_with_ad(b"", b"up")) == b"up"
    assert i_recv.decrypt_with_ad(b"", r_send.encrypt_with_ad(b"", b"down")) == b"down"


def test_out_of_turn_calls_are_refused() -> None:
    i, r = handshake_pair()
    with pytest.raises(RuntimeError):
        i.read_message(b"x" * 32)
    with pytest.raises(RuntimeError):
        r.write_message(b"")
    with pytest.raises(RuntimeError):
        i.split()


@pytest.mark.parametrize("index", [0, 40, 79, -1])
def test_tampered_message_2_fails_and_the_state_stays_failed(index: int) -> None:
    i, r = handshake_pair()
    r.read_message(i.write_message(b""))
    message = bytearray(r.write_message(b"payload"))
    good = bytes(message)
    message[index] ^= 0x01
    with pytest.raises(NoiseError) as err:
        i.read_message(bytes(message))
    assert err.value.code == HANDSHAKE_FAILED
    assert isinstance(err.value, ProtocolError)
    with pytest.raises(NoiseError):
        i.read_message(good)  # fail closed: the genuine message comes too late


def test_a_refused_message_poisons_the_state_even_before_any_mixing() -> None:
    """Refused before a byte is hashed, so only the failure flag stops the genuine message."""
    i, r = handshake_pair()
    r.read_message(i.write_message(b""))
    genuine = r.write_message(b"")
    with pytest.raises(NoiseError):
        i.read_message(bytes(65536))  # over the Noise maximum: refused unread
    with pytest.raises(NoiseError):
        i.read_message(genuine)
    with pytest.raises(NoiseError):
        i.write_message(b"")


def test_different_prologues_do_not_agree() -> None:
    i = HandshakeState(True, X25519PrivateKey.generate(), b"game one")
    r = HandshakeState(False, X25519PrivateKey.generate(), b"game two")
    r.read_message(i.write_message(b""))
    with pytest.raises(NoiseError):
        i.read_message(r.write_message(b""))


@pytest.mark.parametrize("cut", [0, 31, 32 + 47, 32 + 48 + 15])
def test_truncated_message_is_refused(cut: int) -> None:
    i, r = handshake_pair()
    r.read_message(i.write_message(b""))
    message = r.write_message(b"")
    with pytest.raises(NoiseError) as err:
        i.read_message(message[:cut])
    assert err.value.code == HANDSHAKE_FAILED


def test_small_order_ephemeral_is_refused() -> None:
    """An all-zero public key makes an all-zero DH result: abort, never mix it in."""
    _, r = handshake_pair()
    r.read_message(bytes(32))  # message 1 has no DH yet
    with pytest.raises(NoiseError) as err:
        r.write_message(b"")  # ee with the zero point
    assert err.value.code == HANDSHAKE_FAILED


def test_fresh_ephemeral_keys_every_handshake() -> None:
    static = X25519PrivateKey.generate()
    firsts = {HandshakeState(True, static).write_message(b"") for _ in range(3)}
    assert len(firsts) == 3


# -- interop with the noiseprotocol package -------------------------------------------------


def oracle(initiator: bool, static: X25519PrivateKey, prologue: bytes) -> Any:
    from cryptography.hazmat.primitives import serialization

    conn = NoiseConnection.from_name(PROTOCOL_NAME)
    conn.set_as_initiator() if initiator else conn.set_as_responder()
    raw = static.private_bytes(
        serialization.Encoding.Raw,
        serialization.PrivateFormat.Raw,
        serialization.NoEncryption(),
    )
    conn.set_keypair_from_private_bytes(Keypair.STATIC, raw)
    conn.set_prologue(prologue)
    conn.start_handshake()
    return conn


@needs_oracle
def test_interop_we_initiate() -> None:
    ours_static, theirs_static = X25519PrivateKey.generate(), X25519PrivateKey.generate()
    ours = HandshakeState(True, ours_static, b"netplay/test")
    theirs = oracle(False, theirs_static, b"netplay/test")
    assert theirs.read_message(ours.write_message(b"\x01")) == b"\x01"
    assert ours.read_message(bytes(theirs.write_message(b"host payload"))) == b"host payload"
    assert ours.remote_static == public_bytes(theirs_static)
    assert theirs.read_message(ours.write_message(b"client payload")) == b"client payload"
    assert theirs.handshake_finished
    assert ours.handshake_hash == theirs.get_handshake_hash()
    send, recv = ours.split()
    for n in range(3):
        assert theirs.decrypt(send.encrypt_with_ad(b"", b"up %d" % n)) == b"up %d" % n
        assert recv.decrypt_with_ad(b"", theirs.encrypt(b"down %d" % n)) == b"down %d" % n


@needs_oracle
def test_interop_we_respond() -> None:
    ours_static, theirs_static = X25519PrivateKey.generate(), X25519PrivateKey.generate()
    theirs = oracle(True, theirs_static, b"netplay/test")
    ours = HandshakeState(False, ours_static, b"netplay/test")
    assert ours.read_message(bytes(theirs.write_message(b"\x01"))) == b"\x01"
    assert theirs.read_message(ours.write_message(b"host payload")) == b"host payload"
    assert ours.read_message(bytes(theirs.write_message(b"client payload"))) == b"client payload"
    assert ours.remote_static == public_bytes(theirs_static)
    assert ours.handshake_hash == theirs.get_handshake_hash()
    send, recv = ours.split()
    for n in range(3):
        assert recv.decrypt_with_ad(b"", theirs.encrypt(b"up %d" % n)) == b"up %d" % n
        assert theirs.decrypt(send.encrypt_with_ad(b"", b"down %d" % n)) == b"down %d" % n

"""Signed envelopes: exact bytes, domain-separated, numbered per sender (netplay.signing)."""

from __future__ import annotations

import dataclasses
import hashlib

import msgpack
import pytest

from netplay.errors import ProtocolError
from netplay.signing import (
    BAD_SIGNATURE,
    ENVELOPE_LABEL,
    EQUIVOCATION,
    SEQ_GAP,
    SEQ_REPLAY,
    UNKNOWN_SENDER,
    Envelope,
    EnvelopeError,
    Opener,
    Sealer,
    SigningKey,
    signature_input,
    verify,
)

TAG = b"test/v1/message"
CONTEXT = b"game-0001"


def key(n: int) -> SigningKey:
    return SigningKey.from_private_bytes(hashlib.sha256(bytes([n])).digest())


def sealers(count: int = 3) -> list[Sealer]:
    return [Sealer(key(s), TAG, CONTEXT, s) for s in range(count)]


def opener(count: int = 3) -> Opener:
    return Opener(TAG, CONTEXT, [key(s).public_key for s in range(count)])


def test_signature_input_layout() -> None:
    data = signature_input(b"tag", b"ctx", 2, 7, b"body")
    assert (
        data
        == (ENVELOPE_LABEL + b"\x00\x03tag" + b"\x00\x03ctx" + b"\x00\x02" + (7).to_bytes(8, "big"))
        + b"body"
    )
    # Lengths are prefixed: moving bytes between tag and context changes the input.
    assert signature_input(b"ta", b"gctx", 2, 7, b"body") != data


def test_signature_input_rejects_out_of_range_fields() -> None:
    with pytest.raises(ValueError):
        signature_input(TAG, CONTEXT, 0x10000, 0, b"")
    with pytest.raises(ValueError):
        signature_input(TAG, CONTEXT, 0, -1, b"")
    with pytest.raises(ValueError):
        signature_input(b"x" * 0x10000, CONTEXT, 0, 0, b"")


def test_ed25519_signatures_are_deterministic_and_known() -> None:
    env = Sealer(key(0), TAG, CONTEXT, 0).seal(b"hello")
    assert env == Sealer(key(0), TAG, CONTEXT, 0).seal(b"hello")
    assert verify(key(0).public_key, TAG, CONTEXT, env)
    assert key(0).private_bytes() == hashlib.sha256(b"\x00").digest()
    assert "SigningKey(public=" in repr(key(0)) and key(0).private_bytes().hex() not in repr(key(0))


@pytest.mark.parametrize(
    "change",
    [
        {"body": b"hellO"},
        {"seq": 1},
        {"sender": 1},
        {"sig": bytes(64)},
        {"sig": b"short"},
    ],
    ids=["body", "seq", "sender", "zero-sig", "short-sig"],
)
def test_any_change_breaks_the_signature(change: dict[str, object]) -> None:
    env = Sealer(key(0), TAG, CONTEXT, 0).seal(b"hello")
    assert verify(key(0).public_key, TAG, CONTEXT, env)
    assert not verify(key(0).public_key, TAG, CONTEXT, dataclasses.replace(env, **change))


def test_tag_and_context_separate_domains() -> None:
    env = Sealer(key(0), TAG, CONTEXT, 0).seal(b"hello")
    assert not verify(key(0).public_key, b"test/v1/other", CONTEXT, env)
    assert not verify(key(0).public_key, TAG, b"game-0002", env)
    assert not verify(key(1).public_key, TAG, CONTEXT, env)


def test_sealer_numbers_from_zero() -> None:
    s = Sealer(key(0), TAG, CONTEXT, 0)
    assert [s.seal(b"a").seq, s.seal(b"b").seq, s.seal(b"c").seq] == [0, 1, 2]
    assert Sealer(key(0), TAG, CONTEXT, 0, next_seq=5).seal(b"x").seq == 5


def test_opener_accepts_consecutive_envelopes_of_every_sender() -> None:
    seal = sealers()
    op = opener()
    order = [(0, b"a"), (1, b"b"), (0, b"c"), (2, b"d"), (1, b"e")]
    for sender, body in order:
        assert op.open(seal[sender].seal(body)) == body
    assert [op.expected_seq(s) for s in range(3)] == [2, 2, 1]


def test_opener_names_a_gap() -> None:
    seal = sealers()
    op = opener()
    seal[0].seal(b"dropped")
    with pytest.raises(EnvelopeError) as exc:
        op.open(seal[0].seal(b"next"))
    assert exc.value.code == SEQ_GAP and exc.value.sender == 0 and exc.value.seq == 1


def test_opener_tells_a_replay_from_an_equivocation() -> None:
    seal = sealers()
    op = opener()
    first = seal[1].seal(b"deck A")
    op.open(first)
    with pytest.raises(EnvelopeError) as replay:
        op.open(first)
    assert replay.value.code == SEQ_REPLAY
    other = Sealer(key(1), TAG, CONTEXT, 1).seal(b"deck B")  # seq 0 again, other bytes
    with pytest.raises(EnvelopeError) as equivocation:
        op.open(other)
    assert equivocation.value.code == EQUIVOCATION and equivocation.value.sender == 1
    forged = dataclasses.replace(first, body=b"deck B")  # not signed by seat 1: no proof
    with pytest.raises(EnvelopeError) as bad:
        op.open(forged)
    assert bad.value.code == BAD_SIGNATURE


def test_opener_rejects_unknown_senders_and_bad_signatures() -> None:
    op = opener(2)
    with pytest.raises(EnvelopeError) as unknown:
        op.open(Sealer(key(2), TAG, CONTEXT, 2).seal(b"x"))
    assert unknown.value.code == UNKNOWN_SENDER
    impostor = Sealer(key(1), TAG, CONTEXT, 0).seal(b"x")  # seat 0's number, seat 1's key
    with pytest.raises(EnvelopeError) as bad:
        op.open(impostor)
    assert bad.value.code == BAD_SIGNATURE
    assert op.expected_seq(0) == 0  # nothing was accepted


def test_wire_and_json_round_trips() -> None:
    env = Sealer(key(0), TAG, CONTEXT, 0).seal(b"\x00\x01body")
    wire = msgpack.unpackb(msgpack.packb(env.to_wire(), use_bin_type=True), raw=False)
    assert Envelope.from_wire(wire) == env
    assert Envelope.from_json(env.to_json()) == env
    assert env.to_json()["body"] == "0001626f6479"


@pytest.mark.parametrize(
    "wire",
    [
        {"from": 0, "seq": 0, "body": b"x", "sig": b"s" * 63},
        {"from": True, "seq": 0, "body": b"x", "sig": b"s" * 64},
        {"from": 0, "seq": 0, "body": "x", "sig": b"s" * 64},
        {"from": 0, "seq": -1, "body": b"x", "sig": b"s" * 64},
        {"from": 0, "seq": 0, "body": b"x", "sig": b"s" * 64, "extra": 1},
        {"from": 0, "seq": 0, "sig": b"s" * 64},
    ],
    ids=["short-sig", "bool-sender", "str-body", "negative-seq", "extra-key", "no-body"],
)
def test_from_wire_is_strict(wire: dict[str, object]) -> None:
    with pytest.raises(ProtocolError):
        Envelope.from_wire(wire)


def test_from_json_rejects_non_hex() -> None:
    with pytest.raises(ProtocolError):
        Envelope.from_json({"from": 0, "seq": 0, "body": "zz", "sig": "00" * 64})

"""Framing without sockets: bytes in, messages or named errors out."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netplay.errors import BAD_ENCODING, BAD_MESSAGE, FRAME_TOO_LARGE, ProtocolError
from netplay.framing import (
    FrameDecoder,
    FrameEncoder,
    encode,
    encode_payload,
    frame,
)
from netplay.limits import Limits


def raw_frame(obj: object) -> bytes:
    """A frame around any msgpack value, bypassing encode's own checks."""
    return frame(msgpack.packb(obj, use_bin_type=True))


def decode_error(data: bytes, decoder: FrameDecoder | None = None) -> ProtocolError:
    decoder = decoder or FrameDecoder()
    with pytest.raises(ProtocolError) as info:
        decoder.feed(data)
    return info.value


def test_encode_is_length_prefixed_msgpack():
    data = encode({"t": "play", "card": 7})
    payload = msgpack.packb({"t": "play", "card": 7})
    assert data == len(payload).to_bytes(4, "big") + payload


def test_one_feed_may_hold_several_frames_and_a_partial_one():
    a, b, c = encode({"t": "a"}), encode({"t": "b", "x": b"\x00" * 40}), encode({"t": "c"})
    decoder = FrameDecoder()
    assert decoder.feed(a + b + c[:3]) == [{"t": "a"}, {"t": "b", "x": b"\x00" * 40}]
    assert decoder.buffered == 3
    assert decoder.feed(c[3:]) == [{"t": "c"}]
    assert decoder.buffered == 0


def test_byte_by_byte_feed_yields_each_message_once_complete():
    msgs = [{"t": "bid", "n": i, "name": "é" * i} for i in range(5)]
    data = b"".join(encode(m) for m in msgs)
    decoder = FrameDecoder()
    out = []
    for i in range(len(data)):
        out += decoder.feed(data[i : i + 1])
    assert out == msgs


def test_oversized_length_is_refused_from_the_header_alone():
    decoder = FrameDecoder(Limits(max_frame=1000))
    # Only the 4 header bytes: the body never has to arrive for the refusal.
    err = decode_error((1001).to_bytes(4, "big"), decoder)
    assert err.code == FRAME_TOO_LARGE
    assert "1001" in err.message and "1000" in err.message


def test_frame_exactly_at_the_limit_is_accepted():
    payload = encode_payload({"t": "x", "pad": "a" * 50})
    decoder = FrameDecoder(Limits(max_frame=len(payload), handshake_frame=len(payload)))
    assert decoder.feed(frame(payload)) == [{"t": "x", "pad": "a" * 50}]


def test_max_frame_can_change_between_messages():
    small = FrameDecoder(max_frame=16)
    big = encode({"t": "x", "pad": "a" * 40})
    assert decode_error(big, small).code == FRAME_TOO_LARGE
    decoder = FrameDecoder(max_frame=16)
    decoder.receive_data(encode({"t": "hi"}))
    assert decoder.next_message() == {"t": "hi"}
    decoder.max_frame = 1024
    assert decoder.feed(big) == [{"t": "x", "pad": "a" * 40}]


def test_decoder_stays_broken_after_an_error():
    decoder = FrameDecoder()
    first = decode_error(frame(b"\xc1"), decoder)
    with pytest.raises(ProtocolError) as again:
        decoder.feed(encode({"t": "fine"}))
    assert again.value is first


def test_truncated_msgpack_inside_a_complete_frame():
    payload = encode_payload({"t": "play", "name": "someone"})
    err = decode_error(frame(payload[:-3]))
    assert err.code == BAD_ENCODING
    assert "incomplete" in err.message


def test_trailing_bytes_after_the_message():
    err = decode_error(frame(encode_payload({"t": "x"}) + b"\x01"))
    assert err.code == BAD_ENCODING
    assert "left over" in err.message


def test_empty_frame():
    assert decode_error(frame(b"")).code == BAD_ENCODING


def test_invalid_msgpack_byte():
    assert decode_error(frame(b"\xc1")).code == BAD_ENCODING


@pytest.mark.parametrize(
    "value",
    [msgpack.ExtType(5, b"ab"), msgpack.ExtType(5, b""), msgpack.Timestamp(1, 0)],
    ids=["ext", "empty ext", "timestamp"],
)
def test_ext_types_are_refused(value):
    assert decode_error(raw_frame({"t": "x", "v": value})).code == BAD_ENCODING


def test_int_map_keys_are_refused_even_nested():
    assert decode_error(raw_frame({1: 2})).code == BAD_ENCODING
    assert decode_error(raw_frame({"t": "x", "m": {1: 2}})).code == BAD_ENCODING


def test_bin_keys_at_top_level_are_refused():
    assert decode_error(raw_frame({"t": "x", b"k": 1})).code == BAD_MESSAGE


def test_deep_nesting_is_refused():
    payload = b"\x82\xa1t\xa1x\xa1v" + b"\x91" * 5000 + b"\xc0"
    err = decode_error(frame(payload))
    assert err.code == BAD_ENCODING
    assert "deep" in err.message


@pytest.mark.parametrize(
    "value",
    [
        list(range(129)),
        {str(i): i for i in range(65)},
        "x" * 4097,
        b"x" * 4097,
    ],
    ids=["array", "map", "str", "bin"],
)
def test_containers_over_their_limit_are_refused(value):
    assert decode_error(raw_frame({"t": "x", "v": value})).code == BAD_ENCODING


def test_a_huge_declared_array_allocates_nothing():
    # A 5-byte frame claiming 4 billion items: refused by the limit, not by memory.
    assert decode_error(frame(b"\xdd\xff\xff\xff\xff")).code == BAD_ENCODING


def test_containers_at_their_limit_pass():
    value = {"t": "x", "a": list(range(128)), "s": "x" * 4096, "b": b"x" * 4096}
    assert FrameDecoder().feed(raw_frame(value)) == [value]


@pytest.mark.parametrize("value", [[1, 2], "t", 5, None], ids=["list", "str", "int", "nil"])
def test_top_level_must_be_a_map(value):
    err = decode_error(raw_frame(value))
    assert err.code == BAD_MESSAGE
    assert "map" in err.message


@pytest.mark.parametrize("value", [{"x": 1}, {"t": 1}, {"t": None}, {"t": b"play"}])
def test_top_level_needs_a_string_t(value):
    err = decode_error(raw_frame(value))
    assert err.code == BAD_MESSAGE
    assert '"t"' in err.message


def test_encode_refuses_what_the_peer_would_refuse():
    for bad in ({"x": 1}, {"t": 1}, [("t", "x")]):
        with pytest.raises(ValueError):
            encode_payload(bad)  # type: ignore[arg-type]


class XorCipher:
    """A stand-in for an encrypting transport: proves the seam carries every frame."""

    def __init__(self) -> None:
        self.sealed = 0

    def seal(self, payload: bytes) -> bytes:
        self.sealed += 1
        return bytes(b ^ 0x5A for b in payload) + b"TAG!"

    def open(self, wire: bytes) -> bytes:
        if not wire.endswith(b"TAG!"):
            raise ProtocolError("bad_frame", "frame failed authentication")
        return bytes(b ^ 0x5A for b in wire[:-4])


def test_the_cipher_seam_wraps_each_payload():
    cipher = XorCipher()
    data = b"".join(FrameEncoder(cipher).frame(encode_payload({"t": "m", "i": i})) for i in (1, 2))
    assert cipher.sealed == 2
    assert msgpack.packb({"t": "m", "i": 1}) not in data  # nothing in the clear
    assert FrameDecoder(cipher=cipher).feed(data) == [{"t": "m", "i": 1}, {"t": "m", "i": 2}]


def test_a_cipher_failure_is_a_protocol_error():
    err = decode_error(encode({"t": "m"}), FrameDecoder(cipher=XorCipher()))
    assert err.code == "bad_frame"


def test_encoder_refuses_frames_over_its_limit():
    with pytest.raises(ValueError):
        FrameEncoder(max_frame=10).frame(encode_payload({"t": "x", "pad": "a" * 20}))


# -- property: whatever the split, the same messages come out ---------------------------

keys = st.sampled_from(["t", "a", "bb", "é", "seat"])  # few names: "t" and collisions come up
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=40)
    | st.binary(max_size=40)
)
# Two levels of nesting, built flat: st.recursive is slow to draw on a loaded machine.
inner = scalars | st.lists(scalars, max_size=6)
values = inner | st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4)
messages = st.builds(
    lambda t, rest: {**rest, "t": t},
    st.text(min_size=1, max_size=12),
    st.dictionaries(keys, values, max_size=6),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(messages, min_size=1, max_size=4), st.data())
def test_round_trip_under_any_split(msgs, data):
    stream = b"".join(encode(m) for m in msgs)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = FrameDecoder()
    out = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        out += decoder.feed(stream[start:end])
    assert out == msgs
    assert decoder.buffered == 0

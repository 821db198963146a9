"""Frames on the wire: a 4-byte big-endian length, then one msgpack map. No I/O.

Three layers, each swappable on its own:

* ``encode_payload`` / ``decode_payload``: a message dict to msgpack bytes and
  back, with hard limits on every container so a small frame cannot expand
  into a large allocation.
* a ``Cipher`` turns payload bytes into the bytes that go on the wire and back.
  Every ``Server`` and ``Client`` connection uses the Noise transport of
  ``secure`` (one per connection; every frame is sealed in wire order).
  ``PLAIN`` does nothing: it is for the sans-I/O state machines and their tests.
* ``FrameEncoder`` / ``FrameDecoder`` add and strip the length prefix. The
  decoder checks a declared length against its limit before it waits for the
  body, so a peer cannot make us buffer more than one frame.
"""

from __future__ import annotations

from typing import Any, Protocol

import msgpack

from .errors import BAD_ENCODING, BAD_MESSAGE, FRAME_TOO_LARGE, ProtocolError
from .limits import DEFAULT_LIMITS, Limits

HEADER_BYTES = 4

Message = dict[str, Any]


class Cipher(Protocol):
    """Turns one frame's payload into wire bytes and back (stateful: call in wire order).

    A cipher may also say how much it adds to each frame (``overhead``, bytes) and the
    largest payload it seals (``max_payload``); ``max_payload`` below reads both.
    """

    def seal(self, payload: bytes) -> bytes: ...

    def open(self, wire: bytes) -> bytes:
        """Return the payload, or raise ``ProtocolError`` if the bytes do not authenticate."""
        ...


class PlainCipher:
    """No encryption: the payload is the wire bytes. Only the sans-I/O state machines and
    their tests use it; ``Server`` and ``Client`` always encrypt (``secure``)."""

    overhead = 0
    max_payload: int | None = None

    def seal(self, payload: bytes) -> bytes:
        return payload

    def open(self, wire: bytes) -> bytes:
        return wire


PLAIN = PlainCipher()


def max_payload(cipher: Cipher | type, max_frame: int) -> int:
    """The largest payload that ``cipher`` seals into a frame of at most ``max_frame`` bytes."""
    largest = max_frame - getattr(cipher, "overhead", 0)
    cap = getattr(cipher, "max_payload", None)
    return largest if cap is None else min(largest, cap)


def encode_payload(msg: Message) -> bytes:
    """msgpack bytes of one message; ``msg`` must be a map with a string ``"t"``."""
    if type(msg) is not dict or type(msg.get("t")) is not str:
        raise ValueError(f'a message must be a dict with a str "t", got {msg!r:.80}')
    return msgpack.packb(msg, use_bin_type=True)


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"ext type {code} is not allowed")


def decode_payload(payload: bytes, limits: Limits = DEFAULT_LIMITS) -> Message:
    """Parse one frame payload into a message, or raise ``ProtocolError``."""
    try:
        msg = msgpack.unpackb(
            payload,
            raw=False,
            use_list=True,
            strict_map_key=True,  # keys must be str (or bin, which schemas reject)
            max_ext_len=0,  # no ext types, and so no Timestamp either...
            ext_hook=_refuse_ext,  # ...not even an empty one, which max_ext_len=0 lets through
            max_str_len=limits.max_str,
            max_bin_len=limits.max_bin,
            max_array_len=limits.max_array,
            max_map_len=limits.max_map,
        )
    except msgpack.StackError:
        raise ProtocolError(BAD_ENCODING, "message nested too deeply") from None
    except msgpack.ExtraData:
        raise ProtocolError(BAD_ENCODING, "bytes left over after the message in a frame") from None
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        # msgpack signals truncation, limits, ext types and bad keys all as ValueError.
        raise ProtocolError(BAD_ENCODING, f"frame is not a valid message: {exc}") from None
    if type(msg) is not dict:
        raise ProtocolError(BAD_MESSAGE, f"a message must be a map, got {type(msg).__name__}")
    kind = msg.get("t")
    if type(kind) is not str:
        raise ProtocolError(BAD_MESSAGE, 'a message must have a string "t" naming its type')
    for key in msg:
        if type(key) is not str:
            raise ProtocolError(BAD_MESSAGE, f"message {kind!r} has a non-string key")
    return msg


def frame(wire: bytes) -> bytes:
    """Prefix ``wire`` bytes with their length."""
    return len(wire).to_bytes(HEADER_BYTES, "big") + wire


def encode(msg: Message) -> bytes:
    """One unencrypted frame holding ``msg``."""
    return frame(encode_payload(msg))


class FrameEncoder:
    """Seals payloads with the connection's cipher and frames them."""

    def __init__(self, cipher: Cipher = PLAIN, *, max_frame: int = DEFAULT_LIMITS.max_frame):
        self.cipher = cipher
        self.max_frame = max_frame

    def frame(self, payload: bytes) -> bytes:
        wire = self.cipher.seal(payload)
        if len(wire) > self.max_frame:
            # Our own bug, not the peer's: it would refuse the frame anyway.
            raise ValueError(f"frame of {len(wire)} bytes exceeds max_frame {self.max_frame}")
        return frame(wire)


class FrameDecoder:
    """Turns a byte stream into messages, h11 style: feed bytes, pull messages.

    ``max_frame`` may be changed between messages (the server raises it once
    the handshake is done). After an error the decoder stays broken: every
    later call raises the same error, as the stream can no longer be trusted.
    """

    def __init__(
        self,
        limits: Limits = DEFAULT_LIMITS,
        *,
        max_frame: int | None = None,
        cipher: Cipher = PLAIN,
    ) -> None:
        self.limits = limits
        self.max_frame = limits.max_frame if max_frame is None else max_frame
        self.cipher = cipher
        self._buffer = bytearray()
        self._error: ProtocolError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a returned message."""
        return len(self._buffer)

    def receive_data(self, data: bytes) -> None:
        if self._error is not None:
            raise self._error
        self._buffer += data
        # Check the pending frame's declared length now, before more bytes pile up.
        self._check_length()

    def next_message(self) -> Message | None:
        """The next complete message, or None if more bytes are needed."""
        if self._error is not None:
            raise self._error
        length = self._check_length()
        if length is None or len(self._buffer) < HEADER_BYTES + length:
            return None
        wire = bytes(self._buffer[HEADER_BYTES : HEADER_BYTES + length])
        del self._buffer[: HEADER_BYTES + length]
        try:
            return decode_payload(self.cipher.open(wire), self.limits)
        except ProtocolError as exc:
            self._error = exc
            raise

    def feed(self, data: bytes) -> list[Message]:
        """``receive_data`` then every message now complete."""
        self.receive_data(data)
        messages = []
        while (msg := self.next_message()) is not None:
            messages.append(msg)
        return messages

    def _check_length(self) -> int | None:
        if len(self._buffer) < HEADER_BYTES:
            return None
        length = int.from_bytes(self._buffer[:HEADER_BYTES], "big")
        if length > self.max_frame:
            self._error = ProtocolError(
                FRAME_TOO_LARGE,
                f"frame of {length} bytes is over the limit of {self.max_frame} bytes",
            )
            raise self._error
        return length

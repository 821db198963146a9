"""Signed envelopes: a sender's exact bytes, signed with Ed25519, bound to a purpose,
a context and a per-sender sequence number. No sockets.

A protocol whose steps must be attributable (the private deal, ``netplay.mental``)
wraps each message body, already encoded, in an ``Envelope``. The signature covers::

    "netplay/v1/envelope" || u16be(len(tag)) || tag || u16be(len(context)) || context
        || u16be(sender) || u64be(seq) || body

* ``tag`` names the purpose (e.g. ``b"netplay/private-deal/v1/message"``), so a
  signature made for one protocol is never valid in another;
* ``context`` names the occasion (a game, a round, an attempt...), so a message cannot
  be replayed into another one;
* ``sender`` is the signer's seat, ``seq`` counts its envelopes in that context from 0.

Bodies are signed as bytes and relayed byte for byte: msgpack encodings are not
canonical, so a relay must never decode and re-encode them. ``Sealer`` signs one
sender's envelopes in order; ``Opener`` checks everyone's, with the sequence numbers
strictly consecutive per sender, so a dropped, replayed or reordered envelope is a
named error and a second, different envelope under a used number is proof that its
sender signed two versions of one step (``EQUIVOCATION``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .errors import ProtocolError
from .schema import Bin, Int, Record

ENVELOPE_LABEL = b"netplay/v1/envelope"
SIGNATURE_BYTES = 64
PUBLIC_KEY_BYTES = 32
MAX_SENDER = 0xFFFF
MAX_SEQ = 2**64 - 1

# Error codes (``EnvelopeError.code``).
BAD_SIGNATURE = "bad_signature"
UNKNOWN_SENDER = "unknown_sender"
SEQ_GAP = "seq_gap"  # an envelope is missing before this one
SEQ_REPLAY = "seq_replay"  # this exact envelope was seen before
EQUIVOCATION = "equivocation"  # a validly signed, different envelope under a used number
BAD_ENVELOPE = "bad_envelope"


class EnvelopeError(ProtocolError):
    """An envelope that cannot be accepted; ``sender`` and ``seq`` are as it claims."""

    def __init__(self, code: str, message: str, *, sender: int | None, seq: int | None) -> None:
        super().__init__(code, message)
        self.sender = sender
        self.seq = seq


class SigningKey:
    """An Ed25519 key pair for signing protocol messages (not the transport's X25519 key)."""

    __slots__ = ("_key", "public_key")

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public_key: bytes = key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_private_bytes(cls, raw: bytes) -> SigningKey:
        """The key whose 32-byte RFC 8032 seed is ``raw`` (tests and vectors fix it)."""
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    def private_bytes(self) -> bytes:
        return self._key.private_bytes(
            serialization.Encoding.Raw,
            serialization.PrivateFormat.Raw,
            serialization.NoEncryption(),
        )

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)

    def __repr__(self) -> str:  # never the private key
        return f"SigningKey(public={self.public_key.hex()[:16]}...)"


def _short(label: str, value: bytes) -> bytes:
    if len(value) > 0xFFFF:
        raise ValueError(f"{label} is longer than 65535 bytes")
    return len(value).to_bytes(2, "big") + value


def signature_input(tag: bytes, context: bytes, sender: int, seq: int, body: bytes) -> bytes:
    """The exact bytes an envelope's signature covers (see the module docstring)."""
    if not 0 <= sender <= MAX_SENDER:
        raise ValueError(f"sender {sender} does not fit in 2 bytes")
    if not 0 <= seq <= MAX_SEQ:
        raise ValueError(f"seq {seq} does not fit in 8 bytes")
    return b"".join(
        (
            ENVELOPE_LABEL,
            _short("tag", tag),
            _short("context", context),
            sender.to_bytes(2, "big"),
            seq.to_bytes(8, "big"),
            body,
        )
    )


WIRE = Record(
    {
        "from": Int(0, MAX_SENDER),
        "seq": Int(0, MAX_SEQ),
        "body": Bin(max_size=4096),
        "sig": Bin(SIGNATURE_BYTES),
    },
    name="envelope",
)


@dataclass(frozen=True, slots=True)
class Envelope:
    """One signed message: ``body`` is the exact bytes that were signed."""

    sender: int
    seq: int
    body: bytes
    sig: bytes

    def to_wire(self) -> dict[str, Any]:
        """The envelope as a msgpack-ready map, to put inside a game message."""
        return {"from": self.sender, "seq": self.seq, "body": self.body, "sig": self.sig}

    @classmethod
    def from_wire(cls, value: Any) -> Envelope:
        """An envelope from its wire map; raises ``ProtocolError`` for a malformed one."""
        WIRE.check(value)
        return cls(value["from"], value["seq"], value["body"], value["sig"])

    def to_json(self) -> dict[str, Any]:
        """The envelope for a JSON record: bytes as lowercase hex."""
        return {
            "from": self.sender,
            "seq": self.seq,
            "body": self.body.hex(),
            "sig": self.sig.hex(),
        }

    @classmethod
    def from_json(cls, value: Any) -> Envelope:
        try:
            wire = dict(value)
            wire["body"] = bytes.fromhex(value["body"])
            wire["sig"] = bytes.fromhex(value["sig"])
        except (TypeError, ValueError, KeyError) as exc:
            raise ProtocolError(BAD_ENVELOPE, f"not an envelope: {exc}") from None
        return cls.from_wire(wire)

    def digest(self) -> bytes:
        """SHA-256 of the signed fields, to name an envelope in evidence."""
        return hashlib.sha256(
            self.sender.to_bytes(2, "big") + self.seq.to_bytes(8, "big") + self.sig + self.body
        ).digest()


def verify(public_key: bytes, tag: bytes, context: bytes, envelope: Envelope) -> bool:
    """True when ``envelope`` carries a valid signature of ``public_key`` for this purpose."""
    if type(envelope.sig) is not bytes or len(envelope.sig) != SIGNATURE_BYTES:
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(public_key)
        key.verify(
            envelope.sig,
            signature_input(tag, context, envelope.sender, envelope.seq, envelope.body),
        )
    except (InvalidSignature, ValueError):
        return False
    return True


class Sealer:
    """Signs one sender's envelopes, numbering them from ``next_seq``."""

    def __init__(
        self, key: SigningKey, tag: bytes, context: bytes, sender: int, next_seq: int = 0
    ) -> None:
        signature_input(tag, context, sender, next_seq, b"")  # validates the fields
        self.key = key
        self.tag = tag
        self.context = context
        self.sender = sender
        self.next_seq = next_seq

    def seal(self, body: bytes) -> Envelope:
        seq = self.next_seq
        sig = self.key.sign(signature_input(self.tag, self.context, self.sender, seq, body))
        self.next_seq = seq + 1
        return Envelope(self.sender, seq, body, sig)


class Opener:
    """Checks the envelopes of every sender of one context, in the order they arrive.

    ``open`` accepts an envelope only if its sender is known, its signature is valid and
    its ``seq`` is the sender's next one; it keeps every accepted envelope, so a second
    envelope under a used number is told apart: the same bytes again (``SEQ_REPLAY``) or
    a different, validly signed one (``EQUIVOCATION``, which only its sender can make).
    """

    def __init__(self, tag: bytes, context: bytes, public_keys: Sequence[bytes]) -> None:
        self.tag = tag
        self.context = context
        self.keys = [Ed25519PublicKey.from_public_bytes(k) for k in public_keys]
        self.accepted: list[list[Envelope]] = [[] for _ in public_keys]

    def expected_seq(self, sender: int) -> int:
        return len(self.accepted[sender])

    def check(self, envelope: Envelope) -> None:
        """Raise ``EnvelopeError`` unless ``envelope`` is the next valid one of its sender."""
        sender, seq = envelope.sender, envelope.seq
        if type(sender) is not int or not 0 <= sender < len(self.keys):
            raise EnvelopeError(
                UNKNOWN_SENDER,
                f"an envelope from unknown sender {sender!r:.20}",
                sender=None,
                seq=None,
            )
        if type(seq) is not int or type(envelope.body) is not bytes:
            raise EnvelopeError(BAD_ENVELOPE, "malformed envelope", sender=sender, seq=None)
        valid = self._valid(envelope)
        history = self.accepted[sender]
        if seq < len(history):
            if history[seq] == envelope:
                raise EnvelopeError(
                    SEQ_REPLAY,
                    f"envelope {seq} of sender {sender} arrived twice",
                    sender=sender,
                    seq=seq,
                )
            if valid:
                raise EnvelopeError(
                    EQUIVOCATION,
                    f"sender {sender} signed two different envelopes numbered {seq}",
                    sender=sender,
                    seq=seq,
                )
        if not valid:
            raise EnvelopeError(
                BAD_SIGNATURE,
                f"envelope {seq} of sender {sender} has an invalid signature",
                sender=sender,
                seq=seq,
            )
        if seq != len(history):
            raise EnvelopeError(
                SEQ_GAP,
                f"envelope {seq} of sender {sender} arrived, but {len(history)} was next",
                sender=sender,
                seq=seq,
            )

    def open(self, envelope: Envelope) -> bytes:
        """Check ``envelope`` (see ``check``), remember it and return its body."""
        self.check(envelope)
        self.accepted[envelope.sender].append(envelope)
        return envelope.body

    def _valid(self, envelope: Envelope) -> bool:
        if type(envelope.sig) is not bytes or len(envelope.sig) != SIGNATURE_BYTES:
            return False
        try:
            self.keys[envelope.sender].verify(
                envelope.sig,
                signature_input(
                    self.tag, self.context, envelope.sender, envelope.seq, envelope.body
                ),
            )
        except (InvalidSignature, ValueError):
            return False
        return True

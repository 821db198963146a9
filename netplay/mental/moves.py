"""Cards that change hands inside a round of the private deal: the arithmetic of a gift.

A **gift** is one held item passed privately from its giver to a recipient
(docs/private-deal.md section 16): the recipient publishes an **inbox** key ``R = b·G``
once per round; the giver seals the item to it with an X25519 exchange (``K = a·R = b·A``)
and a one-time pad, commits to its ephemeral ``A`` and opens that commitment once every seat
has given (so nobody learns what it receives before it has chosen what to give). Only the
recipient (and the giver) can unseal it; once the round's keys are revealed, everyone can,
since ``b`` and ``a`` are derived from the seats' revealed global keys.

Everything here is normative for ``private-sra-x25519-v1`` and deterministic given the keys,
so a player that redoes a message after a reconnect signs the same bytes again.
"""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from . import sra

INBOX_TAG = b"netplay/private-deal/v1/inbox"
GIFT_TAG = b"netplay/private-deal/v1/gift"
GIFT_COMMIT_TAG = b"netplay/private-deal/v1/gift-commit"
GIFT_PAD_TAG = b"netplay/private-deal/v1/gift-pad"
BASE_POINT = (9).to_bytes(32, "little")
"""The X25519 base point ``G`` (u = 9, RFC 7748)."""
KEY_BYTES = 32


def _scalar(data: bytes) -> int:
    return sra.clamp(hashlib.sha256(data).digest())


def inbox_secret(global_e: int) -> int:
    """A seat's inbox scalar ``b = clamp(SHA-256(INBOX_TAG || le32(e)))`` from its global
    key ``e``: secret until the round's reveal, then anyone's to recompute."""
    return _scalar(INBOX_TAG + sra.scalar_bytes(global_e))


def gift_secret(global_e: int, pass_index: int) -> int:
    """The giver's ephemeral scalar of pass ``pass_index``:
    ``a = clamp(SHA-256(GIFT_TAG || le32(e) || u16be(pass)))``."""
    return _scalar(GIFT_TAG + sra.scalar_bytes(global_e) + pass_index.to_bytes(2, "big"))


def _x25519(scalar: int, u: bytes) -> bytes:
    key = X25519PrivateKey.from_private_bytes(sra.scalar_bytes(scalar))
    return key.exchange(X25519PublicKey.from_public_bytes(u))


def public_point(scalar: int) -> bytes:
    """``X25519(scalar, G)``: an inbox key ``R`` or an ephemeral ``A``."""
    return _x25519(scalar, BASE_POINT)


def shared_key(scalar: int, point: bytes) -> bytes:
    """``K = X25519(a, R) = X25519(b, A)``; ValueError for a low-order point."""
    return _x25519(scalar, point)


def commitment(ephemeral: bytes) -> bytes:
    """``SHA-256(GIFT_COMMIT_TAG || A)``: what a give binds before its unlock shows ``A``."""
    return hashlib.sha256(GIFT_COMMIT_TAG + ephemeral).digest()


def pad(context: bytes, pass_index: int, giver: int, recipient: int, key: bytes) -> bytes:
    """``SHAKE-256(GIFT_PAD_TAG || context || u16be(pass) || u8(giver) || u8(recipient) ||
    K, 32)``: bound to the round, the pass and both seats, so a sealed gift means nothing
    anywhere else."""
    data = GIFT_PAD_TAG + context + pass_index.to_bytes(2, "big") + bytes([giver, recipient]) + key
    return hashlib.shake_256(data).digest(32)


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def seal(item_value: bytes, pad_bytes: bytes) -> bytes:
    """The sealed gift: the item's encoding (section 3) XOR the pad."""
    return _xor(item_value, pad_bytes)


def unseal(sealed: bytes, pad_bytes: bytes, items: int) -> int | None:
    """The item a sealed gift holds under this pad, or None (no item: someone cheated)."""
    return sra.lookup(_xor(sealed, pad_bytes), items)

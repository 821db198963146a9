"""Noise_XX_25519_ChaChaPoly_SHA256 (Noise Protocol Framework, revision 34), sans-I/O.

A small implementation of the spec's three objects on ``cryptography``'s X25519 and
ChaCha20-Poly1305 and the standard library's SHA-256/HMAC (both OpenSSL underneath):

* ``CipherState``: one key and a 64-bit counter nonce (``0x00000000 || LE64(n)``). The
  counter moves only after a successful encryption or decryption, and ``n = 2^64 - 1`` is
  refused (the spec reserves it), so a key never sees the same nonce twice.
* ``SymmetricState``: the chaining key ``ck`` and the handshake hash ``h``
  (MixKey, MixHash, EncryptAndHash, DecryptAndHash, Split).
* ``HandshakeState``: the XX pattern only (``-> e``, ``<- e, ee, s, es``, ``-> s, se``)
  with a prologue and a payload per message.

Nothing here knows about sockets, framing or msgpack; ``secure`` builds the netplay
handshake on top. Checked against the cacophony test vectors and the ``noiseprotocol``
package (tests/netplay/test_noise.py). Any failure raises ``NoiseError``, a
``ProtocolError``: the connection must close, and a ``HandshakeState`` that failed once
refuses every later call.
"""

from __future__ import annotations

import hashlib
import hmac

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from .errors import DECRYPT_FAILED, HANDSHAKE_FAILED, NONCE_EXHAUSTED, ProtocolError

PROTOCOL_NAME = b"Noise_XX_25519_ChaChaPoly_SHA256"
DHLEN = 32
HASHLEN = 32
TAGLEN = 16
MAX_MESSAGE = 65535
"""Largest Noise message, handshake or transport, in bytes (spec section 3)."""
MAX_NONCE = (1 << 64) - 1
"""Reserved by the spec: a CipherState whose counter reaches it refuses to go on."""

# Error codes (for ``ProtocolError.code``; defined in ``errors``, re-exported here):
# HANDSHAKE_FAILED, DECRYPT_FAILED, NONCE_EXHAUSTED.

# The XX pattern, one tuple of tokens per message; even indexes are the initiator's.
XX: tuple[tuple[str, ...], ...] = (("e",), ("e", "ee", "s", "es"), ("s", "se"))


class NoiseError(ProtocolError):
    """A Noise message failed: the connection cannot go on."""


def public_bytes(key: X25519PrivateKey | X25519PublicKey) -> bytes:
    """The 32-byte raw public key of ``key``."""
    pub = key.public_key() if isinstance(key, X25519PrivateKey) else key
    return pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _hash(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.digest(key, data, "sha256")


def hkdf(chaining_key: bytes, ikm: bytes, outputs: int) -> tuple[bytes, ...]:
    """The spec's HKDF (section 4.3): two or three HASHLEN outputs."""
    temp_key = _hmac(chaining_key, ikm)
    out1 = _hmac(temp_key, b"\x01")
    out2 = _hmac(temp_key, out1 + b"\x02")
    if outputs == 2:
        return out1, out2
    return out1, out2, _hmac(temp_key, out2 + b"\x03")


def _dh(private: X25519PrivateKey, public: bytes) -> bytes:
    try:
        return private.exchange(X25519PublicKey.from_public_bytes(public))
    except ValueError:
        # cryptography refuses an all-zero result (a small-order point): never mix it in.
        raise NoiseError(HANDSHAKE_FAILED, "the peer sent an invalid public key") from None


class CipherState:
    """One direction's key and nonce counter (spec section 5.1)."""

    __slots__ = ("_aead", "n")

    def __init__(self, key: bytes | None = None) -> None:
        if key is not None and len(key) != 32:
            raise ValueError("a CipherState key is 32 bytes")
        self._aead = ChaCha20Poly1305(key) if key is not None else None
        self.n = 0

    def has_key(self) -> bool:
        return self._aead is not None

    def _nonce(self) -> bytes:
        if self.n >= MAX_NONCE:
            raise NoiseError(NONCE_EXHAUSTED, "this connection has used up its nonces: reconnect")
        return b"\x00\x00\x00\x00" + self.n.to_bytes(8, "little")

    def encrypt_with_ad(self, ad: bytes, plaintext: bytes) -> bytes:
        if self._aead is None:
            return plaintext
        ciphertext = self._aead.encrypt(self._nonce(), plaintext, ad)
        self.n += 1
        return ciphertext

    def decrypt_with_ad(self, ad: bytes, ciphertext: bytes) -> bytes:
        if self._aead is None:
            return ciphertext
        try:
            plaintext = self._aead.decrypt(self._nonce(), ciphertext, ad)
        except InvalidTag:
            # The counter stays put, but the caller must close: never skip ahead or retry.
            raise NoiseError(
                DECRYPT_FAILED, "a message failed authentication (tampered, replayed or reordered)"
            ) from None
        self.n += 1
        return plaintext


class SymmetricState:
    """The chaining key, the handshake hash and the current handshake cipher (section 5.2)."""

    def __init__(self, protocol_name: bytes = PROTOCOL_NAME) -> None:
        if len(protocol_name) <= HASHLEN:
            h = protocol_name.ljust(HASHLEN, b"\x00")
        else:
            h = _hash(protocol_name)
        self.h = h
        self.ck = h
        self.cipher = CipherState()

    def mix_key(self, ikm: bytes) -> None:
        self.ck, temp_k = hkdf(self.ck, ikm, 2)
        self.cipher = CipherState(temp_k)

    def mix_hash(self, data: bytes) -> None:
        self.h = _hash(self.h + data)

    def encrypt_and_hash(self, plaintext: bytes) -> bytes:
        ciphertext = self.cipher.encrypt_with_ad(self.h, plaintext)
        self.mix_hash(ciphertext)
        return ciphertext

    def decrypt_and_hash(self, ciphertext: bytes) -> bytes:
        plaintext = self.cipher.decrypt_with_ad(self.h, ciphertext)
        self.mix_hash(ciphertext)
        return plaintext

    def split(self) -> tuple[CipherState, CipherState]:
        k1, k2 = hkdf(self.ck, b"", 2)
        return CipherState(k1), CipherState(k2)


class HandshakeState:
    """One side of an XX handshake (section 5.3).

    ``ephemeral`` fixes the ephemeral key, for test vectors only: a real handshake must
    use a fresh one every time, which is the default.
    """

    def __init__(
        self,
        initiator: bool,
        static: X25519PrivateKey,
        prologue: bytes = b"",
        *,
        ephemeral: X25519PrivateKey | None = None,
    ) -> None:
        self.initiator = initiator
        self.symmetric = SymmetricState(PROTOCOL_NAME)
        self.symmetric.mix_hash(prologue)
        self.s = static
        self.e: X25519PrivateKey | None = None
        self.rs: bytes | None = None
        self.re: bytes | None = None
        self._fixed_ephemeral = ephemeral
        self._index = 0  # the next message of the pattern
        self._failed: NoiseError | None = None

    # -- state ------------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        return self._index == len(XX)

    @property
    def handshake_hash(self) -> bytes:
        """``h``: a value unique to this handshake, for channel binding (section 11.2).

        Final only once the handshake is complete."""
        return self.symmetric.h

    @property
    def remote_static(self) -> bytes | None:
        return self.rs

    def our_turn(self) -> bool:
        """True if the next handshake message is ours to write."""
        return (self._index % 2 == 0) == self.initiator

    def split(self) -> tuple[CipherState, CipherState]:
        """(send, receive) CipherStates for this side, once the handshake is complete."""
        if not self.complete:
            raise RuntimeError("split() before the handshake is complete")
        c1, c2 = self.symmetric.split()
        return (c1, c2) if self.initiator else (c2, c1)

    # -- messages ---------------------------------------------------------------------

    def write_message(self, payload: bytes = b"") -> bytes:
        self._check_turn(writing=True)
        ss = self.symmetric
        out = bytearray()
        try:
            for token in XX[self._index]:
                if token == "e":
                    self.e = self._fixed_ephemeral or X25519PrivateKey.generate()
                    e_pub = public_bytes(self.e)
                    out += e_pub
                    ss.mix_hash(e_pub)
                elif token == "s":
                    out += ss.encrypt_and_hash(public_bytes(self.s))
                else:
                    ss.mix_key(self._dh_token(token))
            out += ss.encrypt_and_hash(payload)
        except NoiseError as exc:
            self._failed = exc
            raise
        if len(out) > MAX_MESSAGE:
            self._failed = NoiseError(HANDSHAKE_FAILED, "handshake message too large")
            raise ValueError(f"handshake message of {len(out)} bytes is over {MAX_MESSAGE}")
        self._index += 1
        return bytes(out)

    def read_message(self, message: bytes) -> bytes:
        self._check_turn(writing=False)
        try:
            payload = self._read(message)
        except NoiseError as exc:
            if exc.code == DECRYPT_FAILED:
                exc = NoiseError(
                    HANDSHAKE_FAILED,
                    "the secure handshake failed: the message was altered, or the two sides "
                    "use different protocol versions or settings",
                )
            self._failed = exc
            raise exc from None
        self._index += 1
        return payload

    def _read(self, message: bytes) -> bytes:
        if len(message) > MAX_MESSAGE:
            raise NoiseError(HANDSHAKE_FAILED, "handshake message too large")
        ss = self.symmetric
        view = memoryview(message)
        for token in XX[self._index]:
            if token == "e":
                if len(view) < DHLEN:
                    raise NoiseError(HANDSHAKE_FAILED, "handshake message too short")
                self.re = bytes(view[:DHLEN])
                view = view[DHLEN:]
                ss.mix_hash(self.re)
            elif token == "s":
                size = DHLEN + TAGLEN if ss.cipher.has_key() else DHLEN
                if len(view) < size:
                    raise NoiseError(HANDSHAKE_FAILED, "handshake message too short")
                self.rs = ss.decrypt_and_hash(bytes(view[:size]))
                view = view[size:]
            else:
                ss.mix_key(self._dh_token(token))
        if ss.cipher.has_key() and len(view) < TAGLEN:
            raise NoiseError(HANDSHAKE_FAILED, "handshake message too short")
        return ss.decrypt_and_hash(bytes(view))

    def _dh_token(self, token: str) -> bytes:
        # Token "xy": x is the initiator's key, y the responder's (section 7.1).
        assert self.e is not None and self.re is not None
        if token == "ee":
            return _dh(self.e, self.re)
        if token == "es":
            if self.initiator:
                assert self.rs is not None
                return _dh(self.e, self.rs)
            return _dh(self.s, self.re)
        if token == "se":
            if self.initiator:
                return _dh(self.s, self.re)
            assert self.rs is not None
            return _dh(self.e, self.rs)
        raise AssertionError(f"unknown token {token!r}")

    def _check_turn(self, *, writing: bool) -> None:
        if self._failed is not None:
            raise self._failed
        if self.complete:
            raise RuntimeError("the handshake is already complete")
        if self.our_turn() != writing:
            raise RuntimeError(
                f"out of turn: message {self._index + 1} is "
                f"{'ours to write' if self.our_turn() else 'the peer’s'}"
            )

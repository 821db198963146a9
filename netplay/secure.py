"""The encrypted, authenticated netplay connection: handshake driver and frame codec. No I/O.

A connection starts with a Noise XX handshake (``noise``), then, if the host has a room
password, a SPAKE2 exchange inside the new channel (``pake``), and from then on every frame
payload is one Noise transport message. The client is the initiator, the host the responder::

    1  client -> host   e                     payload: version byte (clear)
    2  host -> client   e, ee, s, es          payload: {"v": 2, "pake": bool, "app": {...}}
    3  client -> host   s, se                 payload: {"v": 2, "pake": A | nil, "app": {...}}
    -- only with a room password, as transport messages --
    4  host -> client   {"pake": B, "confirm": HMAC(K, "…/host" || h)}
    5  client -> host   {"confirm": HMAC(K, "…/client" || h)}

The app data of message 2 is readable by anyone who connects (it is encrypted to an
unauthenticated ephemeral key); message 3's only by the host. Handshake messages are at most
``MAX_HANDSHAKE_MESSAGE`` bytes. Each message is one frame of netplay's usual length prefix
(``framing.frame``); ``HandshakeReader`` cuts them off the byte stream and hands the rest
to the ``FrameDecoder``.

After the handshake, ``SecureInitiator``/``SecureResponder`` are a ``framing.Cipher``
(``seal``/``open``, alias ``encrypt``/``decrypt``): one CipherState per direction, counter
nonces, so a replayed, reordered, dropped or modified frame fails authentication. Any
failure raises a ``ProtocolError`` and leaves the object broken for good (fail closed): the
caller must close the connection. Deadlines are the caller's: nothing here waits.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

import msgpack
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from .errors import (
    BAD_ENCODING,
    BAD_MESSAGE,
    DECRYPT_FAILED,
    FRAME_TOO_LARGE,
    INCOMPATIBLE_VERSION,
    ProtocolError,
)
from .framing import HEADER_BYTES
from .identity import HostKeyChanged, StaticIdentity
from .noise import (
    MAX_MESSAGE,
    TAGLEN,
    CipherState,
    HandshakeState,
    NoiseError,
    public_bytes,
)
from .pake import (
    BAD_PASSWORD,
    CONFIRM_BYTES,
    MESSAGE_BYTES,
    PASSWORD_NOT_USED,
    PASSWORD_REQUIRED,
    PakeError,
    PasswordExchange,
    normalize_password,
)

VERSION = 2
"""The secure transport's version, the one byte in clear in message 1. Version 2 pads every
frame (``PAD_SIZES``); a peer of version 1 is refused (``incompatible_version``)."""
DEFAULT_PROLOGUE = b"netplay/secure/v1"
MAX_HANDSHAKE_MESSAGE = 512
MAX_CIPHERTEXT = MAX_MESSAGE
MAX_PLAINTEXT = MAX_MESSAGE - TAGLEN  # 65519 bytes: a padded payload, before its tag
PAD_SIZES = (256, 1024, 4096, 16384, MAX_PLAINTEXT)
"""Every frame's plaintext is padded to the first of these sizes that holds the payload and
its pad marker, so a frame's size says only which of five classes its message is in. In a
Wizard game every state is in the second and every bid, play and seed in the first,
whatever the hand (docs/security.md sections 2 and 6; the cost: docs/performance.md)."""
PAD_MARKER = 0x80  # ends the payload; zeros fill the rest (ISO/IEC 7816-4 padding)
MAX_PAYLOAD = MAX_PLAINTEXT - 1
"""Largest application payload per frame: 65518 bytes (one goes to the pad marker)."""

StaticKey = StaticIdentity | X25519PrivateKey


def make_prologue(*parts: bytes | str) -> bytes:
    """A prologue binding the handshake to a context: ``DEFAULT_PROLOGUE`` then each part
    length-prefixed. Both sides must pass the same parts, or the handshake fails."""
    out = bytearray(DEFAULT_PROLOGUE)
    for part in parts:
        raw = part.encode("utf-8") if isinstance(part, str) else part
        out += len(raw).to_bytes(4, "big") + raw
    return bytes(out)


def _private_key(static_key: StaticKey) -> X25519PrivateKey:
    if isinstance(static_key, StaticIdentity):
        return static_key.private_key
    if isinstance(static_key, X25519PrivateKey):
        return static_key
    raise TypeError("static_key must be a StaticIdentity or an X25519PrivateKey")


def _pack(obj: dict[str, Any]) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError("ext types are not allowed")


def _unpack(payload: bytes, what: str, keys: set[str]) -> dict[str, Any]:
    """A handshake map with exactly ``keys``; anything else is a named error."""
    try:
        obj = msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=True,
            ext_hook=_refuse_ext,
            max_str_len=MAX_HANDSHAKE_MESSAGE,
            max_bin_len=MAX_HANDSHAKE_MESSAGE,
            max_array_len=32,
            max_map_len=16,
            max_ext_len=0,
        )
    except Exception as exc:  # msgpack signals every malformation as some ValueError
        raise ProtocolError(BAD_ENCODING, f"{what} is not valid msgpack: {exc}") from None
    if type(obj) is not dict or set(obj) != keys:
        raise ProtocolError(BAD_MESSAGE, f"{what} must be a map with keys {sorted(keys)}")
    return obj


# Bytes a handshake message adds around its msgpack payload: message 2 has e, the
# encrypted s and the payload's tag; message 3's payload also holds a SPAKE2 message.
_MESSAGE_OVERHEAD = 32 + (32 + TAGLEN) + TAGLEN


def _check_app(data: dict[str, Any] | None) -> dict[str, Any]:
    """Validate our own app data now, so a handshake never fails halfway on our account."""
    if data is None:
        return {}
    if type(data) is not dict or any(type(k) is not str for k in data):
        raise TypeError("app_data must be a dict with str keys")
    largest = _pack({"v": VERSION, "pake": bytes(MESSAGE_BYTES), "app": data})
    if len(largest) + _MESSAGE_OVERHEAD > MAX_HANDSHAKE_MESSAGE:
        raise ValueError(
            f"app_data makes a handshake message over {MAX_HANDSHAKE_MESSAGE} bytes: "
            "send it after the handshake instead"
        )
    return data


def _app_field(msg: dict[str, Any], what: str) -> dict[str, Any]:
    app = msg["app"]
    if type(app) is not dict:
        raise ProtocolError(BAD_MESSAGE, f"{what}: app data must be a map")
    return app


def _bin(value: Any, size: int, what: str) -> bytes:
    if type(value) is not bytes or len(value) != size:
        raise ProtocolError(BAD_MESSAGE, f"{what} must be {size} bytes")
    return value


def _check_version(msg: dict[str, Any], what: str) -> None:
    if type(msg["v"]) is not int or msg["v"] != VERSION:
        raise ProtocolError(
            INCOMPATIBLE_VERSION,
            f"{what}: secure transport version {msg['v']!r:.20}, this side speaks {VERSION}",
        )


def padded_size(payload_bytes: int) -> int:
    """The plaintext size a payload of ``payload_bytes`` is padded to (``PAD_SIZES``)."""
    need = payload_bytes + 1
    for size in PAD_SIZES:
        if need <= size:
            return size
    raise ValueError(f"payload of {payload_bytes} bytes is over {MAX_PAYLOAD}")


def pad(payload: bytes) -> bytes:
    """``payload``, the pad marker, then zeros up to ``padded_size``."""
    return payload + bytes([PAD_MARKER]) + bytes(padded_size(len(payload)) - len(payload) - 1)


def unpad(plaintext: bytes) -> bytes:
    """The payload of an authenticated plaintext; ``ProtocolError`` if it is not padded to
    one of ``PAD_SIZES`` (only a peer of another version sends that)."""
    body = plaintext.rstrip(b"\0")
    if len(plaintext) not in PAD_SIZES or not body or body[-1] != PAD_MARKER:
        raise ProtocolError(BAD_ENCODING, "a frame is not padded as version 2 pads them")
    return body[:-1]


class SecureChannel:
    """The two transport CipherStates of an established connection (a ``framing.Cipher``).

    After a frame fails to decrypt, every later frame is refused: the connection must close.
    Sending still works, so the fatal error that says why can go out before it does.
    """

    overhead = TAGLEN
    """Bytes a frame grows by when sealed (the Poly1305 tag)."""
    max_payload = MAX_PAYLOAD
    """Largest payload ``seal`` takes."""

    def __init__(self, send: CipherState, receive: CipherState) -> None:
        self._send = send
        self._receive = receive
        self._broken: ProtocolError | None = None

    def encrypt(self, payload: bytes) -> bytes:
        """One frame's ciphertext for ``payload`` (at most ``MAX_PAYLOAD`` bytes), padded."""
        if len(payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(payload)} bytes is over {MAX_PAYLOAD}")
        return self._send.encrypt_with_ad(b"", pad(payload))

    def decrypt(self, frame: bytes) -> bytes:
        """The payload of the next frame from the peer, or ``ProtocolError`` (then broken)."""
        if self._broken is not None:
            raise self._broken
        try:
            if not TAGLEN <= len(frame) <= MAX_CIPHERTEXT:
                raise NoiseError(
                    DECRYPT_FAILED if len(frame) < TAGLEN else FRAME_TOO_LARGE,
                    f"an encrypted frame of {len(frame)} bytes cannot be valid",
                )
            return unpad(self._receive.decrypt_with_ad(b"", frame))
        except ProtocolError as exc:
            self._broken = exc
            raise

    seal = encrypt
    open = decrypt


class _SecureEnd:
    """What both ends share: results, the channel, the Cipher interface."""

    overhead = TAGLEN
    max_payload = MAX_PAYLOAD

    def __init__(
        self,
        static_key: StaticKey,
        prologue: bytes,
        initiator: bool,
        ephemeral: X25519PrivateKey | None = None,
    ) -> None:
        self._static = _private_key(static_key)
        self.local_static = public_bytes(self._static)
        self._hs = HandshakeState(initiator, self._static, prologue, ephemeral=ephemeral)
        self._channel: SecureChannel | None = None
        self._exchange: PasswordExchange | None = None
        self._failed: ProtocolError | None = None
        self.done = False
        self.remote_static: bytes | None = None
        """The peer's static key, known after message 2 (client) or 3 (host)."""
        self.remote_app_data: dict[str, Any] | None = None
        """The app data the peer put in its handshake payload."""
        self.password_used = False
        """True if this connection ran the room-password exchange."""

    @property
    def handshake_hash(self) -> bytes:
        """Noise's ``h``: unique to this connection, the same on both ends (channel binding)."""
        if not self._hs.complete:
            raise RuntimeError("the handshake hash is final only after message 3")
        return self._hs.handshake_hash

    @property
    def channel(self) -> SecureChannel:
        if not self.done or self._channel is None:
            raise RuntimeError("the secure handshake is not done")
        return self._channel

    def encrypt(self, payload: bytes) -> bytes:
        return self.channel.encrypt(payload)

    def decrypt(self, frame: bytes) -> bytes:
        return self.channel.decrypt(frame)

    seal = encrypt
    open = decrypt

    def _split(self) -> SecureChannel:
        send, receive = self._hs.split()
        self._channel = SecureChannel(send, receive)
        return self._channel

    def _guard(self, message: bytes) -> None:
        if self._failed is not None:
            raise self._failed
        if self.done:
            raise RuntimeError("the handshake is done: use decrypt() for frames")
        if len(message) > MAX_HANDSHAKE_MESSAGE:
            self._failed = ProtocolError(
                FRAME_TOO_LARGE,
                f"handshake message of {len(message)} bytes is over {MAX_HANDSHAKE_MESSAGE}",
            )
            raise self._failed


class SecureInitiator(_SecureEnd):
    """The client's end: ``start()``, then ``receive()`` each host message until ``done``.

    ``expected_server_key`` is the host's pinned static key (``KnownHosts.expected``): a
    different key raises ``HostKeyChanged`` before our own key is sent. ``password`` is
    the room password, if the player gave one; a host that does not ask for it is refused,
    because it could not prove it knows it.
    """

    def __init__(
        self,
        static_key: StaticKey,
        prologue: bytes = DEFAULT_PROLOGUE,
        expected_server_key: bytes | None = None,
        password: str | bytes | None = None,
        *,
        app_data: dict[str, Any] | None = None,
        server_label: str | None = None,
        ephemeral: X25519PrivateKey | None = None,
    ) -> None:
        # ``ephemeral`` fixes the ephemeral key, for test vectors only (noise.HandshakeState).
        super().__init__(static_key, prologue, initiator=True, ephemeral=ephemeral)
        if expected_server_key is not None and len(expected_server_key) != 32:
            raise ValueError("expected_server_key is a 32-byte public key")
        self.expected_server_key = expected_server_key
        self.server_label = server_label
        self._password = None if password is None else normalize_password(password)
        self._app = _check_app(app_data)
        self._started = False
        self._step = 2  # the host's message we wait for

    def start(self) -> bytes:
        """Message 1."""
        if self._started:
            raise RuntimeError("start() once")
        self._started = True
        return self._hs.write_message(bytes([VERSION]))

    def receive(self, message: bytes) -> bytes | None:
        """Take the host's next handshake message; return ours to send (or None).

        Raises ``HostKeyChanged``, ``PakeError`` (``bad_password``: send ``exc.reply``
        first, then close; ``password_required``; ``password_not_used``) or another
        ``ProtocolError``. ``done`` is True once the reply returned is the last message.
        """
        if not self._started:
            raise RuntimeError("start() first")
        self._guard(message)
        try:
            if self._step == 2:
                return self._on_message_2(message)
            return self._on_message_4(message)
        except ProtocolError as exc:
            self._failed = exc  # every later call raises it again: fail closed
            raise

    def _on_message_2(self, message: bytes) -> bytes | None:
        payload = self._hs.read_message(message)
        server_key = self._hs.remote_static
        assert server_key is not None
        if self.expected_server_key is not None and not hmac.compare_digest(
            server_key, self.expected_server_key
        ):
            raise HostKeyChanged(self.expected_server_key, server_key, label=self.server_label)
        msg = _unpack(payload, "the host's handshake", {"v", "pake", "app"})
        _check_version(msg, "the host's handshake")
        if type(msg["pake"]) is not bool:
            raise ProtocolError(BAD_MESSAGE, "the host's handshake: pake must be a bool")
        self.remote_static = server_key
        self.remote_app_data = _app_field(msg, "the host's handshake")
        if msg["pake"] and self._password is None:
            raise PakeError(PASSWORD_REQUIRED, "this game has a room password: ask the host for it")
        if not msg["pake"] and self._password is not None:
            raise PakeError(
                PASSWORD_NOT_USED,
                "you gave a room password, but this host does not ask for one, so it cannot "
                "prove it is the game you meant: check the address, or join without one",
            )
        spake: bytes | None = None
        if self._password is not None:
            self._exchange = PasswordExchange(
                "client",
                self._password,
                client_static=self.local_static,
                host_static=server_key,
            )
            self._password = None  # held by the exchange only, and only as long as needed
            spake = self._exchange.start()
        reply = self._hs.write_message(_pack({"v": VERSION, "pake": spake, "app": self._app}))
        self._split()
        if self._exchange is None:
            self.done = True
        else:
            self.password_used = True
            self._step = 4
        return reply

    def _on_message_4(self, message: bytes) -> bytes | None:
        assert self._channel is not None and self._exchange is not None
        msg = _unpack(
            self._channel.decrypt(message), "the host's password proof", {"pake", "confirm"}
        )
        spake = _bin(msg["pake"], MESSAGE_BYTES, "the host's password message")
        confirm = _bin(msg["confirm"], CONFIRM_BYTES, "the host's password proof")
        exchange, self._exchange = self._exchange, None  # one attempt, then gone
        exchange.finish(spake, self._hs.handshake_hash)
        reply = self._channel.encrypt(_pack({"confirm": exchange.confirmation()}))
        if not exchange.verify(confirm):
            raise PakeError(
                BAD_PASSWORD,
                "wrong room password: check it with the host and try again",
                reply=reply,
            )
        self.done = True
        return reply


class SecureResponder(_SecureEnd):
    """The host's end: ``receive()`` each client message, send what it returns, until
    ``done``. Then ``remote_static`` is the client's proven static key.

    With a ``password``, a client must prove it knows it; ``password_used`` tells the
    caller that an attempt was made, so a ``GuessLimiter`` can count it as failed unless
    ``done`` follows.
    """

    def __init__(
        self,
        static_key: StaticKey,
        prologue: bytes = DEFAULT_PROLOGUE,
        password: str | bytes | None = None,
        *,
        app_data: dict[str, Any] | None = None,
        admit: Callable[[bytes], None] | None = None,
        ephemeral: X25519PrivateKey | None = None,
    ) -> None:
        """``admit``, with a password: called with the client's proven static key when its
        password message arrives, before any password work; it raises a ``PakeError``
        (``too_many_guesses``) to refuse the attempt unanswered (no guess was made).
        ``ephemeral``: for test vectors only, as in ``SecureInitiator``."""
        super().__init__(static_key, prologue, initiator=False, ephemeral=ephemeral)
        self._password = None if password is None else normalize_password(password)
        self._admit = admit
        self._app = _check_app(app_data)
        self._step = 1

    def receive(self, message: bytes) -> bytes | None:
        """Take the client's next handshake message; return ours to send (or None).

        Raises ``PakeError`` (``bad_password``, ``password_required``) or another
        ``ProtocolError``; the connection must then close.
        """
        self._guard(message)
        try:
            if self._step == 1:
                return self._on_message_1(message)
            if self._step == 3:
                return self._on_message_3(message)
            self._on_message_5(message)
            return None
        except ProtocolError as exc:
            self._failed = exc
            raise

    def _on_message_1(self, message: bytes) -> bytes:
        payload = self._hs.read_message(message)
        if payload != bytes([VERSION]):
            raise ProtocolError(
                INCOMPATIBLE_VERSION,
                f"the client speaks secure transport {payload[:1].hex() or 'nothing'}, "
                f"this host {VERSION:02x}: install the same version as the host",
            )
        pake = self._password is not None
        self._step = 3
        return self._hs.write_message(_pack({"v": VERSION, "pake": pake, "app": self._app}))

    def _on_message_3(self, message: bytes) -> bytes | None:
        payload = self._hs.read_message(message)
        client_key = self._hs.remote_static
        assert client_key is not None
        channel = self._split()
        msg = _unpack(payload, "the client's handshake", {"v", "pake", "app"})
        _check_version(msg, "the client's handshake")
        self.remote_static = client_key
        self.remote_app_data = _app_field(msg, "the client's handshake")
        if self._password is None:
            if msg["pake"] is not None:
                raise ProtocolError(BAD_MESSAGE, "the client sent a password, none was asked")
            self.done = True
            return None
        if msg["pake"] is None:
            raise PakeError(PASSWORD_REQUIRED, "the client did not give the room password")
        spake = _bin(msg["pake"], MESSAGE_BYTES, "the client's password message")
        if self._admit is not None:
            self._admit(client_key)
        self._exchange = PasswordExchange(
            "host", self._password, client_static=client_key, host_static=self.local_static
        )
        self.password_used = True
        self._exchange.finish(spake, self._hs.handshake_hash)
        self._step = 5
        proof = {"pake": self._exchange.start(), "confirm": self._exchange.confirmation()}
        return channel.encrypt(_pack(proof))

    def _on_message_5(self, message: bytes) -> None:
        assert self._channel is not None and self._exchange is not None
        msg = _unpack(self._channel.decrypt(message), "the client's password proof", {"confirm"})
        confirm = _bin(msg["confirm"], CONFIRM_BYTES, "the client's password proof")
        exchange, self._exchange = self._exchange, None  # one attempt, then gone
        if not exchange.verify(confirm):
            raise PakeError(BAD_PASSWORD, "a player tried a wrong room password")
        self._password = None
        self.done = True
        return None


class HandshakeReader:
    """Cuts the handshake messages off the start of a connection's byte stream.

    Each message is one frame (the usual 4-byte big-endian length, then the bytes). A
    declared length over ``max_message`` is refused before its body is read. Once the
    handshake is done, ``rest()`` returns whatever arrived after it (the client may send
    its first encrypted frame right behind message 3 or 5) for the ``FrameDecoder``.
    """

    def __init__(self, max_message: int = MAX_HANDSHAKE_MESSAGE) -> None:
        self.max_message = max_message
        self._buffer = bytearray()

    def feed(self, data: bytes) -> None:
        self._buffer += data
        self._check()

    def next_message(self) -> bytes | None:
        length = self._check()
        if length is None or len(self._buffer) < HEADER_BYTES + length:
            return None
        message = bytes(self._buffer[HEADER_BYTES : HEADER_BYTES + length])
        del self._buffer[: HEADER_BYTES + length]
        return message

    def rest(self) -> bytes:
        rest = bytes(self._buffer)
        self._buffer.clear()
        return rest

    def _check(self) -> int | None:
        if len(self._buffer) < HEADER_BYTES:
            return None
        length = int.from_bytes(self._buffer[:HEADER_BYTES], "big")
        if length > self.max_message:
            raise ProtocolError(
                FRAME_TOO_LARGE,
                f"handshake frame of {length} bytes is over the limit of {self.max_message}",
            )
        return length

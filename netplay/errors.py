"""The errors netplay raises and the error codes it puts on the wire.

Every code a peer can receive is a constant here, so the docs, the server, the
client and the tests agree on one spelling. A code is for programs; the
``message`` that travels with it is for people and says what to do.
"""

from __future__ import annotations

# Framing and message shape (the peer's bytes are wrong).
FRAME_TOO_LARGE = "frame_too_large"
BAD_ENCODING = "bad_encoding"
BAD_MESSAGE = "bad_message"
UNEXPECTED_MESSAGE = "unexpected_message"

# The secure transport (Noise XX, identities, the room password; docs/security.md).
HANDSHAKE_FAILED = "handshake_failed"
DECRYPT_FAILED = "decrypt_failed"
NONCE_EXHAUSTED = "nonce_exhausted"
HOST_KEY_CHANGED = "host_key_changed"
IDENTITY_UNREADABLE = "identity_unreadable"  # a local file; never sent
BAD_PASSWORD = "bad_password"
PASSWORD_REQUIRED = "password_required"
PASSWORD_NOT_USED = "password_not_used"
TOO_MANY_GUESSES = "too_many_guesses"

# Handshake.
WRONG_PROTOCOL = "wrong_protocol"
INCOMPATIBLE_VERSION = "incompatible_version"
UNKNOWN_SESSION = "unknown_session"
SERVER_FULL = "server_full"
HANDSHAKE_TIMEOUT = "handshake_timeout"
REFUSED = "refused"

# An open connection.
RATE_LIMITED = "rate_limited"
IDLE_TIMEOUT = "idle_timeout"
REPLACED = "replaced"
INTERNAL_ERROR = "internal_error"

# Never sent (the peer is not reading); recorded as the reason of a disconnect.
SEND_QUEUE_FULL = "send_queue_full"

# Fatal errors after which a client should try again rather than give up: the
# server dropped the link for a reason that says nothing against the client.
RECONNECTABLE = frozenset({IDLE_TIMEOUT, SERVER_FULL})


class NetplayError(Exception):
    """An error with a machine ``code`` and a ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class ProtocolError(NetplayError):
    """The peer broke the protocol; the connection cannot go on."""


class Refused(NetplayError):
    """Raised by an app callback to turn a peer away; sent as a fatal error."""

    def __init__(
        self, code: str = REFUSED, message: str = "the host refused to let you in"
    ) -> None:
        super().__init__(code, message)


class ServerError(NetplayError):
    """The server ended our connection with a fatal error (client side)."""

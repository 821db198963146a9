"""netplay: a small, game-agnostic LAN play library.

It owns msgpack framing, the encrypted and authenticated transport (Noise XX with
static identities, pinning on first use and an optional room password), the
handshake, sessions and seats, reconnects, and the commit-reveal primitives of a
fair shuffle. It knows nothing about any particular game and never imports
``wizard_tui``.
"""

from .client import Client, LinkState
from .errors import NetplayError, ProtocolError, Refused, ServerError
from .framing import FrameDecoder, decode_payload, encode, encode_payload
from .identity import (
    HostKeyChanged,
    IdentityError,
    KnownHosts,
    StaticIdentity,
    fingerprint,
    host_label,
    load_or_create_identity,
    normalize_fingerprint,
    roster_sas,
)
from .limits import Limits
from .pake import GuessLimiter, PakeError, generate_room_code
from .secure import (
    MAX_PAYLOAD,
    HandshakeReader,
    SecureInitiator,
    SecureResponder,
    make_prologue,
)
from .server import App, Server
from .sessions import Session

__all__ = [
    "MAX_PAYLOAD",
    "App",
    "Client",
    "FrameDecoder",
    "GuessLimiter",
    "HandshakeReader",
    "HostKeyChanged",
    "IdentityError",
    "KnownHosts",
    "Limits",
    "LinkState",
    "NetplayError",
    "PakeError",
    "ProtocolError",
    "Refused",
    "SecureInitiator",
    "SecureResponder",
    "Server",
    "ServerError",
    "Session",
    "StaticIdentity",
    "decode_payload",
    "encode",
    "encode_payload",
    "fingerprint",
    "generate_room_code",
    "host_label",
    "load_or_create_identity",
    "make_prologue",
    "normalize_fingerprint",
    "roster_sas",
]

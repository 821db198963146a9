"""netplay: a small, game-agnostic LAN play library.

It owns msgpack framing, the handshake, sessions and seats, reconnects, and the
commit-reveal primitives of a fair shuffle. It knows nothing about any particular
game and never imports ``wizard_tui``.
"""

from .client import Client, LinkState
from .errors import NetplayError, ProtocolError, Refused, ServerError
from .framing import FrameDecoder, decode_payload, encode, encode_payload
from .limits import Limits
from .server import App, Server
from .sessions import Session

__all__ = [
    "App",
    "Client",
    "FrameDecoder",
    "Limits",
    "LinkState",
    "NetplayError",
    "ProtocolError",
    "Refused",
    "Server",
    "ServerError",
    "Session",
    "decode_payload",
    "encode",
    "encode_payload",
]

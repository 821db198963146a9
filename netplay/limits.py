"""Every size, rate and time limit of netplay, in one frozen dataclass.

The defaults suit a turn-based card game on a LAN: messages are small and a
few a second, so anything far beyond that is a bug or an attack and is cut
off early rather than buffered. Tests pass their own ``Limits`` with short
times.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    # -- framing (both sides) -----------------------------------------------------------
    max_frame: int = 64 * 1024
    """Largest frame payload in bytes; a larger declared length is refused unread."""
    handshake_frame: int = 512
    """Largest frame a server accepts before it has sent the welcome: each Noise handshake
    message, and the encrypted hello."""
    max_str: int = 4096
    """Longest msgpack string, in bytes."""
    max_bin: int = 4096
    """Longest msgpack bin, in bytes."""
    max_array: int = 128
    """Most items in one msgpack array (a 60-card deck fits twice)."""
    max_map: int = 64
    """Most entries in one msgpack map."""
    max_name: int = 32
    """Longest player name in a hello, in characters."""

    # -- connections (server) -----------------------------------------------------------
    max_connections: int = 16
    """Connections past the Noise handshake at once; one more gets ``server_full`` (encrypted)."""
    max_handshaking: int = 8
    """Connections still shaking hands (no welcome yet) at once; one more is closed unread."""
    max_handshaking_per_address: int = 3
    """Of those, from one source address: one machine cannot hold every slot (a slowloris
    keeps its connections open and never finishes the handshake)."""
    send_queue: int = 256
    """Frames waiting for one peer; a peer that lets more pile up is not reading and is dropped."""
    rate: float = 20.0
    """Messages per second one client may send, sustained."""
    burst: int = 60
    """Messages one client may send at once before ``rate`` applies."""

    # -- time, in seconds ---------------------------------------------------------------
    handshake_timeout: float = 5.0
    """From connect to hello (server) or to welcome (client)."""
    ping_interval: float = 5.0
    """How often the server pings each client."""
    idle_timeout: float = 15.0
    """Silence after which either side counts the other as gone."""
    probe_timeout: float = 2.0
    """Server: how long a connection still open for a static key gets to answer a ping when
    a newcomer proves the same key without a token; silent, it is taken for half-open (a
    sleeping laptop, a killed process) and the newcomer takes its session over."""
    linger: float = 1.0
    """How long a closing side waits to flush its last frames and see the peer hang up."""
    reconnect_delay: float = 0.25
    """Client: first wait before reconnecting; doubled after each failure."""
    reconnect_max_delay: float = 4.0
    """Client: longest wait between two reconnect attempts."""
    reconnect_give_up: float = 120.0
    """Client: stop reconnecting after this long without a connection."""

    def __post_init__(self) -> None:
        if not 0 < self.handshake_frame <= self.max_frame:
            raise ValueError("handshake_frame must be positive and at most max_frame")
        if self.max_frame >= 1 << 32:
            raise ValueError("max_frame must fit the 4-byte length prefix")
        if self.max_connections < 1 or self.max_handshaking < 1:
            raise ValueError("max_connections and max_handshaking must be at least 1")
        if self.max_handshaking_per_address < 1:
            raise ValueError("max_handshaking_per_address must be at least 1")
        if self.probe_timeout <= 0:
            raise ValueError("probe_timeout must be positive")
        if self.rate <= 0 or self.burst < 1:
            raise ValueError("rate must be positive and burst at least 1")
        if self.ping_interval >= self.idle_timeout:
            raise ValueError("ping_interval must be shorter than idle_timeout")


DEFAULT_LIMITS = Limits()

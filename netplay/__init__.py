"""netplay: a small, game-agnostic LAN play library.

It owns msgpack framing, the handshake, sessions and seats, reconnects, and the
commit-reveal primitives of a fair shuffle. It knows nothing about any particular
game and never imports ``wizard_tui``.
"""

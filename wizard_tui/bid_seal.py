"""A sealed bid (docs/rules.md, "Hidden bids"; the bytes: docs/protocol.md, "Hidden bids").

Under hidden bids every program commits to its seat's bid before anyone's is seen, and opens
it once every seal is in. A seal is a hash commitment: binding (no other bid or nonce opens
it: SHA-256's collision resistance) and hiding (the 32-byte random nonce keeps the few
possible bids from being tried one by one against it). It names the game, the round, the
deal's attempt (a privately dealt round dealt again is bid again) and the seat, so a seal
cannot be moved to another bid of the game.

    seal = SHA-256(tag || game_id (16) || u16be(round) || u16be(attempt) || u8(seat)
                   || u8(bid) || nonce (32))

The record keeps each round's seals and nonces (``bid_seals``), and ``verify`` checks that
every recorded bid opens its seal.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

BID_SEAL_TAG = b"wizard-tui/bid-seal/v1\x00"
NONCE_BYTES = 32
SEAL_BYTES = 32
GAME_ID_BYTES = 16


def new_nonce() -> bytes:
    """A fresh nonce from the operating system's generator."""
    return secrets.token_bytes(NONCE_BYTES)


def bid_seal(
    game_id: bytes, round_number: int, attempt: int, seat: int, bid: int, nonce: bytes
) -> bytes:
    """The seal of ``bid``; ``ValueError`` for a field that does not fit its bytes."""
    if type(game_id) is not bytes or len(game_id) != GAME_ID_BYTES:
        raise ValueError(f"a game id is {GAME_ID_BYTES} bytes")
    for name, value, most in (
        ("round", round_number, 0xFFFF),
        ("attempt", attempt, 0xFFFF),
        ("seat", seat, 0xFF),
        ("bid", bid, 0xFF),
    ):
        if type(value) is not int or not 0 <= value <= most:
            raise ValueError(f"{name} {value!r} does not fit the seal")
    if type(nonce) is not bytes or len(nonce) != NONCE_BYTES:
        raise ValueError(f"a nonce is {NONCE_BYTES} bytes")
    data = (
        BID_SEAL_TAG
        + game_id
        + round_number.to_bytes(2, "big")
        + attempt.to_bytes(2, "big")
        + bytes([seat, bid])
        + nonce
    )
    return hashlib.sha256(data).digest()


def opens_bid(
    seal: bytes,
    game_id: bytes,
    round_number: int,
    attempt: int,
    seat: int,
    bid: object,
    nonce: object,
) -> bool:
    """True when ``bid`` and ``nonce`` are what ``seal`` was made of, for that seat."""
    if type(bid) is not int or type(nonce) is not bytes or type(seal) is not bytes:
        return False
    try:
        expected = bid_seal(game_id, round_number, attempt, seat, bid, nonce)
    except ValueError:
        return False
    return hmac.compare_digest(expected, seal)


__all__ = ["BID_SEAL_TAG", "NONCE_BYTES", "SEAL_BYTES", "bid_seal", "new_nonce", "opens_bid"]

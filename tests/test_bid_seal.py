"""The seal of a hidden bid (wizard_tui/bid_seal.py, docs/protocol.md "Hidden bids"): it
binds the bid to its game, round, attempt and seat, hides it, and refuses bad openings."""

from __future__ import annotations

import hashlib

import pytest

from wizard_tui.bid_seal import BID_SEAL_TAG, bid_seal, new_nonce, opens_bid

GAME = bytes(range(16))
NONCE = bytes(range(32, 64))
SEAL = bid_seal(GAME, 3, 1, 2, 2, NONCE)


def test_the_seal_is_the_documented_hash() -> None:
    data = BID_SEAL_TAG + GAME + (3).to_bytes(2, "big") + (1).to_bytes(2, "big") + bytes([2, 2])
    assert hashlib.sha256(data + NONCE).digest() == SEAL
    assert opens_bid(SEAL, GAME, 3, 1, 2, 2, NONCE)


# Binding: every field changed, one at a time, no longer opens the seal.
@pytest.mark.parametrize(
    ("game", "r", "attempt", "seat", "bid", "nonce"),
    [
        (GAME, 3, 1, 2, 1, NONCE),  # another bid
        (GAME, 3, 1, 2, 3, NONCE),
        (GAME, 3, 1, 2, 2, NONCE[:-1] + b"\x00"),  # another nonce
        (GAME, 3, 1, 1, 2, NONCE),  # another seat's
        (GAME, 4, 1, 2, 2, NONCE),  # another round's
        (GAME, 3, 0, 2, 2, NONCE),  # another attempt's
        (bytes(16), 3, 1, 2, 2, NONCE),  # another game's
    ],
)
def test_a_seal_opens_with_its_own_fields_only(
    game: bytes, r: int, attempt: int, seat: int, bid: int, nonce: bytes
) -> None:
    assert not opens_bid(SEAL, game, r, attempt, seat, bid, nonce)
    assert bid_seal(game, r, attempt, seat, bid, nonce) != SEAL


def test_the_seal_hides_the_bid() -> None:
    """With fresh nonces one bid seals differently every time, and without its nonce no
    bid of the round opens a seal (the few possible bids cannot be tried against it)."""
    seals = {bid_seal(GAME, 5, 0, 0, 2, new_nonce()) for _ in range(50)}
    assert len(seals) == 50
    nonce = new_nonce()
    seal = bid_seal(GAME, 5, 0, 0, 2, nonce)
    guesses = [bytes(32), b"\xff" * 32, GAME * 2, seal]
    assert not any(opens_bid(seal, GAME, 5, 0, 0, b, g) for b in range(6) for g in guesses)
    assert opens_bid(seal, GAME, 5, 0, 0, 2, nonce)


@pytest.mark.parametrize(
    ("bid", "nonce"),
    [(True, NONCE), (2.0, NONCE), ("2", NONCE), (None, NONCE), (-1, NONCE), (256, NONCE),
     (2, NONCE[:31]), (2, NONCE.hex()), (2, None), (2, bytearray(NONCE))],
)  # fmt: skip
def test_a_bad_opening_never_opens_nor_raises(bid: object, nonce: object) -> None:
    assert not opens_bid(SEAL, GAME, 3, 1, 2, bid, nonce)


def test_fields_that_do_not_fit_are_refused() -> None:
    for args in [
        (GAME[:15], 1, 0, 0, 0, NONCE),
        (GAME, 0x10000, 0, 0, 0, NONCE),
        (GAME, 1, -1, 0, 0, NONCE),
        (GAME, 1, 0, 256, 0, NONCE),
        (GAME, 1, 0, 0, 0, NONCE + b"x"),
    ]:
        with pytest.raises(ValueError):
            bid_seal(*args)  # type: ignore[arg-type]
    assert not opens_bid("not bytes", GAME, 3, 1, 2, 2, NONCE)  # type: ignore[arg-type]

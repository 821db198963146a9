"""Commit-reveal primitives: commitments, the combined seed and a verifiable shuffle.

These are the generic parts of the fair deal (``docs/fairness.md``): they shuffle
any number of items and know nothing of cards. Every byte layout here is
normative; third-party verifiers reproduce it from the spec.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

SEED_BYTES = 32
GAME_ID_BYTES = 16
COMMIT_TAG = b"wizard-tui/v1/commit"
DECK_TAG = b"wizard-tui/v1/deck"

# Enough stream for any shuffle of <= 64 items: rejection never needs more than a
# few extra words in practice, and ``shuffle_order`` extends the stream if it does.
_INITIAL_STREAM_BYTES = 4 * 80


def new_seed() -> bytes:
    """A fresh 32-byte seed from the operating system's secure generator."""
    return secrets.token_bytes(SEED_BYTES)


def new_game_id() -> bytes:
    return secrets.token_bytes(GAME_ID_BYTES)


def _check_context(game_id: bytes, round_number: int) -> None:
    if len(game_id) != GAME_ID_BYTES:
        raise ValueError(f"game id must be {GAME_ID_BYTES} bytes, got {len(game_id)}")
    if not 0 <= round_number <= 0xFFFF:
        raise ValueError(f"round number {round_number} does not fit in 2 bytes")


def commitment(game_id: bytes, round_number: int, seat: int, seed: bytes) -> bytes:
    """SHA-256(tag || game_id || u16be(round) || u8(seat) || seed)."""
    _check_context(game_id, round_number)
    if not 0 <= seat <= 0xFF:
        raise ValueError(f"seat {seat} does not fit in 1 byte")
    if len(seed) != SEED_BYTES:
        raise ValueError(f"seed must be {SEED_BYTES} bytes, got {len(seed)}")
    data = COMMIT_TAG + game_id + round_number.to_bytes(2, "big") + bytes([seat]) + seed
    return hashlib.sha256(data).digest()


def opens(commit: bytes, game_id: bytes, round_number: int, seat: int, seed: bytes) -> bool:
    """True when ``seed`` is the value ``commit`` was made to, for that seat and round."""
    try:
        expected = commitment(game_id, round_number, seat, seed)
    except ValueError:
        return False
    return hmac.compare_digest(expected, commit)


def combined_seed(game_id: bytes, round_number: int, seeds: Sequence[bytes]) -> bytes:
    """SHA-256(tag || game_id || u16be(round) || seed[0] || ... || seed[n-1])."""
    _check_context(game_id, round_number)
    for seat, seed in enumerate(seeds):
        if len(seed) != SEED_BYTES:
            raise ValueError(f"seed of seat {seat} must be {SEED_BYTES} bytes, got {len(seed)}")
    data = DECK_TAG + game_id + round_number.to_bytes(2, "big") + b"".join(seeds)
    return hashlib.sha256(data).digest()


def shuffle_order(seed: bytes, count: int) -> list[int]:
    """Fisher-Yates over ``[0, count)`` driven by SHAKE-256(seed), rejection sampled.

    Bytes of the stream are consumed 4 at a time as unsigned big-endian integers;
    a draw at or above the largest multiple of ``m`` below 2**32 is rejected, so
    no index is favoured.
    """
    if count < 0:
        raise ValueError("count must not be negative")
    items = list(range(count))
    stream_len = _INITIAL_STREAM_BYTES
    stream = hashlib.shake_256(seed).digest(stream_len)
    pos = 0
    for i in range(count - 1, 0, -1):
        m = i + 1
        limit = (1 << 32) - ((1 << 32) % m)
        while True:
            if pos + 4 > stream_len:
                # SHAKE output is a prefix-stable stream: a longer digest extends it.
                stream_len *= 2
                stream = hashlib.shake_256(seed).digest(stream_len)
            x = int.from_bytes(stream[pos : pos + 4], "big")
            pos += 4
            if x < limit:
                break
        j = x % m
        items[i], items[j] = items[j], items[i]
    return items
